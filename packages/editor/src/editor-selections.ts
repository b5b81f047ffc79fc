import type { TranslateOptions } from '@tandem/display'
import { type Disposable, Point, type PointLike, Range, type RangeLike } from '@tandem/text'
import type { Cursor, CursorPositionChangeEvent } from './cursor.js'
import type { DisplayMarker } from './display-marker.js'
import { EditorBase } from './editor-base.js'
import type { Selection } from './selection.js'
import type { SelectionRangeChangeEvent, SetRangeOptions } from './selection-base.js'

/**
 * Atom's editor-level cursor and selection interface over the `SelectionSet`: reading,
 * setting and adding cursors and selections, merging them, their events, and the folds that
 * touch them.
 */
export class EditorSelections extends EditorBase {
  // Folds

  /** Folds buffer rows `startRow`..`endRow` (from the end of the first to the end of the last). */
  foldBufferRowRange(startRow: number, endRow: number): number {
    return this.foldBufferRange(
      new Range(
        new Point(startRow, Number.POSITIVE_INFINITY),
        new Point(endRow, Number.POSITIVE_INFINITY),
      ),
    )
  }

  /** Folds a buffer range; returns the fold's id. */
  foldBufferRange(range: RangeLike): number {
    return this.displayLayer.foldBufferRange(range)
  }

  /** Removes every fold; returns their ranges. When there were some, the cursor is scrolled to. */
  unfoldAll(): Range[] {
    const unfolded = this.displayLayer.destroyAllFolds()
    if (unfolded.length > 0) this.getLastCursor().autoscroll()
    return unfolded
  }

  /** Whether a fold touches a buffer row. */
  isFoldedAtBufferRow(row: number): boolean {
    return this.displayLayer.isFoldedAtBufferRow(row)
  }

  /** Whether a fold touches a screen row. */
  isFoldedAtScreenRow(row: number): boolean {
    return this.displayLayer.isFoldedAtScreenRow(row)
  }

  /** Removes the folds intersecting a buffer range. */
  destroyFoldsIntersectingBufferRange(range: RangeLike): Range[] {
    return this.displayLayer.destroyFoldsIntersectingBufferRange(range)
  }

  /** Removes the folds containing any of the positions (strictly, with `excludeEndpoints`). */
  destroyFoldsContainingBufferPositions(
    positions: readonly PointLike[],
    excludeEndpoints = false,
  ): Range[] {
    return this.displayLayer.destroyFoldsContainingBufferPositions(positions, excludeEndpoints)
  }

  /** The ranges of every fold, in buffer order. */
  getFoldedBufferRanges(): Range[] {
    return this.displayLayer
      .foldsIntersectingBufferRange(this.buffer.getRange())
      .map((id) => this.displayLayer.bufferRangeForFold(id))
      .filter((range): range is Range => range !== undefined)
      .sort((a, b) => a.compare(b))
  }

  // Cursors

  /** The cursors, in the order they were added. */
  getCursors(): Cursor[] {
    return this.selectionSet.getCursors()
  }

  /** The most recently added cursor. */
  getLastCursor(): Cursor {
    return this.selectionSet.getLastCursor()
  }

  /** The cursors ordered by buffer position. */
  getCursorsOrderedByBufferPosition(): Cursor[] {
    return this.getCursors().sort((a, b) => a.compare(b))
  }

  /** Whether there is more than one cursor. */
  hasMultipleCursors(): boolean {
    return this.getCursors().length > 1
  }

  /** The last cursor's buffer position. */
  getCursorBufferPosition(): Point {
    return this.getLastCursor().getBufferPosition()
  }

  /** Every cursor's buffer position, in the order they were added. */
  getCursorBufferPositions(): Point[] {
    return this.getCursors().map((cursor) => cursor.getBufferPosition())
  }

  /** The last cursor's screen position. */
  getCursorScreenPosition(): Point {
    return this.getLastCursor().getScreenPosition()
  }

  /** Every cursor's screen position, in the order they were added. */
  getCursorScreenPositions(): Point[] {
    return this.getCursors().map((cursor) => cursor.getScreenPosition())
  }

  /** Moves every cursor to a buffer position (they merge into one). */
  setCursorBufferPosition(position: PointLike, options?: { autoscroll?: boolean }): void {
    this.moveCursors((cursor) => cursor.setBufferPosition(position, options))
  }

  /** Moves every cursor to a screen position (they merge into one). */
  setCursorScreenPosition(
    position: PointLike,
    options?: TranslateOptions & { autoscroll?: boolean },
  ): void {
    this.moveCursors((cursor) => cursor.setScreenPosition(position, options))
  }

  /** Adds a cursor at a buffer position; returns it (or the one it merged into). */
  addCursorAtBufferPosition(position: PointLike, options?: { autoscroll?: boolean }): Cursor {
    return this.selectionSet.addCursorAtBufferPosition(position, options)
  }

  /** Adds a cursor at a screen position; returns it (or the one it merged into). */
  addCursorAtScreenPosition(
    position: PointLike,
    options?: TranslateOptions & { autoscroll?: boolean },
  ): Cursor {
    return this.selectionSet.addCursorAtScreenPosition(position, options)
  }

  /** Runs `move` on every cursor, then merges cursors that met. */
  moveCursors(move: (cursor: Cursor) => void): void {
    this.selectionSet.moveCursors(move)
  }

  /** Destroys cursors at the same buffer position as an earlier one. */
  mergeCursors(): void {
    this.selectionSet.mergeCursors()
  }

  /** Selects a marker's range when it is valid; returns the range. */
  selectMarker(marker: DisplayMarker): Range | undefined {
    if (!marker.isValid()) return undefined
    const range = marker.getBufferRange()
    this.setSelectedBufferRange(range)
    return range
  }

  // Selections

  /** The selections, in the order they were added. */
  getSelections(): Selection[] {
    return this.selectionSet.getSelections()
  }

  /** The most recently added selection. */
  getLastSelection(): Selection {
    return this.selectionSet.getLastSelection()
  }

  /** The selections ordered by buffer range. */
  getSelectionsOrderedByBufferPosition(): Selection[] {
    return this.getSelections().sort((a, b) => a.compare(b))
  }

  /** The last selection's text. */
  getSelectedText(): string {
    return this.getLastSelection().getText()
  }

  /** The last selection's buffer range. */
  getSelectedBufferRange(): Range {
    return this.getLastSelection().getBufferRange()
  }

  /** Every selection's buffer range, in the order they were added. */
  getSelectedBufferRanges(): Range[] {
    return this.getSelections().map((selection) => selection.getBufferRange())
  }

  /** The last selection's screen range. */
  getSelectedScreenRange(): Range {
    return this.getLastSelection().getScreenRange()
  }

  /** Every selection's screen range, in the order they were added. */
  getSelectedScreenRanges(): Range[] {
    return this.getSelections().map((selection) => selection.getScreenRange())
  }

  /** Selects one buffer range (other selections go). */
  setSelectedBufferRange(range: RangeLike, options?: SetRangeOptions): void {
    this.setSelectedBufferRanges([range], options)
  }

  /** Selects buffer ranges: the first selections take them, extra ones go, new ones are added. */
  setSelectedBufferRanges(ranges: readonly RangeLike[], options: SetRangeOptions = {}): void {
    this.selectionSet.setRanges(
      ranges,
      options,
      (selection, range) => selection.setBufferRange(range, options),
      (range) => this.addSelectionForBufferRange(range, options),
    )
  }

  /** Selects one screen range (other selections go). */
  setSelectedScreenRange(range: RangeLike, options?: SetRangeOptions): void {
    this.setSelectedBufferRange(this.bufferRangeForScreenRange(range), options)
  }

  /** Selects screen ranges, as `setSelectedBufferRanges`. */
  setSelectedScreenRanges(ranges: readonly RangeLike[], options: SetRangeOptions = {}): void {
    this.selectionSet.setRanges(
      ranges,
      options,
      (selection, range) => selection.setScreenRange(range, options),
      (range) => this.addSelectionForScreenRange(range, options),
    )
  }

  /** Adds a selection for a buffer range; returns it (or the one it merged into). */
  addSelectionForBufferRange(range: RangeLike, options: SetRangeOptions = {}): Selection {
    return this.selectionSet.addForBufferRange(range, options)
  }

  /** Adds a selection for a screen range. */
  addSelectionForScreenRange(range: RangeLike, options: SetRangeOptions = {}): Selection {
    return this.selectionSet.addForScreenRange(range, options)
  }

  /** Extends the last selection to a buffer position, then merges. */
  selectToBufferPosition(position: PointLike): void {
    const last = this.getLastSelection()
    last.selectToBufferPosition(position)
    this.mergeIntersectingSelections({ reversed: last.isReversed() })
  }

  /** Extends the last selection to a screen position, then merges. */
  selectToScreenPosition(
    position: PointLike,
    options?: TranslateOptions & { suppressSelectionMerge?: boolean },
  ): void {
    const last = this.getLastSelection()
    last.selectToScreenPosition(position, options)
    if (!options?.suppressSelectionMerge) {
      this.mergeIntersectingSelections({ reversed: last.isReversed() })
    }
  }

  /** Selects the whole buffer. */
  selectAll(): void {
    this.expandSelectionsForward((selection) => selection.selectAll())
  }

  /** Reduces to the last cursor's selection, emptied. */
  clearSelections(options?: { autoscroll?: boolean }): void {
    this.consolidateSelections()
    this.getLastSelection().clear(options)
  }

  /** Keeps only the first selection; true when there were several. */
  consolidateSelections(): boolean {
    return this.selectionSet.consolidate()
  }

  /** Whether any selection meets a buffer range. */
  selectionIntersectsBufferRange(range: RangeLike): boolean {
    return this.getSelections().some((selection) => selection.intersectsBufferRange(range))
  }

  /** Runs `fn` on every selection, then merges those that met. */
  expandSelectionsForward(fn: (selection: Selection) => void): void {
    this.selectionSet.change(() => {
      for (const selection of this.getSelections()) fn(selection)
    })
  }

  /** Runs `fn` on every selection, then merges those that met into reversed selections. */
  expandSelectionsBackward(fn: (selection: Selection) => void): void {
    this.selectionSet.change(
      () => {
        for (const selection of this.getSelections()) fn(selection)
      },
      { reversed: true },
    )
  }

  /**
   * Merges selections that overlap (or touch, when one is empty). With `fn`, runs it first
   * with merging suppressed. `options` go to each merge, as Atom passes them.
   */
  mergeIntersectingSelections<T>(fn?: () => T): T | undefined
  mergeIntersectingSelections<T>(options: SetRangeOptions, fn?: () => T): T | undefined
  mergeIntersectingSelections<T>(
    first?: SetRangeOptions | (() => T),
    second?: () => T,
  ): T | undefined {
    const options = typeof first === 'function' || first === undefined ? {} : first
    const fn = typeof first === 'function' ? first : second
    return this.selectionSet.change(fn, options)
  }

  /** Merges selections whose screen rows meet (Atom does this before deleting lines). */
  mergeSelectionsOnSameRows(): void {
    this.selectionSet.change(undefined, { merge: 'same-rows' })
  }

  /** Runs `fn` without merging selections during or after it; returns its result. */
  avoidMergingSelections<T>(fn: () => T): T | undefined {
    return this.selectionSet.change(fn, { merge: 'none' })
  }

  // Events

  /** Calls `callback` with each cursor now and each one added later. */
  observeCursors(callback: (cursor: Cursor) => void): Disposable {
    for (const cursor of this.getCursors()) callback(cursor)
    return this.onDidAddCursor(callback)
  }

  /** Calls `callback` with each added cursor. */
  onDidAddCursor(callback: (cursor: Cursor) => void): Disposable {
    return this.selectionSet.onDidAddCursor(callback)
  }

  /** Calls `callback` with each removed cursor. */
  onDidRemoveCursor(callback: (cursor: Cursor) => void): Disposable {
    return this.selectionSet.onDidRemoveCursor(callback)
  }

  /** Calls `callback` with each selection now and each one added later. */
  observeSelections(callback: (selection: Selection) => void): Disposable {
    for (const selection of this.getSelections()) callback(selection)
    return this.onDidAddSelection(callback)
  }

  /** Calls `callback` with each added selection. */
  onDidAddSelection(callback: (selection: Selection) => void): Disposable {
    return this.selectionSet.onDidAddSelection(callback)
  }

  /** Calls `callback` with each removed selection. */
  onDidRemoveSelection(callback: (selection: Selection) => void): Disposable {
    return this.selectionSet.onDidRemoveSelection(callback)
  }

  /** Calls `callback` when any cursor moves. */
  onDidChangeCursorPosition(callback: (event: CursorPositionChangeEvent) => void): Disposable {
    return this.selectionSet.onDidChangeCursorPosition(callback)
  }

  /** Calls `callback` when any selection's range changes. */
  onDidChangeSelectionRange(callback: (event: SelectionRangeChangeEvent) => void): Disposable {
    return this.selectionSet.onDidChangeSelectionRange(callback)
  }
}
