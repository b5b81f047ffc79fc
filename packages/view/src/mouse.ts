/// <reference lib="dom" />
/**
 * The mouse, as in Atom: a click places the cursor, shift-click extends the selection,
 * ctrl- or alt-click adds a cursor, a double click selects a word and a triple click a line,
 * and dragging extends the selection by characters, words or lines accordingly. A click on a
 * fold's placeholder unfolds it.
 */
import type { TextEditor } from '@tandem/editor'
import { Point, Range } from '@tandem/text'
import { FOLD_MARKER_CLASS } from './class-names.js'

/** What the mouse handling needs from its view. */
export interface MouseHost {
  readonly editor: TextEditor
  /** The screen position under a point of the window (clipped to the text). */
  screenPositionForClientPoint(x: number, y: number): Point
  /** Gives the editor the keyboard focus. */
  focus(): void
}

/**
 * Listens to mouse presses on `target` (the text area) and drags until the button is up.
 *
 * @example const mouse = new MouseInput(host, linesElement); mouse.dispose()
 */
export class MouseInput {
  private dragEnd: (() => void) | null = null
  private readonly onMouseDown = (event: MouseEvent) => this.mouseDown(event)

  constructor(
    private readonly host: MouseHost,
    readonly target: HTMLElement,
  ) {
    target.addEventListener('mousedown', this.onMouseDown)
  }

  /** Stops listening (and ends a drag in progress). */
  dispose(): void {
    this.target.removeEventListener('mousedown', this.onMouseDown)
    this.dragEnd?.()
  }

  private mouseDown(event: MouseEvent): void {
    if (event.button !== 0) return
    // Keep the focus in the hidden input and the browser's own selection out of the way.
    event.preventDefault()
    this.host.focus()
    const { editor } = this.host
    const position = this.host.screenPositionForClientPoint(event.clientX, event.clientY)
    const target = event.target as Element | null
    if (target?.classList?.contains(FOLD_MARKER_CLASS) && event.detail === 1) {
      const at = editor.bufferPositionForScreenPosition(position, { clipDirection: 'backward' })
      editor.destroyFoldsIntersectingBufferRange(new Range(at, at))
      return
    }
    const addCursor = event.ctrlKey || event.altKey || event.metaKey
    if (event.detail >= 3) {
      editor.getLastSelection().selectLine(null, { autoscroll: false })
    } else if (event.detail === 2) {
      editor.getLastSelection().selectWord({ autoscroll: false })
    } else if (addCursor) {
      editor.addCursorAtScreenPosition(position, { autoscroll: false })
    } else if (event.shiftKey) {
      editor.selectToScreenPosition(position)
    } else {
      editor.setCursorScreenPosition(position, { autoscroll: false })
    }
    this.startDrag()
  }

  private startDrag(): void {
    this.dragEnd?.()
    const window = this.target.ownerDocument.defaultView
    if (window === null) return
    const { editor } = this.host
    const move = (event: MouseEvent) => {
      if ((event.buttons & 1) === 0) return end()
      const position = this.host.screenPositionForClientPoint(event.clientX, event.clientY)
      // After a double or triple click the selection extends by words or lines itself.
      editor.getLastSelection().selectToScreenPosition(position)
    }
    const end = () => {
      window.removeEventListener('mousemove', move)
      window.removeEventListener('mouseup', end)
      this.dragEnd = null
      editor.mergeIntersectingSelections()
      for (const selection of editor.getSelections()) selection.finalize()
    }
    window.addEventListener('mousemove', move)
    window.addEventListener('mouseup', end)
    this.dragEnd = end
  }
}

/**
 * The screen position at pixel (`left`, `top`) of the text area: rows of `lineHeight`, and
 * on the row the grapheme boundary nearest to `left` as `columnAt` measures it; above the
 * text is (0, 0), below it the end of the last row.
 *
 * @example screenPositionForPixel(editor, 17, 30, 20, (row, left) => geometry.columnAt(left))
 */
export const screenPositionForPixel = (
  editor: TextEditor,
  left: number,
  top: number,
  lineHeight: number,
  columnAt: (row: number, left: number) => number,
): Point => {
  const lastRow = editor.getLastScreenRow()
  if (top < 0) return Point.ZERO
  const row = Math.floor(top / lineHeight)
  if (row > lastRow) return new Point(lastRow, editor.lineLengthForScreenRow(lastRow))
  const column = columnAt(row, Math.max(0, left))
  return editor.clipScreenPosition(new Point(row, column), { clipDirection: 'closest' })
}
