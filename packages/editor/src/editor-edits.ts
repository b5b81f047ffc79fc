import { PlainTextMode } from '@tandem/language'
import { type Disposable, Point, Range, type RangeLike } from '@tandem/text'
import type { ClipboardMetadata } from './clipboard.js'
import {
  autoDecreaseRowIndent,
  autoIndentRow,
  autoIndentRows,
  indentLevelOf,
  indentString,
  lineText,
  setRowIndentation,
  suggestedLineIndent,
  suggestedRowIndent,
} from './indentation-edits.js'
import { toggleRowComments } from './line-comments.js'
import type { Selection } from './selection.js'
import type { ClipboardPiece, InsertTextOptions, WriteOptions } from './selection-edits.js'
import type { TextEditor } from './text-editor.js'

/** Payload of `onWillInsertText`: `cancel()` stops the insertion. */
export interface WillInsertTextEvent {
  /** The text about to be inserted at every selection. */
  text: string
  /**
   * The call inserting it: `insertText` (typing goes through it, as do programs) or
   * `pasteText`. Listeners that react to typing only, as bracket completion does, skip pastes.
   */
  readonly source: 'insertText' | 'pasteText'
  /** The options the call was given. */
  readonly options: Readonly<EditorInsertTextOptions>
  /** Stops the insertion: no selection changes. */
  cancel(): void
}

/** Options of `TextEditor.insertText`. */
export interface EditorInsertTextOptions extends InsertTextOptions {
  /** Group with the previous typing into one undo step (within the grouping interval). */
  groupUndo?: boolean
}

/** Options of `TextEditor.pasteText`. */
export interface PasteTextOptions extends InsertTextOptions {}

/**
 * Atom's editor-wide text changes: each runs a Selection operation on every selection, in
 * buffer order, as one transaction (one undo step, one Y transaction), then merges the
 * selections that met. Undo and redo restore the selections saved with each step.
 */
export interface EditorEdits {
  /** Calls `callback` before text is inserted; it may cancel the insertion. */
  onWillInsertText(callback: (event: WillInsertTextEvent) => void): Disposable
  /** Calls `callback` after text was inserted at a selection. */
  onDidInsertText(callback: (event: { text: string; range: Range }) => void): Disposable
  /** Calls `callback` when a text change was refused because the editor is read-only. */
  onDidAttemptReadOnlyEdit(callback: (event: { operation: string }) => void): Disposable

  /** The text in a buffer range. */
  getTextInRange(range: RangeLike): string
  /**
   * Replaces the text in a buffer range (clipped) with `text`, as one undo step; refused on a
   * read-only editor unless `bypassReadOnly`. Returns the range of the new text.
   */
  setTextInBufferRange(
    range: RangeLike,
    text: string,
    options?: WriteOptions & { normalizeLineEndings?: boolean },
  ): Range | undefined
  /** Inserts `text` at every selection; returns the inserted ranges (false when cancelled). */
  insertText(text: string, options?: EditorInsertTextOptions): Range[] | false | undefined
  /** Inserts a newline at every selection. */
  insertNewline(options?: EditorInsertTextOptions): Range[] | false | undefined
  /** Deletes each selection, or the character after each cursor. */
  delete(options?: WriteOptions): void
  /** Deletes each selection, or the character before each cursor. */
  backspace(options?: WriteOptions): void
  /** `Selection.deleteToBeginningOfWord` at every selection. */
  deleteToBeginningOfWord(options?: WriteOptions): void
  /** `Selection.deleteToPreviousWordBoundary` at every selection. */
  deleteToPreviousWordBoundary(options?: WriteOptions): void
  /** `Selection.deleteToNextWordBoundary` at every selection. */
  deleteToNextWordBoundary(options?: WriteOptions): void
  /** `Selection.deleteToBeginningOfSubword` at every selection. */
  deleteToBeginningOfSubword(options?: WriteOptions): void
  /** `Selection.deleteToEndOfSubword` at every selection. */
  deleteToEndOfSubword(options?: WriteOptions): void
  /** `Selection.deleteToBeginningOfLine` at every selection. */
  deleteToBeginningOfLine(options?: WriteOptions): void
  /** `Selection.deleteToEndOfLine` at every selection. */
  deleteToEndOfLine(options?: WriteOptions): void
  /** `Selection.deleteToEndOfWord` at every selection. */
  deleteToEndOfWord(options?: WriteOptions): void
  /** `Selection.deleteLine` at every selection. */
  deleteLine(options?: WriteOptions): void
  /** `Selection.joinLines` at every selection. */
  joinLines(options?: WriteOptions): void
  /** `Selection.indentSelectedRows` at every selection. */
  indentSelectedRows(options?: WriteOptions): void
  /** `Selection.outdentSelectedRows` at every selection. */
  outdentSelectedRows(options?: WriteOptions): void
  /** `Selection.autoIndentSelectedRows` at every selection. */
  autoIndentSelectedRows(options?: WriteOptions): void
  /** `Selection.toggleLineComments` at every selection. */
  toggleLineCommentsInSelection(options?: WriteOptions): void
  /** `Selection.indent` at every selection (auto-indenting when the editor does). */
  indent(options?: { autoIndent?: boolean } & WriteOptions): void
  /** Runs `fn` on every selection in buffer order as one transaction, then merges. */
  mutateSelectedText<T>(
    fn: (selection: Selection, index: number) => T,
    groupingInterval?: number,
  ): T[]

  /** Copies every selection (the whole line for an empty one) to the clipboard, as pieces. */
  copySelectedText(): void
  /** Copies only the non-empty selections. */
  copyOnlySelectedText(): void
  /** Cuts every selection (the whole line for an empty one). */
  cutSelectedText(options?: WriteOptions): void
  /** Cuts every selection, or to the end of each screen line. */
  cutToEndOfLine(options?: WriteOptions): void
  /** Cuts every selection, or to the end of each buffer line. */
  cutToEndOfBufferLine(options?: WriteOptions): void
  /**
   * Inserts the clipboard at every selection: one piece per selection when the clipboard
   * holds as many, whole lines above the cursor when they were copied as whole lines, and
   * lines re-indented to where they land.
   */
  pasteText(options?: PasteTextOptions): void

  /** Runs `fn` as one undo step and one Y transaction (grouped with the previous within `groupingInterval`). */
  transact<T>(fn: () => T): T
  /** Runs `fn` as one undo step and one Y transaction, grouped with the previous step when that ended less than `groupingInterval` ms ago. */
  transact<T>(groupingInterval: number, fn: () => T): T
  /** Undoes this editor's last step (never another peer's), restoring its selections. */
  undo(options?: WriteOptions): void
  /** Redoes the last undone step, restoring the selections after it. */
  redo(options?: WriteOptions): void
  /** Marks the current place in the undo history. */
  createCheckpoint(): number
  /** Undoes every change since the checkpoint. */
  revertToCheckpoint(checkpoint: number): boolean
  /** Makes the changes since the checkpoint one undo step. */
  groupChangesSinceCheckpoint(checkpoint: number): boolean

  /** The indent level of a line of text with this editor's tab length. */
  indentLevelForLine(line: string): number
  /** Indentation for `level` levels (soft or hard tabs), less what `column` already covers. */
  buildIndentString(level: number, column?: number): string
  /** One level of indentation. */
  getTabText(): string
  /** The indent level of a buffer row. */
  indentationForBufferRow(row: number): number
  /** Sets a row's indentation to `level`, replacing its leading whitespace (or inserting before it). */
  setIndentationForBufferRow(
    row: number,
    level: number,
    options?: { preserveLeadingWhitespace?: boolean },
  ): void
  /** The indent level the language suggests for a row. */
  suggestedIndentForBufferRow(
    row: number,
    options?: { skipBlankLines?: boolean },
  ): number | undefined
  /** The indent level the language suggests for `line` at `row`. */
  suggestedIndentForLineAtBufferRow(row: number, line: string): number | undefined
  /** Indents a row as the language suggests. */
  autoIndentBufferRow(
    row: number,
    options?: { preserveLeadingWhitespace?: boolean; skipBlankLines?: boolean },
  ): void
  /** Indents rows `startRow` to `endRow` as the language suggests. */
  autoIndentBufferRows(startRow: number, endRow: number): void
  /** Outdents a row being typed on when the language says so (a closing bracket). */
  autoDecreaseIndentForBufferRow(row: number): void
  /** Comments or uncomments rows with the language's line comment (nothing without one). */
  toggleLineCommentsForBufferRows(startRow: number, endRow: number, selection?: Selection): void
  /** Whether a selection contains a screen range. */
  screenRangeIsSelected(range: Range): boolean
}

/** Runs `operation` on every selection as one transaction, if the editor may change. */
function eachSelection(
  editor: TextEditor,
  operation: string,
  options: WriteOptions | undefined,
  fn: (selection: Selection) => void,
): void {
  if (!editor.ensureWritable(operation, options)) return
  editor.mutateSelectedText(fn)
}

/** The methods of `EditorEdits`, installed on `TextEditor.prototype`. */
export const editorEdits: EditorEdits & ThisType<TextEditor> = {
  onWillInsertText(callback) {
    return this.emitter.on('will-insert-text', callback)
  },

  onDidInsertText(callback) {
    return this.emitter.on('did-insert-text', callback)
  },

  onDidAttemptReadOnlyEdit(callback) {
    return this.emitter.on('did-attempt-read-only-edit', callback)
  },

  getTextInRange(range) {
    return this.buffer.getTextInRange(range)
  },

  setTextInBufferRange(range, text, options = {}) {
    if (!this.ensureWritable('setTextInBufferRange', options)) return undefined
    const { normalizeLineEndings } = options
    return this.buffer.setTextInRange(
      range,
      text,
      normalizeLineEndings === undefined ? {} : { normalizeLineEndings },
    )
  },

  insertText(text, options = {}) {
    if (typeof text !== 'string') {
      throw new TypeError(`text must be a string, got ${text === null ? 'null' : typeof text}`)
    }
    if (!this.ensureWritable('insertText', options)) return undefined
    if (!willInsert(this, text, 'insertText', options)) return false
    // Atom fills the options in and hands the same object to every selection.
    let groupWithPrevious = false
    if (options.undo === 'skip') {
      options = { ...options }
      delete options.undo
      groupWithPrevious = true
    }
    const groupingInterval = options.groupUndo ? this.getUndoGroupingInterval() : 0
    options.autoIndentNewline ??= this.shouldAutoIndent()
    options.autoDecreaseIndent ??= this.shouldAutoIndent()
    const inserted =
      typeAtEveryCursorAtOnce(this, text, options, groupingInterval) ??
      this.mutateSelectedText((selection) => {
        const range = selection.insertText(text, options) as Range
        this.emitter.emit('did-insert-text', { text, range })
        return range
      }, groupingInterval)
    if (groupWithPrevious) this.buffer.groupLastChanges()
    return inserted
  },

  insertNewline(options) {
    return this.insertText('\n', options)
  },

  delete(options) {
    eachSelection(this, 'delete', options, (selection) => selection.delete(options))
  },

  backspace(options) {
    eachSelection(this, 'backspace', options, (selection) => selection.backspace(options))
  },

  deleteToBeginningOfWord(options) {
    eachSelection(this, 'deleteToBeginningOfWord', options, (selection) =>
      selection.deleteToBeginningOfWord(options),
    )
  },

  deleteToPreviousWordBoundary(options) {
    eachSelection(this, 'deleteToPreviousWordBoundary', options, (selection) =>
      selection.deleteToPreviousWordBoundary(options),
    )
  },

  deleteToNextWordBoundary(options) {
    eachSelection(this, 'deleteToNextWordBoundary', options, (selection) =>
      selection.deleteToNextWordBoundary(options),
    )
  },

  deleteToBeginningOfSubword(options) {
    eachSelection(this, 'deleteToBeginningOfSubword', options, (selection) =>
      selection.deleteToBeginningOfSubword(options),
    )
  },

  deleteToEndOfSubword(options) {
    eachSelection(this, 'deleteToEndOfSubword', options, (selection) =>
      selection.deleteToEndOfSubword(options),
    )
  },

  deleteToBeginningOfLine(options) {
    eachSelection(this, 'deleteToBeginningOfLine', options, (selection) =>
      selection.deleteToBeginningOfLine(options),
    )
  },

  deleteToEndOfLine(options) {
    eachSelection(this, 'deleteToEndOfLine', options, (selection) =>
      selection.deleteToEndOfLine(options),
    )
  },

  deleteToEndOfWord(options) {
    eachSelection(this, 'deleteToEndOfWord', options, (selection) =>
      selection.deleteToEndOfWord(options),
    )
  },

  deleteLine(options) {
    if (!this.ensureWritable('deleteLine', options)) return
    // As Atom: selections sharing a screen row delete their lines once, as one selection.
    this.mergeSelectionsOnSameRows()
    this.mutateSelectedText((selection) => selection.deleteLine(options))
  },

  joinLines(options) {
    eachSelection(this, 'joinLines', options, (selection) => selection.joinLines(options))
  },

  indentSelectedRows(options) {
    eachSelection(this, 'indentSelectedRows', options, (selection) =>
      selection.indentSelectedRows(options),
    )
  },

  outdentSelectedRows(options) {
    eachSelection(this, 'outdentSelectedRows', options, (selection) =>
      selection.outdentSelectedRows(options),
    )
  },

  autoIndentSelectedRows(options) {
    eachSelection(this, 'autoIndentSelectedRows', options, (selection) =>
      selection.autoIndentSelectedRows(options),
    )
  },

  toggleLineCommentsInSelection(options) {
    eachSelection(this, 'toggleLineComments', options, (selection) =>
      selection.toggleLineComments(options),
    )
  },

  indent(options = {}) {
    if (!this.ensureWritable('indent', options)) return
    options.autoIndent ??= this.shouldAutoIndent()
    this.mutateSelectedText((selection) => selection.indent(options))
  },

  mutateSelectedText(fn, groupingInterval = 0) {
    return (
      this.mergeIntersectingSelections(() =>
        this.transact(groupingInterval, () =>
          this.getSelectionsOrderedByBufferPosition().map((selection, index) =>
            fn(selection, index),
          ),
        ),
      ) ?? []
    )
  },

  copySelectedText() {
    let append = false
    for (const selection of this.getSelectionsOrderedByBufferPosition()) {
      if (selection.isEmpty()) {
        const before = selection.getBufferRange()
        selection.selectLine()
        selection.copy(append, true)
        selection.setBufferRange(before)
      } else {
        selection.copy(append, false)
      }
      append = true
    }
  },

  copyOnlySelectedText() {
    let append = false
    for (const selection of this.getSelectionsOrderedByBufferPosition()) {
      if (selection.isEmpty()) continue
      selection.copy(append, false)
      append = true
    }
  },

  cutSelectedText(options = {}) {
    if (!this.ensureWritable('cutSelectedText', options)) return
    let append = false
    this.mutateSelectedText((selection) => {
      const wholeLine = selection.isEmpty()
      if (wholeLine) selection.selectLine()
      selection.cut(append, wholeLine, options.bypassReadOnly)
      append = true
    })
  },

  cutToEndOfLine(options = {}) {
    if (!this.ensureWritable('cutToEndOfLine', options)) return
    let append = false
    this.mutateSelectedText((selection) => {
      selection.cutToEndOfLine(append, options)
      append = true
    })
  },

  cutToEndOfBufferLine(options = {}) {
    if (!this.ensureWritable('cutToEndOfBufferLine', options)) return
    let append = false
    this.mutateSelectedText((selection) => {
      selection.cutToEndOfBufferLine(append, options)
      append = true
    })
  },

  pasteText(options = {}) {
    if (!this.ensureWritable('pasteText', options)) return
    const insertOptions: InsertTextOptions = { ...options }
    const { text: clipboardText, metadata } = this.getClipboard().readWithMetadata()
    if (!willInsert(this, clipboardText, 'pasteText', options)) return
    const saved: ClipboardMetadata = metadata ?? {}
    insertOptions.autoIndent ??= this.shouldAutoIndentOnPaste()
    const pieces = Array.isArray(saved.selections) ? (saved.selections as ClipboardPiece[]) : null
    this.mutateSelectedText((selection, index) => {
      const piece: ClipboardPiece =
        pieces !== null && pieces.length === this.getSelections().length
          ? pieces[index]!
          : {
              text: clipboardText,
              indentBasis: saved.indentBasis as number | undefined,
              fullLine: saved.fullLine as boolean | undefined,
            }
      const { text, indentBasis, fullLine } = piece
      insertOptions.indentBasis =
        indentBasis != null &&
        (text.includes('\n') || !selection.cursor.hasPrecedingCharactersOnLine())
          ? indentBasis
          : null
      let range: Range
      if (fullLine && selection.isEmpty()) {
        // A whole line goes above the cursor's line; the cursor stays on its text.
        const at = selection.getBufferRange().start
        selection.setBufferRange(new Range(new Point(at.row, 0), new Point(at.row, 0)))
        range = selection.insertText(text, insertOptions) as Range
        const below = at.translate([1, 0])
        selection.setBufferRange(new Range(below, below))
      } else {
        range = selection.insertText(text, insertOptions) as Range
      }
      this.emitter.emit('did-insert-text', { text, range })
    })
  },

  transact<T>(intervalOrFn: number | (() => T), maybeFn?: () => T): T {
    if (typeof intervalOrFn === 'function') return this.buffer.transact(intervalOrFn)
    return this.buffer.transact(intervalOrFn, maybeFn!)
  },

  undo(options = {}) {
    if (!this.ensureWritable('undo', options)) return
    this.avoidMergingSelections(() => this.buffer.undo())
    this.getLastSelection().autoscroll()
  },

  redo(options = {}) {
    if (!this.ensureWritable('redo', options)) return
    this.avoidMergingSelections(() => this.buffer.redo())
    this.getLastSelection().autoscroll()
  },

  createCheckpoint() {
    return this.buffer.createCheckpoint()
  },

  revertToCheckpoint(checkpoint) {
    return this.buffer.revertToCheckpoint(checkpoint)
  },

  groupChangesSinceCheckpoint(checkpoint) {
    return this.buffer.groupChangesSinceCheckpoint(checkpoint)
  },

  indentLevelForLine(line) {
    return indentLevelOf(this.context, line)
  },

  buildIndentString(level, column = 0) {
    return indentString(this.context, level, column)
  },

  getTabText() {
    return indentString(this.context, 1)
  },

  indentationForBufferRow(row) {
    return indentLevelOf(this.context, lineText(this.context, row))
  },

  setIndentationForBufferRow(row, level, options = {}) {
    setRowIndentation(this.context, row, level, options)
  },

  suggestedIndentForBufferRow(row, options) {
    return suggestedRowIndent(this.context, row, options)
  },

  suggestedIndentForLineAtBufferRow(row, line) {
    return suggestedLineIndent(this.context, row, line)
  },

  autoIndentBufferRow(row, options) {
    autoIndentRow(this.context, row, options)
  },

  autoIndentBufferRows(startRow, endRow) {
    autoIndentRows(this.context, startRow, endRow)
  },

  autoDecreaseIndentForBufferRow(row) {
    autoDecreaseRowIndent(this.context, row)
  },

  toggleLineCommentsForBufferRows(startRow, endRow, selection) {
    toggleRowComments(this.context, startRow, endRow, selection)
  },

  screenRangeIsSelected(range) {
    return this.selectionsMarkerLayer.findMarkers({ containsScreenRange: range }).length > 0
  },
}

/** Emits `will-insert-text`; false when a listener cancelled the insertion. */
const LINE_BREAK = /[\r\n]/
const NON_WHITESPACE = /\S/

/**
 * Typing at many cursors as one batch edit (`TextBuffer.setTextInRanges`) instead of one
 * edit per selection, when the two cannot be told apart: text without line breaks (so no
 * indentation rules apply), empty forward selections on different rows (so no edit moves
 * another cursor's row and column), no soft wrap or folds (so none moves another cursor on
 * screen), nothing listening for each insertion, and no language that re-indents on typing.
 * Null when the usual path must run.
 */
function typeAtEveryCursorAtOnce(
  editor: TextEditor,
  text: string,
  options: EditorInsertTextOptions,
  groupingInterval: number,
): Range[] | null {
  if (text === '' || LINE_BREAK.test(text) || options.select || options.indentBasis != null) {
    return null
  }
  if (options.autoDecreaseIndent && NON_WHITESPACE.test(text)) {
    if (!(editor.getLanguageMode() instanceof PlainTextMode)) return null
  }
  if (editor.emitter.listenerCountForEventName('did-insert-text') > 0) return null
  if (editor.isSoftWrapped() || editor.displayLayer.foldLayer.getMarkerCount() > 0) return null
  const selections = editor.getSelectionsOrderedByBufferPosition()
  if (selections.length < 2) return null
  let previousRow = -1
  for (const selection of selections) {
    if (!selection.isEmpty() || selection.isReversed()) return null
    const row = selection.getHeadBufferPosition().row
    if (row === previousRow) return null
    previousRow = row
  }
  const typed = editor.mergeIntersectingSelections(() =>
    editor.transact(groupingInterval, () => {
      const ranges = selections.map((selection) => selection.getBufferRange())
      // As each selection's insertText would: clear (scrolling to the last selection), edit,
      // scroll to it again.
      for (const selection of selections) selection.clear(options)
      const inserted = editor.buffer.setTextInRanges(ranges, text)
      for (const selection of selections) {
        if (options.autoscroll ?? selection.isLastSelection()) selection.autoscroll()
      }
      return inserted
    }),
  )
  return typed ?? null
}

function willInsert(
  editor: TextEditor,
  text: string,
  source: WillInsertTextEvent['source'],
  options: Readonly<EditorInsertTextOptions>,
): boolean {
  let cancelled = false
  editor.emitter.emit('will-insert-text', {
    text,
    source,
    options,
    cancel: () => {
      cancelled = true
    },
  })
  return !cancelled
}
