import type { SavedUndoHistory } from '@tandem/buffer'
import { PlainTextMode } from '@tandem/language'
import { type Disposable, type Emitter, Point, Range, type RangeLike } from '@tandem/text'
import type { ClipboardMetadata } from './clipboard.js'
import { EditorCommands } from './editor-commands.js'
import type {
  EditorEvents,
  EditorInsertTextOptions,
  PasteTextOptions,
  WillInsertTextEvent,
} from './editor-options.js'
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
import type { ClipboardPiece, InsertTextOptions, WriteOptions } from './write-options.js'

/**
 * Atom's editor-wide text changes: each runs a Selection operation on every selection, in
 * buffer order, as one transaction (one undo step, one Y transaction), then merges the
 * selections that met. Undo and redo restore the selections saved with each step.
 */
export class EditorEdits extends EditorCommands {
  /** Calls `callback` before text is inserted; it may cancel the insertion. */
  onWillInsertText(callback: (event: WillInsertTextEvent) => void): Disposable {
    return this.emitter.on('will-insert-text', callback)
  }

  /** Calls `callback` after text was inserted at a selection. */
  onDidInsertText(callback: (event: { text: string; range: Range }) => void): Disposable {
    return this.emitter.on('did-insert-text', callback)
  }

  /** Calls `callback` when a text change was refused because the editor is read-only. */
  onDidAttemptReadOnlyEdit(callback: (event: { operation: string }) => void): Disposable {
    return this.emitter.on('did-attempt-read-only-edit', callback)
  }

  /** The text in a buffer range. */
  getTextInRange(range: RangeLike): string {
    return this.buffer.getTextInRange(range)
  }

  /**
   * Replaces the text in a buffer range (clipped) with `text`, as one undo step; refused on a
   * read-only editor unless `bypassReadOnly`. Returns the range of the new text.
   */
  setTextInBufferRange(
    range: RangeLike,
    text: string,
    options: WriteOptions & { normalizeLineEndings?: boolean } = {},
  ): Range | undefined {
    if (!this.context.mayEdit('setTextInBufferRange', options)) return undefined
    const { normalizeLineEndings } = options
    return this.buffer.setTextInRange(
      range,
      text,
      normalizeLineEndings === undefined ? {} : { normalizeLineEndings },
    )
  }

  /** Inserts `text` at every selection; returns the inserted ranges (false when cancelled). */
  insertText(text: string, options: EditorInsertTextOptions = {}): Range[] | false | undefined {
    if (typeof text !== 'string') {
      throw new TypeError(`text must be a string, got ${text === null ? 'null' : typeof text}`)
    }
    if (!this.context.mayEdit('insertText', options)) return undefined
    if (!willInsert(this.emitter, text, 'insertText', options)) return false
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
      typeAtEveryCursorAtOnce(
        this,
        text,
        options,
        groupingInterval,
        this.emitter.listenerCountForEventName('did-insert-text') > 0,
      ) ??
      this.mutateSelectedText((selection) => {
        const range = selection.insertText(text, options) as Range
        this.emitter.emit('did-insert-text', { text, range })
        return range
      }, groupingInterval)
    if (groupWithPrevious) this.buffer.groupLastChanges()
    return inserted
  }

  /** Inserts a newline at every selection. */
  insertNewline(options?: EditorInsertTextOptions): Range[] | false | undefined {
    return this.insertText('\n', options)
  }

  /** `Selection.deleteLine` at every selection. */
  deleteLine(options?: WriteOptions): void {
    if (!this.context.mayEdit('deleteLine', options)) return
    // As Atom: selections sharing a screen row delete their lines once, as one selection.
    this.mergeSelectionsOnSameRows()
    this.mutateSelectedText((selection) => selection.deleteLine(options))
  }

  /** `Selection.indent` at every selection (auto-indenting when the editor does). */
  indent(options: { autoIndent?: boolean } & WriteOptions = {}): void {
    if (!this.context.mayEdit('indent', options)) return
    options.autoIndent ??= this.shouldAutoIndent()
    this.mutateSelectedText((selection) => selection.indent(options))
  }

  /** Copies every selection (the whole line for an empty one) to the clipboard, as pieces. */
  copySelectedText(): void {
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
  }

  /** Copies only the non-empty selections. */
  copyOnlySelectedText(): void {
    let append = false
    for (const selection of this.getSelectionsOrderedByBufferPosition()) {
      if (selection.isEmpty()) continue
      selection.copy(append, false)
      append = true
    }
  }

  /** Cuts every selection (the whole line for an empty one). */
  cutSelectedText(options: WriteOptions = {}): void {
    if (!this.context.mayEdit('cutSelectedText', options)) return
    let append = false
    this.mutateSelectedText((selection) => {
      const wholeLine = selection.isEmpty()
      if (wholeLine) selection.selectLine()
      selection.cut(append, wholeLine, options.bypassReadOnly)
      append = true
    })
  }

  /** Cuts every selection, or to the end of each screen line. */
  cutToEndOfLine(options: WriteOptions = {}): void {
    if (!this.context.mayEdit('cutToEndOfLine', options)) return
    let append = false
    this.mutateSelectedText((selection) => {
      selection.cutToEndOfLine(append, options)
      append = true
    })
  }

  /** Cuts every selection, or to the end of each buffer line. */
  cutToEndOfBufferLine(options: WriteOptions = {}): void {
    if (!this.context.mayEdit('cutToEndOfBufferLine', options)) return
    let append = false
    this.mutateSelectedText((selection) => {
      selection.cutToEndOfBufferLine(append, options)
      append = true
    })
  }

  /**
   * Inserts the clipboard at every selection: one piece per selection when the clipboard
   * holds as many, whole lines above the cursor when they were copied as whole lines, and
   * lines re-indented to where they land.
   */
  pasteText(options: PasteTextOptions = {}): void {
    if (!this.context.mayEdit('pasteText', options)) return
    const insertOptions: InsertTextOptions = { ...options }
    const { text: clipboardText, metadata } = this.getClipboard().readWithMetadata()
    if (!willInsert(this.emitter, clipboardText, 'pasteText', options)) return
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
  }

  /** Runs `fn` as one undo step and one Y transaction (grouped with the previous within `groupingInterval`). */
  transact<T>(fn: () => T): T
  /** Runs `fn` as one undo step and one Y transaction, grouped with the previous step when that ended less than `groupingInterval` ms ago. */
  transact<T>(groupingInterval: number, fn: () => T): T
  transact<T>(intervalOrFn: number | (() => T), maybeFn?: () => T): T {
    if (typeof intervalOrFn === 'function') return this.buffer.transact(intervalOrFn)
    return this.buffer.transact(intervalOrFn, maybeFn!)
  }

  /** Undoes this editor's last step (never another peer's), restoring its selections. */
  undo(options: WriteOptions = {}): void {
    if (!this.context.mayEdit('undo', options)) return
    this.avoidMergingSelections(() => this.buffer.undo())
    this.getLastSelection().autoscroll()
  }

  /** Redoes the last undone step, restoring the selections after it. */
  redo(options: WriteOptions = {}): void {
    if (!this.context.mayEdit('redo', options)) return
    this.avoidMergingSelections(() => this.buffer.redo())
    this.getLastSelection().autoscroll()
  }

  /** Marks the current place in the undo history. */
  createCheckpoint(): number {
    return this.buffer.createCheckpoint()
  }

  /** Undoes every change since the checkpoint. */
  revertToCheckpoint(checkpoint: number): boolean {
    return this.buffer.revertToCheckpoint(checkpoint)
  }

  /** Makes the changes since the checkpoint one undo step. */
  groupChangesSinceCheckpoint(checkpoint: number): boolean {
    return this.buffer.groupChangesSinceCheckpoint(checkpoint)
  }

  /**
   * This editor's undo and redo stacks as data to store or send (the newest `maxSteps`
   * steps): each step's Yjs ids, and the selections before and after it as relative
   * positions. An editor over the same document elsewhere (after a reload, on another device)
   * takes them with `restoreUndoHistory`. `connect` of `@tandem/collab` keeps them on the
   * server and offline.
   *
   * @example const saved = editor.getUndoHistoryState(500)
   */
  getUndoHistoryState(maxSteps?: number): SavedUndoHistory {
    return this.buffer.saveUndoHistory(maxSteps)
  }

  /**
   * Replaces the undo and redo stacks with saved ones (from `getUndoHistoryState` of an editor
   * over the same document, once this one has synced). Undo then reverts those steps and
   * puts back their selections; it never reverts another person's change, and undoes only
   * what remains of text others deleted or rewrote since. Returns the steps taken.
   *
   * @example editor.restoreUndoHistory(saved) // => 12
   */
  restoreUndoHistory(saved: SavedUndoHistory): number {
    return this.buffer.loadUndoHistory(saved)
  }

  /**
   * Calls `callback` when the undo history changes (a step made, joined, undone, redone or
   * forgotten, a history restored), e.g. to save it a moment later; it may run inside a
   * transaction, so it should only schedule work.
   *
   * @example editor.onDidChangeUndoHistory(() => debounce(save))
   */
  onDidChangeUndoHistory(callback: () => void): Disposable {
    return this.buffer.onDidChangeUndoHistory(callback)
  }

  /** The indent level of a line of text with this editor's tab length. */
  indentLevelForLine(line: string): number {
    return indentLevelOf(this.context, line)
  }

  /** Indentation for `level` levels (soft or hard tabs), less what `column` already covers. */
  buildIndentString(level: number, column: number = 0): string {
    return indentString(this.context, level, column)
  }

  /** One level of indentation. */
  getTabText(): string {
    return indentString(this.context, 1)
  }

  /** The indent level of a buffer row. */
  indentationForBufferRow(row: number): number {
    return indentLevelOf(this.context, lineText(this.context, row))
  }

  /** Sets a row's indentation to `level`, replacing its leading whitespace (or inserting before it). */
  setIndentationForBufferRow(
    row: number,
    level: number,
    options: { preserveLeadingWhitespace?: boolean } = {},
  ): void {
    setRowIndentation(this.context, row, level, options)
  }

  /** The indent level the language suggests for a row. */
  suggestedIndentForBufferRow(
    row: number,
    options?: { skipBlankLines?: boolean },
  ): number | undefined {
    return suggestedRowIndent(this.context, row, options)
  }

  /** The indent level the language suggests for `line` at `row`. */
  suggestedIndentForLineAtBufferRow(row: number, line: string): number | undefined {
    return suggestedLineIndent(this.context, row, line)
  }

  /** Indents a row as the language suggests. */
  autoIndentBufferRow(
    row: number,
    options?: { preserveLeadingWhitespace?: boolean; skipBlankLines?: boolean },
  ): void {
    autoIndentRow(this.context, row, options)
  }

  /** Indents rows `startRow` to `endRow` as the language suggests. */
  autoIndentBufferRows(startRow: number, endRow: number): void {
    autoIndentRows(this.context, startRow, endRow)
  }

  /** Outdents a row being typed on when the language says so (a closing bracket). */
  autoDecreaseIndentForBufferRow(row: number): void {
    autoDecreaseRowIndent(this.context, row)
  }

  /** Comments or uncomments rows with the language's line comment (nothing without one). */
  toggleLineCommentsForBufferRows(startRow: number, endRow: number, selection?: Selection): void {
    toggleRowComments(this.context, startRow, endRow, selection)
  }

  /** Whether a selection contains a screen range. */
  screenRangeIsSelected(range: Range): boolean {
    return this.selectionsMarkerLayer.findMarkers({ containsScreenRange: range }).length > 0
  }
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
  editor: EditorEdits,
  text: string,
  options: EditorInsertTextOptions,
  groupingInterval: number,
  insertionsListened: boolean,
): Range[] | null {
  if (text === '' || LINE_BREAK.test(text) || options.select || options.indentBasis != null) {
    return null
  }
  if (options.autoDecreaseIndent && NON_WHITESPACE.test(text)) {
    if (!(editor.getLanguageMode() instanceof PlainTextMode)) return null
  }
  if (insertionsListened) return null
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
  const typed = editor.selectionSet.change(() =>
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
  emitter: Emitter<EditorEvents>,
  text: string,
  source: WillInsertTextEvent['source'],
  options: Readonly<EditorInsertTextOptions>,
): boolean {
  let cancelled = false
  emitter.emit('will-insert-text', {
    text,
    source,
    options,
    cancel: () => {
      cancelled = true
    },
  })
  return !cancelled
}
