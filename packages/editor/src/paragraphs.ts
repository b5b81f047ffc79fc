import type { TextBuffer } from '@tandem/buffer'
import { Point, Range } from '@tandem/text'

/** A blank line between two line endings: what separates paragraphs. */
const EMPTY_LINE = /(\r\n[\t ]*\r\n)|(\n[\t ]*\n)/g

const NON_WHITESPACE = /\S/

const ONE_ROW_DOWN = new Point(1, 0)

/**
 * The start of the next paragraph after `position`: the row after the next blank line, or
 * the last character of the buffer when there is none (Atom's behaviour, clipped by callers).
 */
export const beginningOfNextParagraph = (buffer: TextBuffer, position: Point): Point => {
  const end = buffer.getEndPosition()
  let found = new Point(end.row, end.column - 1)
  buffer.scanInRange(EMPTY_LINE, new Range(position, end), ({ range, stop }) => {
    found = range.start.traverse(ONE_ROW_DOWN)
    if (!found.isEqual(position)) stop()
  })
  return found
}

/** The start of the paragraph before `position`: the row after the previous blank line, or (0, 0). */
export const beginningOfPreviousParagraph = (buffer: TextBuffer, position: Point): Point => {
  const scanRange = new Range(Point.ZERO, new Point(position.row - 1, position.column))
  let found = Point.ZERO
  buffer.backwardsScanInRange(EMPTY_LINE, buffer.clipRange(scanRange), ({ range, stop }) => {
    found = range.start.traverse(ONE_ROW_DOWN)
    if (!found.isEqual(position)) stop()
  })
  return found
}

/**
 * The paragraph around `row`: the run of non-blank rows containing it whose rows all get the
 * same answer from `isRowCommented` (compared strictly, as Atom does). Undefined when `row`
 * is blank.
 */
export const paragraphRangeAtRow = (
  buffer: TextBuffer,
  row: number,
  isRowCommented: (row: number) => boolean | undefined,
): Range | undefined => {
  const isText = (r: number) => NON_WHITESPACE.test(buffer.lineForRow(r) ?? '')
  if (!isText(row)) return undefined
  const commented = isRowCommented(row)
  let startRow = row
  while (startRow > 0 && isText(startRow - 1) && isRowCommented(startRow - 1) === commented) {
    startRow--
  }
  let endRow = row
  const rowCount = buffer.getLineCount()
  while (endRow + 1 < rowCount && isText(endRow + 1) && isRowCommented(endRow + 1) === commented) {
    endRow++
  }
  return new Range(new Point(startRow, 0), new Point(endRow, buffer.lineLengthForRow(endRow) ?? 0))
}
