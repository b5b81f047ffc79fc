import {
  type Disposable,
  Emitter,
  Point,
  type PointLike,
  Range,
  type RangeLike,
} from '@tandem/text'
import type * as Y from 'yjs'
import type { InvalidationStrategy } from './marker-rules.js'

/** Options when making a marker (`markRange`, `markPosition`, `copy`). */
export interface MarkOptions {
  /** The head is at the start (default false). */
  reversed?: boolean
  /** Whether the marker has a tail, i.e. can be a non-empty range (default true). */
  tailed?: boolean
  /** Which changes make the marker invalid (default `'overlap'`). */
  invalidate?: InvalidationStrategy
  /** Text inserted at the ends goes outside the marker (default: true for `'inside'` or no tail). */
  exclusive?: boolean | null
  /** Properties to attach. */
  properties?: Record<string, unknown>
  /** Validity (only `copy` passes this on). */
  valid?: boolean
}

/** A marker's two ends as Yjs relative positions: the form that travels between peers. */
export interface RelativeRange {
  /** Where the range starts. */
  start: Y.RelativePosition
  /** Where the range ends. */
  end: Y.RelativePosition
}

/** Payload of `Marker.onDidChange`. */
export interface MarkerChangeEvent {
  /** The head before the change. */
  oldHeadPosition: Point
  /** The head after the change. */
  newHeadPosition: Point
  /** The tail before the change (the head when there was no tail). */
  oldTailPosition: Point
  /** The tail after the change (the head when there is no tail). */
  newTailPosition: Point
  /** Validity before the change. */
  wasValid: boolean
  /** Validity after the change. */
  isValid: boolean
  /** Whether it had a tail before the change. */
  hadTail: boolean
  /** Whether it has a tail after the change. */
  hasTail: boolean
  /** Properties before the change. */
  oldProperties: Readonly<Record<string, unknown>>
  /** Properties after the change. */
  newProperties: Readonly<Record<string, unknown>>
  /** True when a text change (or undo restoring state) caused it, false for direct calls. */
  textChanged: boolean
}

interface Events {
  'did-change': MarkerChangeEvent
  'did-destroy': undefined
}

/** @internal A marker's state as an undo step saves it. Never changed once made, so steps share them. */
export interface MarkerSnapshot {
  readonly start: Y.RelativePosition
  readonly end: Y.RelativePosition
  readonly reversed: boolean
  readonly tailed: boolean
  readonly valid: boolean
  readonly exclusive: boolean | null
  readonly properties: Readonly<Record<string, unknown>>
}

/** @internal The part of a layer's index holding a marker: its offsets are kept less `shift`. */
export interface ShiftedBucket {
  readonly shift: number
}

/**
 * The layer a marker belongs to (a `MarkerLayer`), as the marker sees it: it moves the
 * marker, reports its changes, and converts its offsets.
 */
export interface MarkerOwner {
  /** Unique among the buffer's layers. */
  readonly id: number
  /** @internal Counts text changes (cached ranges stay valid until the next). */
  textVersion(): number
  /** @internal The position of an offset. */
  positionAt(offset: number): Point
  /** @internal Applies a direct update to a marker. */
  updateMarker(marker: Marker, update: MarkerUpdate): boolean
  /** @internal Copies a marker onto the layer. */
  copyMarker(marker: Marker, options: MarkOptions): Marker
  /** @internal Forgets a marker that was just destroyed. */
  removeMarker(marker: Marker): void
  /** @internal Tells layer listeners that a marker changed. */
  reportMarkerChange(marker: Marker, change: MarkerChangeEvent): void
  /** @internal Tells layer listeners that a marker was destroyed. */
  reportMarkerDestroyed(marker: Marker): void
  /** @internal Remembers that a marker has change listeners. */
  watch(marker: Marker): void
}

/** @internal Fields a layer sets when it updates a marker directly. */
export interface MarkerUpdate {
  range?: Range
  reversed?: boolean
  tailed?: boolean
  valid?: boolean
  exclusive?: boolean | null
  properties?: Record<string, unknown>
}

/** Bits of `Marker.flags` below the invalidation strategy. */
enum Flag {
  Tailed = 1,
  Reversed = 2,
  Valid = 4,
  Destroyed = 8,
  WatchListed = 16,
  /** An `exclusive` option was given; `Exclusive` holds its value. */
  ExclusiveGiven = 32,
  Exclusive = 64,
}

/** The flags a change event reports (`hadTail`, `wasValid`, the old head and tail). */
const REPORTED_FLAGS = Flag.Tailed | Flag.Reversed | Flag.Valid

/** Where the invalidation strategy's number starts in `Marker.flags`. */
const STRATEGY_SHIFT = 7
const STRATEGIES: readonly InvalidationStrategy[] = [
  'never',
  'surround',
  'overlap',
  'inside',
  'touch',
]

/** The properties of every marker made without any (shared: they are frozen). */
const NO_PROPERTIES: Readonly<Record<string, unknown>> = Object.freeze({})

/**
 * A range of the buffer that moves with edits, as in Atom: a tail and a head (the head is the
 * end unless reversed), an invalidation strategy and properties. Its ends are kept as offsets
 * and as Yjs relative positions, so it can be sent to and rebuilt on another peer.
 *
 * @example const marker = buffer.markRange([[0, 0], [0, 5]]); marker.getRange()
 */
export class Marker {
  /** @internal Offsets of the ends less the shift of `bucket` (maintained by the layer's index). */
  rawStart: number
  /** @internal */ rawEnd: number
  /** @internal The index bucket holding the marker, null while it is out of the index. */
  bucket: ShiftedBucket | null = null
  /** @internal The start as a relative position (`getRelativeRange` gives both ends). */
  startAnchor: Y.RelativePosition
  /** @internal The end as a relative position. */
  endAnchor: Y.RelativePosition
  /** @internal */ properties: Readonly<Record<string, unknown>>
  /**
   * The object the layer's view (the owner that `MarkerLayer.claimView` let in, such as a
   * display marker layer) keeps for this marker, instead of in a map of its own; null until
   * it sets one.
   *
   * @example if (layer.claimView(this)) marker.view = new DisplayMarker(marker)
   */
  view: unknown = null
  /** Its yes-or-no settings and its invalidation strategy, as bits (see `Flag`). */
  private flags = 0
  private emitter: Emitter<Events> | null = null
  /** The range last reported to change listeners; null while nobody listens. */
  private emittedRange: Range | null = null
  /** The `REPORTED_FLAGS` bits last reported. */
  private emittedFlags = 0
  private emittedProperties: Readonly<Record<string, unknown>> = NO_PROPERTIES
  private saved: MarkerSnapshot | null = null
  private cachedRange: Range | null = null
  private cachedVersion = -1
  private cachedStart = -1
  private cachedEnd = -1

  /** Made by a `MarkerLayer`; use `layer.markRange` and friends. */
  constructor(
    /** Unique among the buffer's markers. */
    readonly id: number,
    /** The layer that made the marker and moves it. */
    readonly layer: MarkerOwner,
    start: number,
    end: number,
    startAnchor: Y.RelativePosition,
    endAnchor: Y.RelativePosition,
    options: MarkOptions,
    tailed = options.tailed ?? true,
  ) {
    this.rawStart = start
    this.rawEnd = end
    this.startAnchor = startAnchor
    this.endAnchor = endAnchor
    const strategy = STRATEGIES.indexOf(options.invalidate ?? 'overlap')
    if (strategy < 0) {
      throw new TypeError(`unknown invalidation strategy: ${String(options.invalidate)}`)
    }
    this.flags = strategy << STRATEGY_SHIFT
    this.tailed = tailed
    this.reversed = tailed && (options.reversed ?? false)
    this.valid = options.valid ?? true
    this.explicitExclusive = options.exclusive ?? null
    this.properties =
      options.properties === undefined ? NO_PROPERTIES : Object.freeze({ ...options.properties })
  }

  /** @internal Whether it has a tail. */
  get tailed(): boolean {
    return (this.flags & Flag.Tailed) !== 0
  }
  /** @internal */
  set tailed(value: boolean) {
    this.setFlag(Flag.Tailed, value)
  }

  /** @internal Whether the head is at the start. */
  get reversed(): boolean {
    return (this.flags & Flag.Reversed) !== 0
  }
  /** @internal */
  set reversed(value: boolean) {
    this.setFlag(Flag.Reversed, value)
  }

  /** @internal False once a change invalidated it. */
  get valid(): boolean {
    return (this.flags & Flag.Valid) !== 0
  }
  /** @internal */
  set valid(value: boolean) {
    this.setFlag(Flag.Valid, value)
  }

  /** @internal Set by `destroy` (and cleared when undo brings the marker back). */
  get destroyed(): boolean {
    return (this.flags & Flag.Destroyed) !== 0
  }
  /** @internal */
  set destroyed(value: boolean) {
    this.setFlag(Flag.Destroyed, value)
  }

  /** @internal Whether its layer lists it among the markers with change listeners. */
  get watchListed(): boolean {
    return (this.flags & Flag.WatchListed) !== 0
  }
  /** @internal */
  set watchListed(value: boolean) {
    this.setFlag(Flag.WatchListed, value)
  }

  /** @internal The `exclusive` option it was given, null when it had none. */
  get explicitExclusive(): boolean | null {
    if ((this.flags & Flag.ExclusiveGiven) === 0) return null
    return (this.flags & Flag.Exclusive) !== 0
  }
  /** @internal */
  set explicitExclusive(value: boolean | null) {
    this.setFlag(Flag.ExclusiveGiven, value !== null)
    this.setFlag(Flag.Exclusive, value === true)
  }

  private get invalidate(): InvalidationStrategy {
    return STRATEGIES[this.flags >> STRATEGY_SHIFT]!
  }

  private setFlag(flag: Flag, on: boolean): void {
    this.flags = on ? this.flags | flag : this.flags & ~flag
  }

  /** Offset of the start in UTF-16 code units (what `getRange().start` is in rows and columns). */
  get start(): number {
    return this.bucket === null ? this.rawStart : this.rawStart + this.bucket.shift
  }

  /** Offset of the end in UTF-16 code units. */
  get end(): number {
    return this.bucket === null ? this.rawEnd : this.rawEnd + this.bucket.shift
  }

  /** Offset of the head: the end, or the start when reversed. */
  get headOffset(): number {
    return this.reversed ? this.start : this.end
  }

  /** The marked range. @example marker.getRange().toString() // => '[(0, 0) - (0, 5)]' */
  getRange(): Range {
    if (this.destroyed) return new Range([0, 0], [0, 0])
    const version = this.layer.textVersion()
    if (
      this.cachedRange === null ||
      this.cachedVersion !== version ||
      this.cachedStart !== this.start ||
      this.cachedEnd !== this.end
    ) {
      const layer = this.layer
      const start = layer.positionAt(this.start)
      const end = this.end === this.start ? start : layer.positionAt(this.end)
      this.cachedRange = new Range(start, end)
      this.cachedVersion = version
      this.cachedStart = this.start
      this.cachedEnd = this.end
    }
    return this.cachedRange
  }

  /** @internal Takes `range`, which must be the marker's range now, as its cached range. */
  primeRange(range: Range): void {
    this.cachedRange = range
    this.cachedVersion = this.layer.textVersion()
    this.cachedStart = this.start
    this.cachedEnd = this.end
  }

  /** Start of the range. */
  getStartPosition(): Point {
    return this.getRange().start
  }

  /** End of the range. */
  getEndPosition(): Point {
    return this.getRange().end
  }

  /** The head: the end, or the start when reversed. */
  getHeadPosition(): Point {
    const range = this.getRange()
    return this.reversed ? range.start : range.end
  }

  /** The tail: the other end from the head (equal to the head without a tail). */
  getTailPosition(): Point {
    const range = this.getRange()
    return this.reversed ? range.end : range.start
  }

  /** The ends as relative positions, valid on every peer of the document. */
  getRelativeRange(): RelativeRange {
    return { start: this.startAnchor, end: this.endAnchor }
  }

  /**
   * Sets the range (clipped); always plants a tail. `reversed` keeps the current orientation
   * when omitted; an `exclusive` given here becomes explicit. Returns whether anything changed.
   *
   * @example marker.setRange([[1, 0], [1, 4]], { reversed: true })
   */
  setRange(range: RangeLike, options: { reversed?: boolean; exclusive?: boolean } = {}): boolean {
    const update: MarkerUpdate = { range: Range.fromObject(range), tailed: true }
    if (options.reversed !== undefined && options.reversed !== null)
      update.reversed = options.reversed
    if (options.exclusive !== undefined) update.exclusive = options.exclusive
    return this.layer.updateMarker(this, update)
  }

  /**
   * Moves the head; passing the tail flips the orientation. As in Atom, the orientation is
   * decided before the position is clipped. Returns whether anything changed.
   */
  setHeadPosition(position: PointLike): boolean {
    const head = Point.fromObject(position)
    const range = this.getRange()
    if (!this.tailed) return this.layer.updateMarker(this, { range: new Range(head, head) })
    const tail = this.reversed ? range.end : range.start
    if (head.isLessThan(tail)) {
      return this.layer.updateMarker(this, { range: new Range(head, tail), reversed: true })
    }
    return this.layer.updateMarker(this, { range: new Range(tail, head), reversed: false })
  }

  /** Moves the tail (planting one if needed); passing the head flips the orientation. */
  setTailPosition(position: PointLike): boolean {
    const tail = Point.fromObject(position)
    const head = this.getHeadPosition()
    if (tail.isLessThan(head)) {
      return this.layer.updateMarker(this, {
        range: new Range(tail, head),
        tailed: true,
        reversed: false,
      })
    }
    return this.layer.updateMarker(this, {
      range: new Range(head, tail),
      tailed: true,
      reversed: true,
    })
  }

  /** Removes the tail: the marker becomes empty at its head. */
  clearTail(): boolean {
    const head = this.getHeadPosition()
    return this.layer.updateMarker(this, {
      range: new Range(head, head),
      tailed: false,
      reversed: false,
    })
  }

  /** Plants a tail at the head if there is none. */
  plantTail(): boolean | undefined {
    if (this.tailed) return undefined
    const head = this.getHeadPosition()
    return this.layer.updateMarker(this, { range: new Range(head, head), tailed: true })
  }

  /** Whether the marker has a tail. */
  hasTail(): boolean {
    return this.tailed
  }

  /** Whether the head is before the tail. */
  isReversed(): boolean {
    return this.tailed && this.reversed
  }

  /** Whether the range is empty. */
  isEmpty(): boolean {
    return this.start === this.end
  }

  /** False once a change invalidated it (by its strategy) or it was destroyed. */
  isValid(): boolean {
    return !this.destroyed && this.valid
  }

  /** Whether `destroy` was called (or its layer was destroyed). */
  isDestroyed(): boolean {
    return this.destroyed
  }

  /** Whether text inserted at its ends stays outside it. */
  isExclusive(): boolean {
    if (this.explicitExclusive !== null) return this.explicitExclusive
    return this.invalidate === 'inside' || !this.tailed
  }

  /** The invalidation strategy. */
  getInvalidationStrategy(): InvalidationStrategy {
    return this.invalidate
  }

  /** The properties (frozen). */
  getProperties(): Readonly<Record<string, unknown>> {
    return this.properties
  }

  /** Merges `properties` into the marker's properties. */
  setProperties(properties: Record<string, unknown>): boolean {
    return this.layer.updateMarker(this, { properties: { ...this.properties, ...properties } })
  }

  /** A new marker on the same layer with this range and settings, overridden by `options`. */
  copy(options: MarkOptions = {}): Marker {
    return this.layer.copyMarker(this, options)
  }

  /** Orders by start, then the longer marker first. */
  compare(other: Marker): -1 | 0 | 1 {
    if (this.start !== other.start) return this.start < other.start ? -1 : 1
    if (this.end !== other.end) return this.end > other.end ? -1 : 1
    return 0
  }

  /** Whether both markers have equal ranges and settings. */
  isEqual(other: Marker): boolean {
    return (
      this.invalidate === other.invalidate &&
      this.tailed === other.tailed &&
      this.reversed === other.reversed &&
      this.isExclusive() === other.isExclusive() &&
      JSON.stringify(this.properties) === JSON.stringify(other.properties) &&
      this.getRange().isEqual(other.getRange())
    )
  }

  /** Whether the range contains `point` (inclusive unless `exclusive`). */
  containsPoint(point: PointLike, exclusive = false): boolean {
    return this.getRange().containsPoint(point, exclusive)
  }

  /** Whether the range contains `range` (inclusive unless `exclusive`). */
  containsRange(range: RangeLike, exclusive = false): boolean {
    return this.getRange().containsRange(range, exclusive)
  }

  /** Whether the range meets `row`. */
  intersectsRow(row: number): boolean {
    return this.getRange().intersectsRow(row)
  }

  /** Removes the marker from its layer. Safe to call twice. */
  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    this.layer.removeMarker(this)
    this.emitter?.emit('did-destroy')
    this.emitter?.dispose()
    this.emitter = null
    this.layer.reportMarkerDestroyed(this)
  }

  /**
   * Calls `callback` when the head, tail, validity or properties change: at once for direct
   * calls, once at the end of a transaction for text changes.
   */
  onDidChange(callback: (event: MarkerChangeEvent) => void): Disposable {
    this.observe()
    return this.events().on('did-change', callback)
  }

  /**
   * Makes the marker report its changes to its layer's `onDidChangeMarker` listeners, as
   * if it had a change listener. For owners of many markers, which listen on the layer.
   */
  observe(): void {
    if (this.emittedRange === null) this.noteEmitted()
    this.layer.watch(this)
  }

  /** Calls `callback` when the marker is destroyed. */
  onDidDestroy(callback: () => void): Disposable {
    return this.events().on('did-destroy', callback)
  }

  /** @internal Emits a change event if the marker differs from what was last reported. */
  emitChange(textChanged: boolean): void {
    const before = this.emittedRange
    if (before === null || this.destroyed) return
    const range = this.getRange()
    const wasFlags = this.emittedFlags
    const oldProperties = this.emittedProperties
    if (
      before.isEqual(range) &&
      wasFlags === (this.flags & REPORTED_FLAGS) &&
      oldProperties === this.properties
    ) {
      return
    }
    this.noteEmitted()
    const wasReversed = (wasFlags & Flag.Reversed) !== 0
    const change: MarkerChangeEvent = {
      oldHeadPosition: wasReversed ? before.start : before.end,
      newHeadPosition: this.reversed ? range.start : range.end,
      oldTailPosition: wasReversed ? before.end : before.start,
      newTailPosition: this.reversed ? range.end : range.start,
      wasValid: (wasFlags & Flag.Valid) !== 0,
      isValid: this.valid,
      hadTail: (wasFlags & Flag.Tailed) !== 0,
      hasTail: this.tailed,
      oldProperties,
      newProperties: this.properties,
      textChanged,
    }
    this.layer.reportMarkerChange(this, change)
    this.emitter?.emit('did-change', change)
  }

  /**
   * The marker's state for an undo step: the last one made, while nothing changed (package internal).
   *
   * @internal
   */
  snapshot(): MarkerSnapshot {
    const saved = this.saved
    if (
      saved !== null &&
      saved.start === this.startAnchor &&
      saved.end === this.endAnchor &&
      saved.reversed === this.reversed &&
      saved.tailed === this.tailed &&
      saved.valid === this.valid &&
      saved.exclusive === this.explicitExclusive &&
      saved.properties === this.properties
    ) {
      return saved
    }
    this.saved = {
      start: this.startAnchor,
      end: this.endAnchor,
      reversed: this.reversed,
      tailed: this.tailed,
      valid: this.valid,
      exclusive: this.explicitExclusive,
      properties: this.properties,
    }
    return this.saved
  }

  /** @internal Takes back a saved state; the layer has put the ends in place. */
  restore(saved: MarkerSnapshot): void {
    this.startAnchor = saved.start
    this.endAnchor = saved.end
    this.reversed = saved.reversed
    this.tailed = saved.tailed
    this.valid = saved.valid
    this.explicitExclusive = saved.exclusive
    this.properties = saved.properties
    this.saved = saved
  }

  /** @internal Whether anyone listens to changes. */
  hasChangeListeners(): boolean {
    return this.emittedRange !== null
  }

  /** Remembers the current state as the one last reported. */
  private noteEmitted(): void {
    this.emittedRange = this.getRange()
    this.emittedFlags = this.flags & REPORTED_FLAGS
    this.emittedProperties = this.properties
  }

  private events(): Emitter<Events> {
    if (this.emitter === null) this.emitter = new Emitter<Events>()
    return this.emitter
  }
}
