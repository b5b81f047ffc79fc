import {
  type Disposable,
  Emitter,
  type Point,
  type PointLike,
  Range,
  type RangeLike,
} from '@tandem/text'
import * as Y from 'yjs'
import type { BufferTransaction } from './buffer-transaction.js'
import {
  type FindMarkersParams,
  findMarkers,
  type OffsetMapper,
  searchWindow,
} from './find-markers.js'
import type { TextChange } from './item-index.js'
import {
  Marker,
  type MarkerChangeEvent,
  type MarkerOwner,
  type MarkerSnapshot,
  type MarkerUpdate,
  type MarkOptions,
  type RelativeRange,
} from './marker.js'
import { MarkerIndex } from './marker-index.js'
import { MarkerRegistry } from './marker-registry.js'
import {
  changeAtOrBefore,
  endMoves,
  type InvalidationStrategy,
  invalidates,
  type MarkerShape,
  shiftPast,
  startMoves,
  touches,
} from './marker-rules.js'
import type { UndoStateProvider } from './undo-history.js'

/**
 * @internal What a marker layer uses of its buffer: clipping and converting positions, the text's
 * version, relative positions, marker ids, and whether edits or a transaction are under way.
 */
export interface MarkerLayerHost {
  /** `range` with both ends clipped to the text. */
  clipRange(range: RangeLike): Range
  /** `position` clipped to the text. */
  clipPosition(position: PointLike): Point
  /** Offset of a clipped point. */
  offsetOfClipped(point: Point): number
  /** The position of an offset (clipped). */
  positionForCharacterIndex(offset: number): Point
  /** Counts text changes: positions cached at one version stay valid until the next. */
  version(): number
  /** Where a relative position points now, or null when it cannot be resolved. */
  offsetOfRelativePosition(position: Y.RelativePosition): number | null
  /** A relative position for `offset`: `assoc >= 0` ties it to the character after, else before. */
  relativePositionAt(offset: number, assoc: number): Y.RelativePosition
  /** A new marker id, unique in the buffer. */
  allocateMarkerId(): number
  /** Whether the running transaction made edits that relative positions cannot name yet. */
  hasUnsettledEdits(): boolean
  /** Whether a transaction (or `holdingUpdates`) runs, so that `did-update` waits. */
  isTransacting(): boolean
}

/** Options of `TextBuffer.addMarkerLayer`. */
export interface MarkerLayerOptions {
  /** Save the markers with each undo step and restore them on undo/redo. */
  maintainHistory?: boolean
  /** Destroy markers as soon as a change invalidates them. */
  destroyInvalidatedMarkers?: boolean
  /** A free-form role, e.g. `'selections'`. */
  role?: string
}

/** Payload of `MarkerLayer.onDidChangeMarker`. */
export interface LayerMarkerChange {
  /** The marker that changed. */
  readonly marker: Marker
  /** What changed, as the marker's own `onDidChange` reports it. */
  readonly change: MarkerChangeEvent
}

interface Events {
  'did-update': undefined
  'did-create-marker': Marker
  'did-change-marker': LayerMarkerChange
  'did-destroy-marker': Marker
  'did-destroy': undefined
}

/** A layer's markers and their saved states, side by side. */
interface LayerSnapshot {
  /** Null for a marker of a saved history that this layer has not made yet (see `restore`). */
  readonly markers: (Marker | null)[]
  readonly states: MarkerSnapshot[]
  /** Invalidation strategies of the markers to make, for a snapshot read from saved data. */
  readonly strategies?: InvalidationStrategy[]
}

/** A marker's state in a saved undo history: `MarkerSnapshot` as JSON. */
interface SavedMarker {
  start: unknown
  end: unknown
  reversed: boolean
  tailed: boolean
  valid: boolean
  exclusive: boolean | null
  properties: Record<string, unknown>
  invalidate: InvalidationStrategy
}

const STRATEGY_NAMES: readonly string[] = ['never', 'surround', 'overlap', 'inside', 'touch']

const isIdJSON = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  Number.isSafeInteger((value as { client?: unknown }).client) &&
  Number.isSafeInteger((value as { clock?: unknown }).clock)

/** A relative position from its JSON form, checked; null when it is not one. */
const relativePositionOf = (data: unknown): Y.RelativePosition | null => {
  if (typeof data !== 'object' || data === null) return null
  const { type, tname, item, assoc } = data as Record<string, unknown>
  if (type !== undefined && type !== null && !isIdJSON(type)) return null
  if (tname !== undefined && tname !== null && typeof tname !== 'string') return null
  if (item !== undefined && item !== null && !isIdJSON(item)) return null
  if (assoc !== undefined && assoc !== null && !Number.isSafeInteger(assoc)) return null
  return Y.createRelativePositionFromJSON(data)
}

const savedMarkerOf = (
  data: unknown,
): { state: MarkerSnapshot; strategy: InvalidationStrategy } | null => {
  if (typeof data !== 'object' || data === null) return null
  const saved = data as Partial<Record<keyof SavedMarker, unknown>>
  const start = relativePositionOf(saved.start)
  const end = relativePositionOf(saved.end)
  if (start === null || end === null) return null
  const { properties, exclusive, invalidate } = saved
  if (typeof invalidate !== 'string' || !STRATEGY_NAMES.includes(invalidate)) return null
  if (exclusive !== null && typeof exclusive !== 'boolean') return null
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties))
    return null
  const state: MarkerSnapshot = {
    start,
    end,
    reversed: saved.reversed === true,
    tailed: saved.tailed !== false,
    valid: saved.valid !== false,
    exclusive,
    properties: properties as Record<string, unknown>,
  }
  return { state, strategy: invalidate as InvalidationStrategy }
}

/**
 * A set of markers kept in step with the buffer's text.
 *
 * Edits this buffer makes move markers by Atom's rules (`exclusive`, invalidation strategies);
 * edits from elsewhere follow collaborative anchoring: a caret stays before text inserted at
 * it, a selection does not grow from insertions at its edges, and a deleted range collapses
 * the markers inside it. Offsets are updated from each transaction's changes in one pass.
 *
 * @example const layer = buffer.addMarkerLayer({ maintainHistory: true })
 */
export class MarkerLayer implements MarkerOwner {
  /** Whether undo and redo put the markers back where they were. */
  readonly maintainHistory: boolean
  /** Whether a marker is destroyed, not just marked invalid, when an edit invalidates it. */
  readonly destroyInvalidatedMarkers: boolean
  /** The free-form role it was made with, e.g. `'selections'`. */
  readonly role: string | undefined
  private readonly markers = new MarkerRegistry()
  private viewOwner: object | null = null
  /**
   * Markers with change listeners, in the order they got them. A destroyed one stays listed
   * (skipped) until the list is compacted; `Marker.watchListed` keeps a marker listed once.
   */
  private watched: Marker[] = []
  /** Destroyed markers still in `watched`, at most. */
  private watchedDestroyed = 0
  private readonly emitter = new Emitter<Events>()
  private destroyed = false
  private updatePending = false
  /** Markers moved by edits made inside a transaction, to re-anchor once it ends. */
  private readonly unanchored = new Set<Marker>()
  /** The markers by offset, so an edit visits only the markers it touches. */
  private readonly index = new MarkerIndex()
  private readonly offsetMapper: OffsetMapper = {
    offsetOf: (position) => this.host.offsetOfClipped(this.host.clipPosition(position)),
  }

  /** @internal Made by `TextBuffer.addMarkerLayer`. */
  constructor(
    /** What the layer uses of the buffer whose text the markers follow. */
    private readonly host: MarkerLayerHost,
    /** Unique among the buffer's layers. */
    readonly id: number,
    options: MarkerLayerOptions = {},
  ) {
    this.maintainHistory = options.maintainHistory ?? false
    this.destroyInvalidatedMarkers = options.destroyInvalidatedMarkers ?? false
    this.role = options.role
  }

  /**
   * Marks `range` (clipped). Defaults: tailed, not reversed, `invalidate: 'overlap'`,
   * exclusive only for `'inside'`.
   *
   * @example layer.markRange([[0, 0], [0, 3]], { invalidate: 'touch' })
   */
  markRange(range: RangeLike, options: MarkOptions = {}): Marker {
    const clipped = this.host.clipRange(range)
    return this.createMarker(clipped, options)
  }

  /** Marks a position (clipped) with a tailless marker, which is exclusive by default. */
  markPosition(position: PointLike, options: MarkOptions = {}): Marker {
    const at = this.host.clipPosition(position)
    return this.createMarker(new Range(at, at), options, false)
  }

  /**
   * Marks the range between two relative positions received from elsewhere (another peer, a
   * saved session). Null when they cannot be resolved in this document (yet).
   */
  markRelativeRange(relative: RelativeRange, options: MarkOptions = {}): Marker | null {
    this.assertAlive()
    const a = this.host.offsetOfRelativePosition(relative.start)
    const b = this.host.offsetOfRelativePosition(relative.end)
    if (a === null || b === null) return null
    const start = Math.min(a, b)
    const end = Math.max(a, b)
    const [startAnchor, endAnchor] =
      a > b ? [relative.end, relative.start] : [relative.start, relative.end]
    const marker = new Marker(
      this.host.allocateMarkerId(),
      this,
      start,
      end,
      startAnchor,
      endAnchor,
      options,
    )
    return this.addMarker(marker)
  }

  /** The marker with `id` on this layer. */
  getMarker(id: number): Marker | undefined {
    return this.markers.get(id)
  }

  /** All markers, in creation (id) order. */
  getMarkers(): Marker[] {
    return this.markers.values()
  }

  /** Number of markers. */
  getMarkerCount(): number {
    return this.markers.size
  }

  /**
   * Markers matching every given condition (closed intervals, as Atom), sorted by start and
   * then longest first. Keys other than the positional ones match properties.
   *
   * @example layer.findMarkers({ containsPoint: [1, 2], valid: true })
   */
  findMarkers(params: FindMarkersParams = {}): Marker[] {
    const window = searchWindow(params, this.offsetMapper)
    if (window === null) return findMarkers(this.markers.values(), params)
    const candidates: Marker[] = []
    this.index.overlapping(window[0], window[1], candidates)
    return findMarkers(candidates, params)
  }

  /**
   * Markers whose closed ranges meet `range` (clipped), in no particular order: the quick
   * form of `findMarkers({ intersectsRange })` for hot paths. O(log n + found).
   */
  markersIntersectingRange(range: RangeLike): Marker[] {
    const clipped = this.host.clipRange(range)
    const found: Marker[] = []
    this.index.overlapping(
      this.host.offsetOfClipped(clipped.start),
      this.host.offsetOfClipped(clipped.end),
      found,
    )
    return found
  }

  /** Markers whose closed ranges meet `marker`'s, itself included, in no particular order. */
  markersIntersectingMarker(marker: Marker): Marker[] {
    const found: Marker[] = []
    this.index.overlapping(marker.start, marker.end, found)
    return found
  }

  /** Destroys every marker. */
  clear(): void {
    for (const marker of this.markers.values()) marker.destroy()
  }

  /** Destroys the layer and its markers. */
  destroy(): void {
    if (this.destroyed) return
    this.clear()
    this.destroyed = true
    this.emitter.emit('did-destroy')
    this.emitter.dispose()
  }

  /** Whether the layer was destroyed. */
  isDestroyed(): boolean {
    return this.destroyed
  }

  /** Calls `callback` after markers changed: at the end of a transaction, or at once outside one. */
  onDidUpdate(callback: () => void): Disposable {
    return this.emitter.on('did-update', callback)
  }

  /** Calls `callback` with every marker made on this layer. */
  onDidCreateMarker(callback: (marker: Marker) => void): Disposable {
    return this.emitter.on('did-create-marker', callback)
  }

  /**
   * Calls `callback` when an observed marker changes (see `Marker.observe`): one
   * subscription for a whole layer instead of one per marker, for owners of many markers.
   */
  onDidChangeMarker(callback: (event: LayerMarkerChange) => void): Disposable {
    return this.emitter.on('did-change-marker', callback)
  }

  /** Calls `callback` with each marker destroyed, after its own destroy listeners. */
  onDidDestroyMarker(callback: (marker: Marker) => void): Disposable {
    return this.emitter.on('did-destroy-marker', callback)
  }

  /** Calls `callback` when the layer is destroyed. */
  onDidDestroy(callback: () => void): Disposable {
    return this.emitter.on('did-destroy', callback)
  }

  // Package internal: called by Marker and TextBuffer.

  /** @internal Counts text changes (see `MarkerOwner`). */
  textVersion(): number {
    return this.host.version()
  }

  /** @internal The position of an offset (see `MarkerOwner`). */
  positionAt(offset: number): Point {
    return this.host.positionForCharacterIndex(offset)
  }

  /**
   * Applies a direct update to a marker; emits its change event at once (if it moved since the last one).
   *
   * @internal
   */
  updateMarker(marker: Marker, update: MarkerUpdate): boolean {
    if (marker.destroyed) return false
    let changed = false
    if (update.range !== undefined) {
      const range = this.host.clipRange(update.range)
      const start = this.host.offsetOfClipped(range.start)
      const end = this.host.offsetOfClipped(range.end)
      if (start !== marker.start || end !== marker.end) {
        this.index.move(marker, start, end)
        this.anchorWhenSettled(marker)
        changed = true
      }
    }
    if (update.tailed !== undefined && update.tailed !== marker.tailed) {
      marker.tailed = update.tailed
      changed = true
    }
    const reversed = marker.tailed && (update.reversed ?? marker.reversed)
    if (reversed !== marker.reversed) {
      marker.reversed = reversed
      changed = true
    }
    if (update.valid !== undefined && update.valid !== marker.valid) {
      marker.valid = update.valid
      changed = true
    }
    if (update.exclusive !== undefined) marker.explicitExclusive = update.exclusive
    if (update.properties !== undefined) {
      marker.properties = Object.freeze({ ...update.properties })
      changed = true
    }
    // As in Atom, even an update that changes nothing reports what changed since the last
    // event: a change made by an edit whose events are still pending is reported here, as
    // not caused by the text.
    marker.emitChange(false)
    if (changed) this.scheduleUpdate()
    return changed
  }

  /** @internal Copies a marker onto this layer. */
  copyMarker(marker: Marker, options: MarkOptions): Marker {
    return this.createMarker(marker.getRange(), {
      reversed: marker.reversed,
      tailed: marker.tailed,
      valid: marker.valid,
      invalidate: marker.getInvalidationStrategy(),
      exclusive: marker.explicitExclusive,
      ...options,
      properties: { ...marker.getProperties(), ...(options.properties ?? {}) },
    })
  }

  /** @internal Forgets a marker that was just destroyed. */
  removeMarker(marker: Marker): void {
    this.markers.remove(marker)
    this.index.remove(marker)
    if (marker.watchListed && ++this.watchedDestroyed * 2 > this.watched.length) {
      this.compactWatched()
    }
    this.scheduleUpdate()
  }

  /** @internal Tells layer listeners that `marker` changed (package internal). */
  reportMarkerChange(marker: Marker, change: MarkerChangeEvent): void {
    this.emitter.emit('did-change-marker', { marker, change })
  }

  /** @internal Tells layer listeners that `marker` was destroyed (package internal). */
  reportMarkerDestroyed(marker: Marker): void {
    this.emitter.emit('did-destroy-marker', marker)
  }

  /**
   * Lets `owner` keep one object per marker in `Marker.view` (for a display marker layer, so
   * that it needs no map of its own). True for the first owner to ask; later ones keep their
   * own maps.
   *
   * @example this.wrappers = bufferLayer.claimView(this) ? null : new Map()
   */
  claimView(owner: object): boolean {
    if (this.viewOwner !== null && this.viewOwner !== owner) return false
    this.viewOwner = owner
    return true
  }

  /** @internal Remembers that a marker has change listeners. */
  watch(marker: Marker): void {
    if (marker.watchListed) return
    marker.watchListed = true
    this.watched.push(marker)
  }

  private compactWatched(): void {
    const kept: Marker[] = []
    for (const marker of this.watched) {
      if (marker.destroyed) marker.watchListed = false
      else kept.push(marker)
    }
    this.watched = kept
    this.watchedDestroyed = 0
  }

  /**
   * Moves every marker through changes (sorted, in old offsets): by Atom's rules when `local`,
   * else by collaborative anchoring. With `deferAnchoring` (an edit inside a transaction, before
   * Yjs has settled its items) the relative positions of touched markers are renewed later by
   * `anchorMovedMarkers`.
   *
   * @internal
   */
  applyChanges(changes: readonly TextChange[], local: boolean, deferAnchoring = false): void {
    if (this.markers.size === 0) return
    // Only markers touching a change need Atom's rules (or their relative positions); the
    // rest move with the text after the changes, by whole buckets.
    const touched: Marker[] = []
    for (const c of changes) this.index.overlapping(c.oldStart, c.oldEnd, touched)
    const affected = changes.length > 1 ? [...new Set(touched)] : touched
    const shapes: MarkerShape[] = []
    for (const marker of affected) {
      shapes.push({ start: marker.start, end: marker.end, exclusive: marker.isExclusive() })
      this.index.remove(marker)
    }
    for (let i = changes.length - 1; i >= 0; i--) {
      const c = changes[i]!
      const delta = c.newEnd - c.newStart - (c.oldEnd - c.oldStart)
      if (delta !== 0) this.index.shiftAfter(c.oldEnd, delta)
    }
    const invalidated: Marker[] = []
    for (let k = 0; k < affected.length; k++) {
      const marker = affected[k]!
      const shape = shapes[k]!
      if (marker.valid && marker.getInvalidationStrategy() !== 'never') {
        if (isInvalidated(marker, shape, changes)) {
          marker.valid = false
          invalidated.push(marker)
        }
      }
      const moved = this.moveThrough(marker, shape, changes, local)
      if (moved) {
        if (deferAnchoring) this.unanchored.add(marker)
        else this.anchor(marker)
      }
    }
    if (this.destroyInvalidatedMarkers) for (const marker of invalidated) marker.destroy()
  }

  /**
   * Puts a marker that touches some of `changes` back in the index at its new offsets: by
   * Atom's rules when `local`, else from its relative positions. True when its relative
   * positions need renewing.
   */
  private moveThrough(
    marker: Marker,
    shape: MarkerShape,
    changes: readonly TextChange[],
    local: boolean,
  ): boolean {
    let start = shape.start
    let end = shape.end
    let startTouched = false
    let endTouched = false
    let startMovedBy: TextChange | null = null
    const i = changeAtOrBefore(changes, shape.start)
    if (i >= 0) {
      const c = changes[i]!
      if (touches(c, shape.start)) {
        startTouched = true
        if (startMoves(shape, c)) {
          start = c.newEnd
          startMovedBy = c
        } else {
          start = c.newStart
        }
      } else {
        start = shiftPast(c, shape.start)
      }
    }
    const j = shape.end === shape.start ? i : changeAtOrBefore(changes, shape.end)
    if (j >= 0) {
      const c = changes[j]!
      if (touches(c, shape.end)) {
        endTouched = true
        end = endMoves(shape, c, startMovedBy === c) ? c.newEnd : c.newStart
      } else {
        end = shiftPast(c, shape.end)
      }
    }
    let straddled = false
    if (!local) {
      // Touched ends are resolved from their relative positions: the anchoring every peer shares.
      const host = this.host
      if (startTouched) start = host.offsetOfRelativePosition(marker.startAnchor) ?? start
      if (endTouched) end = host.offsetOfRelativePosition(marker.endAnchor) ?? end
      if (start > end) {
        // A collapsed selection whose anchors now straddle inserted text: keep the caret
        // before the insertion, as for any caret.
        start = end
        straddled = true
      }
    }
    const emptinessChanged = (shape.start === shape.end) !== (start === end)
    this.index.insert(marker, start, end)
    // An end whose character a remote change deleted must be anchored again: its relative
    // position still names the deleted character, and Yjs places text inserted there later
    // after the deleted run, so the marker would grow over it.
    const anchorDeleted =
      !local && ((startTouched && deletes(changes[i]!)) || (endTouched && deletes(changes[j]!)))
    return (local && (startTouched || endTouched)) || emptinessChanged || straddled || anchorDeleted
  }

  /**
   * Moves the markers through edits: local ones by Atom's rules (anchored again when the
   * transaction's edits settle), others through their relative positions.
   *
   * @internal
   */
  textDidChange(transaction: BufferTransaction, changes: readonly TextChange[]): void {
    this.applyChanges(changes, transaction.local, transaction.unsettledEditCalls > 0)
  }

  /** @internal The transaction's edits settled: moved markers get relative positions. */
  willCommit(): void {
    this.anchorMovedMarkers()
  }

  /**
   * The transaction is over: markers the text moved report their changes (undo and redo
   * held them until now); otherwise a held `did-update` goes out.
   *
   * @internal
   */
  didCommit(transaction: BufferTransaction): void {
    if (transaction.textChanged || transaction.holdsMarkerEvents) this.emitChangeEvents()
    else this.flushUpdate()
  }

  /** @internal Checks the marker index (tests only). */
  checkIndex(): void {
    this.index.checkInvariants()
  }

  /**
   * Renews the relative positions of markers moved inside the transaction that just ended.
   *
   * @internal
   */
  anchorMovedMarkers(): void {
    for (const marker of this.unanchored) if (!marker.destroyed) this.anchor(marker)
    this.unanchored.clear()
  }

  /**
   * Emits `did-update` and the change events of markers with listeners (end of a transaction).
   *
   * @internal
   */
  emitChangeEvents(): void {
    if (this.destroyed) return
    this.updatePending = false
    this.emitter.emit('did-update')
    for (const marker of this.watched.slice()) marker.emitChange(true)
  }

  /** @internal Emits a `did-update` that waited for the end of a transaction. */
  flushUpdate(): void {
    if (!this.updatePending || this.destroyed) return
    this.updatePending = false
    this.emitter.emit('did-update')
  }

  /** @internal The undo-state provider for `maintainHistory` layers. */
  historyState(): UndoStateProvider<LayerSnapshot> {
    return {
      capture: () => {
        const markers: Marker[] = []
        const states: MarkerSnapshot[] = []
        for (const marker of this.markers.values()) {
          markers.push(marker)
          states.push(marker.snapshot())
        }
        return { markers, states }
      },
      restore: (snapshot) => this.restore(snapshot),
      ...(this.role === undefined ? {} : this.savedHistoryState(this.role)),
    }
  }

  /** How a layer with a role saves its markers in a saved undo history, keyed by the role. */
  private savedHistoryState(
    role: string,
  ): Pick<UndoStateProvider<LayerSnapshot>, 'key' | 'serialize' | 'deserialize'> {
    return {
      key: `markers:${role}`,
      serialize: (snapshot): SavedMarker[] =>
        snapshot.states.map((state, i) => ({
          start: Y.relativePositionToJSON(state.start),
          end: Y.relativePositionToJSON(state.end),
          reversed: state.reversed,
          tailed: state.tailed,
          valid: state.valid,
          exclusive: state.exclusive,
          properties: state.properties,
          invalidate:
            snapshot.markers[i]?.getInvalidationStrategy() ?? snapshot.strategies?.[i] ?? 'overlap',
        })),
      deserialize: (data): LayerSnapshot | null => {
        if (!Array.isArray(data)) return null
        const states: MarkerSnapshot[] = []
        const strategies: InvalidationStrategy[] = []
        for (const entry of data) {
          const read = savedMarkerOf(entry)
          if (read === null) continue
          states.push(read.state)
          strategies.push(read.strategy)
        }
        return { markers: states.map(() => null), states, strategies }
      },
    }
  }

  private restore(snapshot: LayerSnapshot): void {
    const host = this.host
    const { markers, states } = snapshot
    // As in Atom: markers of the snapshot are put back first (a destroyed one comes back, at
    // its saved range, before anyone hears of it), then the others are destroyed.
    for (let i = 0; i < markers.length; i++) {
      const saved = states[i]!
      const a = host.offsetOfRelativePosition(saved.start)
      const b = host.offsetOfRelativePosition(saved.end)
      if (a === null || b === null) continue
      const marker = markers[i]
      if (marker === null || marker === undefined) {
        // A marker of a saved history (made on another page): made here once, then kept in
        // the snapshot so that later undo and redo move it as they move the others.
        markers[i] = this.restoredMarker(saved, a, b, snapshot.strategies?.[i])
        continue
      }
      this.index.move(marker, Math.min(a, b), Math.max(a, b))
      marker.restore(saved)
      if (marker.destroyed) {
        marker.destroyed = false
        this.markers.add(marker)
        this.emitter.emit('did-create-marker', marker)
      }
    }
    const kept = new Set(markers)
    for (const marker of this.markers.values()) {
      if (!kept.has(marker)) marker.destroy()
    }
    this.scheduleUpdate()
  }

  private restoredMarker(
    saved: MarkerSnapshot,
    a: number,
    b: number,
    invalidate: InvalidationStrategy = 'overlap',
  ): Marker {
    const marker = new Marker(
      this.host.allocateMarkerId(),
      this,
      Math.min(a, b),
      Math.max(a, b),
      saved.start,
      saved.end,
      { invalidate },
      saved.tailed,
    )
    marker.restore(saved)
    return this.addMarker(marker)
  }

  private createMarker(range: Range, options: MarkOptions, tailed = options.tailed): Marker {
    this.assertAlive()
    const start = this.host.offsetOfClipped(range.start)
    const end = this.host.offsetOfClipped(range.end)
    const startAnchor = startAnchorFor(this.host, start, end)
    const marker = new Marker(
      this.host.allocateMarkerId(),
      this,
      start,
      end,
      startAnchor,
      endAnchorFor(this.host, start, end, startAnchor),
      options,
      tailed,
    )
    marker.primeRange(range)
    if (this.host.hasUnsettledEdits()) this.unanchored.add(marker)
    return this.addMarker(marker)
  }

  /**
   * Renews a moved marker's relative positions: now, or at the end of the transaction when
   * it made edits the item index has not taken in yet (positions made now would name the
   * characters that were at those offsets before the edits).
   */
  private anchorWhenSettled(marker: Marker): void {
    if (this.host.hasUnsettledEdits()) this.unanchored.add(marker)
    else this.anchor(marker)
  }

  private addMarker(marker: Marker): Marker {
    this.markers.add(marker)
    this.index.insert(marker, marker.start, marker.end)
    this.emitter.emit('did-create-marker', marker)
    this.scheduleUpdate()
    return marker
  }

  /** Ties the marker's relative positions to its current offsets. */
  private anchor(marker: Marker): void {
    const { start, end } = marker
    marker.startAnchor = startAnchorFor(this.host, start, end)
    marker.endAnchor = endAnchorFor(this.host, start, end, marker.startAnchor)
  }

  private scheduleUpdate(): void {
    if (this.destroyed) return
    if (this.host.isTransacting()) {
      this.updatePending = true
    } else {
      this.emitter.emit('did-update')
    }
  }

  private assertAlive(): void {
    if (this.destroyed) throw new Error(`marker layer ${this.id} is destroyed`)
  }
}

/**
 * Relative positions for a marker's ends, chosen for collaborative anchoring: an empty
 * marker (a caret) ties both ends to the character before it, so text a peer types at it
 * goes after it; a non-empty one ties its start to the character after and its end to the
 * character before, so insertions at its edges stay outside.
 */
const startAnchorFor = (host: MarkerLayerHost, start: number, end: number): Y.RelativePosition =>
  host.relativePositionAt(start, start === end ? -1 : 0)

/** The end's relative position by the same rule, given the start's. */
const endAnchorFor = (
  host: MarkerLayerHost,
  start: number,
  end: number,
  startAnchor: Y.RelativePosition,
): Y.RelativePosition => (start === end ? startAnchor : host.relativePositionAt(end, -1))

const isInvalidated = (
  marker: Marker,
  shape: MarkerShape,
  changes: readonly TextChange[],
): boolean => {
  const strategy = marker.getInvalidationStrategy()
  for (let i = changeAtOrBefore(changes, shape.end); i >= 0; i--) {
    const c = changes[i]!
    if (c.oldEnd < shape.start) break
    if (invalidates(strategy, shape, c)) return true
  }
  return false
}

/** Whether a change removed text. */
const deletes = (change: TextChange): boolean => change.oldEnd > change.oldStart
