/// <reference lib="dom" />
/**
 * Keyboard and text input through a hidden textarea that follows the last cursor (so an
 * input method's candidate window opens at the caret): keydowns go through the keymap to
 * commands, typed text and finished compositions are inserted, and a composition in progress
 * is shown at the caret without touching the document, so peers never see half-composed
 * text.
 */
import type { TextEditor } from '@tandem/editor'
import { keystrokeForEvent } from './keymap.js'

/** What the input needs from its view. */
export interface InputHost {
  readonly editor: TextEditor
  /** The command bound to a keystroke, if any. */
  commandForKeystroke(keystroke: string): string | undefined
  /** Runs a command; false when it did not handle the key. */
  runCommand(name: string): boolean
  /** Shows `text` as the composition in progress at the caret; null hides it. */
  showComposition(text: string | null): void
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
  private readonly listeners: [string, (event: Event) => void][]

  constructor(
    private readonly host: InputHost,
    parent: HTMLElement,
  ) {
    const textarea = parent.ownerDocument.createElement('textarea')
    textarea.className = 'tandem-input'
    textarea.setAttribute('autocapitalize', 'off')
    textarea.setAttribute('autocomplete', 'off')
    textarea.setAttribute('spellcheck', 'false')
    textarea.setAttribute('aria-label', 'Editor')
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
      ['blur', () => host.setFocused(false)],
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

  /** Removes the textarea and its listeners. */
  dispose(): void {
    for (const [type, listener] of this.listeners) this.textarea.removeEventListener(type, listener)
    this.textarea.remove()
  }

  private keydown(event: KeyboardEvent): void {
    if (event.isComposing || this.composing || event.keyCode === 229) return
    const keystroke = keystrokeForEvent(event)
    if (keystroke === null) return
    const command = this.host.commandForKeystroke(keystroke)
    if (command === undefined) return
    if (CLIPBOARD_COMMANDS.has(command)) {
      // Leave the key to the browser, which fires copy, cut or paste on the textarea; copy
      // and cut only fire with something selected in it.
      if (command !== 'core:paste') {
        this.textarea.value = CLIPBOARD_PLACEHOLDER
        this.textarea.select()
      }
      return
    }
    if (this.host.runCommand(command)) event.preventDefault()
  }

  private input(event: InputEvent): void {
    if (this.composing || event.isComposing) return
    const text = this.textarea.value.replaceAll(CLIPBOARD_PLACEHOLDER, '')
    this.textarea.value = ''
    if (text !== '') this.host.editor.insertText(text, { groupUndo: true })
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
    this.textarea.value = ''
    if (event.data !== '') this.host.editor.insertText(event.data, { groupUndo: true })
  }
}
