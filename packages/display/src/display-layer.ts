/**
 * Screen coordinates over a `TextBuffer`: folds, then hard tabs, then soft wrap, as Atom's
 * `DisplayLayer` shows a buffer.
 *
 * The layer keeps one layout per region (see `region.ts`) in a tree that counts buffer and
 * screen rows, so buffer row <-> screen row lookups are O(log n). A buffer change, local or
 * remote, lays out again only the regions it touched; a fold or unfold, only the regions
 * under it (`screen-layout.ts` keeps the layout in step). Folds are markers on a buffer marker layer, so they follow remote edits, and a
 * change that overlaps a fold's inside removes it.
 */
import type { BufferChange, Marker, MarkerLayer, TextBuffer } from '@tandem/buffer'
import {
  CompositeDisposable,
  type Disposable,
  Emitter,
  Point,
  type PointLike,
  Range,
  type RangeLike,
} from '@tandem/text'
import { isCharacterPair, isWrapBoundary, ratioForCharacter } from './characters.js'
import type { LayoutSettings, LineSource } from './region.js'
import type { FoundRegion, RegionTree } from './region-tree.js'
import { ScreenLayout } from './screen-layout.js'
import { type ScreenLine, screenLinesOfRegion } from './screen-lines.js'
import {
  bufferToScreen,
  type ClipDirection,
  collapseTabs,
  expandTabs,
  screenToBuffer,
} from './translate.js'

/** Settings of a display layer; every one is optional. */
export interface DisplayLayerSettings {
  /** Columns between tab stops (default 4). */
  tabLength?: number
  /** Soft-wrap width in columns; `null` or `Infinity` for no soft wrap (default). */
  softWrapColumn?: number | null
  /** Extra indentation of wrapped rows, in columns (default 0). */
  softWrapHangingIndent?: number
  /** Leading spaces move and clip in whole `tabLength` units (default true). */
  atomicSoftTabs?: boolean
  /** What a fold shows as (default `'⋯'`). */
  foldCharacter?: string
  /** Width of a character for soft wrap (default: 2 for East Asian wide characters, else 1). */
  ratioForCharacter?: (character: string) => number
  /** Where soft wrap may break (default: Atom's editor rule, see `isWrapBoundary`). */
  isWrapBoundary?: (previous: string, next: string) => boolean
}

/** Options of a display layer: its settings, plus a fold layer to share. */
export interface DisplayLayerOptions extends DisplayLayerSettings {
  /** Marker layer holding the folds (default: a new one on the buffer). */
  foldLayer?: MarkerLayer
}

/** Options of position translations. */
export interface TranslateOptions {
  /** Where a position inside something atomic goes (default `'closest'`). */
  clipDirection?: ClipDirection
  /** With `backward`, a position in a wrapped row's indentation maps to the wrap point. */
  skipSoftWrapIndentation?: boolean
}

/** Rows of the screen that changed: `oldRange` before, `newRange` after (whole rows). */
export interface DisplayChange {
  /** The screen rows replaced, in the coordinates before the change. */
  readonly oldRange: Range
  /** The screen rows that replaced them, in the coordinates after the change. */
  readonly newRange: Range
}

interface Events {
  'did-change': readonly DisplayChange[]
  'did-reset': undefined
  'did-remap': undefined
}

type Settings = LayoutSettings & { readonly atomicSoftTabs: boolean }

/**
 * Buffer <-> screen coordinates with folds, hard tabs and soft wrap.
 *
 * @example
 * const display = new DisplayLayer(buffer, { tabLength: 2, softWrapColumn: 40 })
 * display.translateBufferPosition([3, 10]) // => the screen position of (3, 10)
 */
export class DisplayLayer {
  /** The marker layer holding this layer's folds. */
  readonly foldLayer: MarkerLayer
  private settings: Settings
  private readonly layout: ScreenLayout
  /** The layout's regions, read directly by every lookup. */
  private readonly tree: RegionTree
  private readonly emitter = new Emitter<Events>()
  private readonly subscriptions = new CompositeDisposable()
  private destroyed = false
  /** The buffer's lines as the layout reads them. */
  private readonly lines: LineSource

  constructor(
    /** The buffer shown. */
    readonly buffer: TextBuffer,
    options: DisplayLayerOptions = {},
  ) {
    this.settings = resolveSettings(options, null)
    this.lines = { lineForRow: (row) => buffer.lineForRow(row) ?? '' }
    this.foldLayer =
      options.foldLayer ??
      buffer.addMarkerLayer({ maintainHistory: false, destroyInvalidatedMarkers: true })
    this.layout = new ScreenLayout(buffer, this.lines, this.foldLayer)
    this.tree = this.layout.tree
    this.layout.layOutAll(this.settings)
    // The layout follows each edit as it is made, so screen positions read in the middle of a
    // transaction are right; `did-change` waits for the transaction's end, as in Atom.
    this.subscriptions.add(
      buffer.followEdits({
        textDidChange: (changes) => this.bufferDidChange(changes),
        textDidReset: () => this.layout.relayoutEverything(this.settings),
        transactionDidEnd: () => this.emitPendingChanges(),
      }),
    )
  }

  // Settings

  /** The settings in effect. */
  getSettings(): Required<DisplayLayerSettings> {
    const { tabLength, softWrapColumn, softWrapHangingIndent, atomicSoftTabs, foldCharacter } =
      this.settings
    return {
      tabLength,
      softWrapColumn,
      softWrapHangingIndent,
      atomicSoftTabs,
      foldCharacter,
      ratioForCharacter: this.settings.ratioForCharacter,
      isWrapBoundary: this.settings.isWrapBoundary,
    }
  }

  /** Changes settings; when any differs, lays out everything again and emits `did-reset`. */
  reset(settings: DisplayLayerSettings): void {
    this.assertAlive()
    const next = resolveSettings(settings, this.settings)
    const changed = (Object.keys(next) as (keyof Settings)[]).some(
      (key) => next[key] !== this.settings[key],
    )
    if (!changed) return
    this.settings = next
    this.layout.relayoutEverything(next)
    this.emitter.emit('did-reset')
    this.reportChanges()
    this.emitter.emit('did-remap')
  }

  // Counting

  /** Number of screen rows. */
  getScreenLineCount(): number {
    return this.tree.screenRowCount
  }

  /** Number of screen rows (exact here: the layer is always fully laid out). */
  getApproximateScreenLineCount(): number {
    return this.tree.screenRowCount
  }

  /** The last screen row. */
  getLastScreenRow(): number {
    return this.tree.screenRowCount - 1
  }

  /** Length of screen row `row` in columns (tabs expanded); undefined past the last row. */
  lineLengthForScreenRow(row: number): number | undefined {
    if (!(row >= 0 && row < this.tree.screenRowCount)) return undefined
    const region = this.tree.findByScreenRow(row)
    return region.layout.lengths[row - region.screenRow]
  }

  // Translating

  /**
   * The screen position of a buffer position (clipped to the buffer first). Inside a fold,
   * a surrogate pair or an atomic soft tab it moves by `clipDirection` (default closest).
   *
   * @example display.translateBufferPosition([0, 1]) // => (0, 4) when row 0 starts with a tab
   */
  translateBufferPosition(position: PointLike, options?: TranslateOptions): Point {
    const direction = options?.clipDirection ?? 'closest'
    let bufferPosition = this.buffer.clipPosition(position)
    const delta = this.clipColumnDelta(bufferPosition, direction)
    if (delta !== 0) {
      bufferPosition = new Point(bufferPosition.row, bufferPosition.column + delta)
    }
    if (
      this.tree.screenRowCount === this.tree.bufferRowCount &&
      this.foldLayer.getMarkerCount() === 0
    ) {
      // No folds and no row wraps: every buffer row is one screen row, the same row. Only
      // tabs before the column can move it.
      const tab = this.lines.lineForRow(bufferPosition.row).indexOf('\t')
      if (tab < 0 || tab >= bufferPosition.column) return bufferPosition
    }
    const region = this.tree.findByBufferRow(bufferPosition.row)
    const { hunks, tabCounts } = region.layout
    if (hunks.length === 0 && tabCounts[0] === 0) {
      // One screen row without tabs: the column stays as it is.
      return new Point(
        region.screenRow + bufferPosition.row - region.bufferRow,
        bufferPosition.column,
      )
    }
    const local = new Point(bufferPosition.row - region.bufferRow, bufferPosition.column)
    const screen = bufferToScreen(region.layout.hunks, local, direction)
    const column =
      region.layout.tabCounts[screen.row]! > 0
        ? expandTabs(region.layout, this.lines, region.bufferRow, screen, this.settings.tabLength)
        : screen.column
    return new Point(region.screenRow + screen.row, column)
  }

  /** `translateBufferPosition` under its descriptive name. */
  screenPositionForBufferPosition(position: PointLike, options?: TranslateOptions): Point {
    return this.translateBufferPosition(position, options)
  }

  /** Both ends of a buffer range translated to the screen. */
  translateBufferRange(range: RangeLike, options?: TranslateOptions): Range {
    const { start, end } = Range.fromObject(range)
    return new Range(
      this.translateBufferPosition(start, options),
      this.translateBufferPosition(end, options),
    )
  }

  /** `translateBufferRange` under its descriptive name. */
  screenRangeForBufferRange(range: RangeLike, options?: TranslateOptions): Range {
    return this.translateBufferRange(range, options)
  }

  /**
   * The buffer position of a screen position (clipped to the screen first: past a row's end
   * goes to its end, or with `forward` to the next row's start). A column inside a tab's
   * width, a fold placeholder, a soft wrap or an atomic soft tab moves by `clipDirection`.
   *
   * @example display.translateScreenPosition([0, 2], { clipDirection: 'backward' }) // => (0, 0) inside a leading tab
   */
  translateScreenPosition(position: PointLike, options: TranslateOptions = {}): Point {
    Point.assertValid(position, 'screenPosition')
    const direction = options.clipDirection ?? 'closest'
    const screen = this.constrainScreenPosition(Point.fromObject(position), direction)
    const region = this.tree.findByScreenRow(screen.row)
    let local = new Point(screen.row - region.screenRow, screen.column)
    if (region.layout.tabCounts[local.row]! > 0) {
      const { tabLength } = this.settings
      const column = collapseTabs(
        region.layout,
        this.lines,
        region.bufferRow,
        local,
        tabLength,
        direction,
      )
      local = new Point(local.row, column)
    }
    const skip = options.skipSoftWrapIndentation ?? false
    const buffer = screenToBuffer(region.layout.hunks, local, direction, skip)
    const bufferPosition = new Point(region.bufferRow + buffer.row, buffer.column)
    const delta = this.clipColumnDelta(bufferPosition, direction)
    return delta === 0
      ? bufferPosition
      : new Point(bufferPosition.row, bufferPosition.column + delta)
  }

  /** `translateScreenPosition` under its descriptive name. */
  bufferPositionForScreenPosition(position: PointLike, options?: TranslateOptions): Point {
    return this.translateScreenPosition(position, options)
  }

  /** Both ends of a screen range translated to the buffer. */
  translateScreenRange(range: RangeLike, options?: TranslateOptions): Range {
    const { start, end } = Range.fromObject(range)
    return new Range(
      this.translateScreenPosition(start, options),
      this.translateScreenPosition(end, options),
    )
  }

  /** `translateScreenRange` under its descriptive name. */
  bufferRangeForScreenRange(range: RangeLike, options?: TranslateOptions): Range {
    return this.translateScreenRange(range, options)
  }

  /** The nearest screen position that a buffer position can have (round trip through the buffer). */
  clipScreenPosition(position: PointLike, options?: TranslateOptions): Point {
    return this.translateBufferPosition(this.translateScreenPosition(position, options), options)
  }

  /**
   * The first buffer row of the screen rows that show `bufferRow`: the row itself, or the
   * row where a fold that swallows its start begins. Rows past the end are returned as is.
   *
   * @example display.findBoundaryPrecedingBufferRow(4) // => 2 when rows 2..4 are folded
   */
  findBoundaryPrecedingBufferRow(bufferRow: number): number {
    let row = bufferRow
    for (;;) {
      if (row <= 0) return 0
      if (row > this.buffer.getLastRow()) return row
      const backward = { clipDirection: 'backward' } as const
      const screen = this.translateBufferPosition(new Point(row, 0), backward)
      const start = this.translateScreenPosition(new Point(screen.row, 0), backward)
      if ((screen.column === 0 && start.column === 0) || start.row >= row) return start.row
      row = start.row
    }
  }

  /**
   * The first buffer row at or after `bufferRow` that starts a screen row: past any fold
   * that swallows the start of `bufferRow`. Rows past the end are returned as is.
   *
   * @example display.findBoundaryFollowingBufferRow(3) // => 5 when rows 2..4 are folded
   */
  findBoundaryFollowingBufferRow(bufferRow: number): number {
    let row = bufferRow
    for (;;) {
      if (row > this.buffer.getLastRow()) return row
      const forward = { clipDirection: 'forward' } as const
      const screen = this.translateBufferPosition(new Point(Math.max(row, 0), 0), forward)
      if (screen.column === 0) return row
      const end = new Point(screen.row, this.lineLengthForScreenRow(screen.row) ?? 0)
      const next = this.translateScreenPosition(end, forward).row + 1
      if (next <= row) return row
      row = next
    }
  }

  /** The buffer row shown at the start of screen row `row`. */
  bufferRowForScreenRow(row: number): number {
    return this.translateScreenPosition(new Point(row, 0)).row
  }

  /** The screen row showing the start of buffer row `row`. */
  screenRowForBufferRow(row: number): number {
    return this.translateBufferPosition(new Point(row, 0)).row
  }

  /**
   * The buffer row at the start of each screen row in [`startRow`, `endRow`). Rows past the
   * last screen row count on from the buffer's line count, as Atom's do (so the rows of the
   * last screen line end where the next one would start).
   */
  bufferRowsForScreenRows(startRow: number, endRow: number): number[] {
    const rows: number[] = []
    const lastScreenRow = this.tree.screenRowCount - 1
    const lineCount = this.buffer.getLineCount()
    for (let row = startRow; row < endRow; row++) {
      rows.push(
        row > lastScreenRow ? lineCount + row - lastScreenRow - 1 : this.bufferRowForScreenRow(row),
      )
    }
    return rows
  }

  // Screen lines

  /** Screen row `row` as displayed, with the buffer range it shows. */
  screenLineForScreenRow(row: number): ScreenLine {
    const count = this.tree.screenRowCount
    if (!Number.isInteger(row) || row < 0 || row >= count) {
      throw new RangeError(`row must be an integer in [0, ${count - 1}], got ${row}`)
    }
    const region = this.tree.findByScreenRow(row)
    return this.linesOf(region)[row - region.screenRow]!
  }

  /** Screen rows [`startRow`, `endRow`) as displayed (clamped to the rows there are). */
  getScreenLines(startRow = 0, endRow: number = this.tree.screenRowCount): ScreenLine[] {
    const end = Math.min(endRow, this.tree.screenRowCount)
    const result: ScreenLine[] = []
    let row = Math.max(0, startRow)
    while (row < end) {
      const region = this.tree.findByScreenRow(row)
      const lines = this.linesOf(region)
      for (let i = row - region.screenRow; i < lines.length && row < end; i++, row++) {
        result.push(lines[i]!)
      }
    }
    return result
  }

  /** The text of screen rows [`startRow`, `endRow`), joined with `\n`. */
  getText(startRow?: number, endRow?: number): string {
    return this.getScreenLines(startRow, endRow)
      .map((line) => line.lineText)
      .join('\n')
  }

  // Folds

  /**
   * Folds `range`: its text shows as one fold character. Overlapping and nested folds merge
   * on screen. Returns the fold's id.
   *
   * @example const id = display.foldBufferRange([[1, 0], [3, 0]])
   */
  foldBufferRange(range: RangeLike): number {
    this.assertAlive()
    const bufferRange = Range.fromObject(range)
    const containing = this.foldLayer.findMarkers({ containsRange: bufferRange })
    const marker = this.foldLayer.markRange(bufferRange, { invalidate: 'overlap', exclusive: true })
    if (containing.length === 0) {
      const folded = marker.getRange()
      this.layout.layOutRows(folded.start.row, folded.end.row + 1, this.settings)
      this.reportChanges()
      this.emitter.emit('did-remap')
    }
    return marker.id
  }

  /** The buffer range of fold `id`, or undefined when there is no such fold. */
  bufferRangeForFold(id: number): Range | undefined {
    return this.foldLayer.getMarker(id)?.getRange()
  }

  /** Ids of the folds intersecting `range` (clipped). */
  foldsIntersectingBufferRange(range: RangeLike): number[] {
    return this.foldLayer
      .findMarkers({ intersectsRange: this.buffer.clipRange(range) })
      .map((marker) => marker.id)
  }

  /** Whether any fold intersects buffer row `row`. */
  isFoldedAtBufferRow(row: number): boolean {
    const lastRow = this.buffer.getLastRow()
    if (!(row >= 0 && row <= lastRow)) return false
    const line = new Range(new Point(row, 0), new Point(row, this.buffer.lineLengthForRow(row)))
    return this.foldsIntersectingBufferRange(line).length > 0
  }

  /** Whether any fold intersects the buffer rows shown on screen row `row`. */
  isFoldedAtScreenRow(row: number): boolean {
    return this.isFoldedAtBufferRow(this.bufferRowForScreenRow(row))
  }

  /** Removes fold `id` (nothing when there is none). */
  destroyFold(id: number): void {
    const marker = this.foldLayer.getMarker(id)
    if (marker !== undefined) this.destroyFoldMarkers([marker])
  }

  /** Removes every fold and returns their ranges. */
  destroyAllFolds(): Range[] {
    return this.destroyFoldMarkers(this.foldLayer.findMarkers({}))
  }

  /** `destroyAllFolds` under Atom's editor name. */
  unfoldAll(): Range[] {
    return this.destroyAllFolds()
  }

  /** Removes the folds intersecting `range` (clipped) and returns their ranges. */
  destroyFoldsIntersectingBufferRange(range: RangeLike): Range[] {
    return this.destroyFoldMarkers(
      this.foldLayer.findMarkers({ intersectsRange: this.buffer.clipRange(range) }),
    )
  }

  /**
   * Removes the folds containing any of `positions` (clipped); with `excludeEndpoints`, a
   * fold only counts when the position is strictly inside it. Returns their ranges.
   */
  destroyFoldsContainingBufferPositions(
    positions: readonly PointLike[],
    excludeEndpoints = false,
  ): Range[] {
    const found = new Set<Marker>()
    for (const position of positions) {
      const clipped = this.buffer.clipPosition(position)
      for (const marker of this.foldLayer.findMarkers({ containsPosition: clipped })) {
        if (!excludeEndpoints || marker.getRange().containsPoint(clipped, true)) found.add(marker)
      }
    }
    return this.destroyFoldMarkers([...found].sort((a, b) => a.compare(b)))
  }

  // Events and lifetime

  /** Called after screen rows changed, with the rows before and after. */
  onDidChange(callback: (changes: readonly DisplayChange[]) => void): Disposable {
    return this.emitter.on('did-change', callback)
  }

  /** Called after new settings made the layer lay everything out again. */
  onDidReset(callback: () => void): Disposable {
    return this.emitter.on('did-reset', callback)
  }

  /**
   * Called after folds or settings changed where buffer positions show on screen. Text
   * changes do not call it: markers hear of those from the buffer, with the layer updated.
   */
  onDidRemap(callback: () => void): Disposable {
    return this.emitter.on('did-remap', callback)
  }

  /** Stops following the buffer. Folds stay on the buffer's marker layer unless it was ours. */
  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    this.subscriptions.dispose()
    this.emitter.dispose()
  }

  /** Checks the region tree against a layout from scratch (tests only). */
  checkInvariants(): void {
    this.tree.checkInvariants()
    if (this.tree.bufferRowCount !== this.buffer.getLineCount()) {
      throw new Error(
        `regions hold ${this.tree.bufferRowCount} buffer rows, the buffer ${this.buffer.getLineCount()}`,
      )
    }
  }

  // Internals

  private assertAlive(): void {
    if (this.destroyed) throw new Error('the display layer is destroyed')
  }

  private linesOf(region: FoundRegion): ScreenLine[] {
    const { tabLength, foldCharacter } = this.settings
    return screenLinesOfRegion(
      region.layout,
      this.lines,
      region.bufferRow,
      tabLength,
      foldCharacter,
    )
  }

  private destroyFoldMarkers(markers: Marker[]): Range[] {
    this.assertAlive()
    if (markers.length === 0) return []
    const ranges = markers.map((marker) => marker.getRange())
    let startRow = Number.POSITIVE_INFINITY
    let endRow = 0
    for (const range of ranges) {
      startRow = Math.min(startRow, range.start.row)
      endRow = Math.max(endRow, range.end.row)
    }
    for (const marker of markers) marker.destroy()
    this.layout.layOutRows(startRow, endRow + 1, this.settings)
    this.reportChanges()
    this.emitter.emit('did-remap')
    return ranges
  }

  /** Lays out what buffer changes touched. */
  private bufferDidChange(changes: readonly BufferChange[]): void {
    if (this.destroyed || changes.length === 0) return
    this.layout.followChanges(changes, this.settings)
  }

  /** Reports replaced rows now, unless a buffer transaction is running (it reports at its end). */
  private reportChanges(): void {
    if (!this.buffer.isTransacting()) this.emitPendingChanges()
  }

  private emitPendingChanges(): void {
    if (this.destroyed || this.layout.replacedRows.isEmpty()) return
    const runs = this.layout.replacedRows.take()
    if (this.emitter.listenerCountForEventName('did-change') === 0) return
    const changes: DisplayChange[] = runs.map((run) => ({
      oldRange: new Range(new Point(run.oldStart, 0), new Point(run.oldEnd, 0)),
      newRange: new Range(new Point(run.newStart, 0), new Point(run.newEnd, 0)),
    }))
    this.emitter.emit('did-change', changes)
  }

  /**
   * How far a buffer position moves so as not to split a character pair or, with atomic
   * soft tabs, a run of `tabLength` leading spaces.
   */
  private clipColumnDelta(position: Point, direction: ClipDirection): number {
    const { row, column } = position
    const line = this.lines.lineForRow(row)
    const previous = line[column - 1]
    const character = line[column]
    if (previous !== undefined && character !== undefined && isCharacterPair(previous, character)) {
      return direction === 'forward' ? 1 : -1
    }
    const { atomicSoftTabs, tabLength, softWrapColumn } = this.settings
    if (!atomicSoftTabs) return 0
    if (column * this.settings.ratioForCharacter(' ') > softWrapColumn) return 0
    for (let c = column; c >= 0; c--) if (line[c] !== ' ') return 0
    const previousTabStop = column - (column % tabLength)
    if (column === previousTabStop) return 0
    const nextTabStop = previousTabStop + tabLength
    for (let c = column; c < nextTabStop; c++) if (line[c] !== ' ') return 0
    let clipped = previousTabStop
    if (direction === 'forward') clipped = nextTabStop
    else if (direction === 'closest' && column - previousTabStop > tabLength / 2)
      clipped = nextTabStop
    return clipped - column
  }

  private constrainScreenPosition(position: Point, direction: ClipDirection): Point {
    const { row, column } = position
    if (row < 0) return Point.ZERO
    const lastRow = this.tree.screenRowCount - 1
    if (row > lastRow) return new Point(lastRow, this.lineLengthForScreenRow(lastRow)!)
    if (column < 0) return new Point(row, 0)
    const length = this.lineLengthForScreenRow(row)!
    if (column > length) {
      return direction === 'forward' && row < lastRow
        ? new Point(row + 1, 0)
        : new Point(row, length)
    }
    return position
  }
}

const resolveSettings = (options: DisplayLayerSettings, base: Settings | null): Settings => {
  const tabLength = options.tabLength ?? base?.tabLength ?? 4
  if (typeof tabLength !== 'number' || !Number.isInteger(tabLength) || tabLength < 1) {
    throw new RangeError(`tabLength must be a positive integer, got ${String(tabLength)}`)
  }
  const wrap =
    options.softWrapColumn === undefined ? (base?.softWrapColumn ?? null) : options.softWrapColumn
  if (wrap !== null && (typeof wrap !== 'number' || Number.isNaN(wrap))) {
    throw new TypeError(`softWrapColumn must be a number or null, got ${String(wrap)}`)
  }
  const hanging = options.softWrapHangingIndent ?? base?.softWrapHangingIndent ?? 0
  if (typeof hanging !== 'number' || !(hanging >= 0)) {
    throw new RangeError(`softWrapHangingIndent must be a number >= 0, got ${String(hanging)}`)
  }
  const foldCharacter = options.foldCharacter ?? base?.foldCharacter ?? '⋯'
  if (typeof foldCharacter !== 'string' || foldCharacter.length === 0) {
    throw new TypeError('foldCharacter must be a non-empty string')
  }
  return {
    tabLength,
    softWrapColumn: wrap === null ? Number.POSITIVE_INFINITY : Math.max(1, wrap),
    softWrapHangingIndent: hanging,
    atomicSoftTabs: options.atomicSoftTabs ?? base?.atomicSoftTabs ?? true,
    foldCharacter,
    ratioForCharacter: options.ratioForCharacter ?? base?.ratioForCharacter ?? ratioForCharacter,
    isWrapBoundary: options.isWrapBoundary ?? base?.isWrapBoundary ?? isWrapBoundary,
  }
}
