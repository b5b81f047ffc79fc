/**
 * The text of screen rows, built from a region's layout and the buffer: hard tabs become
 * spaces up to the next tab stop, a wrapped row starts with its indentation in spaces, and
 * a fold shows as the fold character.
 */
import { Point, Range } from '@tandem/text'
import { isSoftWrap, type LineSource, type RegionLayout } from './region.js'

/** One row as displayed. */
export interface ScreenLine {
  /** The row's text, tabs and wrap indentation as spaces. */
  readonly lineText: string
  /** The buffer text the row shows, from its first to its last buffer position. */
  readonly bufferRange: Range
}

/**
 * Every screen row of a region that starts at buffer row `bufferRow`.
 *
 * @example screenLinesOfRegion(layout, lines, 0, 4, '⋯')[0].lineText // => 'a   b' for 'a\tb'
 */
export function screenLinesOfRegion(
  layout: RegionLayout,
  lines: LineSource,
  bufferRow: number,
  tabLength: number,
  foldCharacter: string,
): ScreenLine[] {
  const result: ScreenLine[] = []
  const hunks = layout.hunks
  let hunkIndex = 0
  let row = 0
  let column = 0
  let line = lines.lineForRow(bufferRow)
  let text = ''
  let rowStart = new Point(bufferRow, 0)
  for (;;) {
    let hunk = hunks[hunkIndex]
    while (hunk !== undefined && hunk.oldStart.row === row && hunk.oldStart.column === column) {
      if (isSoftWrap(hunk)) {
        const at = new Point(bufferRow + row, column)
        result.push({ lineText: text, bufferRange: new Range(rowStart, at) })
        text = ' '.repeat(hunk.newEnd.column)
        rowStart = at
      } else {
        text += foldCharacter
        row = hunk.oldEnd.row
        column = hunk.oldEnd.column
        line = lines.lineForRow(bufferRow + row)
      }
      hunk = hunks[++hunkIndex]
    }
    if (column >= line.length) break
    const character = line[column]!
    text += character === '\t' ? ' '.repeat(tabLength - (text.length % tabLength)) : character
    column++
  }
  result.push({
    lineText: text,
    bufferRange: new Range(rowStart, new Point(bufferRow + row, line.length)),
  })
  return result
}
