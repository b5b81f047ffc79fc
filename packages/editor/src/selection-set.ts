import type { TranslateOptions } from '@tandem/display'
import {
  CompositeDisposable,
  type Disposable,
  Emitter,
  Point,
  type PointLike,
  Range,
  type RangeLike,
} from '@tandem/text'
import { Cursor, type CursorOwner, type CursorPositionChangeEvent } from './cursor.js'
import { type DisplayMarker, DisplayMarkerLayer } from './display-marker.js'
import type { EditorContext } from './editor-context.js'
import { Selection } from './selection.js'
import {
  type SelectionOwner,
  type SelectionRangeChangeEvent,
  type SetRangeOptions,
  unfoldEnds,
} from './selection-base.js'

/** How a `SelectionSet.change` scope ends: which selections merge, and into what. */
export interface SelectionChangeOptions extends SetRangeOptions {
  /**
   * Which selections merge when the scope ends: those that overlap (or touch, when one is
   * empty), those on the same screen rows, or none (default `overlapping`).
   */
  merge?: 'overlapping' | 'same-rows' | 'none'
}

interface Events {
  'did-add-cursor': Cursor
  'did-remove-cursor': Cursor
  'did-add-selection': Selection
  'did-remove-selection': Selection
  'did-change-cursor-position': CursorPositionChangeEvent
  'did-change-selection-range': SelectionRangeChangeEvent
  'did-change': undefined
}

/**
 * An editor's selections: their order, their marker layer, adding, removing and merging them.
 * Changes made inside one `change(fn)` scope are normalized once at its end (selections that
 * met are merged) and reported once by `onDidChange`; Atom's per-cursor and per-selection
 * events keep their own timing.
 *
 * @example
 * editor.selectionSet.change(() => {
 *   for (const selection of editor.getSelections()) selection.selectToEndOfLine()
 * })
 */
export class SelectionSet {
  /** The markers of the selections (one per cursor). */
  readonly layer: DisplayMarkerLayer
  private readonly cursors: Cursor[] = []
  private readonly selections: Selection[] = []
  private readonly emitter = new Emitter<Events>()
  private readonly subscriptions = new CompositeDisposable()
  private readonly owner: SelectionOwner
  private readonly cursorOwner: CursorOwner = {
    isLastCursor: (cursor) => cursor === this.getLastCursor(),
    clearSelection: (cursor, options) => cursor.selection?.clear(options),
  }
  /** True inside a `change` scope: merging waits for its end. */
  private changing = false
  /** False while no two selections can overlap (just after a full merge, with no change since). */
  private mayOverlap = false
  /** Something changed that `onDidChange` has not reported yet. */
  private unreported = false
  private reportQueued = false
  private alive = true

  /**
   * Made by the editor; get it as `editor.selectionSet`.
   *
   * @internal
   */
  constructor(private readonly context: EditorContext) {
    const { buffer, displayLayer } = context
    this.layer = new DisplayMarkerLayer(
      displayLayer,
      buffer.addMarkerLayer({ maintainHistory: true, role: 'selections' }),
    )
    this.owner = {
      getLastSelection: () => this.getLastSelection(),
      isDestroyed: () => !this.alive,
      listens: (kind) =>
        this.emitter.listenerCountForEventName(
          kind === 'cursor' ? 'did-change-cursor-position' : 'did-change-selection-range',
        ) > 0,
      cursorMoved: (event) => {
        this.noteChange()
        if (event !== null) this.emitter.emit('did-change-cursor-position', event)
      },
      selectionRangeChanged: (event) => {
        this.mayOverlap = true
        this.noteChange()
        if (event !== null) this.emitter.emit('did-change-selection-range', event)
      },
      removeSelection: (selection) => this.forget(selection as Selection),
      addSelectionForScreenRange: (range) => this.addForScreenRange(range),
      screenRangeIsSelected: (range) =>
        this.layer.findMarkers({ containsScreenRange: range }).length > 0,
    }
    this.subscriptions.add(
      displayLayer.onDidChange(() => this.mergeOverlapping()),
      displayLayer.onDidReset(() => this.mergeOverlapping()),
      this.layer.onDidCreateMarker((marker) => this.adopt(marker)),
      this.layer.onDidChangeMarker(({ marker, change }) => {
        selectionOf(marker)?.markerDidChange(change)
      }),
      this.layer.onDidDestroyMarker((marker) => {
        selectionOf(marker)?.markerDidDestroy()
      }),
    )
  }

  // Reading

  /** The cursors, in the order they were added. */
  getCursors(): Cursor[] {
    this.ensureOne()
    return this.cursors.slice()
  }

  /** The most recently added cursor. */
  getLastCursor(): Cursor {
    this.ensureOne()
    return this.cursors[this.cursors.length - 1]!
  }

  /** The selections, in the order they were added. */
  getSelections(): Selection[] {
    this.ensureOne()
    return this.selections.slice()
  }

  /** The most recently added selection. */
  getLastSelection(): Selection {
    this.ensureOne()
    return this.selections[this.selections.length - 1]!
  }

  /** The selections ordered by buffer range. */
  getSelectionsOrderedByBufferPosition(): Selection[] {
    return this.getSelections().sort((a, b) => a.compare(b))
  }

  // Changing

  /**
   * Runs `fn` with merging held off, then merges the selections that met (as `options.merge`
   * says) and reports the change once to `onDidChange`. Scopes nest: only the outermost one
   * merges. Returns what `fn` returns.
   */
  change<T>(fn: () => T, options?: SelectionChangeOptions): T
  change<T>(fn: (() => T) | undefined, options?: SelectionChangeOptions): T | undefined
  change<T>(fn: (() => T) | undefined, options: SelectionChangeOptions = {}): T | undefined {
    if (this.changing) return fn?.()
    this.changing = true
    let result: T | undefined
    try {
      result = fn?.()
    } finally {
      this.changing = false
    }
    const merge = options.merge ?? 'overlapping'
    if (merge === 'overlapping') this.mergeWhere(options, overlapping)
    else if (merge === 'same-rows') this.mergeWhere(options, onSameScreenRows)
    this.reportChange()
    return result
  }

  /** Adds a selection for a buffer range; returns it (or the one it merged into). */
  addForBufferRange(range: RangeLike, options: SetRangeOptions = {}): Selection {
    const bufferRange = Range.fromObject(range)
    if (!options.preserveFolds) unfoldEnds(this.context.displayLayer, bufferRange)
    this.layer.markBufferRange(bufferRange, {
      invalidate: 'never',
      reversed: options.reversed ?? false,
    })
    const selection = this.getLastSelection()
    if (options.autoscroll !== false) selection.autoscroll()
    return selection
  }

  /** Adds a selection for a screen range; returns it (or the one it merged into). */
  addForScreenRange(range: RangeLike, options: SetRangeOptions = {}): Selection {
    const { start, end } = Range.fromObject(range)
    const { displayLayer } = this.context
    const bufferRange = new Range(
      displayLayer.translateScreenPosition(start),
      displayLayer.translateScreenPosition(end),
    )
    return this.addForBufferRange(bufferRange, options)
  }

  /** Adds a caret at a buffer position; returns its cursor (or the one it merged into). */
  addCursorAtBufferPosition(position: PointLike, options?: { autoscroll?: boolean }): Cursor {
    this.layer.markBufferPosition(position, { invalidate: 'never' })
    const cursor = this.getLastSelection().cursor
    if (options?.autoscroll !== false) cursor.autoscroll()
    return cursor
  }

  /** Adds a caret at a screen position; returns its cursor (or the one it merged into). */
  addCursorAtScreenPosition(
    position: PointLike,
    options?: TranslateOptions & { autoscroll?: boolean },
  ): Cursor {
    this.layer.markScreenPosition(position, { invalidate: 'never', ...options })
    const cursor = this.getLastSelection().cursor
    if (options?.autoscroll !== false) cursor.autoscroll()
    return cursor
  }

  /**
   * @internal Gives the selections these ranges: the first selections take them, extra
   * selections go, and new ones are added; then merges. `set` and `add` say how a range is
   * applied (the editor's `setSelectedBufferRanges` and `setSelectedScreenRanges`).
   */
  setRanges(
    ranges: readonly RangeLike[],
    options: SetRangeOptions,
    set: (selection: Selection, range: Range) => void,
    add: (range: Range) => void,
  ): void {
    if (!Array.isArray(ranges) || ranges.length === 0) {
      throw new Error('Passed an empty array to setSelectedBufferRanges')
    }
    const selections = this.getSelections()
    for (const selection of selections.slice(ranges.length)) selection.destroy()
    this.change(() => {
      ranges.forEach((range, i) => {
        const selection = selections[i]
        if (selection !== undefined) set(selection, Range.fromObject(range))
        else add(Range.fromObject(range))
      })
    }, options)
  }

  /** Runs `move` on every cursor, then removes cursors that met an earlier one. */
  moveCursors(move: (cursor: Cursor) => void): void {
    this.context.buffer.holdingUpdates(() => {
      for (const cursor of this.getCursors()) move(cursor)
      this.mergeCursors()
    })
    this.reportChange()
  }

  /** Destroys cursors at the same buffer position as an earlier one. */
  mergeCursors(): void {
    if (this.cursors.length === 1) return
    // A buffer position is one character offset: compare those rather than points.
    const seen = new Set<number>()
    for (const cursor of this.getCursors()) {
      const head = cursor.marker.bufferMarker.headOffset
      if (seen.has(head)) cursor.destroy()
      else seen.add(head)
    }
  }

  /** Keeps only the first selection; true when there were several. */
  consolidate(): boolean {
    const selections = this.getSelections()
    if (selections.length <= 1) return false
    for (const selection of selections.slice(1)) selection.destroy()
    selections[0]!.autoscroll({ center: true })
    return true
  }

  // Events

  /**
   * Calls `callback` once after selections changed: at the end of the `change` scope that
   * changed them, or, for changes outside any scope (a remote edit moving carets, a call on
   * one selection), once in the microtask after them.
   */
  onDidChange(callback: () => void): Disposable {
    return this.emitter.on('did-change', callback)
  }

  /** Calls `callback` with each added cursor. */
  onDidAddCursor(callback: (cursor: Cursor) => void): Disposable {
    return this.emitter.on('did-add-cursor', callback)
  }

  /** Calls `callback` with each removed cursor. */
  onDidRemoveCursor(callback: (cursor: Cursor) => void): Disposable {
    return this.emitter.on('did-remove-cursor', callback)
  }

  /** Calls `callback` with each added selection. */
  onDidAddSelection(callback: (selection: Selection) => void): Disposable {
    return this.emitter.on('did-add-selection', callback)
  }

  /** Calls `callback` with each removed selection. */
  onDidRemoveSelection(callback: (selection: Selection) => void): Disposable {
    return this.emitter.on('did-remove-selection', callback)
  }

  /** Calls `callback` when any cursor moves. */
  onDidChangeCursorPosition(callback: (event: CursorPositionChangeEvent) => void): Disposable {
    return this.emitter.on('did-change-cursor-position', callback)
  }

  /** Calls `callback` when any selection's range changes. */
  onDidChangeSelectionRange(callback: (event: SelectionRangeChangeEvent) => void): Disposable {
    return this.emitter.on('did-change-selection-range', callback)
  }

  /** Destroys the selections and their layer (the editor does, when it is destroyed). */
  destroy(): void {
    if (!this.alive) return
    this.alive = false
    this.subscriptions.dispose()
    for (const selection of this.selections.slice()) selection.destroy()
    this.layer.destroy()
    this.emitter.dispose()
  }

  // Internals

  private mergeOverlapping(): void {
    this.change(undefined)
  }

  private mergeWhere(
    options: SetRangeOptions,
    shouldMerge: (previous: Selection, current: Selection) => boolean,
  ): void {
    if (this.selections.length === 1) {
      this.mayOverlap = false
      return
    }
    const [first, ...rest] = this.getSelectionsOrderedByBufferPosition()
    let previous = first!
    for (const selection of rest) {
      if (shouldMerge(previous, selection)) previous.merge(selection, options)
      else previous = selection
    }
    this.mayOverlap = false
  }

  private adopt(marker: DisplayMarker): void {
    const cursor = new Cursor(this.context, marker, this.cursorOwner)
    this.cursors.push(cursor)
    const selection = new Selection(this.context, this.owner, marker, cursor)
    cursor.selection = selection
    this.selections.push(selection)
    this.noteChange()
    // When nothing moved since the last full merge, only the new selection can meet another:
    // look for that one in the marker index instead of sorting every selection.
    if (this.mayOverlap || this.meetsAnother(selection)) this.mergeOverlapping()
    if (!selection.destroyed) {
      this.emitter.emit('did-add-cursor', cursor)
      this.emitter.emit('did-add-selection', selection)
    }
  }

  private forget(selection: Selection): void {
    removeItem(this.cursors, selection.cursor)
    removeItem(this.selections, selection)
    selection.marker.owner = null
    this.noteChange()
    this.emitter.emit('did-remove-cursor', selection.cursor)
    this.emitter.emit('did-remove-selection', selection)
  }

  private meetsAnother(selection: Selection): boolean {
    const markers = this.layer.bufferLayer.markersIntersectingMarker(selection.marker.bufferMarker)
    for (let i = 0; i < markers.length; i++) {
      const other = selectionOf(this.layer.markerFor(markers[i]!))
      if (other == null || other === selection) continue
      if (other.intersectsWith(selection, !other.isEmpty() && !selection.isEmpty())) return true
    }
    return false
  }

  private ensureOne(): void {
    if (this.selections.length === 0 && this.alive) {
      this.addForBufferRange(new Range(Point.ZERO, Point.ZERO), {
        autoscroll: false,
        preserveFolds: true,
      })
    }
  }

  private noteChange(): void {
    this.unreported = true
    if (this.changing || this.reportQueued) return
    this.reportQueued = true
    queueMicrotask(() => {
      this.reportQueued = false
      this.reportChange()
    })
  }

  private reportChange(): void {
    if (!this.unreported || this.changing || !this.alive) return
    this.unreported = false
    this.emitter.emit('did-change')
  }
}

/** Whether two selections ordered by position overlap, or touch when one is empty. */
const overlapping = (previous: Selection, current: Selection): boolean =>
  previous.intersectsWith(current, !current.isEmpty() && !previous.isEmpty())

/** Whether two selections share a screen row. */
const onSameScreenRows = (previous: Selection, current: Selection): boolean => {
  const { start, end } = current.getScreenRange()
  return previous.intersectsScreenRowRange(start.row, end.row)
}

/** The selection a marker of the selections layer stands for. */
const selectionOf = (marker: DisplayMarker): Selection | null =>
  marker.owner instanceof Selection ? marker.owner : null

const removeItem = <T>(items: T[], item: T): void => {
  const index = items.indexOf(item)
  if (index !== -1) items.splice(index, 1)
}
