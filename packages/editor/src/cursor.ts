import type { TranslateOptions } from '@tandem/display'
import type { ScopeDescriptor } from '@tandem/language'
import { type Disposable, Emitter, Point, type PointLike, Range } from '@tandem/text'
import type { DisplayMarker } from './display-marker.js'
import type { EditorContext } from './editor-context.js'
import {
  beginningOfNextParagraph,
  beginningOfPreviousParagraph,
  paragraphRangeAtRow,
} from './paragraphs.js'
import {
  beginningOfCurrentWord,
  beginningOfNextWord,
  currentWordRange,
  endOfCurrentWord,
  isInsideWord,
  nextWordBoundary,
  previousWordBoundary,
  sharedPattern,
  subwordRegExp,
  wordRegExp,
} from './words.js'

/** Payload of `Cursor.onDidChangePosition`. */
export interface CursorPositionChangeEvent {
  /** The position before the move, in buffer coordinates. */
  oldBufferPosition: Point
  /** The position before the move, in screen coordinates. */
  oldScreenPosition: Point
  /** The position after the move, in buffer coordinates. */
  newBufferPosition: Point
  /** The position after the move, in screen coordinates. */
  newScreenPosition: Point
  /** True when a text change moved the cursor. */
  textChanged: boolean
  /** The cursor that moved. */
  cursor: Cursor
}

/** What a cursor needs of the set holding it: its selection's part, without naming it. */
export interface CursorOwner {
  /** Whether `cursor` is the most recently added one. */
  isLastCursor(cursor: Cursor): boolean
  /** Empties `cursor`'s selection. */
  clearSelection(cursor: Cursor, options?: { autoscroll?: boolean }): void
}

/** Options of the word queries. */
export interface WordOptions {
  /** What counts as a word (default: `wordRegExp()`). */
  wordRegex?: RegExp
  /** Whether runs of non-word characters count as words (default true). */
  includeNonWordCharacters?: boolean
  /** Whether the previous word's start may be returned (default true). */
  allowPrevious?: boolean
  /** Whether the next word's end may be returned (default true). */
  allowNext?: boolean
}

/** Options of vertical and horizontal moves. */
export interface MoveOptions {
  /** With a selection, move from its start (up, left) or end (down, right). */
  moveToEndOfSelection?: boolean
}

interface Events {
  'did-change-position': CursorPositionChangeEvent
  'did-destroy': undefined
}

/**
 * The blinking caret of a selection: Atom's Cursor. Its position is the head of its
 * selection's marker, so it moves with every edit, local or remote.
 *
 * @example const cursor = editor.getLastCursor(); cursor.moveToEndOfWord(); cursor.getBufferPosition()
 */
export class Cursor {
  /** @internal The screen column kept across vertical moves. */
  goalColumn: number | null = null
  /** Set once the cursor's marker is destroyed. */
  destroyed = false
  /** @internal Made on first subscription (most cursors have no listeners). */
  emitter: Emitter<Events> | null = null

  /**
   * Made by the editor for each selection marker; get cursors from the editor.
   *
   * @internal
   */
  constructor(
    private readonly context: EditorContext,
    /** The marker of its selection: the cursor is at its head. */
    readonly marker: DisplayMarker,
    private readonly owner: CursorOwner,
  ) {}

  /** Destroys the cursor with its selection. */
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

  // Event subscription

  /** Calls `callback` when the cursor moves (payload: old and new positions in both spaces). */
  onDidChangePosition(callback: (event: CursorPositionChangeEvent) => void): Disposable {
    return this.events().on('did-change-position', callback)
  }

  /** Calls `callback` once when the cursor is destroyed. */
  onDidDestroy(callback: () => void): Disposable {
    return this.events().once('did-destroy', callback)
  }

  // Managing the position

  /** Moves to a screen position, translated with `options` (clears the selection). */
  setScreenPosition(
    position: PointLike,
    options: TranslateOptions & { autoscroll?: boolean } = {},
  ): void {
    const point = Point.fromObject(position)
    this.changePosition(options, () => this.marker.setHeadScreenPosition(point, options))
  }

  /** The position on screen. */
  getScreenPosition(): Point {
    return this.marker.getHeadScreenPosition()
  }

  /** Moves to a buffer position, clipped (clears the selection). */
  setBufferPosition(position: PointLike, options: { autoscroll?: boolean } = {}): void {
    const point = Point.fromObject(position)
    this.changePosition(options, () => this.marker.setHeadBufferPosition(point))
  }

  /** The position in the buffer. */
  getBufferPosition(): Point {
    return this.marker.getHeadBufferPosition()
  }

  /** The screen row. */
  getScreenRow(): number {
    return this.getScreenPosition().row
  }

  /** The screen column. */
  getScreenColumn(): number {
    return this.getScreenPosition().column
  }

  /** The buffer row. */
  getBufferRow(): number {
    return this.getBufferPosition().row
  }

  /** The buffer column. */
  getBufferColumn(): number {
    return this.getBufferPosition().column
  }

  /** The text of the cursor's buffer row, without its line ending. */
  getCurrentBufferLine(): string {
    return this.context.buffer.lineForRow(this.getBufferRow()) ?? ''
  }

  /** Whether the cursor is at column 0. */
  isAtBeginningOfLine(): boolean {
    return this.getBufferPosition().column === 0
  }

  /** Whether the cursor is at the end of its buffer row. */
  isAtEndOfLine(): boolean {
    return this.getBufferPosition().isEqual(this.getCurrentLineBufferRange().end)
  }

  // Position details

  /** The display marker holding the cursor's position (usable with decorations). */
  getMarker(): DisplayMarker {
    return this.marker
  }

  /** Whether the characters on both sides of the cursor are whitespace. */
  isSurroundedByWhitespace(): boolean {
    const { row, column } = this.getBufferPosition()
    const around = this.context.buffer.getTextInRange([
      [row, column - 1],
      [row, column + 1],
    ])
    return /^\s+$/.test(around)
  }

  /** Whether one neighbour is a word character and the other a non-word character. */
  isBetweenWordAndNonWord(): boolean {
    if (this.isAtBeginningOfLine() || this.isAtEndOfLine()) return false
    const { row, column } = this.getBufferPosition()
    const around = this.context.buffer.getTextInRange([
      [row, column - 1],
      [row, column + 1],
    ])
    const before = around[0] ?? ''
    const after = around[1] ?? ''
    if (/\s/.test(before) || /\s/.test(after)) return false
    const nonWord = this.getNonWordCharacters()
    return nonWord.includes(before) !== nonWord.includes(after)
  }

  /** Whether a word (by `options.wordRegex`, default `wordRegExp()`) starts at the cursor. */
  isInsideWord(options: WordOptions = {}): boolean {
    return isInsideWord(
      this.context.buffer,
      this.getBufferPosition(),
      options.wordRegex ?? this.searchWordRegExp(),
    )
  }

  /** The indentation level of the cursor's column (columns / tab length with soft tabs). */
  getIndentLevel(): number {
    const column = this.getBufferColumn()
    return this.context.softTabs() ? column / this.context.tabLength() : column
  }

  /** The language scopes at the cursor. */
  getScopeDescriptor(): ScopeDescriptor {
    return this.context.languageMode().scopeDescriptorForPosition(this.getBufferPosition())
  }

  /** The syntax-tree node types from the root to the cursor. */
  getSyntaxTreeScopeDescriptor(): ScopeDescriptor {
    return this.context
      .languageMode()
      .syntaxTreeScopeDescriptorForPosition(this.getBufferPosition())
  }

  /** Whether there is non-whitespace before the cursor on its row. */
  hasPrecedingCharactersOnLine(): boolean {
    const position = this.getBufferPosition()
    const firstCharacter = this.getCurrentBufferLine().search(/\S/)
    return firstCharacter !== -1 && position.column > firstCharacter
  }

  /** Whether this is the most recently added cursor. */
  isLastCursor(): boolean {
    return this.owner.isLastCursor(this)
  }

  // Moving

  /** Moves up `rowCount` screen rows, keeping the goal column. */
  moveUp(rowCount = 1, { moveToEndOfSelection }: MoveOptions = {}): void {
    const range = this.marker.getScreenRange()
    const from = moveToEndOfSelection && !range.isEmpty() ? range.start : this.getScreenPosition()
    const column = this.goalColumn ?? from.column
    this.setScreenPosition({ row: from.row - rowCount, column }, { skipSoftWrapIndentation: true })
    this.goalColumn = column
  }

  /** Moves down `rowCount` screen rows, keeping the goal column. */
  moveDown(rowCount = 1, { moveToEndOfSelection }: MoveOptions = {}): void {
    const range = this.marker.getScreenRange()
    const from = moveToEndOfSelection && !range.isEmpty() ? range.end : this.getScreenPosition()
    const column = this.goalColumn ?? from.column
    this.setScreenPosition({ row: from.row + rowCount, column }, { skipSoftWrapIndentation: true })
    this.goalColumn = column
  }

  /** Moves left `columnCount` screen columns, wrapping to previous rows. */
  moveLeft(columnCount = 1, { moveToEndOfSelection }: MoveOptions = {}): void {
    const range = this.marker.getScreenRange()
    if (moveToEndOfSelection && !range.isEmpty()) {
      this.setScreenPosition(range.start)
      return
    }
    let { row, column } = this.getScreenPosition()
    while (columnCount > column && row > 0) {
      columnCount -= column
      row--
      column = this.screenRowLength(row)
      columnCount--
    }
    this.setScreenPosition({ row, column: column - columnCount }, { clipDirection: 'backward' })
  }

  /** Moves right `columnCount` screen columns, wrapping to following rows. */
  moveRight(columnCount = 1, { moveToEndOfSelection }: MoveOptions = {}): void {
    const range = this.marker.getScreenRange()
    if (moveToEndOfSelection && !range.isEmpty()) {
      this.setScreenPosition(range.end)
      return
    }
    let { row, column } = this.getScreenPosition()
    const rowCount = this.context.displayLayer.getScreenLineCount()
    let remaining = this.screenRowLength(row) - column
    while (columnCount > remaining && row < rowCount - 1) {
      columnCount -= remaining + 1
      column = 0
      row++
      remaining = this.screenRowLength(row)
    }
    this.setScreenPosition({ row, column: column + columnCount }, { clipDirection: 'forward' })
  }

  /** Moves to the start of the buffer. */
  moveToTop(): void {
    this.setBufferPosition([0, 0])
  }

  /** Moves to the end of the buffer, keeping the goal column. */
  moveToBottom(): void {
    const column = this.goalColumn
    this.setBufferPosition(this.context.buffer.getEndPosition())
    this.goalColumn = column
  }

  /** Moves to the start of the screen row. */
  moveToBeginningOfScreenLine(): void {
    this.setScreenPosition([this.getScreenRow(), 0])
  }

  /** Moves to the start of the buffer row. */
  moveToBeginningOfLine(): void {
    this.setBufferPosition([this.getBufferRow(), 0])
  }

  /**
   * Moves to the first non-whitespace character of the screen row, or to the row's start
   * when already there.
   */
  moveToFirstCharacterOfLine(): void {
    const display = this.marker.layer.displayLayer
    const screenRow = this.getScreenRow()
    const rowStart = display.clipScreenPosition([screenRow, 0], { skipSoftWrapIndentation: true })
    const rowRange = display.translateScreenRange(
      new Range(rowStart, new Point(screenRow, Number.POSITIVE_INFINITY)),
    )
    const first = this.context.buffer.findInRangeSync(/\S/, rowRange)
    const firstColumn = first?.start.column
    const column =
      firstColumn !== undefined && firstColumn !== this.getBufferColumn()
        ? firstColumn
        : rowRange.start.column
    this.setBufferPosition([rowRange.start.row, column])
  }

  /** Moves to the end of the screen row. */
  moveToEndOfScreenLine(): void {
    this.setScreenPosition([this.getScreenRow(), Number.POSITIVE_INFINITY])
  }

  /** Moves to the end of the buffer row. */
  moveToEndOfLine(): void {
    this.setBufferPosition([this.getBufferRow(), Number.POSITIVE_INFINITY])
  }

  /** Moves to the start of the current (or previous) word. */
  moveToBeginningOfWord(): void {
    this.setBufferPosition(this.getBeginningOfCurrentWordBufferPosition())
  }

  /** Moves to the end of the current (or next) word. */
  moveToEndOfWord(): void {
    this.setBufferPosition(this.getEndOfCurrentWordBufferPosition())
  }

  /** Moves to the start of the next word. */
  moveToBeginningOfNextWord(): void {
    this.setBufferPosition(this.getBeginningOfNextWordBufferPosition())
  }

  /** Moves to the previous word boundary. */
  moveToPreviousWordBoundary(): void {
    this.setBufferPosition(this.getPreviousWordBoundaryBufferPosition())
  }

  /** Moves to the next word boundary. */
  moveToNextWordBoundary(): void {
    this.setBufferPosition(this.getNextWordBoundaryBufferPosition())
  }

  /** Moves to the previous subword boundary (camelCase humps, snake_case parts). */
  moveToPreviousSubwordBoundary(): void {
    const wordRegex = this.searchSubwordRegExp(true)
    this.setBufferPosition(this.getPreviousWordBoundaryBufferPosition({ wordRegex }))
  }

  /** Moves to the next subword boundary. */
  moveToNextSubwordBoundary(): void {
    const wordRegex = this.searchSubwordRegExp(false)
    this.setBufferPosition(this.getNextWordBoundaryBufferPosition({ wordRegex }))
  }

  /** Moves past the row's leading whitespace when the cursor is inside it. */
  skipLeadingWhitespace(): void {
    const position = this.getBufferPosition()
    const leading = this.context.buffer.findInRangeSync(/^[ \t]*/, this.getCurrentLineBufferRange())
    if (leading?.end.isGreaterThan(position)) this.setBufferPosition(leading.end)
  }

  /** Moves to the start of the next paragraph. */
  moveToBeginningOfNextParagraph(): void {
    this.setBufferPosition(beginningOfNextParagraph(this.context.buffer, this.getBufferPosition()))
  }

  /** Moves to the start of the previous paragraph. */
  moveToBeginningOfPreviousParagraph(): void {
    this.setBufferPosition(
      beginningOfPreviousParagraph(this.context.buffer, this.getBufferPosition()),
    )
  }

  // Local positions and ranges

  /** The previous word boundary: on the current word or the previous one. */
  getPreviousWordBoundaryBufferPosition(options: WordOptions = {}): Point {
    const regex = options.wordRegex ?? this.searchWordRegExp()
    return previousWordBoundary(this.context.buffer, this.getBufferPosition(), regex)
  }

  /** The next word boundary: on the current word or the next one. */
  getNextWordBoundaryBufferPosition(options: WordOptions = {}): Point {
    const regex = options.wordRegex ?? this.searchWordRegExp()
    return nextWordBoundary(this.context.buffer, this.getBufferPosition(), regex)
  }

  /** Where the current word starts (`allowPrevious`, default true, reaches the previous word). */
  getBeginningOfCurrentWordBufferPosition(options: WordOptions = {}): Point {
    const regex = options.wordRegex ?? this.searchWordRegExp(options)
    const allowPrevious = options.allowPrevious !== false
    return beginningOfCurrentWord(
      this.context.buffer,
      this.getBufferPosition(),
      regex,
      allowPrevious,
    )
  }

  /** Where the current word ends (`allowNext`, default true, reaches the next word). */
  getEndOfCurrentWordBufferPosition(options: WordOptions = {}): Point {
    const regex = options.wordRegex ?? this.searchWordRegExp(options)
    const allowNext = options.allowNext !== false
    return endOfCurrentWord(this.context.buffer, this.getBufferPosition(), regex, allowNext)
  }

  /** Where the next word starts (the cursor's position when there is none). */
  getBeginningOfNextWordBufferPosition(options: WordOptions = {}): Point {
    const position = this.getBufferPosition()
    const from = this.isInsideWord(options)
      ? this.getEndOfCurrentWordBufferPosition(options)
      : position
    const regex = options.wordRegex ?? this.searchWordRegExp()
    return beginningOfNextWord(this.context.buffer, from, regex, position)
  }

  /** The range of the word under the cursor (empty at the cursor when none). */
  getCurrentWordBufferRange(options: WordOptions = {}): Range {
    const regex = options.wordRegex ?? this.searchWordRegExp(options)
    return currentWordRange(this.context.buffer, this.getBufferPosition(), regex)
  }

  /** The range of the cursor's buffer row, with its line ending when `includeNewline`. */
  getCurrentLineBufferRange(options: { includeNewline?: boolean } = {}): Range {
    return this.context.buffer.rangeForRow(this.getBufferRow(), options.includeNewline ?? false)
  }

  /** The paragraph around the cursor (undefined on a blank row). */
  getCurrentParagraphBufferRange(): Range | undefined {
    const languageMode = this.context.languageMode()
    return paragraphRangeAtRow(this.context.buffer, this.getBufferRow(), (row) =>
      languageMode.isRowCommented(row),
    )
  }

  /** The part of the current word before the cursor. */
  getCurrentWordPrefix(): string {
    return this.context.buffer.getTextInRange(
      new Range(this.getBeginningOfCurrentWordBufferPosition(), this.getBufferPosition()),
    )
  }

  // Comparing

  /** Compares buffer positions with another cursor (-1, 0 or 1). */
  compare(other: Cursor): -1 | 0 | 1 {
    return this.getBufferPosition().compare(other.getBufferPosition())
  }

  // Utilities

  /** Empties the cursor's selection. */
  clearSelection(options?: { autoscroll?: boolean }): void {
    this.owner.clearSelection(this, options)
  }

  /** The pattern of a word at the cursor (see `wordRegExp` in words.ts). */
  wordRegExp(options: { includeNonWordCharacters?: boolean } = {}): RegExp {
    return wordRegExp(this.getNonWordCharacters(), options)
  }

  /** The pattern of a subword at the cursor (see `subwordRegExp` in words.ts). */
  subwordRegExp(options: { backwards?: boolean } = {}): RegExp {
    return subwordRegExp(this.getNonWordCharacters(), options)
  }

  /** Asks the view to scroll the cursor into sight. */
  autoscroll(options: { center?: boolean } = {}): void {
    const { row, column } = this.getScreenPosition()
    const range = new Range(new Point(row, column), new Point(row, column + 1))
    this.context.scrollToScreenRange(range, { ...options, clip: false })
  }

  // Internals

  /** `wordRegExp()` shared between calls, for the cursor's own searches (see `sharedPattern`). */
  private searchWordRegExp(options: { includeNonWordCharacters?: boolean } = {}): RegExp {
    const nonWord = this.getNonWordCharacters()
    const key = `w${options.includeNonWordCharacters === false ? 0 : 1}${nonWord}`
    return sharedPattern(key, () => wordRegExp(nonWord, options))
  }

  /** `subwordRegExp()` shared between calls, for the cursor's own searches. */
  private searchSubwordRegExp(backwards: boolean): RegExp {
    const nonWord = this.getNonWordCharacters()
    return sharedPattern(`s${backwards ? 1 : 0}${nonWord}`, () =>
      subwordRegExp(nonWord, { backwards }),
    )
  }

  private screenRowLength(row: number): number {
    return this.context.displayLayer.lineLengthForScreenRow(row) ?? 0
  }

  private getNonWordCharacters(): string {
    return this.context.nonWordCharacters(this.getBufferPosition())
  }

  private changePosition(options: { autoscroll?: boolean }, move: () => void): void {
    this.clearSelection({ autoscroll: false })
    move()
    this.goalColumn = null
    if (options.autoscroll ?? this.isLastCursor()) this.autoscroll()
  }
}
