import { Point, Range } from '@tandem/text'
import { EditorEdits } from './editor-edits.js'
import { reflowText } from './reflow.js'
import { keepWholeCharacters, wholeCharacters, widthAt, widthBefore } from './whole-characters.js'
import type { WriteOptions } from './write-options.js'

/** A selection's range as Atom's commands handle it: rows and columns that can be widened in place. */
interface Span {
  startRow: number
  startColumn: number
  endRow: number
  endColumn: number
}

const spanOf = ({ start, end }: Range): Span => ({
  startRow: start.row,
  startColumn: start.column,
  endRow: end.row,
  endColumn: end.column,
})

const shifted = (span: Span, rows: number): Range =>
  new Range(
    new Point(span.startRow + rows, span.startColumn),
    new Point(span.endRow + rows, span.endColumn),
  )

/**
 * The whole buffer rows a run of spans covers, widened to the folds around them: a span that
 * ends at column 0 of a later row leaves that row out.
 */
const foldedRowsOf = (editor: EditorEdits, span: Span): Range => {
  const display = editor.displayLayer
  let endRow = span.endRow
  if (span.endRow > span.startRow && span.endColumn === 0) endRow--
  const startRow = display.findBoundaryPrecedingBufferRow(span.startRow)
  endRow = display.findBoundaryFollowingBufferRow(endRow + 1)
  return new Range(new Point(startRow, 0), new Point(endRow, 0))
}

const EMPTY_AT_START = new Range(Point.ZERO, Point.ZERO)

const refold = (editor: EditorEdits, ranges: readonly Range[]): void => {
  for (const range of ranges) editor.displayLayer.foldBufferRange(range)
}

/**
 * Atom's editor commands that move, copy or rewrite whole lines and selected text: moving
 * lines up and down (folds travel with them), moving selected text sideways, duplicating
 * lines, opening a line above or below, transposing, changing case and splitting selections
 * into lines. Each text change is one undo step and refuses on a read-only editor unless
 * `bypassReadOnly` is given.
 */
export class EditorLineCommands extends EditorEdits {
  /** Moves the lines of every selection up one screen row (past a fold above), folds included. */
  moveLineUp(options: WriteOptions = {}): void {
    if (!this.context.mayEdit('moveLineUp', options)) return
    const spans = this.getSelectedBufferRanges()
      .sort((a, b) => a.compare(b))
      .map(spanOf)
    if (spans[0]!.startRow === 0) return
    const last = spans[spans.length - 1]!
    if (
      last.startRow === this.getLastBufferRow() &&
      this.buffer.lineForRow(this.buffer.getLastRow()) === ''
    )
      return

    this.transact(() => {
      const moved: Range[] = []
      while (spans.length > 0) {
        // Selections on touching rows move as one block; as in Atom, the first one's range
        // is widened to the block's last row and moves so.
        const block = spans.shift()!
        const members = [block]
        while (spans.length > 0 && block.endRow === spans[0]!.startRow) {
          const next = spans.shift()!
          members.push(next)
          block.endRow = next.endRow
        }
        const lines = foldedRowsOf(this, block)
        const precedingRow = this.displayLayer.findBoundaryPrecedingBufferRow(lines.start.row - 1)
        const delta = lines.start.row - precedingRow
        const folds = this.displayLayer
          .destroyFoldsIntersectingBufferRange(lines)
          .map((range) => range.translate(new Point(-delta, 0)))
        let text = this.buffer.getTextInRange(lines)
        if (text[text.length - 1] !== '\n') {
          text += this.buffer.lineEndingForRow(lines.end.row - 2) ?? ''
        }
        this.buffer.delete(lines)
        this.buffer.insert(new Point(precedingRow, 0), text)
        refold(this, folds)
        for (const member of members) moved.push(shifted(member, -delta))
      }
      this.setSelectedBufferRanges(moved, { autoscroll: false, preserveFolds: true })
      if (this.shouldAutoIndent()) this.autoIndentSelectedRows()
      this.scrollToBufferPosition(new Point(moved[0]!.start.row, 0))
    })
  }

  /** Moves the lines of every selection down one screen row (past a fold below), folds included. */
  moveLineDown(options: WriteOptions = {}): void {
    if (!this.context.mayEdit('moveLineDown', options)) return
    const spans = this.getSelectedBufferRanges()
      .sort((a, b) => b.compare(a))
      .map(spanOf)

    this.transact(() => {
      this.consolidateSelections()
      const moved: Range[] = []
      while (spans.length > 0) {
        // Bottom-up: selections on touching rows move as one block, the first widened upward.
        const block = spans.shift()!
        const members = [block]
        while (spans.length > 0 && block.startRow === spans[0]!.endRow) {
          const next = spans.shift()!
          members.push(next)
          block.startRow = next.startRow
        }
        const lines = foldedRowsOf(this, block)
        const followingRow = Math.min(
          this.buffer.getLineCount(),
          this.displayLayer.findBoundaryFollowingBufferRow(lines.end.row + 1),
        )
        const delta = followingRow - lines.end.row
        const folds = this.displayLayer
          .destroyFoldsIntersectingBufferRange(lines)
          .map((range) => range.translate(new Point(delta, 0)))
        let text = this.buffer.getTextInRange(lines)
        if (followingRow - 1 === this.buffer.getLastRow()) text = `\n${text}`
        this.buffer.insert(new Point(followingRow, 0), text)
        this.buffer.delete(lines)
        refold(this, folds)
        for (const member of members) moved.push(shifted(member, delta))
      }
      this.setSelectedBufferRanges(moved, { autoscroll: false, preserveFolds: true })
      if (this.shouldAutoIndent()) this.autoIndentSelectedRows()
      this.scrollToBufferPosition(new Point(moved[0]!.start.row - 1, 0))
    })
  }

  /** Moves every selection's text one column left, unless a selection starts a line. */
  moveSelectionLeft(options: WriteOptions = {}): void {
    if (!this.context.mayEdit('moveSelectionLeft', options)) return
    const ranges = this.getSelectedBufferRanges().map((range) => wholeCharacters(this, range))
    if (ranges.some((range) => range.start.column === 0)) return
    this.transact(() => {
      const moved = ranges.map((range) => {
        // One character: both halves of a surrogate pair (Atom moves one UTF-16 unit).
        const line = this.buffer.lineForRow(range.start.row) ?? ''
        const left = new Point(0, -widthBefore(line, range.start.column))
        const before = new Range(range.start.translate(left), range.start)
        const character = this.buffer.getTextInRange(before)
        this.buffer.insert(range.end, character)
        this.buffer.delete(before)
        return range.translate(left)
      })
      this.setSelectedBufferRanges(moved)
    })
  }

  /** Moves every selection's text one column right, unless a selection ends a line. */
  moveSelectionRight(options: WriteOptions = {}): void {
    if (!this.context.mayEdit('moveSelectionRight', options)) return
    const ranges = this.getSelectedBufferRanges().map((range) => wholeCharacters(this, range))
    if (ranges.some((range) => range.end.column === this.buffer.lineLengthForRow(range.end.row))) {
      return
    }
    this.transact(() => {
      const moved = ranges.map((range) => {
        const line = this.buffer.lineForRow(range.end.row) ?? ''
        const right = new Point(0, widthAt(line, range.end.column))
        const after = new Range(range.end, range.end.translate(right))
        const character = this.buffer.getTextInRange(after)
        this.buffer.delete(after)
        this.buffer.insert(range.start, character)
        return range.translate(right)
      })
      this.setSelectedBufferRanges(moved)
    })
  }

  /** Copies the lines of every selection below themselves (with their folds); selections move to the copies. */
  duplicateLines(options: WriteOptions = {}): void {
    if (!this.context.mayEdit('duplicateLines', options)) return
    this.transact(() => {
      const selections = this.getSelectionsOrderedByBufferPosition()
      const before: Range[] = []
      // Bottom-up, so copying a block never moves the blocks still to copy.
      let i = selections.length - 1
      while (i >= 0) {
        const last = i
        before[i] = selections[i]!.getBufferRange()
        if (selections[i]!.isEmpty()) {
          const { start } = selections[i]!.getScreenRange()
          selections[i]!.setScreenRange(
            [
              [start.row, 0],
              [start.row + 1, 0],
            ],
            {
              preserveFolds: true,
            },
          )
        }
        let [startRow, endRow] = selections[i]!.getBufferRowRange()
        endRow++
        while (i > 0) {
          const [previousStart, previousEnd] = selections[i - 1]!.getBufferRowRange()
          if (previousEnd !== startRow) break
          startRow = previousStart
          before[i - 1] = selections[i - 1]!.getBufferRange()
          i--
        }
        const rows = new Range(new Point(startRow, 0), new Point(endRow, 0))
        const folds = this.displayLayer.foldsIntersectingBufferRange(rows)
        let text = this.getTextInBufferRange(rows)
        if (endRow > this.getLastBufferRow()) text = `\n${text}`
        this.buffer.insert(new Point(endRow, 0), text)
        const inserted = new Point(endRow - startRow, 0)
        for (let k = i; k <= last; k++) {
          selections[k]!.setBufferRange(before[k]!.translate(inserted))
        }
        for (const fold of folds) {
          // A fold the copy landed inside is gone (folds die when edited inside); Atom reads
          // an empty range for it and re-creates that, an empty fold that hides nothing.
          const range = this.displayLayer.bufferRangeForFold(fold) ?? EMPTY_AT_START
          this.displayLayer.foldBufferRange(range.translate(inserted))
        }
        i--
      }
    })
  }

  /** Opens a new line below each cursor's line. */
  insertNewlineBelow(options: WriteOptions = {}): void {
    if (!this.context.mayEdit('insertNewlineBelow', options)) return
    this.transact(() => {
      this.moveToEndOfLine()
      this.insertNewline(options)
    })
  }

  /** Opens a new line above each cursor's line, keeping the line's indentation when auto-indenting. */
  insertNewlineAbove(options: WriteOptions = {}): void {
    if (!this.context.mayEdit('insertNewlineAbove', options)) return
    this.transact(() => {
      const row = this.getCursorBufferPosition().row
      const level = this.indentationForBufferRow(row)
      this.moveToBeginningOfLine()
      this.moveLeft()
      this.insertNewline(options)
      if (this.shouldAutoIndent() && this.indentationForBufferRow(row) < level) {
        this.setIndentationForBufferRow(row, level)
      }
      if (row === 0) {
        this.moveUp()
        this.moveToEndOfLine()
      }
    })
  }

  /** Swaps the characters around each empty cursor, or reverses each selection's text. */
  transpose(options: WriteOptions = {}): void {
    if (!this.context.mayEdit('transpose', options)) return
    this.mutateSelectedText((selection) => {
      if (selection.isEmpty()) {
        keepWholeCharacters(this, selection)
        const { row, column } = selection.getBufferRange().end
        const line = this.buffer.lineForRow(row) ?? ''
        // A caret between the halves of a pair counts as after the pair.
        if (!selection.isEmpty()) selection.cursor.setBufferPosition([row, column])
        // Characters beyond the Basic Multilingual Plane move whole (Atom moves one unit).
        const after = widthAt(line, column)
        const before = widthBefore(line, column)
        selection.selectRight(after)
        const text = selection.getText()
        selection.delete(options)
        selection.cursor.moveLeft(before)
        selection.insertText(text, options)
      } else {
        // Atom reverses UTF-16 code units, splitting surrogate pairs; Tandem keeps them whole.
        keepWholeCharacters(this, selection)
        selection.insertText(Array.from(selection.getText()).reverse().join(''), options)
      }
    })
  }

  /** Upper-cases each selection, or the word around each empty cursor. */
  upperCase(options: WriteOptions = {}): void {
    if (!this.context.mayEdit('upperCase', options)) return
    const replace = { selectWordIfEmpty: true, ...options }
    this.replaceSelectedText(replace, (text) => text.toUpperCase())
  }

  /** Lower-cases each selection, or the word around each empty cursor. */
  lowerCase(options: WriteOptions = {}): void {
    if (!this.context.mayEdit('lowerCase', options)) return
    const replace = { selectWordIfEmpty: true, ...options }
    this.replaceSelectedText(replace, (text) => text.toLowerCase())
  }

  /**
   * Replaces each selection's text by `fn(text)` and selects the result, in one undo step;
   * with `selectWordIfEmpty`, an empty selection first selects its word.
   */
  replaceSelectedText(
    options: ({ selectWordIfEmpty?: boolean } & WriteOptions) | undefined,
    fn: (text: string) => string,
  ): void {
    this.mutateSelectedText((selection) => {
      if (options?.selectWordIfEmpty && selection.isEmpty()) selection.selectWord()
      keepWholeCharacters(this, selection)
      // Unlike Atom, `bypassReadOnly` reaches the selection's own edits (Atom's fail there).
      const write = { bypassReadOnly: options?.bypassReadOnly ?? false }
      const text = selection.getText()
      selection.deleteSelectedText(write)
      const range = selection.insertText(fn(text), write)
      if (range !== undefined) selection.setBufferRange(range)
    })
  }

  /** Splits every multi-line selection into one selection per line, covering the same text. */
  splitSelectionsIntoLines(): void {
    this.mergeIntersectingSelections(() => {
      for (const selection of this.getSelections()) {
        const range = selection.getBufferRange()
        if (range.isSingleLine()) continue
        const { start, end } = range
        this.addSelectionForBufferRange([start, [start.row, Number.POSITIVE_INFINITY]])
        for (let row = start.row + 1; row < end.row; row++) {
          this.addSelectionForBufferRange([
            [row, 0],
            [row, Number.POSITIVE_INFINITY],
          ])
        }
        if (end.column !== 0) this.addSelectionForBufferRange([[end.row, 0], end])
        selection.destroy()
      }
    })
  }

  /**
   * Re-breaks the last selection's text, or the paragraph around the cursor, to the preferred
   * line length, keeping comment and list prefixes (Atom's autoflow; see `reflowText`).
   */
  reflowSelection(options: WriteOptions = {}): void {
    if (!this.context.mayEdit('reflowSelection', options)) return
    let range: Range | undefined = this.getSelectedBufferRange()
    if (range.isEmpty()) range = this.getCurrentParagraphBufferRange()
    if (range === undefined) return
    range = wholeCharacters(this, range)
    const text = this.getTextInBufferRange(range)
    const reflowed = reflowText(text, {
      wrapColumn: this.getPreferredLineLength(),
      tabLength: this.getTabLength(),
    })
    if (reflowed !== text) this.transact(() => this.buffer.setTextInRange(range, reflowed))
  }
}
