/**
 * Atom's go-to-line: `row`, `row:column` or `:column`, both 1-based, where an empty row means
 * the cursor's row and a missing column means the line's first non-blank character.
 */
import { Point } from '@tandem/text'
import type { TextEditor } from './text-editor.js'

/** What Atom's go-to-line field accepts: digits and colons (runs of colons count as one). */
const INPUT = /^[0-9:]+$/

/**
 * Parses `input` as Atom's go-to-line does and moves the cursor there: `"12"` to the first
 * non-blank character of line 12, `"12:5"` to its column 5, `":5"` to column 5 of the
 * cursor's line (both 1-based; a line or column past the end is clipped to it). Unfolds the
 * line, leaves a single cursor and asks views to center it. Returns the new cursor position,
 * or undefined when `input` (without surrounding blanks) is empty or holds anything but digits
 * and colons; the cursor then stays.
 *
 * @example goToLine(editor, '3:8') // => Point(2, 7) when line 3 is that long
 */
export const goToLine = (editor: TextEditor, input: string): Point | undefined => {
  if (typeof input !== 'string') {
    throw new TypeError(`input must be a string, got ${typeof input}`)
  }
  const text = input.trim()
  if (!INPUT.test(text)) return undefined
  const [rowText = '', columnText = ''] = text.split(/:+/)
  const row =
    rowText.length > 0 ? Number.parseInt(rowText, 10) - 1 : editor.getCursorBufferPosition().row
  const column = columnText.length > 0 ? Number.parseInt(columnText, 10) - 1 : -1
  const target = editor.clipBufferPosition(new Point(Math.max(row, 0), Math.max(column, 0)))
  editor.destroyFoldsContainingBufferPositions([target, [target.row, Number.POSITIVE_INFINITY]])
  editor.setCursorBufferPosition(target, { autoscroll: false })
  if (column < 0) editor.getLastCursor().moveToFirstCharacterOfLine()
  const position = editor.getCursorBufferPosition()
  editor.scrollToScreenRange(editor.screenRangeForBufferRange([position, position]), {
    center: true,
  })
  return position
}
