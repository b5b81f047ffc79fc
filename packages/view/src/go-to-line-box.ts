/// <reference lib="dom" />
/**
 * The go-to-line box: Atom's go-to-line panel over the editor's top edge. Its field takes a
 * row, or `row:column` (both counted from 1, as line numbers are shown); enter moves the
 * cursor there (the editor package's `goToLine`, as Atom's go-to-line reads it) and closes the
 * box; escape or leaving the field closes it without moving.
 */
import { goToLine, type TextEditor } from '@tandem/editor'
import { keystrokeForEvent } from './keymap.js'

/** What the box needs from its view. */
export interface GoToLineHost {
  readonly editor: TextEditor
  /** Gives the editor the keyboard focus. */
  focusEditor(): void
}

/**
 * The go-to-line box of one view; made hidden, toggled by `toggle()`.
 *
 * @example const box = new GoToLineBox({ editor, focusEditor: () => view.focus() }, view.element); box.toggle()
 */
export class GoToLineBox {
  /** The box's element (a labelled dialog). */
  readonly element: HTMLElement
  /** The field for `row` or `row:column`. */
  readonly input: HTMLInputElement
  private readonly hint: HTMLElement
  private destroyed = false

  constructor(
    private readonly host: GoToLineHost,
    parent: HTMLElement,
  ) {
    const document = parent.ownerDocument
    this.element = document.createElement('div')
    this.element.className = 'tandem-panel tandem-go-to-line'
    this.element.setAttribute('role', 'dialog')
    this.element.setAttribute('aria-label', 'Go to line')
    this.element.hidden = true
    this.input = document.createElement('input')
    this.input.type = 'text'
    this.input.setAttribute('aria-label', 'Line, or line:column')
    this.input.placeholder = 'Line or line:column'
    this.input.spellcheck = false
    this.input.autocomplete = 'off'
    this.hint = document.createElement('div')
    this.hint.className = 'tandem-go-to-line-hint'
    this.hint.id = `tandem-go-to-line-hint-${Math.random().toString(36).slice(2)}`
    this.input.setAttribute('aria-describedby', this.hint.id)
    const row = document.createElement('div')
    row.className = 'tandem-panel-row'
    row.append(this.input)
    this.element.append(row, this.hint)
    parent.append(this.element)
    this.input.addEventListener('keydown', (event) => this.keydown(event))
    this.input.addEventListener('input', () => this.input.removeAttribute('aria-invalid'))
    this.input.addEventListener('blur', () => this.hide(false))
  }

  /** Whether the box is shown. */
  isVisible(): boolean {
    return !this.element.hidden
  }

  /** Shows the box (empty, saying where the cursor is), or hides it when shown. */
  toggle(): void {
    if (this.isVisible()) this.hide(true)
    else this.show()
  }

  /** Shows the box and focuses its field. */
  show(): void {
    if (this.destroyed) return
    const { editor } = this.host
    const { row, column } = editor.getCursorBufferPosition()
    this.hint.textContent = `Current line ${row + 1} of ${editor.getLineCount()}, column ${column + 1}`
    this.input.value = ''
    this.input.removeAttribute('aria-invalid')
    this.element.hidden = false
    this.input.focus()
  }

  /**
   * Goes to what the field says and closes the box; false (the box stays, the field marked
   * invalid) when it says no line.
   */
  confirm(): boolean {
    const text = this.input.value.trim()
    if (text === '') {
      this.hide(true)
      return true
    }
    const point = goToLine(this.host.editor, text)
    if (point === undefined) {
      this.input.setAttribute('aria-invalid', 'true')
      return false
    }
    this.hide(true)
    return true
  }

  /** Hides the box; with `focusEditor` (escape, enter) the editor gets the focus back. */
  hide(focusEditor: boolean): void {
    if (this.element.hidden) return
    this.element.hidden = true
    if (focusEditor) this.host.focusEditor()
  }

  /** Removes the box. Safe twice. */
  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    this.element.remove()
  }

  private keydown(event: KeyboardEvent): void {
    const keystroke = keystrokeForEvent(event)
    if (keystroke === 'enter') this.confirm()
    else if (keystroke === 'escape' || keystroke === 'ctrl-w') this.hide(true)
    else return
    event.preventDefault()
    event.stopPropagation()
  }
}
