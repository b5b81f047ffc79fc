/**
 * Folding by indentation, as Atom folds text that has no syntax tree (plain text and
 * TextMate-only languages): a row starts a fold when the next non-blank row is indented
 * deeper, and the fold runs from the end of that row to the end of the last row indented
 * deeper before the indentation comes back to the row's level or less. A run of comment rows
 * folds as one block instead, from its first row to its last.
 */

import type { TextBuffer } from '@tandem/buffer'
import { Point, Range } from '@tandem/text'
import { indentLevelForLine } from './language-mode.js'

/** What, besides indentation, decides where folds are (all optional). */
export interface IndentFoldRules {
  /** Whether a row is a comment: runs of comment rows fold together. */
  isRowCommented?(row: number): boolean | undefined
  /**
   * A row back at the fold's own indentation that matches this pattern is folded too (for
   * closing lines such as `end`).
   */
  readonly foldEndPattern?: RegExp
  /**
   * Called with each non-blank row a fold is looked for at. Atom reads such a row's scopes
   * first, and a plain-text mode that models which rows were read needs to hear of it.
   */
  didExamineRow?(row: number): void
}

const NON_WHITESPACE = /\S/

/**
 * The folds of a buffer's text by indentation (see the module comment). Ranges start at the
 * end of their first row and end at the end of their last row (clipped), as Atom's do.
 *
 * @example new IndentFolds(buffer).getFoldableRanges(2) // 'a\n  b\nc' => [[[0, 1], [1, 3]]]
 */
export class IndentFolds {
  /** Folds of `buffer`'s text, following `rules`. */
  constructor(
    private readonly buffer: TextBuffer,
    private readonly rules: IndentFoldRules = {},
  ) {}

  /**
   * The fold that `point` folds into: the fold starting on its row when `point` is at the end
   * of the row, else the nearest fold starting on a row above that reaches its row. Null when
   * there is none (always for a row past the last).
   *
   * @example folds.getFoldableRangeContainingPoint(new Point(1, 0), 2)
   */
  getFoldableRangeContainingPoint(point: Point, tabLength: number): Range | null {
    // Not clipped, as in Atom: a row past the end has no fold, nor any fold reaching it.
    const { row, column } = point
    const lineLength = this.buffer.lineLengthForRow(row)
    if (lineLength !== undefined && column >= lineLength) {
      const endRow = this.endRowForFoldAtRow(row, tabLength)
      if (endRow !== undefined) return this.foldRange(row, endRow)
    }
    for (let startRow = row - 1; startRow >= 0; startRow--) {
      const endRow = this.endRowForFoldAtRow(startRow, tabLength)
      if (endRow !== undefined && endRow >= row) return this.foldRange(startRow, endRow)
    }
    return null
  }

  /**
   * Every fold, in buffer order; folds nest (each row that starts one gives its own).
   *
   * @example folds.getFoldableRanges(2).length
   */
  getFoldableRanges(tabLength: number): Range[] {
    const ranges: Range[] = []
    const lineCount = this.buffer.getLineCount()
    for (let row = 0; row < lineCount; row++) {
      const endRow = this.endRowForFoldAtRow(row, tabLength)
      if (endRow !== undefined) ranges.push(this.foldRange(row, endRow))
    }
    return ranges
  }

  /**
   * The folds starting on rows indented exactly `level` levels, rows inside a fold already
   * taken skipped: the outermost folds at that depth.
   *
   * @example folds.getFoldableRangesAtIndentLevel(1, 2)
   */
  getFoldableRangesAtIndentLevel(level: number, tabLength: number): Range[] {
    const ranges: Range[] = []
    const lineCount = this.buffer.getLineCount()
    let row = 0
    while (row < lineCount) {
      if (indentLevelForLine(this.buffer.lineForRow(row) ?? '', tabLength) === level) {
        const endRow = this.endRowForFoldAtRow(row, tabLength)
        if (endRow !== undefined) {
          ranges.push(this.foldRange(row, endRow))
          row = endRow + 1
          continue
        }
      }
      row++
    }
    return ranges
  }

  /**
   * Whether a fold starts on `row`. Atom decides this counting every tab as one column,
   * whatever the tab length, and so does this.
   *
   * @example folds.isFoldableAtRow(0)
   */
  isFoldableAtRow(row: number): boolean {
    return this.endRowForFoldAtRow(row, 1, true) !== undefined
  }

  /**
   * The last row of the fold starting on `row`, or undefined when none starts there. With
   * `existenceOnly` the search stops at the first row that proves there is one.
   */
  endRowForFoldAtRow(row: number, tabLength: number, existenceOnly = false): number | undefined {
    return this.rules.isRowCommented?.(row) === true
      ? this.endRowForCommentFold(row, existenceOnly)
      : this.endRowForIndentFold(row, tabLength, existenceOnly)
  }

  /** A comment fold starts on the first row of a run of comment rows and ends on its last. */
  private endRowForCommentFold(row: number, existenceOnly: boolean): number | undefined {
    const isRowCommented = this.rules.isRowCommented!
    if (isRowCommented(row - 1) === true) return undefined
    let endRow: number | undefined
    const lineCount = this.buffer.getLineCount()
    for (let next = row + 1; next < lineCount; next++) {
      if (isRowCommented(next) !== true) break
      endRow = next
      if (existenceOnly) break
    }
    return endRow
  }

  private endRowForIndentFold(
    row: number,
    tabLength: number,
    existenceOnly: boolean,
  ): number | undefined {
    const line = this.buffer.lineForRow(row)
    if (line === undefined || !NON_WHITESPACE.test(line)) return undefined
    this.rules.didExamineRow?.(row)
    const startLevel = indentLevelForLine(line, tabLength)
    const { foldEndPattern } = this.rules
    let endRow: number | undefined
    const lineCount = this.buffer.getLineCount()
    for (let next = row + 1; next < lineCount; next++) {
      const nextLine = this.buffer.lineForRow(next) ?? ''
      if (!NON_WHITESPACE.test(nextLine)) continue
      const level = indentLevelForLine(nextLine, tabLength)
      if (level < startLevel) break
      if (level === startLevel) {
        if (foldEndPattern?.test(nextLine)) endRow = next
        break
      }
      endRow = next
      if (existenceOnly) break
    }
    return endRow
  }

  /** From the end of `startRow` to the end of `endRow`. */
  private foldRange(startRow: number, endRow: number): Range {
    return new Range(
      new Point(startRow, this.buffer.lineLengthForRow(startRow) ?? 0),
      new Point(endRow, this.buffer.lineLengthForRow(endRow) ?? 0),
    )
  }
}
