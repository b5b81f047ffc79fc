import { Point, Range } from '@tandem/text'
import type { ClipboardMetadata } from './clipboard.js'
import type { DisplayMarker } from './display-marker.js'
import type { EditorContext } from './editor-context.js'
import {
  autoDecreaseRowIndent,
  autoIndentRow,
  autoIndentRows,
  indentLevelOf,
  indentString,
  setRowIndentation,
  suggestedLineIndent,
  suggestedRowIndent,
} from './indentation-edits.js'
import { toggleRowComments } from './line-comments.js'
import { SelectionBase } from './selection-base.js'

declare module './cursor.js' {
  interface Cursor {
    /** The selection this cursor is the head of (its caret's selection). */
    selection: Selection | null
  }
}

import type { ClipboardPiece, InsertTextOptions, WriteOptions } from './write-options.js'

const NON_WHITESPACE = /\S/
const TRAILING_WHITESPACE = /[ \t]+$/

/** The buffer's options for a plain insertion (shared: `setTextInRange` only reads them). */
const NO_SET_TEXT_OPTIONS = Object.freeze({})

/** Whether `selection` may change the text; reports the attempt when it may not. */
const writable = (selection: Selection, operation: string, options?: WriteOptions): boolean =>
  selection.context.mayEdit(operation, options)

/** Changes the indentation of `lines` by `adjustment` levels, as a paste does. */
const adjustIndent = (context: EditorContext, lines: string[], adjustment: number): void => {
  if (adjustment === 0) return
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line === '') continue
    if (adjustment > 0) {
      lines[i] = indentString(context, adjustment) + line
    } else {
      const level = Math.max(0, indentLevelOf(context, line) + adjustment)
      lines[i] = line.replace(/^[\t ]+/, indentString(context, level))
    }
  }
}

/** Extends an empty selection with `extend`, then deletes what is selected. */
function deleteAfter(
  selection: Selection,
  operation: string,
  options: WriteOptions | undefined,
  extend: () => void,
): void {
  if (!writable(selection, operation, options)) return
  if (selection.isEmpty()) extend()
  selection.deleteSelectedText(options)
}

/** Adds a selection over `goal`'s columns on the first row from `row` on (by `step`) that has them. */
function addSelectionInColumn(selection: Selection, step: 1 | -1): void {
  const { displayLayer } = selection.context
  const goal = selection.getGoalScreenRange()
  const lastRow = displayLayer.getScreenLineCount() - 1
  for (let row = goal.end.row + step; row >= 0 && row <= lastRow; row += step) {
    const candidate = new Range(new Point(row, goal.start.column), new Point(row, goal.end.column))
    const clipped = new Range(
      displayLayer.clipScreenPosition(candidate.start, { skipSoftWrapIndentation: true }),
      displayLayer.clipScreenPosition(candidate.end, { skipSoftWrapIndentation: true }),
    )
    // Rows too short for the columns are skipped: a caret needs its column, a selection
    // needs at least one selected character.
    if (
      candidate.isEmpty() ? candidate.end.column > 0 && clipped.end.column === 0 : clipped.isEmpty()
    ) {
      continue
    }
    if (!selection.owner.screenRangeIsSelected(clipped)) {
      selection.owner.addSelectionForScreenRange(clipped).setGoalScreenRange(candidate)
    }
    return
  }
}

/**
 * A selected range of the buffer with a cursor at its head: Atom's Selection. Empty
 * selections are carets. Ranges are markers anchored by relative positions, so they move with
 * every edit, local or remote. This module holds its text changes; each takes
 * `bypassReadOnly` and does nothing on a read-only editor without it, and deletions first
 * extend an empty selection as the name says, then delete what is selected.
 *
 * @example const selection = editor.getLastSelection(); selection.selectToEndOfWord(); selection.getText()
 */
export class Selection extends SelectionBase {
  /** Replaces the selected text with `text`; returns the range of the new text. */
  insertText(text: string, options: InsertTextOptions = {}): Range | undefined {
    if (typeof text !== 'string') {
      throw new TypeError(`text must be a string, got ${text === null ? 'null' : typeof text}`)
    }
    if (!writable(this, 'insertText', options)) return undefined
    const context = this.context
    const oldRange = this.getBufferRange()
    const wasReversed = this.isReversed()
    this.clear(options)

    // Typing (no indentation to adjust) inserts the text as it is: the row's text before the
    // selection is read only when pasted or auto-indented lines need it.
    const indentable = text === '\n' || text === '\r\n' || NON_WHITESPACE.test(text)
    const adjusts =
      (options.indentBasis != null && !options.preserveTrailingLineIndentation) ||
      (Boolean(options.autoIndent) && indentable)
    let inserted = text
    let indentFirstLineTo: number | undefined
    if (adjusts) {
      const precedingText = context.buffer.getTextInRange(
        new Range(new Point(oldRange.start.row, 0), oldRange.start),
      )
      const trailingLines = text.split('\n')
      const firstLine = trailingLines.shift()!
      if (options.indentBasis != null && !options.preserveTrailingLineIndentation) {
        adjustIndent(
          context,
          trailingLines,
          indentLevelOf(context, precedingText) - options.indentBasis,
        )
      }
      if (
        options.autoIndent &&
        indentable &&
        !NON_WHITESPACE.test(precedingText) &&
        trailingLines.length > 0
      ) {
        const line = precedingText + firstLine
        indentFirstLineTo = suggestedLineIndent(context, oldRange.start.row, line)
        if (indentFirstLineTo !== undefined) {
          adjustIndent(context, trailingLines, indentFirstLineTo - indentLevelOf(context, line))
        }
      }
      inserted = trailingLines.length > 0 ? `${firstLine}\n${trailingLines.join('\n')}` : firstLine
    }

    const newRange = this.context.buffer.setTextInRange(
      oldRange,
      inserted,
      options.undo === undefined && options.normalizeLineEndings === undefined
        ? NO_SET_TEXT_OPTIONS
        : {
            ...(options.undo === undefined ? {} : { undo: options.undo }),
            ...(options.normalizeLineEndings === undefined
              ? {}
              : { normalizeLineEndings: options.normalizeLineEndings }),
          },
    )

    if (options.select) this.setBufferRange(newRange, { reversed: wasReversed })
    else if (wasReversed) this.cursor.setBufferPosition(newRange.end)

    if (indentFirstLineTo !== undefined) {
      setRowIndentation(context, oldRange.start.row, indentFirstLineTo)
    }
    if (options.autoIndentNewline && inserted === '\n') {
      autoIndentRow(context, newRange.end.row, {
        preserveLeadingWhitespace: true,
        skipBlankLines: false,
      })
    } else if (options.autoDecreaseIndent && NON_WHITESPACE.test(inserted)) {
      autoDecreaseRowIndent(context, newRange.start.row)
    }
    if (options.autoscroll ?? this.isLastSelection()) this.autoscroll()
    return newRange
  }

  /** Deletes the selection, or the character before an empty one. */
  backspace(options?: WriteOptions): void {
    deleteAfter(this, 'backspace', options, () => this.selectLeft())
  }

  /** Deletes the selection, or back to the previous word boundary. */
  deleteToPreviousWordBoundary(options?: WriteOptions): void {
    deleteAfter(this, 'deleteToPreviousWordBoundary', options, () =>
      this.selectToPreviousWordBoundary(),
    )
  }

  /** Deletes the selection, or on to the next word boundary. */
  deleteToNextWordBoundary(options?: WriteOptions): void {
    deleteAfter(this, 'deleteToNextWordBoundary', options, () => this.selectToNextWordBoundary())
  }

  /** Deletes the selection, or back to the beginning of the word. */
  deleteToBeginningOfWord(options?: WriteOptions): void {
    deleteAfter(this, 'deleteToBeginningOfWord', options, () => this.selectToBeginningOfWord())
  }

  /** Deletes the selection, or back to the beginning of the line (the newline at column 0). */
  deleteToBeginningOfLine(options?: WriteOptions): void {
    if (!writable(this, 'deleteToBeginningOfLine', options)) return
    if (this.isEmpty() && this.cursor.isAtBeginningOfLine()) this.selectLeft()
    else this.selectToBeginningOfLine()
    this.deleteSelectedText(options)
  }

  /** Deletes the selection, or the character after an empty one. */
  delete(options?: WriteOptions): void {
    deleteAfter(this, 'delete', options, () => this.selectRight())
  }

  /** Deletes the selection, or to the end of the screen line (the newline at its end). */
  deleteToEndOfLine(options?: WriteOptions): void {
    if (!writable(this, 'deleteToEndOfLine', options)) return
    if (this.isEmpty()) {
      if (this.cursor.isAtEndOfLine()) {
        this.delete(options)
        return
      }
      this.selectToEndOfLine()
    }
    this.deleteSelectedText(options)
  }

  /** Deletes the selection, or on to the end of the word. */
  deleteToEndOfWord(options?: WriteOptions): void {
    deleteAfter(this, 'deleteToEndOfWord', options, () => this.selectToEndOfWord())
  }

  /** Deletes the selection, or back to the previous subword boundary. */
  deleteToBeginningOfSubword(options?: WriteOptions): void {
    deleteAfter(this, 'deleteToBeginningOfSubword', options, () =>
      this.selectToPreviousSubwordBoundary(),
    )
  }

  /** Deletes the selection, or on to the next subword boundary. */
  deleteToEndOfSubword(options?: WriteOptions): void {
    deleteAfter(this, 'deleteToEndOfSubword', options, () => this.selectToNextSubwordBoundary())
  }

  /** Deletes the selected text and leaves the cursor where it started. */
  deleteSelectedText(options?: WriteOptions): void {
    if (!writable(this, 'deleteSelectedText', options)) return
    const range = this.getBufferRange()
    if (!range.isEmpty()) this.context.buffer.delete(range)
    if (!this.cursor.destroyed) this.cursor.setBufferPosition(range.start)
  }

  /** Deletes the lines the selection covers (the screen line, for an empty one). */
  deleteLine(options?: WriteOptions): void {
    if (!writable(this, 'deleteLine', options)) return
    const context = this.context
    const buffer = this.context.buffer
    const range = this.getBufferRange()
    if (range.isEmpty()) {
      // The buffer rows of this screen row and the next: all of a fold, one row of a wrap.
      const screenRow = this.cursor.getScreenRow()
      const [first, next] = context.displayLayer.bufferRowsForScreenRows(
        screenRow,
        screenRow + 2,
      ) as [number, number]
      if (next > first) buffer.deleteRows(first, next - 1)
      else buffer.deleteRow(first)
    } else {
      let end = range.end.row
      if (end !== buffer.getLastRow() && range.end.column === 0) end--
      buffer.deleteRows(range.start.row, end)
    }
    this.cursor.setBufferPosition([this.cursor.getBufferRow(), range.start.column])
  }

  /** Joins the next line (or the selected lines) onto this one with one space between. */
  joinLines(options?: WriteOptions): void {
    if (!writable(this, 'joinLines', options)) return
    const context = this.context
    const buffer = this.context.buffer
    const selected = this.getBufferRange()
    let joined: DisplayMarker | null = null
    if (selected.isEmpty()) {
      if (selected.start.row === buffer.getLastRow()) return
    } else {
      joined = context.markers.markBufferRange(selected, { invalidate: 'never' })
    }
    const row = selected.start.row
    const joins = Math.max(1, selected.getRowCount() - 1)
    for (let i = 0; i < joins; i++) {
      this.cursor.setBufferPosition([row, 0])
      this.cursor.moveToEndOfLine()
      const line = buffer.lineForRow(row) ?? ''
      const trailing = TRAILING_WHITESPACE.exec(line)
      if (trailing !== null) {
        this.setBufferRange(new Range(new Point(row, trailing.index), new Point(row, line.length)))
        this.deleteSelectedText(options)
      }
      const space =
        row + 1 <= buffer.getLastRow() &&
        (buffer.lineLengthForRow(row + 1) ?? 0) > 0 &&
        (buffer.lineLengthForRow(row) ?? 0) > 0
      if (space) this.insertText(' ', options)
      this.cursor.moveToEndOfLine()
      this.modifySelection(() => {
        this.cursor.moveRight()
        this.cursor.moveToFirstCharacterOfLine()
      })
      this.deleteSelectedText(options)
      if (space) this.cursor.moveLeft()
    }
    if (joined !== null) {
      this.setBufferRange(joined.getBufferRange())
      joined.destroy()
    }
  }

  /** Removes one level of indentation from each selected row. */
  outdentSelectedRows(options?: WriteOptions): void {
    if (!writable(this, 'outdentSelectedRows', options)) return
    const buffer = this.context.buffer
    const [start, end] = this.getBufferRowRange()
    const leadingTab = new RegExp(`^( {1,${this.context.tabLength()}}|\t)`)
    for (let row = start; row <= end; row++) {
      const match = leadingTab.exec(buffer.lineForRow(row) ?? '')
      if (match !== null && match[0].length > 0) {
        buffer.delete(new Range(new Point(row, 0), new Point(row, match[0].length)))
      }
    }
  }

  /** Indents each selected row as the language suggests. */
  autoIndentSelectedRows(options?: WriteOptions): void {
    if (!writable(this, 'autoIndentSelectedRows', options)) return
    const [start, end] = this.getBufferRowRange()
    autoIndentRows(this.context, start, end)
  }

  /** Comments or uncomments the selected rows (nothing in a language without comments). */
  toggleLineComments(options?: WriteOptions): void {
    if (!writable(this, 'toggleLineComments', options)) return
    const [start, end] = this.getBufferRowRange()
    toggleRowComments(this.context, start, end, this)
  }

  /** Cuts the selection, or to the end of the screen line. */
  cutToEndOfLine(maintainClipboard?: boolean, options: WriteOptions = {}): void {
    if (!writable(this, 'cutToEndOfLine', options)) return
    if (this.isEmpty()) this.selectToEndOfLine()
    this.cut(maintainClipboard, false, options.bypassReadOnly)
  }

  /** Cuts the selection, or to the end of the buffer line. */
  cutToEndOfBufferLine(maintainClipboard?: boolean, options: WriteOptions = {}): void {
    if (!writable(this, 'cutToEndOfBufferLine', options)) return
    if (this.isEmpty()) this.selectToEndOfBufferLine()
    this.cut(maintainClipboard, false, options.bypassReadOnly)
  }

  /** Copies the selection to the clipboard (appending with `maintainClipboard`), then deletes it. */
  cut(
    maintainClipboard: boolean = false,
    fullLine: boolean = false,
    bypassReadOnly: boolean = false,
  ): void {
    if (!writable(this, 'cut', { bypassReadOnly })) return
    this.copy(maintainClipboard, fullLine)
    this.delete({ bypassReadOnly })
  }

  /** Copies the selection to the clipboard, appending as a new piece with `maintainClipboard`. */
  copy(maintainClipboard: boolean = false, fullLine: boolean = false): void {
    if (this.isEmpty()) return
    const context = this.context
    const range = this.getBufferRange()
    const text = context.buffer.getTextInRange(range)
    const indentBasis = indentLevelOf(
      context,
      context.buffer.getTextInRange(new Range(new Point(range.start.row, 0), range.start)),
    )
    const clipboard = context.clipboard
    if (!maintainClipboard) {
      clipboard.write(text, { indentBasis, fullLine })
      return
    }
    // Appending: the clipboard's text becomes the first piece if it has none yet. The
    // metadata object is updated in place, as Atom does.
    const current = clipboard.readWithMetadata()
    const metadata: ClipboardMetadata = current.metadata ?? {}
    if (!Array.isArray(metadata.selections)) {
      metadata.selections = [
        { text: current.text, indentBasis: metadata.indentBasis, fullLine: metadata.fullLine },
      ]
    }
    ;(metadata.selections as ClipboardPiece[]).push({ text, indentBasis, fullLine })
    clipboard.write(`${current.text}\n${text}`, metadata)
  }

  /** Indents: a tab at an empty selection (or the suggested indent), else the selected rows. */
  indent(options: { autoIndent?: boolean } & WriteOptions = {}): void {
    const { autoIndent, bypassReadOnly } = options
    if (!writable(this, 'indent', { bypassReadOnly })) return
    if (!this.isEmpty()) {
      this.indentSelectedRows({ bypassReadOnly })
      return
    }
    const context = this.context
    const row = this.cursor.getBufferRow()
    this.cursor.skipLeadingWhitespace()
    const desired = suggestedRowIndent(context, row) ?? 0
    let delta = desired - this.cursor.getIndentLevel()
    if (autoIndent && delta > 0) {
      if (!context.softTabs()) delta = Math.max(delta, 1)
      this.insertText(indentString(context, delta), { bypassReadOnly })
    } else {
      this.insertText(indentString(context, 1, this.cursor.getBufferColumn()), {
        bypassReadOnly,
      })
    }
  }

  /** Adds one level of indentation to each selected non-empty row. */
  indentSelectedRows(options?: WriteOptions): void {
    if (!writable(this, 'indentSelectedRows', options)) return
    const context = this.context
    const buffer = this.context.buffer
    const [start, end] = this.getBufferRowRange()
    for (let row = start; row <= end; row++) {
      if (buffer.lineLengthForRow(row) !== 0) buffer.insert([row, 0], indentString(context, 1))
    }
  }

  /** Adds a selection for the same screen columns on the next row that has them. */
  addSelectionBelow(): void {
    addSelectionInColumn(this, 1)
  }

  /** Adds a selection for the same screen columns on the previous row that has them. */
  addSelectionAbove(): void {
    addSelectionInColumn(this, -1)
  }
}
