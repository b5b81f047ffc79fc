import type { FindMarkersParams, Marker, MarkerLayer, MarkOptions } from '@tandem/buffer'
import type { DisplayLayer, TranslateOptions } from '@tandem/display'
import {
  CompositeDisposable,
  type Disposable,
  Emitter,
  Point,
  type PointLike,
  Range,
  type RangeLike,
} from '@tandem/text'

/** Payload of `DisplayMarker.onDidChange`: head and tail, before and after, in both spaces. */
export interface DisplayMarkerChangeEvent {
  /** The head before the change, in buffer coordinates. */
  oldHeadBufferPosition: Point
  /** The head after the change, in buffer coordinates. */
  newHeadBufferPosition: Point
  /** The tail before the change, in buffer coordinates. */
  oldTailBufferPosition: Point
  /** The tail after the change, in buffer coordinates. */
  newTailBufferPosition: Point
  /** The head before the change, in screen coordinates. */
  oldHeadScreenPosition: Point
  /** The head after the change, in screen coordinates. */
  newHeadScreenPosition: Point
  /** The tail before the change, in screen coordinates. */
  oldTailScreenPosition: Point
  /** The tail after the change, in screen coordinates. */
  newTailScreenPosition: Point
  /** Validity before the change. */
  wasValid: boolean
  /** Validity after the change. */
  isValid: boolean
  /** True when a text change moved the marker. */
  textChanged: boolean
}

/** What `DisplayMarkerLayer.findMarkers` accepts: the buffer layer's conditions plus screen ones. */
export interface FindDisplayMarkersParams extends FindMarkersParams {
  /** The marker contains this screen position. */
  containsScreenPosition?: PointLike
  /** The marker contains all of this screen range. */
  containsScreenRange?: RangeLike
  /** The marker covers part of the screen rows from the first to the second, both included. */
  intersectsScreenRowRange?: readonly [number, number]
}

interface MarkerEvents {
  'did-change': DisplayMarkerChangeEvent
  'did-destroy': undefined
}

/**
 * A buffer marker seen through a display layer: its range in buffer and in screen
 * coordinates. Change events report both, and fire also when folds or display settings move
 * the marker on screen without moving it in the buffer, as Atom's DisplayMarker does.
 *
 * @example const marker = layer.markBufferRange([[0, 0], [0, 3]]); marker.getScreenRange()
 */
export class DisplayMarker {
  /** The id, shared with the buffer marker. */
  readonly id: number
  /**
   * @internal The object the marker stands for, set by its owner: the editor finds a selection
   * from its marker without a map of its own.
   */
  owner: unknown = null
  private emitter: Emitter<MarkerEvents> | null = null
  // The positions last reported to observers (see `observe`); `seenHeadBuffer` is null while
  // nobody observes. Fields rather than one state object: tens of thousands of cursors each
  // keep one, and a move then allocates nothing but its event.
  private seenHeadBuffer: Point | null = null
  private seenHeadScreen: Point = Point.ZERO
  private seenTailBuffer: Point = Point.ZERO
  private seenTailScreen: Point = Point.ZERO
  private seenValid = false

  /** Made by a `DisplayMarkerLayer`. */
  constructor(
    /** The display marker layer it belongs to. */
    readonly layer: DisplayMarkerLayer,
    /** The buffer marker it shows. */
    readonly bufferMarker: Marker,
  ) {
    this.id = bufferMarker.id
  }

  /** Destroys the buffer marker (and so this one). */
  destroy(): void {
    this.bufferMarker.destroy()
  }

  /** Calls `callback` when the marker moves in the buffer or on screen. */
  onDidChange(callback: (event: DisplayMarkerChangeEvent) => void): Disposable {
    this.observe()
    return this.events().on('did-change', callback)
  }

  /**
   * Makes the marker report its changes to its layer's `onDidChangeMarker` listeners, as if
   * it had a change listener (one subscription per layer for owners of many markers).
   */
  observe(): void {
    if (this.seenHeadBuffer !== null) return
    this.noteSeen()
    this.bufferMarker.observe()
    this.layer.watch()
  }

  /** @internal Whether the marker reports its changes. */
  isObserved(): boolean {
    return this.seenHeadBuffer !== null
  }

  /** Calls `callback` once when the marker is destroyed. */
  onDidDestroy(callback: () => void): Disposable {
    return this.events().once('did-destroy', callback)
  }

  /** Whether no change invalidated it and it is not destroyed. */
  isValid(): boolean {
    return this.bufferMarker.isValid()
  }

  /** Whether it was destroyed. */
  isDestroyed(): boolean {
    return this.bufferMarker.isDestroyed()
  }

  /** Whether the head is before the tail. */
  isReversed(): boolean {
    return this.bufferMarker.isReversed()
  }

  /** Whether it has a tail. */
  hasTail(): boolean {
    return this.bufferMarker.hasTail()
  }

  /** Plants a tail at the head if there is none. */
  plantTail(): void {
    this.bufferMarker.plantTail()
  }

  /** Removes the tail. */
  clearTail(): void {
    this.bufferMarker.clearTail()
  }

  /** The marker's properties. */
  getProperties(): Readonly<Record<string, unknown>> {
    return this.bufferMarker.getProperties()
  }

  /** Orders by buffer start, the longer first on ties. */
  compare(other: DisplayMarker): -1 | 0 | 1 {
    return this.bufferMarker.compare(other.bufferMarker)
  }

  /** The buffer range. */
  getBufferRange(): Range {
    return this.bufferMarker.getRange()
  }

  /** The screen range (each end translated with clip direction `closest`). */
  getScreenRange(): Range {
    return this.layer.displayLayer.translateBufferRange(this.getBufferRange())
  }

  /** Sets the buffer range; `reversed` keeps the orientation when omitted. */
  setBufferRange(range: RangeLike, options: { reversed?: boolean } = {}): void {
    this.bufferMarker.setRange(range, { reversed: options.reversed })
  }

  /** Sets the range from a screen range (translated with `options`). */
  setScreenRange(range: RangeLike, options: TranslateOptions & { reversed?: boolean } = {}): void {
    this.setBufferRange(this.layer.displayLayer.translateScreenRange(range, options), options)
  }

  /** The head in buffer coordinates. */
  getHeadBufferPosition(): Point {
    return this.bufferMarker.getHeadPosition()
  }

  /** Moves the head to a buffer position. */
  setHeadBufferPosition(position: PointLike): void {
    this.bufferMarker.setHeadPosition(position)
  }

  /** The head in screen coordinates. */
  getHeadScreenPosition(options?: TranslateOptions): Point {
    return this.layer.displayLayer.translateBufferPosition(this.getHeadBufferPosition(), options)
  }

  /** Moves the head to a screen position (translated with `options`). */
  setHeadScreenPosition(position: PointLike, options?: TranslateOptions): void {
    this.setHeadBufferPosition(this.layer.displayLayer.translateScreenPosition(position, options))
  }

  /** The tail in buffer coordinates. */
  getTailBufferPosition(): Point {
    return this.bufferMarker.getTailPosition()
  }

  /** The tail in screen coordinates. */
  getTailScreenPosition(options?: TranslateOptions): Point {
    return this.layer.displayLayer.translateBufferPosition(this.getTailBufferPosition(), options)
  }

  /** The start in buffer coordinates. */
  getStartBufferPosition(): Point {
    return this.bufferMarker.getStartPosition()
  }

  /** The end in buffer coordinates. */
  getEndBufferPosition(): Point {
    return this.bufferMarker.getEndPosition()
  }

  /** The start in screen coordinates. */
  getStartScreenPosition(options?: TranslateOptions): Point {
    return this.layer.displayLayer.translateBufferPosition(this.getStartBufferPosition(), options)
  }

  /** The end in screen coordinates. */
  getEndScreenPosition(options?: TranslateOptions): Point {
    return this.layer.displayLayer.translateBufferPosition(this.getEndBufferPosition(), options)
  }

  /** @internal Emits a change event when the marker moved since the last one. */
  notifyObservers(textChanged: boolean): void {
    const oldHeadBuffer = this.seenHeadBuffer
    if (oldHeadBuffer === null || this.isDestroyed()) return
    const oldHeadScreen = this.seenHeadScreen
    const oldTailBuffer = this.seenTailBuffer
    const oldTailScreen = this.seenTailScreen
    const wasValid = this.seenValid
    this.noteSeen()
    if (
      this.seenValid === wasValid &&
      this.seenHeadBuffer!.isEqual(oldHeadBuffer) &&
      this.seenHeadScreen.isEqual(oldHeadScreen) &&
      this.seenTailBuffer.isEqual(oldTailBuffer) &&
      this.seenTailScreen.isEqual(oldTailScreen)
    ) {
      return
    }
    const change: DisplayMarkerChangeEvent = {
      oldHeadBufferPosition: oldHeadBuffer,
      newHeadBufferPosition: this.seenHeadBuffer!,
      oldTailBufferPosition: oldTailBuffer,
      newTailBufferPosition: this.seenTailBuffer,
      oldHeadScreenPosition: oldHeadScreen,
      newHeadScreenPosition: this.seenHeadScreen,
      oldTailScreenPosition: oldTailScreen,
      newTailScreenPosition: this.seenTailScreen,
      wasValid,
      isValid: this.seenValid,
      textChanged,
    }
    this.layer.reportMarkerChange(this, change)
    this.emitter?.emit('did-change', change)
  }

  /** @internal Called by the layer when the buffer marker is destroyed. */
  didDestroyBufferMarker(): void {
    this.layer.reportMarkerDestroyed(this)
    this.emitter?.emit('did-destroy')
    this.emitter?.dispose()
  }

  private events(): Emitter<MarkerEvents> {
    if (this.emitter === null) {
      this.emitter = new Emitter<MarkerEvents>()
      if (this.isDestroyed()) this.emitter.dispose()
    }
    return this.emitter
  }

  /** Takes the current positions as the ones last reported. */
  private noteSeen(): void {
    const headBuffer = this.getHeadBufferPosition()
    const tailBuffer = this.getTailBufferPosition()
    const display = this.layer.displayLayer
    const headScreen = display.translateBufferPosition(headBuffer)
    this.seenHeadBuffer = headBuffer
    this.seenHeadScreen = headScreen
    this.seenTailBuffer = tailBuffer
    this.seenTailScreen = tailBuffer.isEqual(headBuffer)
      ? headScreen
      : display.translateBufferPosition(tailBuffer)
    this.seenValid = this.isValid()
  }
}

/**
 * A buffer marker layer seen through a display layer: marks ranges given in either
 * coordinate space and finds markers by screen conditions too.
 *
 * @example const layer = new DisplayMarkerLayer(display, buffer.addMarkerLayer())
 */
export class DisplayMarkerLayer {
  /**
   * The wrappers by marker id, when another display layer of the same buffer layer keeps its
   * own in the markers' `view` slots; null when this layer does (the common case).
   */
  private readonly wrappers: Map<number, DisplayMarker> | null
  /** How many live markers report their changes (see `DisplayMarker.observe`). */
  private observedCount = 0
  private readonly emitter = new Emitter<{
    'did-create-marker': DisplayMarker
    'did-change-marker': { marker: DisplayMarker; change: DisplayMarkerChangeEvent }
    'did-destroy-marker': DisplayMarker
  }>()
  private readonly subscriptions = new CompositeDisposable()

  /** Wraps `bufferLayer`; markers follow `displayLayer`'s folds and settings. */
  constructor(
    /** The display layer whose screen coordinates the markers report. */
    readonly displayLayer: DisplayLayer,
    /** The buffer marker layer it wraps. */
    readonly bufferLayer: MarkerLayer,
  ) {
    this.wrappers = bufferLayer.claimView(this) ? null : new Map()
    this.subscriptions.add(
      bufferLayer.onDidCreateMarker((marker) => {
        this.emitter.emit('did-create-marker', this.wrap(marker))
      }),
      bufferLayer.onDidChangeMarker(({ marker, change }) => {
        this.existingWrapper(marker)?.notifyObservers(change.textChanged)
      }),
      bufferLayer.onDidDestroyMarker((marker) => {
        const wrapped = this.existingWrapper(marker)
        if (wrapped === undefined) return
        if (this.wrappers === null) marker.view = null
        else this.wrappers.delete(marker.id)
        if (wrapped.isObserved()) this.observedCount--
        wrapped.didDestroyBufferMarker()
      }),
      displayLayer.onDidRemap(() => this.notifyObserversIfMarkerScreenPositionsChanged()),
    )
  }

  /** Marks a buffer range. */
  markBufferRange(range: RangeLike, options: MarkOptions = {}): DisplayMarker {
    return this.wrap(this.bufferLayer.markRange(range, options))
  }

  /** Marks a screen range (translated with clip direction `closest`). */
  markScreenRange(range: RangeLike, options: MarkOptions & TranslateOptions = {}): DisplayMarker {
    return this.markBufferRange(this.displayLayer.translateScreenRange(range, options), options)
  }

  /** Marks a buffer position (a marker without a tail). */
  markBufferPosition(position: PointLike, options: MarkOptions = {}): DisplayMarker {
    return this.wrap(this.bufferLayer.markPosition(position, options))
  }

  /** Marks a screen position (translated with `options`). */
  markScreenPosition(
    position: PointLike,
    options: MarkOptions & TranslateOptions = {},
  ): DisplayMarker {
    return this.markBufferPosition(
      this.displayLayer.translateScreenPosition(position, options),
      options,
    )
  }

  /** The marker with `id`, if any. */
  getMarker(id: number): DisplayMarker | undefined {
    const marker = this.bufferLayer.getMarker(id)
    return marker === undefined ? undefined : this.wrap(marker)
  }

  /** @internal The display marker of `marker`, one of this layer's buffer markers. */
  markerFor(marker: Marker): DisplayMarker {
    return this.wrap(marker)
  }

  /** Every marker. */
  getMarkers(): DisplayMarker[] {
    return this.bufferLayer.getMarkers().map((marker) => this.wrap(marker))
  }

  /** Markers matching every condition, screen conditions translated to buffer ones. */
  findMarkers(params: FindDisplayMarkersParams = {}): DisplayMarker[] {
    const { containsScreenPosition, containsScreenRange, intersectsScreenRowRange, ...rest } =
      params
    const bufferParams: FindMarkersParams = { ...rest }
    const display = this.displayLayer
    if (containsScreenPosition !== undefined) {
      bufferParams.containsPosition = display.translateScreenPosition(containsScreenPosition)
    }
    if (containsScreenRange !== undefined) {
      bufferParams.containsRange = display.translateScreenRange(containsScreenRange)
    }
    if (intersectsScreenRowRange !== undefined) {
      const [startRow, endRow] = intersectsScreenRowRange
      bufferParams.intersectsRange = new Range(
        display.translateScreenPosition([startRow, 0]),
        display.translateScreenPosition([endRow, Number.POSITIVE_INFINITY]),
      )
    }
    return this.bufferLayer.findMarkers(bufferParams).map((marker) => this.wrap(marker))
  }

  /** Calls `callback` when an observed marker (see `DisplayMarker.observe`) changes. */
  onDidChangeMarker(
    callback: (event: { marker: DisplayMarker; change: DisplayMarkerChangeEvent }) => void,
  ): Disposable {
    return this.emitter.on('did-change-marker', callback)
  }

  /** Calls `callback` with each destroyed marker, before the marker's own destroy listeners. */
  onDidDestroyMarker(callback: (marker: DisplayMarker) => void): Disposable {
    return this.emitter.on('did-destroy-marker', callback)
  }

  /** @internal Tells layer listeners that a marker changed. */
  reportMarkerChange(marker: DisplayMarker, change: DisplayMarkerChangeEvent): void {
    this.emitter.emit('did-change-marker', { marker, change })
  }

  /** @internal Tells layer listeners that a marker was destroyed. */
  reportMarkerDestroyed(marker: DisplayMarker): void {
    this.emitter.emit('did-destroy-marker', marker)
  }

  /** Calls `callback` with each marker made on the layer. */
  onDidCreateMarker(callback: (marker: DisplayMarker) => void): Disposable {
    return this.emitter.on('did-create-marker', callback)
  }

  /** @internal Tells observed markers to report screen moves (after folds or settings changed). */
  notifyObserversIfMarkerScreenPositionsChanged(): void {
    // Remaps are rare and most layers with observed markers observe all of them, so a pass
    // over the layer costs less than a second index of the observed ones.
    if (this.observedCount === 0) return
    for (const marker of this.bufferLayer.getMarkers()) {
      this.existingWrapper(marker)?.notifyObservers(false)
    }
  }

  /** @internal Counts a marker that started to observe its changes. */
  watch(): void {
    this.observedCount++
  }

  /** Destroys the buffer layer and stops following the display layer. */
  destroy(): void {
    this.subscriptions.dispose()
    this.bufferLayer.destroy()
    this.wrappers?.clear()
    this.observedCount = 0
    this.emitter.dispose()
  }

  private wrap(marker: Marker): DisplayMarker {
    let wrapped = this.existingWrapper(marker)
    if (wrapped === undefined) {
      wrapped = new DisplayMarker(this, marker)
      if (this.wrappers === null) marker.view = wrapped
      else this.wrappers.set(marker.id, wrapped)
    }
    return wrapped
  }

  private existingWrapper(marker: Marker): DisplayMarker | undefined {
    if (this.wrappers !== null) return this.wrappers.get(marker.id)
    return (marker.view as DisplayMarker | null) ?? undefined
  }
}
