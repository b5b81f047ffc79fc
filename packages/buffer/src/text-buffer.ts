import {
  CompositeDisposable,
  Disposable,
  Emitter,
  Point,
  type PointLike,
  Range,
  type RangeLike,
} from '@tandem/text'
import * as Y from 'yjs'
import type {
  BufferChange,
  BufferChangeEvent,
  BufferStoppedChangingEvent,
  EditFollower,
} from './buffer-change.js'
import {
  BufferTransaction,
  firstFailure,
  type LocalBatch,
  type LocalEdit,
  NO_FAILURE,
  ParticipantList,
  type StageFailure,
  type TransactionKind,
  type TransactionParticipant,
  throwFailure,
} from './buffer-transaction.js'
import { ItemIndex, type TextChange } from './item-index.js'
import { extentForText, normalizeLineEndings } from './line-endings.js'
import { type LineEnding, LineStore } from './line-store.js'
import type { Marker, MarkOptions } from './marker.js'
import { MarkerLayer, type MarkerLayerHost, type MarkerLayerOptions } from './marker-layer.js'
import { findRangesInRange, type ScanCallback, type ScanResult, scanInRange } from './scan.js'
import { UndoHistory, type UndoStateProvider } from './undo-history.js'
import { clipPoint, toFiniteInteger } from './validate.js'
import { deletedLength, nextClock, onlyClientAdvancedBy } from './yjs-internals.js'

/** How a `TextBuffer` is made; see its constructor. */
export interface TextBufferOptions {
  /** Initial text for a new document (ignored when binding to a `doc` that has text). */
  text?: string
  /** An existing document to bind to; by default the buffer makes its own. */
  doc?: Y.Doc
  /** Name of the Y.Text in `doc` (default `'text'`). */
  textName?: string
  /** Milliseconds of quiet before `onDidStopChanging` fires (default 300). */
  stoppedChangingDelay?: number
}

/** Options of `setTextInRange`, `insert`, `append` and `delete`. */
export interface SetTextOptions {
  /** Turn the inserted line breaks into the ending of the edited line (default true). */
  normalizeLineEndings?: boolean
  /** `'skip'`: fold the change into the previous undo step instead of making its own (as Atom). */
  undo?: 'skip'
}

interface Events {
  'did-change': BufferChangeEvent
  'did-stop-changing': BufferStoppedChangingEvent
  'did-destroy': undefined
}

/**
 * A text buffer whose text is a Yjs `Y.Text`: Atom's TextBuffer reading and editing API in
 * rows and columns, kept in step with every change to the Y.Text, local or remote.
 *
 * Reads come from a line store updated from each transaction, so they cost O(log n);
 * every edit runs in one Yjs transaction whose origin is this buffer.
 *
 * @example
 * const buffer = new TextBuffer({ text: 'hello\nworld' })
 * buffer.setTextInRange([[1, 0], [1, 5]], 'there') // => Range [(1, 0) - (1, 5)]
 */
export class TextBuffer {
  /** The Yjs document holding the text. */
  readonly doc: Y.Doc
  /** The shared text itself. */
  readonly ytext: Y.Text
  private lines: LineStore
  private readonly index: ItemIndex
  private readonly history: UndoHistory
  private readonly emitter = new Emitter<Events>()
  private readonly layers = new Map<number, MarkerLayer>()
  private readonly participants = new ParticipantList()
  private readonly subscriptions = new CompositeDisposable()
  private defaultLayer: MarkerLayer | null = null
  private nextLayerId = 1
  private nextMarkerId = 1
  private textVersion = 0
  /** The transaction under way (the innermost, when `transact` runs inside `holdingUpdates`). */
  private current: BufferTransaction | null = null
  private destroyed = false
  private readonly stoppedChangingDelay: number
  private stoppedChangingTimer: ReturnType<typeof setTimeout> | null = null
  private lastChangeTime = 0
  private pendingStoppedChanges: BufferChange[] = []

  /**
   * Makes a buffer: over a new document holding `text`, or bound to `doc`'s Y.Text
   * `textName` (several buffers, one per peer, can share one text that way).
   *
   * @example new TextBuffer('a\nb') ; new TextBuffer({ doc, textName: 'source' })
   */
  constructor(options: TextBufferOptions | string = {}) {
    const settings = typeof options === 'string' ? { text: options } : options
    if (settings.text !== undefined && typeof settings.text !== 'string') {
      throw new TypeError(`text must be a string, got ${typeof settings.text}`)
    }
    this.doc = settings.doc ?? new Y.Doc()
    this.ytext = this.doc.getText(settings.textName ?? 'text')
    this.stoppedChangingDelay = settings.stoppedChangingDelay ?? 300
    if (settings.text && this.ytext.length === 0) {
      this.doc.transact(() => this.ytext.insert(0, settings.text!), this)
    }
    this.index = new ItemIndex(this.ytext)
    this.lines = new LineStore(this.ytext.toString())
    this.history = new UndoHistory(this.ytext, this)
    this.participants.join(this.historyParticipant(), Rank.History)
    this.ytext.observe(this.onTextEvent)
  }

  // Reading

  /** The whole text. O(n). @example buffer.getText() // => 'hello\nworld' */
  getText(): string {
    return this.lines.getText()
  }

  /** Length of the text in UTF-16 code units. */
  getLength(): number {
    return this.lines.length
  }

  /** The text in `range` (clipped). @example buffer.getTextInRange([[0, 1], [0, 3]]) // => 'el' */
  getTextInRange(range: RangeLike): string {
    const clipped = this.clipRange(range)
    return this.lines.getTextInOffsets(
      this.offsetOfClipped(clipped.start),
      this.offsetOfClipped(clipped.end),
    )
  }

  /** Number of lines; an empty buffer has one. */
  getLineCount(): number {
    return this.lines.lineCount
  }

  /** Index of the last row. */
  getLastRow(): number {
    return this.lines.lineCount - 1
  }

  /** All lines, without their endings. O(n). */
  getLines(): string[] {
    const lines: string[] = []
    for (let row = 0; row < this.lines.lineCount; row++) lines.push(this.lines.lineForRow(row))
    return lines
  }

  /** The text of `row` without its line ending, or undefined past the last row. */
  lineForRow(row: number): string | undefined {
    row = toFiniteInteger(row, 'row')
    if (row < 0 || row >= this.lines.lineCount) return undefined
    return this.lines.lineForRow(row)
  }

  /** The ending of `row`: `'\n'`, `'\r\n'`, or `''` for the last row (a lone `\r` is text). */
  lineEndingForRow(row: number): LineEnding | undefined {
    row = toFiniteInteger(row, 'row')
    if (row < 0 || row >= this.lines.lineCount) return undefined
    return this.lines.lineEndingForRow(row)
  }

  /** Length of `row` without its ending, or undefined past the last row. */
  lineLengthForRow(row: number): number | undefined {
    row = toFiniteInteger(row, 'row')
    if (row < 0 || row >= this.lines.lineCount) return undefined
    return this.lines.lineLengthForRow(row)
  }

  /** The last position in the buffer. */
  getEndPosition(): Point {
    const row = this.lines.lineCount - 1
    return new Point(row, this.lines.lineLengthForRow(row))
  }

  /** Same as `getEndPosition` (Atom's name for it). */
  getMaxPoint(): Point {
    return this.getEndPosition()
  }

  /** The first position, (0, 0). */
  getFirstPosition(): Point {
    return Point.ZERO
  }

  /** The range of the whole text. */
  getRange(): Range {
    return new Range(Point.ZERO, this.getEndPosition())
  }

  /** True when there is no text. */
  isEmpty(): boolean {
    return this.lines.length === 0
  }

  /** True when `row` holds only whitespace (or is past the end). */
  isRowBlank(row: number): boolean {
    const line = this.lineForRow(row)
    return line === undefined || !/\S/.test(line)
  }

  /** The nearest row before `row` that is not blank, or null. */
  previousNonBlankRow(row: number): number | null {
    for (let r = Math.min(row, this.getLineCount()) - 1; r >= 0; r--) {
      if (!this.isRowBlank(r)) return r
    }
    return null
  }

  /** The nearest row after `row` that is not blank, or null. */
  nextNonBlankRow(row: number): number | null {
    for (let r = Math.max(row + 1, 0); r < this.getLineCount(); r++) {
      if (!this.isRowBlank(r)) return r
    }
    return null
  }

  /**
   * The range of `row` (clipped to the buffer), including its line ending when
   * `includeNewline` is true and the row is not the last.
   *
   * @example buffer.rangeForRow(0, true) // => [(0, 0) - (1, 0)]
   */
  rangeForRow(row: number, includeNewline = false): Range {
    row = toFiniteInteger(row, 'row')
    const last = this.lines.lineCount - 1
    row = Math.max(0, Math.min(row, last))
    if (includeNewline && row < last) return new Range(new Point(row, 0), new Point(row + 1, 0))
    return new Range(new Point(row, 0), new Point(row, this.lines.lineLengthForRow(row)))
  }

  /**
   * The nearest valid position: rows before the first clip to (0, 0), rows past the last to
   * the end, columns to [0, line length]. NaN or a non-number throws a TypeError.
   *
   * @example buffer.clipPosition([0, 99]) // => (0, 5)
   */
  clipPosition(position: PointLike): Point {
    return clipPoint(position, this.lines, 'position')
  }

  /** `range` with both ends clipped (see `clipPosition`). */
  clipRange(range: RangeLike): Range {
    const r = Range.fromObject(range)
    const start = clipPoint(r.start, this.lines, 'range.start')
    const end = clipPoint(r.end, this.lines, 'range.end')
    return start === r.start && end === r.end ? r : new Range(start, end)
  }

  /**
   * Offset of `position` in UTF-16 code units, O(log n). As in Atom, row and column are
   * clamped separately: `[-1, 5]` counts as `(0, 5)`, a row past the end as the last row.
   */
  characterIndexForPosition(position: PointLike): number {
    if (!(position instanceof Point)) Point.assertValid(position, 'position')
    const { row, column } = Point.fromObject(position)
    const clampedRow = Math.max(0, Math.min(Math.floor(row), this.lines.lineCount - 1))
    const clampedColumn = Math.max(0, Math.floor(column))
    return this.lines.offsetForPosition(clampedRow, clampedColumn)
  }

  /** The position of the character offset `offset` (clipped to the text). O(log n). */
  positionForCharacterIndex(offset: number): Point {
    offset = Math.max(0, Math.min(toFiniteInteger(offset, 'offset'), this.lines.length))
    const { row, column } = this.lines.positionForOffset(offset)
    return new Point(row, column)
  }

  /**
   * Where a Yjs relative position of this text points now (from another peer's awareness, a
   * saved session), in O(log n) through the buffer's anchoring index, with Yjs's rules: a
   * deleted character resolves to where it was. Null when the position belongs to another
   * type or names text this document does not have yet.
   *
   * @example buffer.positionForRelativePosition(Y.createRelativePositionFromJSON(json))
   */
  positionForRelativePosition(position: Y.RelativePosition): Point | null {
    if (!(position instanceof Y.RelativePosition)) {
      throw new TypeError(`position must be a Y.RelativePosition, got ${String(position)}`)
    }
    const offset = this.index.offsetOf(position)
    return offset === null ? null : this.positionForCharacterIndex(offset)
  }

  /**
   * A Yjs relative position for `position` (clipped), as
   * `Y.createRelativePositionFromTypeIndex` makes it but in O(log n). `assoc >= 0` (the
   * default) ties it to the character after the position, so text inserted there goes before
   * it; `assoc < 0` ties it to the character before.
   *
   * @example buffer.relativePositionForPosition([2, 4]) // resolves to (2, 4) on every peer
   */
  relativePositionForPosition(position: PointLike, assoc = 0): Y.RelativePosition {
    if (typeof assoc !== 'number' || Number.isNaN(assoc)) {
      throw new TypeError(`assoc must be a number, got ${String(assoc)}`)
    }
    return this.index.relativePositionAt(this.characterIndexForPosition(position), assoc)
  }

  // Editing

  /**
   * Replaces the text in `range` (clipped) with `text` and returns the range of the new text.
   *
   * @example buffer.setTextInRange([[0, 0], [0, 5]], 'howdy') // => [(0, 0) - (0, 5)]
   */
  setTextInRange(range: RangeLike, text: string, options: SetTextOptions = {}): Range {
    const edit = this.prepareEdit(range, text, options)
    // As in Atom, even an edit that replaces nothing with nothing makes an undo step.
    this.transact(() => {
      if (edit.start !== edit.end || edit.text !== '') this.edit(edit.start, edit.end, edit.text)
      else this.current!.madeEmptyEdit = true
    })
    // As in Atom, a skipped undo step is folded into the one before it.
    if (options.undo === 'skip' && !this.isEditing()) this.history.groupLastChanges()
    return new Range(edit.startPoint, edit.startPoint.traverse(extentForText(edit.text)))
  }

  /**
   * Replaces the text in each of `ranges` (clipped) with `text`, as one transaction: what
   * `setTextInRange` on each range in turn would do, with every range given in the text as it
   * is before the call, at the cost of one edit for all of them. The ranges must be sorted and
   * apart (an edit's end before the next one's start), else a `RangeError`. Returns the
   * ranges of the new text, in the text after the call.
   *
   * @example buffer.setTextInRanges([[[0, 1], [0, 1]], [[2, 1], [2, 1]]], 'x') // types at two places
   */
  setTextInRanges(
    ranges: readonly RangeLike[],
    text: string,
    options: SetTextOptions = {},
  ): Range[] {
    const edits = ranges.map((range) => this.prepareEdit(range, text, options))
    for (let i = 1; i < edits.length; i++) {
      if (edits[i]!.start <= edits[i - 1]!.end) {
        throw new RangeError(`setTextInRanges: range ${i} is not after range ${i - 1}`)
      }
    }
    this.transact(() => {
      const real = edits.filter((edit) => edit.start !== edit.end || edit.text !== '')
      if (real.length < edits.length) this.current!.madeEmptyEdit = true
      if (real.length > 0) this.editMany(real)
    })
    if (options.undo === 'skip' && !this.isEditing()) this.history.groupLastChanges()
    // Rows and columns after the call: each edit moves the ones after it on its last row.
    const result: Range[] = []
    let rowShift = 0
    let columnShiftRow = -1
    let columnShift = 0
    for (const edit of edits) {
      const { startPoint } = edit
      const oldEnd = edit.endPoint
      const column =
        startPoint.row === columnShiftRow ? startPoint.column + columnShift : startPoint.column
      const start = new Point(startPoint.row + rowShift, column)
      const end = start.traverse(extentForText(edit.text))
      result.push(new Range(start, end))
      rowShift = end.row - oldEnd.row
      columnShiftRow = oldEnd.row
      columnShift = end.column - oldEnd.column
    }
    return result
  }

  /** Checks and clips an edit's range and adjusts its text, as `setTextInRange` takes it. */
  private prepareEdit(range: RangeLike, text: string, options: SetTextOptions): PreparedEdit {
    if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${typeof text}`)
    const oldRange = this.clipRange(range)
    if (options.normalizeLineEndings ?? true) {
      const ending =
        this.lines.lineEndingForRow(oldRange.start.row) ||
        (oldRange.start.row > 0 ? this.lines.lineEndingForRow(oldRange.start.row - 1) : '')
      if (ending) text = normalizeLineEndings(text, ending)
    }
    // A lone surrogate in the text becomes U+FFFD here, as Yjs makes it on every other peer.
    text = wellFormed(text)
    // Local edits never split a surrogate pair (Yjs would turn both halves into U+FFFD): an
    // edge inside one moves outside it, an insertion to before it.
    let startPoint = oldRange.start
    if (splitsPairAt(this.lines, startPoint)) {
      startPoint = new Point(startPoint.row, startPoint.column - 1)
    }
    const start = this.offsetOfClipped(startPoint)
    let end = start
    let endPoint = startPoint
    if (!oldRange.isEmpty()) {
      end = this.offsetOfClipped(oldRange.end)
      endPoint = oldRange.end
      if (splitsPairAt(this.lines, oldRange.end)) {
        end += 1
        endPoint = new Point(endPoint.row, endPoint.column + 1)
      }
    }
    return { startPoint, endPoint, start, end, text }
  }

  /** Replaces the whole text. */
  setText(text: string): Range {
    return this.setTextInRange(this.getRange(), text, { normalizeLineEndings: false })
  }

  /** Inserts `text` at `position` and returns its range. */
  insert(position: PointLike, text: string, options?: SetTextOptions): Range {
    const at = this.clipPosition(position)
    return this.setTextInRange(new Range(at, at), text, options)
  }

  /** Appends `text` at the end and returns its range. */
  append(text: string, options?: SetTextOptions): Range {
    return this.insert(this.getEndPosition(), text, options)
  }

  /** Deletes the text in `range` and returns the empty range where it was. */
  delete(range: RangeLike): Range {
    return this.setTextInRange(range, '')
  }

  /** Deletes `row`, including its line ending. */
  deleteRow(row: number): Range {
    return this.deleteRows(row, row)
  }

  /** Deletes rows `startRow` through `endRow` (inclusive), with their line endings. */
  deleteRows(startRow: number, endRow: number): Range {
    startRow = toFiniteInteger(startRow, 'startRow')
    endRow = toFiniteInteger(endRow, 'endRow')
    const last = this.getLastRow()
    let start = Math.max(0, Math.min(startRow, endRow))
    const end = Math.min(last, Math.max(startRow, endRow))
    let startPoint: Point
    let endPoint: Point
    if (end < last) {
      startPoint = new Point(start, 0)
      endPoint = new Point(end + 1, 0)
    } else if (start > 0) {
      start -= 1
      startPoint = new Point(start, this.lines.lineLengthForRow(start))
      endPoint = this.getEndPosition()
    } else {
      startPoint = Point.ZERO
      endPoint = this.getEndPosition()
    }
    return this.delete(new Range(startPoint, endPoint))
  }

  /**
   * Calls `callback` for each match of `regex` in `range`, first to last. The callback may
   * call `stop()` and `replace(text)`; replacements are made in one transaction afterwards.
   *
   * @example buffer.scanInRange(/o/g, buffer.getRange(), ({ range }) => hits.push(range))
   */
  scanInRange(regex: RegExp, range: RangeLike, callback: ScanCallback): void {
    scanInRange(this, regex, this.clipRange(range), callback, false)
  }

  /** Like `scanInRange`, last match first. */
  backwardsScanInRange(regex: RegExp, range: RangeLike, callback: ScanCallback): void {
    scanInRange(this, regex, this.clipRange(range), callback, true)
  }

  /** `scanInRange` over the whole buffer. */
  scan(regex: RegExp, callback: ScanCallback): void {
    this.scanInRange(regex, this.getRange(), callback)
  }

  /** `backwardsScanInRange` over the whole buffer. */
  backwardsScan(regex: RegExp, callback: ScanCallback): void {
    this.backwardsScanInRange(regex, this.getRange(), callback)
  }

  /** The ranges of every match of `regex` in `range` (clipped), first to last. */
  findAllInRangeSync(regex: RegExp, range: RangeLike): Range[] {
    return findRangesInRange(this, regex, this.clipRange(range), Number.POSITIVE_INFINITY)
  }

  /** The range of the first match of `regex` in `range` (clipped), or null. */
  findInRangeSync(regex: RegExp, range: RangeLike): Range | null {
    return findRangesInRange(this, regex, this.clipRange(range), 1)[0] ?? null
  }

  /** Every match of `regex` in `range`, as scan results. */
  findAllInRange(regex: RegExp, range: RangeLike): ScanResult[] {
    const results: ScanResult[] = []
    this.scanInRange(regex, range, (result) => results.push(result))
    return results
  }

  /**
   * Runs `fn` as one Yjs transaction with this buffer as origin: other code sees its changes
   * at once, events fire once after it, and it is one undo step. With a grouping interval,
   * the step merges into the previous one while that one is still groupable. If `fn` throws,
   * its changes are reverted and the error rethrown.
   *
   * @example buffer.transact(() => { buffer.insert([0, 0], 'a'); buffer.insert([1, 0], 'b') })
   */
  transact<T>(fn: () => T): T
  transact<T>(groupingInterval: number, fn: () => T): T
  transact<T>(intervalOrFn: number | (() => T), maybeFn?: () => T): T {
    const fn = typeof intervalOrFn === 'function' ? intervalOrFn : maybeFn!
    const groupingInterval = typeof intervalOrFn === 'number' ? intervalOrFn : 0
    if (typeof fn !== 'function') throw new TypeError('transact needs a function')
    if (this.isEditing()) return fn()
    const transaction = this.begin('edit')
    this.history.willTransact(groupingInterval)
    let result!: T
    let thrown: unknown = null
    // A participant that throws when Yjs reports the changes keeps the commit from nobody.
    let failure: StageFailure = NO_FAILURE
    try {
      this.doc.transact(() => {
        try {
          result = fn()
        } catch (error) {
          transaction.failed = true
          thrown = error
        }
      }, this)
    } catch (error) {
      failure = error
    } finally {
      this.current = transaction.outer
    }
    failure = firstFailure(failure, this.participants.didCommit(transaction))
    if (transaction.failed) throw thrown
    throwFailure(failure)
    return result
  }

  /**
   * Runs `fn` with marker layers' `did-update` and the display layer's row changes held
   * until it returns, as `transact` holds them, but without a Yjs transaction or an undo
   * step: for calls that only move markers, such as moving cursors. An edit made inside is
   * a transaction of its own.
   *
   * @example buffer.holdingUpdates(() => cursors.forEach((cursor) => cursor.moveDown()))
   */
  holdingUpdates<T>(fn: () => T): T {
    if (this.current !== null) return fn()
    return this.running('hold', fn)
  }

  /** Starts a transaction of `kind` inside the one under way, if any. */
  private begin(kind: TransactionKind): BufferTransaction {
    const transaction = new BufferTransaction(kind, this, this.current)
    this.current = transaction
    return transaction
  }

  /** Runs `fn` as a transaction of `kind`, which ends (and is committed) when it returns. */
  private running<T>(kind: TransactionKind, fn: () => T): T {
    const transaction = this.begin(kind)
    let result: T
    try {
      result = fn()
    } catch (error) {
      // Every participant hears of the end, even when `fn` threw (its error is the one thrown).
      this.current = transaction.outer
      this.participants.didCommit(transaction)
      throw error
    }
    this.current = transaction.outer
    throwFailure(this.participants.didCommit(transaction))
    return result
  }

  /** Whether a `transact` call is running. */
  private isEditing(): boolean {
    return this.current?.kind === 'edit'
  }

  // Undo

  /**
   * Reverts this buffer's last change (never another peer's). Returns false when there is
   * none. Throws when called inside `transact` (the text would change behind its edits).
   */
  undo(): boolean {
    this.assertOutsideTransaction('undo')
    // Marker change events wait for the end: markers that the text moves and the step then
    // puts back where it saved them report one change, or none, as in Atom.
    return this.running('undo', () => this.history.undo())
  }

  /** Re-applies the last undone change. Returns false when there is none. Not inside `transact`. */
  redo(): boolean {
    this.assertOutsideTransaction('redo')
    return this.running('redo', () => this.history.redo())
  }

  /** Marks the current place in the undo history. */
  createCheckpoint(): number {
    return this.history.createCheckpoint()
  }

  /** Undoes every change since the checkpoint, dropping them from the history. */
  revertToCheckpoint(checkpoint: number): boolean {
    this.assertOutsideTransaction('revertToCheckpoint')
    return this.history.revertToCheckpoint(checkpoint)
  }

  private assertOutsideTransaction(operation: string): void {
    if (this.isEditing()) {
      throw new Error(`${operation}() cannot run inside transact(): call it once transact returns`)
    }
  }

  /** Merges the changes since the checkpoint into one undo step. */
  groupChangesSinceCheckpoint(checkpoint: number): boolean {
    return this.history.groupChangesSinceCheckpoint(checkpoint)
  }

  /** Merges the last two undo steps into one. */
  groupLastChanges(): boolean {
    return this.history.groupLastChanges()
  }

  /** Forgets the undo history. */
  clearUndoStack(): void {
    this.history.clearUndoStack()
  }

  /** Forgets the redo history. */
  clearRedoStack(): void {
    this.history.clearRedoStack()
  }

  /**
   * Saves state with every undo step (captured before and after it) and restores it on
   * undo/redo, e.g. selections as relative positions. Dispose to stop.
   */
  registerUndoState<State>(provider: UndoStateProvider<State>): Disposable {
    return this.history.register(provider)
  }

  // Markers

  /** Makes a new marker layer. */
  addMarkerLayer(options: MarkerLayerOptions = {}): MarkerLayer {
    const layer = new MarkerLayer(this.layerHost, this.nextLayerId++, options)
    this.layers.set(layer.id, layer)
    const leave = this.participants.join(layer, Rank.MarkerLayer)
    layer.onDidDestroy(() => {
      this.layers.delete(layer.id)
      leave()
    })
    if (layer.maintainHistory) {
      const registration = this.registerUndoState(layer.historyState())
      layer.onDidDestroy(() => registration.dispose())
    }
    return layer
  }

  /** The layer with `id`, if it exists. */
  getMarkerLayer(id: number): MarkerLayer | undefined {
    return this.layers.get(id)
  }

  /** The layer `markRange` and `markPosition` use. */
  getDefaultMarkerLayer(): MarkerLayer {
    if (this.defaultLayer === null) this.defaultLayer = this.addMarkerLayer()
    return this.defaultLayer
  }

  /** Marks `range` on the default layer. */
  markRange(range: RangeLike, options?: MarkOptions): Marker {
    return this.getDefaultMarkerLayer().markRange(range, options)
  }

  /** Marks `position` on the default layer. */
  markPosition(position: PointLike, options?: MarkOptions): Marker {
    return this.getDefaultMarkerLayer().markPosition(position, options)
  }

  /**
   * Has `follower` hear of every edit as it is made, before any event (see `EditFollower`).
   *
   * @example const subscription = buffer.followEdits(displayLayerFollower)
   */
  followEdits(follower: EditFollower): Disposable {
    const participant: TransactionParticipant = {
      textDidChange: (transaction, changes) =>
        follower.textDidChange(transaction.describe(changes, this.describe)),
      textDidReset: () => follower.textDidReset(),
      willCommit: () => follower.transactionDidEnd(),
      didCommit: () => follower.transactionDidEnd(),
    }
    return new Disposable(this.participants.join(participant, Rank.Follower))
  }

  /** Whether a `transact` (or `holdingUpdates`) call is running. */
  isTransacting(): boolean {
    const kind = this.current?.kind
    return kind === 'edit' || kind === 'hold'
  }

  /** Counts transactions that changed the text; positions cached at one version stay valid until the next. */
  get version(): number {
    return this.textVersion
  }

  /** Offset of an already clipped point. */
  private offsetOfClipped(point: Point): number {
    return this.lines.offsetForPosition(point.row, point.column)
  }

  // Events

  /**
   * Calls `callback` once after every transaction that changed the text, local or remote.
   *
   * @example buffer.onDidChange(({ changes, local }) => console.log(changes.length, local))
   */
  onDidChange(callback: (event: BufferChangeEvent) => void): Disposable {
    return this.emitter.on('did-change', callback)
  }

  /** Same as `onDidChange` (Atom's name for the per-transaction event). */
  onDidChangeText(callback: (event: BufferChangeEvent) => void): Disposable {
    return this.onDidChange(callback)
  }

  /** Calls `callback` with the changes made once the text has not changed for a while. */
  onDidStopChanging(callback: (event: BufferStoppedChangingEvent) => void): Disposable {
    return this.emitter.on('did-stop-changing', callback)
  }

  /** Calls `callback` when the buffer is destroyed. */
  onDidDestroy(callback: () => void): Disposable {
    return this.emitter.on('did-destroy', callback)
  }

  /** Whether `destroy` was called. */
  isDestroyed(): boolean {
    return this.destroyed
  }

  /** Stops following the Y.Text and releases listeners; the document itself is left alone. */
  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    this.ytext.unobserve(this.onTextEvent)
    if (this.stoppedChangingTimer !== null) clearTimeout(this.stoppedChangingTimer)
    for (const layer of [...this.layers.values()]) layer.destroy()
    this.history.destroy()
    this.subscriptions.dispose()
    this.emitter.emit('did-destroy')
    this.emitter.dispose()
  }

  /** How the undo history takes part in transactions. */
  private historyParticipant(): TransactionParticipant {
    const history = this.history
    return {
      willCommit: (transaction) => {
        const yjs = transaction.yjs
        if (transaction.kind !== 'edit' || yjs === null || yjs.origin !== this) return
        // Recorded before Yjs collects the deleted items; saved markers are anchored by now.
        history.record(yjs, transaction.tookInSoleBatch)
        if (transaction.appliedEdits) history.captureAfter()
      },
      didCommit: (transaction) => {
        if (transaction.kind === 'edit') history.didTransact(transaction)
      },
    }
  }

  /** What marker layers use of the buffer (each call goes straight to the part that answers). */
  private readonly layerHost: MarkerLayerHost = {
    clipRange: (range) => this.clipRange(range),
    clipPosition: (position) => this.clipPosition(position),
    offsetOfClipped: (point) => this.lines.offsetForPosition(point.row, point.column),
    positionForCharacterIndex: (offset) => this.positionForCharacterIndex(offset),
    version: () => this.textVersion,
    offsetOfRelativePosition: (position) => this.index.offsetOf(position),
    relativePositionAt: (offset, assoc) => this.index.relativePositionAt(offset, assoc),
    allocateMarkerId: () => this.nextMarkerId++,
    hasUnsettledEdits: () => this.current !== null && this.current.unsettledEditCalls > 0,
    isTransacting: () => this.isTransacting(),
  }

  private readonly onTextEvent = (_event: Y.YTextEvent, yjs: Y.Transaction): void => {
    const transaction = this.transactionOf(yjs.origin)
    const standalone = transaction !== this.current
    // A participant that throws keeps neither the others nor the later stages from running.
    let failure: StageFailure = NO_FAILURE
    const calls = transaction.unsettledEditCalls
    const batch = transaction.soleBatch
    transaction.settle()
    const applied = calls > 0
    const changes = this.takeIn(yjs, calls, batch, transaction)
    transaction.yjs = yjs
    transaction.appliedEdits = applied
    if (applied && this.lines.length !== this.index.length) {
      // Someone edited the Y.Text directly inside this buffer's transaction: read it again.
      this.lines = new LineStore(this.ytext.toString())
      this.textVersion++
      failure = this.participants.textDidReset(transaction)
    }
    if (changes.length > 0) {
      transaction.textChanged = true
      if (!applied) {
        this.applyToLines(changes)
        this.textVersion++
        failure = firstFailure(failure, this.participants.textDidChange(transaction, changes))
      }
    }
    failure = firstFailure(failure, this.participants.willCommit(transaction))
    if (changes.length > 0) {
      try {
        this.emitChanges(transaction, changes, yjs.origin)
      } catch (error) {
        failure = firstFailure(failure, error)
      }
    }
    if (standalone) failure = firstFailure(failure, this.participants.didCommit(transaction))
    throwFailure(failure)
  }

  /** Emits `did-change` (and schedules `did-stop-changing`) for a transaction's changes. */
  private emitChanges(
    transaction: BufferTransaction,
    changes: readonly TextChange[],
    origin: unknown,
  ): void {
    const wantsChanges = this.emitter.listenerCountForEventName('did-change') > 0
    const wantsStop = this.emitter.listenerCountForEventName('did-stop-changing') > 0
    if (!wantsChanges && !wantsStop) return
    const described = transaction.describe(changes, this.describe)
    if (wantsChanges) this.emitDidChange(described, transaction.local, origin)
    if (wantsStop) this.scheduleStoppedChanging(described)
  }

  /**
   * The buffer transaction a Yjs transaction with `origin` belongs to: the one under way for
   * the buffer's own edits and undo steps; a transaction of its own for anything else.
   */
  private transactionOf(origin: unknown): BufferTransaction {
    const running = this.current
    const manager = this.history.manager
    if (running !== null) {
      if (origin === this && running.kind === 'edit') return running
      if (origin === manager && running.holdsMarkerEvents) return running
    }
    const kind = origin === manager ? 'undo' : origin === this ? 'edit' : 'remote'
    return new BufferTransaction(kind, origin)
  }

  /**
   * The transaction's changes, taken into the item index. A transaction that made exactly
   * one edit call through this buffer, and nothing else, is taken in from that call's edits.
   */
  private takeIn(
    yjs: Y.Transaction,
    calls: number,
    batch: LocalBatch | null,
    transaction: BufferTransaction,
  ): TextChange[] {
    transaction.tookInSoleBatch = false
    if (calls === 1 && batch !== null && isOnlyBatch(yjs, batch)) {
      for (const edit of batch.edits) {
        this.index.noteLocalEdit(edit.offset, edit.deleted, batch.client, edit.clock, edit.inserted)
      }
      transaction.tookInSoleBatch = true
      return batch.changes
    }
    return this.index.ingest(yjs)
  }

  private emitDidChange(changes: BufferChange[], local: boolean, origin: unknown): void {
    const first = changes[0]!
    const last = changes[changes.length - 1]!
    this.emitter.emit('did-change', {
      changes,
      oldRange: new Range(first.oldRange.start, last.oldRange.end),
      newRange: new Range(first.newRange.start, last.newRange.end),
      local,
      remote: !local,
      origin,
    })
  }

  /**
   * One edit inside a transaction: Yjs first, then the line store and markers at once, so
   * reads later in the same transaction see it (Yjs reports it only when the transaction ends).
   */
  private edit(start: number, end: number, text: string): void {
    const client = this.doc.clientID
    const clock = nextClock(this.doc, client)
    if (end > start) this.ytext.delete(start, end - start)
    if (text !== '') this.ytext.insert(start, text)
    const oldText = this.lines.splice(start, end - start, text)
    const change: TextChange = {
      oldStart: start,
      oldEnd: end,
      newStart: start,
      newEnd: start + text.length,
      text,
      oldText,
    }
    this.textVersion++
    const edits = [{ offset: start, deleted: end - start, inserted: text.length, clock }]
    this.editsMade({ client, changes: [change], edits, described: null })
  }

  /**
   * Several edits inside a transaction, sorted and apart, in offsets before any of them: Yjs
   * first, then the line store, markers and followers once for all of them, as one batch.
   */
  private editMany(edits: readonly PreparedEdit[]): void {
    const client = this.doc.clientID
    const changes: TextChange[] = []
    const made: LocalEdit[] = []
    let shift = 0
    for (const { start, end, text } of edits) {
      const at = start + shift
      const clock = nextClock(this.doc, client)
      if (end > start) this.ytext.delete(at, end - start)
      if (text !== '') this.ytext.insert(at, text)
      made.push({ offset: at, deleted: end - start, inserted: text.length, clock })
      changes.push({
        oldStart: start,
        oldEnd: end,
        newStart: at,
        newEnd: at + text.length,
        text,
        oldText: '',
      })
      shift += text.length - (end - start)
    }
    for (let i = changes.length - 1; i >= 0; i--) {
      const c = changes[i]!
      c.oldText = this.lines.splice(c.oldStart, c.oldEnd - c.oldStart, c.text)
    }
    this.textVersion++
    this.editsMade({ client, changes, edits: made, described: null })
  }

  /** Notes a call's edits in the running transaction and tells the participants. */
  private editsMade(batch: LocalBatch): void {
    const transaction = this.current!
    transaction.noteEdits(batch)
    const changes = batch.changes
    throwFailure(this.participants.textDidChange(transaction, changes))
  }

  /** Applies changes to the line store, last first (old offsets stay valid to their left). */
  private applyToLines(changes: TextChange[]): void {
    repairSplitSurrogates(changes, this.lines, this.index)
    for (let i = changes.length - 1; i >= 0; i--) {
      const c = changes[i]!
      this.lines.splice(c.oldStart, c.oldEnd - c.oldStart, c.text)
    }
  }

  /**
   * Describes changes in rows and columns, from the text as it is now: the text between two
   * changes is the same before and after, so old positions follow from the new ones and the
   * old texts.
   */
  private readonly describe = (changes: readonly TextChange[]): BufferChange[] => {
    let oldEnd = Point.ZERO
    let newEnd = Point.ZERO
    return changes.map((c) => {
      const newStart = this.pointAt(c.newStart)
      const oldStart = oldEnd.traverse(newStart.traversalFrom(newEnd))
      newEnd = c.newEnd === c.newStart ? newStart : this.pointAt(c.newEnd)
      oldEnd = oldStart.traverse(extentForText(c.oldText))
      return {
        oldRange: new Range(oldStart, oldEnd),
        newRange: new Range(newStart, newEnd),
        oldText: c.oldText,
        newText: c.text,
      }
    })
  }

  private pointAt(offset: number): Point {
    const { row, column } = this.lines.positionForOffset(offset)
    return new Point(row, column)
  }

  /**
   * Collects changes for `onDidStopChanging` and fires it once the text has been quiet for
   * the delay. One timer serves a burst of changes: when it fires early it waits out the rest.
   */
  private scheduleStoppedChanging(changes: BufferChange[]): void {
    for (const change of changes) this.pendingStoppedChanges.push(change)
    this.lastChangeTime = performance.now()
    if (this.stoppedChangingTimer === null) this.armStoppedChanging(this.stoppedChangingDelay)
  }

  private armStoppedChanging(delay: number): void {
    this.stoppedChangingTimer = setTimeout(this.onStoppedChangingTimer, delay)
  }

  private readonly onStoppedChangingTimer = (): void => {
    this.stoppedChangingTimer = null
    const quiet = performance.now() - this.lastChangeTime
    if (quiet < this.stoppedChangingDelay) {
      this.armStoppedChanging(this.stoppedChangingDelay - quiet)
      return
    }
    const pending = this.pendingStoppedChanges
    this.pendingStoppedChanges = []
    if (pending.length > 0) this.emitter.emit('did-stop-changing', { changes: pending })
  }
}

/** The order participants are called in: markers settle, then the history saves them, then followers hear. */
enum Rank {
  MarkerLayer = 0,
  History = 1,
  Follower = 2,
}

/** An edit checked and clipped, in offsets and points of the text before it. */
interface PreparedEdit {
  startPoint: Point
  endPoint: Point
  start: number
  end: number
  text: string
}

/**
 * Whether `transaction` holds nothing but `batch`: only the local client's clock advanced, by
 * the inserted length (one item per edit), and the delete set covers exactly the deleted length.
 */
const isOnlyBatch = (transaction: Y.Transaction, batch: LocalBatch): boolean => {
  let inserted = 0
  let deleted = 0
  for (const edit of batch.edits) {
    inserted += edit.inserted
    deleted += edit.deleted
  }
  return (
    onlyClientAdvancedBy(transaction, batch.client, inserted) &&
    deletedLength(transaction) === deleted
  )
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
const HAS_SURROGATE = /[\uD800-\uDFFF]/

/** `text` with every lone surrogate replaced by U+FFFD, as Yjs encodes it for other peers. */
const wellFormed = (text: string): string =>
  HAS_SURROGATE.test(text) ? text.replace(LONE_SURROGATE, '\uFFFD') : text

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff

/** Whether `offset` falls between the two halves of a surrogate pair. */
const splitsPair = (lines: LineStore, offset: number): boolean =>
  offset > 0 &&
  offset < lines.length &&
  isLowSurrogate(lines.getTextInOffsets(offset, offset + 1).charCodeAt(0)) &&
  isHighSurrogate(lines.getTextInOffsets(offset - 1, offset).charCodeAt(0))

/** Whether the clipped `point` falls between the two halves of a surrogate pair. */
const splitsPairAt = (lines: LineStore, point: Point): boolean => {
  const column = point.column
  if (column === 0) return false
  const line = lines.lineForRow(point.row)
  return (
    column < line.length &&
    isLowSurrogate(line.charCodeAt(column)) &&
    isHighSurrogate(line.charCodeAt(column - 1))
  )
}

/**
 * Yjs replaces both halves of a surrogate pair with U+FFFD when an edit splits the pair
 * inside one item, without reporting it as a change. Where a change's edge splits a pair in
 * the line store, widen the change over that pair and take the characters Yjs now holds.
 */
const repairSplitSurrogates = (changes: TextChange[], lines: LineStore, index: ItemIndex): void => {
  for (const c of changes) {
    const splitsAt = (offset: number) => splitsPair(lines, offset)
    if (splitsAt(c.oldStart)) {
      c.oldStart -= 1
      c.newStart -= 1
      c.text = index.charAt(c.newStart) + c.text
      c.oldText = lines.getTextInOffsets(c.oldStart, c.oldStart + 1) + c.oldText
    }
    if (splitsAt(c.oldEnd)) {
      c.oldEnd += 1
      c.newEnd += 1
      c.text += index.charAt(c.newEnd - 1)
      c.oldText += lines.getTextInOffsets(c.oldEnd - 1, c.oldEnd)
    }
  }
}
