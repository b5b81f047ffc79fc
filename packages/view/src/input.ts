/// <reference lib="dom" />
/**
 * Keyboard and text input through a hidden textarea that follows the last cursor (so an
 * input method's candidate window opens at the caret): keydowns go through the keymap to
 * commands, typed text and finished compositions are inserted, and a composition in progress
 * is shown at the caret without touching the document, so peers never see half-composed
 * text. The textarea is what assistive technology sees: a multi-line textbox, labelled, that
 * holds the current line with the editor's selection in it (see input-mirror.ts).
 */
import type { TextEditor } from '@tandem/editor'
import { bufferPositionInMirror, type InputMirror, mirrorOf, textInputOf } from './input-mirror.js'
import { keystrokeForEvent } from './keymap.js'

/** What the input needs from its view. */
export interface InputHost {
  readonly editor: TextEditor
  /**
   * What a keystroke comes to: a command to run, `wait` when it began a chord or ended one
   * without a command (the key goes no further), or undefined when nothing is bound.
   */
  resolveKeystroke(keystroke: string): string | 'wait' | undefined
  /** Called when the input loses the focus: a pending chord is dropped. */
  didBlur(): void
  /** Runs a command; false when it did not handle the key. */
  runCommand(name: string): boolean
  /** Shows `text` as the composition in progress at the caret; null hides it. */
  showComposition(text: string | null): void
  /**
   * Called after the input changed the editor: the view draws the change (and puts the
   * textarea's line and selection in step with the editor).
   */
  didChangeEditor(): void
  /** Called when the input gains or loses focus. */
  setFocused(focused: boolean): void
}

/** Commands the browser's clipboard events carry out (see clipboard.ts). */
const CLIPBOARD_COMMANDS = new Set(['core:copy', 'core:cut', 'core:paste'])

/** Put in the textarea, selected, before a copy or cut key, so the browser fires the event. */
const CLIPBOARD_PLACEHOLDER = '\u200B'

/**
 * The hidden textarea and its listeners.
 *
 * @example const input = new TextInput(host, linesElement); input.focus()
 */
export class TextInput {
  /** The textarea that holds the keyboard focus. */
  readonly textarea: HTMLTextAreaElement
  private composing = false
  private escaped = false
  /** What the textarea was last given; null while it holds something else (the clipboard's). */
  private mirrored: InputMirror | null = null
  private readonly listeners: [string, (event: Event) => void][]

  constructor(
    private readonly host: InputHost,
    parent: HTMLElement,
    label = 'Editor',
  ) {
    const textarea = parent.ownerDocument.createElement('textarea')
    textarea.className = 'tandem-input'
    textarea.setAttribute('autocapitalize', 'off')
    textarea.setAttribute('autocomplete', 'off')
    textarea.setAttribute('spellcheck', 'false')
    textarea.setAttribute('role', 'textbox')
    textarea.setAttribute('aria-label', label)
    textarea.setAttribute('aria-multiline', 'true')
    textarea.tabIndex = 0
    parent.appendChild(textarea)
    this.textarea = textarea
    this.listeners = [
      ['keydown', (event) => this.keydown(event as KeyboardEvent)],
      ['input', (event) => this.input(event as InputEvent)],
      ['compositionstart', () => this.compositionStart()],
      ['compositionupdate', (event) => this.compositionUpdate(event as CompositionEvent)],
      ['compositionend', (event) => this.compositionEnd(event as CompositionEvent)],
      ['focus', () => host.setFocused(true)],
      [
        'blur',
        () => {
          host.setFocused(false)
          host.didBlur()
        },
      ],
      ['copy', () => queueMicrotask(() => this.sync())],
    ]
    for (const [type, listener] of this.listeners) textarea.addEventListener(type, listener)
  }

  /** Whether an input method composition is in progress. */
  isComposing(): boolean {
    return this.composing
  }

  /** Gives the editor the keyboard focus. */
  focus(): void {
    this.textarea.focus({ preventScroll: true })
  }

  /** Whether the editor has the keyboard focus. */
  hasFocus(): boolean {
    return this.textarea.ownerDocument.activeElement === this.textarea
  }

  /**
   * Puts the editor's current line and selection in the textarea (not during a composition,
   * whose text the input method owns until it ends).
   */
  sync(): void {
    if (this.composing) return
    const mirror = mirrorOf(this.host.editor)
    const { textarea } = this
    if (textarea.value !== mirror.value) textarea.value = mirror.value
    const direction = mirror.backward ? 'backward' : 'forward'
    if (
      textarea.selectionStart !== mirror.selectionStart ||
      textarea.selectionEnd !== mirror.selectionEnd ||
      textarea.selectionDirection !== direction
    ) {
      textarea.setSelectionRange(mirror.selectionStart, mirror.selectionEnd, direction)
    }
    this.mirrored = mirror
  }

  /** Removes the textarea and its listeners. */
  dispose(): void {
    for (const [type, listener] of this.listeners) this.textarea.removeEventListener(type, listener)
    this.textarea.remove()
  }

  private keydown(event: KeyboardEvent): void {
    if (event.isComposing || this.composing || event.keyCode === 229) return
    const keystroke = keystrokeForEvent(event)
    if (keystroke === null) return
    // Escape, then Tab or Shift-Tab, leaves the editor (Tab alone indents), so the keyboard
    // never gets stuck in it.
    const escaped = this.escaped
    this.escaped = keystroke === 'escape'
    if (escaped && (keystroke === 'tab' || keystroke === 'shift-tab')) return
    const command = this.host.resolveKeystroke(keystroke)
    if (command === undefined) return
    if (command === 'wait') {
      event.preventDefault()
      return
    }
    if (CLIPBOARD_COMMANDS.has(command)) {
      // Leave the key to the browser, which fires copy, cut or paste on the textarea; copy
      // and cut only fire with something selected in it.
      if (command !== 'core:paste') {
        this.mirrored = null
        this.textarea.value = CLIPBOARD_PLACEHOLDER
        this.textarea.select()
      }
      return
    }
    if (this.host.runCommand(command)) {
      event.preventDefault()
      this.host.didChangeEditor()
    }
  }

  private input(event: InputEvent): void {
    if (this.composing || event.isComposing) return
    const { editor } = this.host
    const mirror = this.mirrored
    const value = this.textarea.value
    if (mirror === null || value.includes(CLIPBOARD_PLACEHOLDER)) {
      const text = value.replaceAll(CLIPBOARD_PLACEHOLDER, '')
      if (text !== '') editor.insertText(text, { groupUndo: true })
    } else {
      const { from, to, text } = textInputOf(mirror, value)
      if (from !== mirror.selectionStart || to !== mirror.selectionEnd) {
        // Not typed at the selection (a spelling fix, a key the keymap leaves to the browser).
        editor.setSelectedBufferRange([
          bufferPositionInMirror(mirror, from),
          bufferPositionInMirror(mirror, to),
        ])
      }
      if (text !== '') editor.insertText(text, { groupUndo: true })
      else if (from !== to) editor.delete()
    }
    this.host.didChangeEditor()
  }

  private compositionStart(): void {
    this.composing = true
    this.host.showComposition('')
  }

  private compositionUpdate(event: CompositionEvent): void {
    this.host.showComposition(event.data)
  }

  private compositionEnd(event: CompositionEvent): void {
    this.composing = false
    this.host.showComposition(null)
    if (event.data !== '') this.host.editor.insertText(event.data, { groupUndo: true })
    this.host.didChangeEditor()
  }
}
