import { Point, type PointLike, Range, type RangeLike } from '@tandem/text'
import * as Y from 'yjs'
import { ItemIndex } from './item-index.js'
import { type LineEnding, LineStore } from './line-store.js'
import { clipPoint, toFiniteInteger } from './validate.js'

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

/**
 * The first of the buffer's layers: the text in its three views (the Y.Text, the line store
 * and the item index) and Atom's queries over them, in rows, columns, ranges, offsets and
 * relative positions, with clipping. Nothing here changes the text or hears of a change: the
 * layer above (`BufferIntake`) keeps the line store and the item index in step with the
 * Y.Text, and `TextBuffer` adds editing, transactions, undo, markers and events.
 */
export class BufferBase {
  /** The Yjs document holding the text. */
  readonly doc: Y.Doc
  /** The shared text itself. */
  readonly ytext: Y.Text
  /** @internal The text as lines; replaced when the text must be read again. */
  protected lines: LineStore
  /** @internal The Y.Text's items in order, for ids and relative positions. */
  protected readonly index: ItemIndex

  /** @internal Made by `TextBuffer`'s constructor, which documents the options. */
  constructor(settings: TextBufferOptions) {
    if (settings.text !== undefined && typeof settings.text !== 'string') {
      throw new TypeError(`text must be a string, got ${typeof settings.text}`)
    }
    this.doc = settings.doc ?? new Y.Doc()
    this.ytext = this.doc.getText(settings.textName ?? 'text')
    if (settings.text && this.ytext.length === 0) {
      this.doc.transact(() => this.ytext.insert(0, settings.text!), this)
    }
    this.index = new ItemIndex(this.ytext)
    this.lines = new LineStore(this.ytext.toString())
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

  /** @internal Offset of an already clipped point. */
  protected offsetOfClipped(point: Point): number {
    return this.lines.offsetForPosition(point.row, point.column)
  }
}
