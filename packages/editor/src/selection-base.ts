import type { DisplayLayer, TranslateOptions } from '@tandem/display'
import {
  type Disposable,
  Emitter,
  Point,
  type PointLike,
  Range,
  type RangeLike,
} from '@tandem/text'
import type { Cursor, CursorPositionChangeEvent, WordOptions } from './cursor.js'
import type { DisplayMarker, DisplayMarkerChangeEvent } from './display-marker.js'
import type { EditorContext } from './editor-context.js'

/** Payload of `Selection.onDidChangeRange`. */
export interface SelectionRangeChangeEvent {
  /** The range before the change, in buffer coordinates. */
  oldBufferRange: Range
  /** The range before the change, in screen coordinates. */
  oldScreenRange: Range
  /** The range after the change, in buffer coordinates. */
  newBufferRange: Range
  /** The range after the change, in screen coordinates. */
  newScreenRange: Range
  /** The selection that changed (a `Selection`). */
  selection: SelectionBase
}

/** Options of `setBufferRange` and friends. Atom passes one object along and fills it in. */
export interface SetRangeOptions {
  /** Head at the start (default: keep the current orientation). */
  reversed?: boolean
  /** Keep folds that the new range's ends fall inside (default: unfold them). */
  preserveFolds?: boolean
  /** Scroll the range into view (default: when this is the last selection). */
  autoscroll?: boolean
  /** The goal range carried by merges (addSelectionBelow/Above). */
  goalScreenRange?: Range
}

/**
 * What a selection needs of the set holding it: the other selections, and where to report its
 * changes.
 */
export interface SelectionOwner {
  /** The most recently added selection. */
  getLastSelection(): SelectionBase
  /** Whether the editor is gone (a destroyed editor reports nothing more). */
  isDestroyed(): boolean
  /** Whether anyone listens to the set's cursor moves or range changes. */
  listens(kind: 'cursor' | 'range'): boolean
  /** Called after the head moved on screen (with no event when nobody `listens`). */
  cursorMoved(event: CursorPositionChangeEvent | null): void
  /** Called after the range changed (with no event when nobody `listens`). */
  selectionRangeChanged(event: SelectionRangeChangeEvent | null): void
  /** Called when the selection's marker is destroyed, before its destroy events. */
  removeSelection(selection: SelectionBase): void
  /** Adds a selection for a screen range; returns it (or the one it merged into). */
  addSelectionForScreenRange(range: RangeLike): SelectionBase
  /** Whether a selection contains a screen range. */
  screenRangeIsSelected(range: Range): boolean
}

/**
 * Removes the folds that `range`'s ends fall strictly inside, as a selection does when it is set
 * there; nothing to look up when there are no folds, as with most editors most of the time.
 */
export const unfoldEnds = (displayLayer: DisplayLayer, range: Range): void => {
  if (displayLayer.foldLayer.getMarkerCount() === 0) return
  displayLayer.destroyFoldsContainingBufferPositions([range.start, range.end], true)
}

interface Events {
  'did-change-range': SelectionRangeChangeEvent
  'did-destroy': undefined
}

/**
 * The range side of Atom's Selection: reading, setting, extending and merging the range, and
 * its events. `Selection` adds the text changes.
 *
 * @example const selection = editor.getLastSelection(); selection.selectToEndOfWord(); selection.getText()
 */
export class SelectionBase {
  /** Set once the selection's marker is destroyed. */
  destroyed = false
  private emitter: Emitter<Events> | null = null
  private goalScreenRange: Range | null = null
  private initialScreenRange: Range | null = null
  private wordwise = false
  private linewise = false
  private retainSelection = false

  /**
   * Made by the editor for each selection marker; get selections from the editor.
   *
   * @internal
   */
  constructor(
    /** @internal */ readonly context: EditorContext,
    /** @internal */ readonly owner: SelectionOwner,
    /** The marker holding the range. */
    readonly marker: DisplayMarker,
    /** The cursor at its head. */
    readonly cursor: Cursor,
  ) {
    marker.owner = this
    // The editor relays the marker's changes and destruction from one layer subscription.
    marker.observe()
  }

  /** Destroys the selection and its cursor. */
  destroy(): void {
    this.marker.destroy()
  }

  private events(): Emitter<Events> {
    if (this.emitter === null) {
      this.emitter = new Emitter<Events>()
      if (this.destroyed) this.emitter.dispose()
    }
    return this.emitter
  }

  /** Whether this is the most recently added selection. */
  isLastSelection(): boolean {
    return this === this.owner.getLastSelection()
  }

  // Event subscription

  /** Calls `callback` when the range changes (payload: old and new ranges in both spaces). */
  onDidChangeRange(callback: (event: SelectionRangeChangeEvent) => void): Disposable {
    return this.events().on('did-change-range', callback)
  }

  /** Calls `callback` once when the selection is destroyed. */
  onDidDestroy(callback: () => void): Disposable {
    return this.events().once('did-destroy', callback)
  }

  // The range

  /** The range on screen. */
  getScreenRange(): Range {
    return this.marker.getScreenRange()
  }

  /** Selects a screen range (translated to the buffer first). */
  setScreenRange(range: RangeLike, options: SetRangeOptions = {}): void {
    const { start, end } = Range.fromObject(range)
    const { displayLayer } = this.context
    this.setBufferRange(
      new Range(
        displayLayer.translateScreenPosition(start),
        displayLayer.translateScreenPosition(end),
      ),
      options,
    )
  }

  /** The range in the buffer. */
  getBufferRange(): Range {
    return this.marker.getBufferRange()
  }

  /**
   * Selects a buffer range. Unless `preserveFolds`, folds that its ends fall strictly inside
   * are unfolded. `options` is filled in as Atom does (`reversed` defaults to the current one).
   */
  setBufferRange(range: RangeLike, options: SetRangeOptions = {}): void {
    const bufferRange = Range.fromObject(range)
    if (options.reversed === undefined || options.reversed === null) {
      options.reversed = this.isReversed()
    }
    if (!options.preserveFolds) unfoldEnds(this.context.displayLayer, bufferRange)
    this.modifySelection(() => {
      this.marker.setBufferRange(bufferRange, options)
      if (options.autoscroll ?? this.isLastSelection()) this.autoscroll()
    })
  }

  /** The first and last buffer rows selected (a range ending at column 0 leaves its last row out). */
  getBufferRowRange(): [number, number] {
    const range = this.getBufferRange()
    const start = range.start.row
    let end = range.end.row
    if (range.end.column === 0) end = Math.max(start, end - 1)
    return [start, end]
  }

  /** The tail on screen. */
  getTailScreenPosition(): Point {
    return this.marker.getTailScreenPosition()
  }

  /** The tail in the buffer. */
  getTailBufferPosition(): Point {
    return this.marker.getTailBufferPosition()
  }

  /** The head on screen. */
  getHeadScreenPosition(): Point {
    return this.marker.getHeadScreenPosition()
  }

  /** The head in the buffer. */
  getHeadBufferPosition(): Point {
    return this.marker.getHeadBufferPosition()
  }

  // Info

  /** Whether nothing is selected. */
  isEmpty(): boolean {
    return this.getBufferRange().isEmpty()
  }

  /** Whether the head is before the tail. */
  isReversed(): boolean {
    return this.marker.isReversed()
  }

  /** Whether the selection lies on one screen row. */
  isSingleScreenLine(): boolean {
    return this.getScreenRange().isSingleLine()
  }

  /** The selected text. */
  getText(): string {
    return this.context.buffer.getTextInRange(this.getBufferRange())
  }

  /** Whether the selection meets `range` (touching counts). */
  intersectsBufferRange(range: RangeLike): boolean {
    return this.getBufferRange().intersectsWith(range)
  }

  /** Whether the selection meets screen rows `startRow`..`endRow`. */
  intersectsScreenRowRange(startRow: number, endRow: number): boolean {
    return this.getScreenRange().intersectsRowRange(startRow, endRow)
  }

  /** Whether the selection meets screen row `row`. */
  intersectsScreenRow(row: number): boolean {
    return this.getScreenRange().intersectsRow(row)
  }

  /** Whether the selection meets another (touching counts unless `exclusive`). */
  intersectsWith(other: SelectionBase, exclusive = false): boolean {
    return this.getBufferRange().intersectsWith(other.getBufferRange(), exclusive)
  }

  // Changing the range

  /** Empties the selection at its head. */
  clear(options?: { autoscroll?: boolean }): void {
    this.goalScreenRange = null
    if (!this.retainSelection) this.marker.clearTail()
    if (options?.autoscroll ?? this.isLastSelection()) this.autoscroll()
    this.finalize()
  }

  /** Extends the selection to a screen position (word- or line-wise after selectWord/selectLine). */
  selectToScreenPosition(
    position: PointLike,
    options: TranslateOptions & { autoscroll?: boolean } = {},
  ): void {
    const point = Point.fromObject(position)
    this.modifySelection(() => {
      const initial = this.initialScreenRange
      if (initial !== null) {
        if (point.isLessThan(initial.start)) {
          this.marker.setScreenRange(new Range(point, initial.end), { reversed: true })
        } else {
          this.marker.setScreenRange(new Range(initial.start, point), { reversed: false })
        }
      } else {
        this.cursor.setScreenPosition(point, options)
      }
      if (this.linewise) this.expandOverLine(options)
      else if (this.wordwise) this.expandOverWord(options)
    })
  }

  /** Extends the selection to a buffer position. */
  selectToBufferPosition(position: PointLike): void {
    this.modifySelection(() => this.cursor.setBufferPosition(position))
  }

  /** Extends the selection `columnCount` columns right. */
  selectRight(columnCount?: number): void {
    this.modifySelection(() => this.cursor.moveRight(columnCount))
  }

  /** Extends the selection `columnCount` columns left. */
  selectLeft(columnCount?: number): void {
    this.modifySelection(() => this.cursor.moveLeft(columnCount))
  }

  /** Extends the selection `rowCount` rows up. */
  selectUp(rowCount?: number): void {
    this.modifySelection(() => this.cursor.moveUp(rowCount))
  }

  /** Extends the selection `rowCount` rows down. */
  selectDown(rowCount?: number): void {
    this.modifySelection(() => this.cursor.moveDown(rowCount))
  }

  /** Extends the selection to the start of the buffer. */
  selectToTop(): void {
    this.modifySelection(() => this.cursor.moveToTop())
  }

  /** Extends the selection to the end of the buffer. */
  selectToBottom(): void {
    this.modifySelection(() => this.cursor.moveToBottom())
  }

  /** Selects the whole buffer. */
  selectAll(): void {
    this.setBufferRange(this.context.buffer.getRange(), { autoscroll: false })
  }

  /** Extends the selection to the start of the buffer row. */
  selectToBeginningOfLine(): void {
    this.modifySelection(() => this.cursor.moveToBeginningOfLine())
  }

  /** Extends the selection to the row's first non-whitespace character. */
  selectToFirstCharacterOfLine(): void {
    this.modifySelection(() => this.cursor.moveToFirstCharacterOfLine())
  }

  /** Extends the selection to the end of the screen row. */
  selectToEndOfLine(): void {
    this.modifySelection(() => this.cursor.moveToEndOfScreenLine())
  }

  /** Extends the selection to the end of the buffer row. */
  selectToEndOfBufferLine(): void {
    this.modifySelection(() => this.cursor.moveToEndOfLine())
  }

  /** Extends the selection to the start of the word. */
  selectToBeginningOfWord(): void {
    this.modifySelection(() => this.cursor.moveToBeginningOfWord())
  }

  /** Extends the selection to the end of the word. */
  selectToEndOfWord(): void {
    this.modifySelection(() => this.cursor.moveToEndOfWord())
  }

  /** Extends the selection to the start of the next word. */
  selectToBeginningOfNextWord(): void {
    this.modifySelection(() => this.cursor.moveToBeginningOfNextWord())
  }

  /** Extends the selection to the previous word boundary. */
  selectToPreviousWordBoundary(): void {
    this.modifySelection(() => this.cursor.moveToPreviousWordBoundary())
  }

  /** Extends the selection to the next word boundary. */
  selectToNextWordBoundary(): void {
    this.modifySelection(() => this.cursor.moveToNextWordBoundary())
  }

  /** Extends the selection to the previous subword boundary. */
  selectToPreviousSubwordBoundary(): void {
    this.modifySelection(() => this.cursor.moveToPreviousSubwordBoundary())
  }

  /** Extends the selection to the next subword boundary. */
  selectToNextSubwordBoundary(): void {
    this.modifySelection(() => this.cursor.moveToNextSubwordBoundary())
  }

  /** Extends the selection to the start of the next paragraph. */
  selectToBeginningOfNextParagraph(): void {
    this.modifySelection(() => this.cursor.moveToBeginningOfNextParagraph())
  }

  /** Extends the selection to the start of the previous paragraph. */
  selectToBeginningOfPreviousParagraph(): void {
    this.modifySelection(() => this.cursor.moveToBeginningOfPreviousParagraph())
  }

  /** Selects the word under the cursor (whitespace around a blank cursor, or the adjacent word). */
  selectWord(options: WordOptions & SetRangeOptions = {}): void {
    if (this.cursor.isSurroundedByWhitespace()) options.wordRegex = /[\t ]*/
    if (this.cursor.isBetweenWordAndNonWord()) options.includeNonWordCharacters = false
    this.setBufferRange(this.cursor.getCurrentWordBufferRange(options), options)
    this.wordwise = true
    this.initialScreenRange = this.getScreenRange()
  }

  /** Grows the selection to cover the whole word under the cursor. */
  expandOverWord(options?: { autoscroll?: boolean }): void {
    const range = this.getBufferRange().union(this.cursor.getCurrentWordBufferRange())
    this.setBufferRange(range, { autoscroll: false })
    if (options?.autoscroll ?? this.isLastSelection()) this.cursor.autoscroll()
  }

  /** Selects whole buffer rows: `row`, or every row the selection touches; with line endings. */
  selectLine(row?: number | null, options: SetRangeOptions = {}): void {
    const buffer = this.context.buffer
    if (row !== undefined && row !== null) {
      this.setBufferRange(buffer.rangeForRow(row, true), options)
    } else {
      const start = buffer.rangeForRow(this.marker.getStartBufferPosition().row)
      const end = buffer.rangeForRow(this.marker.getEndBufferPosition().row, true)
      this.setBufferRange(start.union(end), options)
    }
    this.linewise = true
    this.wordwise = false
    this.initialScreenRange = this.getScreenRange()
  }

  /** Grows the selection to cover the cursor's whole buffer row with its line ending. */
  expandOverLine(options?: { autoscroll?: boolean }): void {
    const line = this.cursor.getCurrentLineBufferRange({ includeNewline: true })
    this.setBufferRange(this.getBufferRange().union(line), { autoscroll: false })
    if (options?.autoscroll ?? this.isLastSelection()) this.cursor.autoscroll()
  }

  /**
   * Folds the selected range (nothing when it is empty) and leaves a caret at its end, just
   * after the fold on screen.
   *
   * @example editor.setSelectedBufferRange([[1, 0], [3, 0]]); editor.getLastSelection().fold()
   */
  fold(): void {
    const range = this.getBufferRange()
    if (range.isEmpty()) return
    this.context.displayLayer.foldBufferRange(range)
    this.cursor.setBufferPosition(range.end)
  }

  // Multiple selections

  /** Merges `other` into this selection (the union of both ranges) and destroys `other`. */
  merge(other: SelectionBase, options: SetRangeOptions = {}): void {
    const mine = this.getGoalScreenRange()
    const theirs = other.getGoalScreenRange()
    options.goalScreenRange = mine.union(theirs)
    const range = this.getBufferRange().union(other.getBufferRange())
    this.setBufferRange(range, { autoscroll: false, ...options })
    other.destroy()
  }

  /** Compares buffer ranges with another selection (by start, the longer first). */
  compare(other: SelectionBase): -1 | 0 | 1 {
    return this.marker.compare(other.marker)
  }

  /** Sets the range kept for adding selections above and below. */
  setGoalScreenRange(range: RangeLike): void {
    this.goalScreenRange = Range.fromObject(range)
  }

  /** The range kept for adding selections above and below (default: the screen range). */
  getGoalScreenRange(): Range {
    return this.goalScreenRange ?? this.getScreenRange()
  }

  /** Forgets word/line-wise extension once the range moved away (a view calls it when a drag ends). */
  finalize(): void {
    if (
      this.initialScreenRange === null ||
      !this.initialScreenRange.isEqual(this.getScreenRange())
    ) {
      this.initialScreenRange = null
    }
    if (this.isEmpty()) {
      this.wordwise = false
      this.linewise = false
    }
  }

  /** Asks the view to scroll the selection into sight. */
  autoscroll(options: { center?: boolean } = {}): void {
    if (this.marker.hasTail()) {
      this.context.scrollToScreenRange(this.getScreenRange(), {
        reversed: this.isReversed(),
        ...options,
      })
    } else {
      this.cursor.autoscroll(options)
    }
  }

  // Internals

  /** @internal Runs `change` with the tail planted, so cursor moves extend the selection. */
  modifySelection(change: () => void): void {
    this.retainSelection = true
    this.marker.plantTail()
    change()
    this.retainSelection = false
  }

  /** @internal Turns a marker change into cursor and selection events. */
  markerDidChange(event: DisplayMarkerChangeEvent): void {
    const { oldHeadScreenPosition, newHeadScreenPosition } = event
    if (!oldHeadScreenPosition.isEqual(newHeadScreenPosition)) {
      this.cursor.goalColumn = null
      // Events are built only for listeners: a headless editor (a program, a benchmark, an
      // agent on the server) has none, and a range event costs two screen translations.
      if (this.cursor.emitter === null && !this.owner.listens('cursor')) {
        this.owner.cursorMoved(null)
      } else {
        const moved = {
          oldBufferPosition: event.oldHeadBufferPosition,
          oldScreenPosition: oldHeadScreenPosition,
          newBufferPosition: event.newHeadBufferPosition,
          newScreenPosition: newHeadScreenPosition,
          textChanged: event.textChanged,
          cursor: this.cursor,
        }
        this.cursor.emitter?.emit('did-change-position', moved)
        this.owner.cursorMoved(moved)
      }
    }
    this.rangeChanged(event)
  }

  private rangeChanged(event: DisplayMarkerChangeEvent): void {
    if (this.emitter === null && !this.owner.listens('range')) {
      this.owner.selectionRangeChanged(null)
      return
    }
    const { oldHeadBufferPosition, oldTailBufferPosition } = event
    const { oldHeadScreenPosition, oldTailScreenPosition } = event
    const changed: SelectionRangeChangeEvent = {
      oldBufferRange: new Range(oldHeadBufferPosition, oldTailBufferPosition),
      oldScreenRange: new Range(oldHeadScreenPosition, oldTailScreenPosition),
      newBufferRange: this.getBufferRange(),
      newScreenRange: this.getScreenRange(),
      selection: this,
    }
    this.emitter?.emit('did-change-range', changed)
    this.owner.selectionRangeChanged(changed)
  }

  /** @internal Forgets the selection once its marker is destroyed. */
  markerDidDestroy(): void {
    if (this.owner.isDestroyed()) return
    this.destroyed = true
    this.cursor.destroyed = true
    this.owner.removeSelection(this)
    this.cursor.emitter?.emit('did-destroy')
    this.emitter?.emit('did-destroy')
    this.cursor.emitter?.dispose()
    this.emitter?.dispose()
  }
}
