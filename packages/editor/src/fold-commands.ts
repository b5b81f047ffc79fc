import { Point, Range } from '@tandem/text'
import { EditorLineCommands } from './line-commands.js'

/** The end of buffer row `row`, as Atom names it: the column past any line's length. */
const endOfRow = (row: number): Point => new Point(row, Number.POSITIVE_INFINITY)

/**
 * Atom's fold commands: folding and unfolding by what the language finds foldable (indentation
 * in plain text, the syntax tree's fold query in tree-sitter languages), at a row, at the
 * cursor, everywhere, or at one nesting level. Folds change what is on screen, never the
 * text, so they work in read-only editors too.
 */
export class EditorFoldCommands extends EditorLineCommands {
  /**
   * Folds at the last cursor's row: the fold starting on that row, else the nearest fold
   * around it. Returns the new fold's id, or undefined when there is nothing to fold.
   *
   * @example editor.setCursorBufferPosition([0, 0]); editor.foldCurrentRow()
   */
  foldCurrentRow(): number | undefined {
    const { row } = this.getCursorBufferPosition()
    const range = this.getLanguageMode().getFoldableRangeContainingPoint?.(
      endOfRow(row),
      this.getTabLength(),
    )
    return range ? this.displayLayer.foldBufferRange(range) : undefined
  }

  /** Unfolds the folds containing the end of the last cursor's row; returns their ranges. */
  unfoldCurrentRow(): Range[] {
    const { row } = this.getCursorBufferPosition()
    return this.displayLayer.destroyFoldsContainingBufferPositions([endOfRow(row)], false)
  }

  /**
   * Folds buffer row `row`: the fold starting there, else the nearest fold around it. When
   * that fold is already folded, folds the next fold out instead, and so on outwards.
   */
  foldBufferRow(row: number): void {
    const mode = this.getLanguageMode()
    let position = endOfRow(row)
    // A fold that is already folded passes the command on to the fold around it.
    for (;;) {
      const range = mode.getFoldableRangeContainingPoint?.(position, this.getTabLength())
      if (!range) return
      const existing = this.displayLayer.foldsIntersectingBufferRange(
        new Range(range.start, range.start),
      )
      if (existing.length === 0) {
        this.displayLayer.foldBufferRange(range)
        return
      }
      const folded = this.displayLayer.bufferRangeForFold(existing[0]!)
      if (folded === undefined || !folded.start.isLessThan(position)) return
      position = new Point(folded.start.row, 0)
    }
  }

  /** Unfolds the folds containing the end of buffer row `row`; returns their ranges. */
  unfoldBufferRow(row: number): Range[] {
    return this.displayLayer.destroyFoldsContainingBufferPositions([endOfRow(row)])
  }

  /** Folds each non-empty selection's range, leaving a caret at its end. */
  foldSelectedLines(): void {
    // Atom walks its live list of selections, so a selection merged away while folding makes
    // it skip the one after; the same walk over a copy kept in step does the same.
    const selections = this.getSelections()
    const removal = this.onDidRemoveSelection((removed) => {
      const index = selections.indexOf(removed)
      if (index !== -1) selections.splice(index, 1)
    })
    try {
      for (let i = 0; i < selections.length; i++) selections[i]!.fold()
    } finally {
      removal.dispose()
    }
  }

  /** Replaces every fold with the folds the language finds. */
  foldAll(): void {
    const ranges = this.getLanguageMode().getFoldableRanges?.(this.getTabLength())
    this.displayLayer.destroyAllFolds()
    for (const range of ranges ?? []) this.displayLayer.foldBufferRange(range)
  }

  /**
   * Replaces every fold with the language's folds at `level` (from 0): for plain text the
   * folds starting on rows indented `level` levels, for tree-sitter languages the folds
   * nested inside `level` others.
   */
  foldAllAtIndentLevel(level: number): void {
    const ranges = this.getLanguageMode().getFoldableRangesAtIndentLevel?.(
      level,
      this.getTabLength(),
    )
    this.displayLayer.destroyAllFolds()
    for (const range of ranges ?? []) this.displayLayer.foldBufferRange(range)
  }

  /** Whether a fold can start on buffer row `row`. */
  isFoldableAtBufferRow(row: number): boolean {
    return this.getLanguageMode().isFoldableAtRow?.(row) ?? false
  }

  /** Whether a fold can start on the buffer row shown at screen row `row`. */
  isFoldableAtScreenRow(row: number): boolean {
    return this.isFoldableAtBufferRow(this.bufferRowForScreenRow(row))
  }

  /**
   * Unfolds buffer row `row` when a fold touches it (returning the ranges unfolded), else
   * folds it as `foldBufferRow`.
   */
  toggleFoldAtBufferRow(row: number): Range[] | undefined {
    if (this.isFoldedAtBufferRow(row)) return this.unfoldBufferRow(row)
    this.foldBufferRow(row)
    return undefined
  }

  /** Whether a fold touches the last cursor's buffer row. */
  isFoldedAtCursorRow(): boolean {
    return this.isFoldedAtBufferRow(this.getCursorBufferPosition().row)
  }
}
