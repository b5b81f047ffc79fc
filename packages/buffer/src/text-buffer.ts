import {
  CompositeDisposable,
  Disposable,
  Point,
  type PointLike,
  Range,
  type RangeLike,
} from '@tandem/text'
import type { TextBufferOptions } from './buffer-base.js'
import type {
  BufferChangeEvent,
  BufferStoppedChangingEvent,
  EditFollower,
} from './buffer-change.js'
import { BufferIntake, type PreparedEdit, Rank } from './buffer-intake.js'
import {
  BufferTransaction,
  firstFailure,
  NO_FAILURE,
  type StageFailure,
  type TransactionKind,
  type TransactionParticipant,
  throwFailure,
} from './buffer-transaction.js'
import { extentForText, normalizeLineEndings } from './line-endings.js'
import type { Marker, MarkOptions } from './marker.js'
import { MarkerLayer, type MarkerLayerHost, type MarkerLayerOptions } from './marker-layer.js'
import { findRangesInRange, type ScanCallback, type ScanResult, scanInRange } from './scan.js'
import { splitsPairAt, wellFormed } from './surrogates.js'
import type { SavedUndoHistory, UndoStateProvider } from './undo-history.js'
import { toFiniteInteger } from './validate.js'

export type { TextBufferOptions } from './buffer-base.js'

/** Options of `setTextInRange`, `insert`, `append` and `delete`. */
export interface SetTextOptions {
  /** Turn the inserted line breaks into the ending of the edited line (default true). */
  normalizeLineEndings?: boolean
  /** `'skip'`: fold the change into the previous undo step instead of making its own (as Atom). */
  undo?: 'skip'
}

/**
 * A text buffer whose text is a Yjs `Y.Text`: Atom's TextBuffer reading and editing API in
 * rows and columns, kept in step with every change to the Y.Text, local or remote.
 *
 * Reads come from a line store updated from each transaction, so they cost O(log n);
 * every edit runs in one Yjs transaction whose origin is this buffer.
 *
 * It is built in layers, each a module with one idea: `BufferBase` (the text's views and
 * Atom's queries in rows, columns, offsets and relative positions), `BufferIntake` (local
 * edits applied at once, Yjs transactions taken in, change events), and `TextBuffer` itself:
 * editing, transactions, undo, markers and the events' subscriptions.
 *
 * @example
 * const buffer = new TextBuffer({ text: 'hello\nworld' })
 * buffer.setTextInRange([[1, 0], [1, 5]], 'there') // => Range [(1, 0) - (1, 5)]
 */
export class TextBuffer extends BufferIntake {
  private readonly layers = new Map<number, MarkerLayer>()
  private readonly subscriptions = new CompositeDisposable()
  private defaultLayer: MarkerLayer | null = null
  private nextLayerId = 1
  private nextMarkerId = 1
  private destroyed = false

  /**
   * Makes a buffer: over a new document holding `text`, or bound to `doc`'s Y.Text
   * `textName` (several buffers, one per peer, can share one text that way).
   *
   * @example new TextBuffer('a\nb') ; new TextBuffer({ doc, textName: 'source' })
   */
  constructor(options: TextBufferOptions | string = {}) {
    super(typeof options === 'string' ? { text: options } : options)
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

  /**
   * The undo and redo stacks as data that can be stored and sent (the newest `maxSteps`
   * steps), so that a buffer over the same document elsewhere (after a reload, on another
   * device) can `loadUndoHistory` them and undo this buffer's steps. States travel for the
   * providers registered with a key and serializers (the selections of a `TextEditor` do).
   *
   * @example localStorage.setItem('undo', JSON.stringify(buffer.saveUndoHistory(100).undo.length))
   */
  saveUndoHistory(maxSteps?: number): SavedUndoHistory {
    return this.history.save(maxSteps)
  }

  /**
   * Replaces the undo and redo stacks with saved ones, from `saveUndoHistory` on a buffer over
   * the same document (this document must have the ids the steps name: load it once synced).
   * Undo then reverts those steps as the buffer that made them would: never a peer's change,
   * and only what remains of text others deleted or rewrote since. Returns the steps loaded.
   * Not inside `transact`.
   *
   * @example buffer.loadUndoHistory(saved) // => 12
   */
  loadUndoHistory(saved: SavedUndoHistory): number {
    this.assertOutsideTransaction('loadUndoHistory')
    return this.history.load(saved)
  }

  /**
   * Calls `callback` when the undo history changes (a step is made, joined, undone, redone,
   * forgotten, or loaded), e.g. to save it a moment later. It may be called inside a
   * transaction: note the change there, edit nothing.
   *
   * @example buffer.onDidChangeUndoHistory(() => scheduleSave())
   */
  onDidChangeUndoHistory(callback: () => void): Disposable {
    return this.history.onDidChange(callback)
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
    this.stopTakingIn()
    for (const layer of [...this.layers.values()]) layer.destroy()
    this.history.destroy()
    this.subscriptions.dispose()
    this.emitter.emit('did-destroy')
    this.emitter.dispose()
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
}
