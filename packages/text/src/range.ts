import { assertNumber, describeValue } from './assert.js'
import { Point, type PointLike, type PointTuple, toPoint } from './point.js'

const LF = 10
const CR = 13

/** A range as a plain `{start, end}` object. A `Range` is one too. */
export interface RangeObject {
  /** The first point. */
  readonly start: PointLike
  /** The last point; a `Range` made from this object swaps the two if they are out of order. */
  readonly end: PointLike
}

/** A range as a `[start, end]` pair of points, e.g. the `[[r, c], [r, c]]` of `serialize`. */
export type RangeTuple = readonly [start: PointLike, end: PointLike]

/**
 * Anything the public API accepts where a range is expected, as Atom does.
 *
 * @example const r: RangeLike = [[0, 1], [2, 3]] // same as new Range([0, 1], [2, 3])
 */
export type RangeLike = Range | RangeObject | RangeTuple

/**
 * An immutable region between two points, normalised so that `start <= end`. Operations
 * return new ranges, or `this` when the result would be equal.
 *
 * @example new Range([2, 0], [1, 4]).toString() // => '[(1, 4) - (2, 0)]'
 */
export class Range {
  /** The earlier point. */
  readonly start: Point
  /** The later point (equal to `start` for an empty range). */
  readonly end: Point

  /**
   * Builds a range between two points in either order; both default to (0, 0). Like a
   * point, it is immutable by its readonly fields, not frozen at run time.
   *
   * @example new Range([0, 1], [2, 3]).end.row // => 2
   */
  constructor(pointA: PointLike = Point.ZERO, pointB: PointLike = Point.ZERO) {
    const a = toPoint(pointA, 'pointA')
    const b = toPoint(pointB, 'pointB')
    const ordered = a.isLessThanOrEqual(b)
    this.start = ordered ? a : b
    this.end = ordered ? b : a
  }

  /**
   * Converts a `Range`, `[start, end]` or `{start, end}` to a `Range`. A `Range` is
   * returned as is unless `copy` is true.
   *
   * @example Range.fromObject({start: [0, 0], end: [1, 2]}).toString() // => '[(0, 0) - (1, 2)]'
   */
  static fromObject(object: RangeLike, copy = false): Range {
    const range = toRange(object)
    return copy && range === object ? range.copy() : range
  }

  /**
   * The range from `start` to `start` plus the deltas, added as a vector (see
   * `Point.translate`).
   *
   * @example Range.fromPointWithDelta([1, 2], 0, 3).toString() // => '[(1, 2) - (1, 5)]'
   */
  static fromPointWithDelta(start: PointLike, rowDelta: number, columnDelta: number): Range {
    const s = toPoint(start, 'start')
    assertNumber(rowDelta, 'rowDelta')
    assertNumber(columnDelta, 'columnDelta')
    return new Range(s, new Point(s.row + rowDelta, s.column + columnDelta))
  }

  /**
   * The range from `start` to `start` traversed by `extent` (see `Point.traverse`).
   *
   * @example Range.fromPointWithTraversalExtent([1, 2], [1, 3]).toString() // => '[(1, 2) - (2, 3)]'
   */
  static fromPointWithTraversalExtent(start: PointLike, extent: PointLike): Range {
    const s = toPoint(start, 'start')
    return new Range(s, s.traverse(toPoint(extent, 'extent')))
  }

  /**
   * The range `text` would occupy once inserted at `start` (default (0, 0)). `\r\n`, `\n`
   * and a lone `\r` each end a line, as in the buffer.
   *
   * @example Range.fromText([1, 2], 'ab\r\ncde').toString() // => '[(1, 2) - (2, 3)]'
   */
  static fromText(text: string): Range
  static fromText(start: PointLike, text: string): Range
  static fromText(...args: [text: string] | [start: PointLike, text: string]): Range {
    const start = args.length === 1 ? Point.ZERO : toPoint(args[0], 'start')
    const text: unknown = args.length === 1 ? args[0] : args[1]
    if (typeof text !== 'string') {
      throw new TypeError(`text must be a string, got ${describeValue(text)}`)
    }
    return new Range(start, start.traverse(textExtent(text)))
  }

  /** A distinct range equal to this one. @example range.copy() !== range // => true */
  copy(): Range {
    return new Range(this.start.copy(), this.end.copy())
  }

  /**
   * Both points negated, then re-ordered so that start <= end.
   *
   * @example new Range([1, 2], [3, 4]).negate().toString() // => '[(-3, -4) - (-1, -2)]'
   */
  negate(): Range {
    return new Range(this.start.negate(), this.end.negate())
  }

  /** `[[row, column], [row, column]]`. @example new Range([0, 1], [2, 3]).serialize() // => [[0, 1], [2, 3]] */
  serialize(): [start: [number, number], end: [number, number]] {
    return [this.start.serialize(), this.end.serialize()]
  }

  /** Whether start and end are equal. @example new Range([1, 1], [1, 1]).isEmpty() // => true */
  isEmpty(): boolean {
    return this.start.isEqual(this.end)
  }

  /** Whether start and end are on the same row. @example new Range([1, 0], [1, 9]).isSingleLine() // => true */
  isSingleLine(): boolean {
    return this.start.row === this.end.row
  }

  /** How many rows the range touches, counting both ends. @example new Range([1, 0], [3, 0]).getRowCount() // => 3 */
  getRowCount(): number {
    return this.end.row - this.start.row + 1
  }

  /**
   * Every row from start to end inclusive. Throws a `RangeError` for an infinite range,
   * which has no finite list of rows.
   *
   * @example new Range([1, 0], [3, 0]).getRows() // => [1, 2, 3]
   */
  getRows(): number[] {
    if (!Number.isFinite(this.start.row) || !Number.isFinite(this.end.row)) {
      throw new RangeError(`getRows needs finite rows, got ${this}`)
    }
    const rows: number[] = []
    for (let row = this.start.row; row <= this.end.row; row++) rows.push(row)
    return rows
  }

  /**
   * The distance from start to end in typewriter space: `start.traverse(getExtent())`
   * equals `end`.
   *
   * @example new Range([1, 2], [3, 4]).getExtent().toString() // => '(2, 4)'
   */
  getExtent(): Point {
    return this.end.traversalFrom(this.start)
  }

  /**
   * The smallest range covering this one and `other`.
   *
   * @example new Range([0, 0], [1, 0]).union([[2, 0], [3, 0]]).toString() // => '[(0, 0) - (3, 0)]'
   */
  union(other: RangeLike): Range {
    const that = toRange(other, 'other')
    const start = this.start.isLessThan(that.start) ? this.start : that.start
    const end = this.end.isGreaterThan(that.end) ? this.end : that.end
    if (start === this.start && end === this.end) return this
    if (start === that.start && end === that.end) return that
    return new Range(start, end)
  }

  /**
   * Vector-adds `startDelta` to start and `endDelta` (default `startDelta`) to end, then
   * re-orders the points if they crossed.
   *
   * @example new Range([1, 1], [1, 3]).translate([1, 2]).toString() // => '[(2, 3) - (2, 5)]'
   */
  translate(startDelta: PointLike, endDelta: PointLike = startDelta): Range {
    const start = this.start.translate(toPoint(startDelta, 'startDelta'))
    const end = this.end.translate(toPoint(endDelta, 'endDelta'))
    return start === this.start && end === this.end ? this : new Range(start, end)
  }

  /**
   * Traverses both points by `delta` (see `Point.traverse`).
   *
   * @example new Range([1, 1], [1, 3]).traverse([1, 2]).toString() // => '[(2, 2) - (2, 2)]'
   */
  traverse(delta: PointLike): Range {
    const d = toPoint(delta, 'delta')
    const start = this.start.traverse(d)
    const end = this.end.traverse(d)
    return start === this.start && end === this.end ? this : new Range(start, end)
  }

  /**
   * Orders ranges by start; on equal starts the longer range comes first. Returns -1 if
   * this range starts before `other` or contains it with the same start, 1 in the
   * opposite cases, 0 if they are equal.
   *
   * @example new Range([0, 0], [5, 0]).compare([[0, 0], [1, 0]]) // => -1
   */
  compare(other: RangeLike): -1 | 0 | 1 {
    const that = toRange(other, 'other')
    return this.start.compare(that.start) || that.end.compare(this.end)
  }

  /**
   * Whether `other` has the same start and end; `null`/`undefined` are never equal.
   *
   * @example new Range([0, 1], [2, 3]).isEqual([[2, 3], [0, 1]]) // => true
   */
  isEqual(other: RangeLike | null | undefined): boolean {
    if (other == null) return false
    const that = toRange(other, 'other')
    return this.start.isEqual(that.start) && this.end.isEqual(that.end)
  }

  /**
   * Whether `other` starts on this range's start row and ends on its end row.
   *
   * @example new Range([1, 0], [2, 5]).coversSameRows([[1, 3], [2, 0]]) // => true
   */
  coversSameRows(other: RangeLike): boolean {
    const that = toRange(other, 'other')
    return this.start.row === that.start.row && this.end.row === that.end.row
  }

  /**
   * Whether the ranges share a point. With `exclusive`, ranges that only touch at an end
   * (and empty ranges at either end) do not count, but an empty range strictly inside the
   * other still does.
   *
   * @example new Range([0, 0], [1, 0]).intersectsWith([[1, 0], [2, 0]], true) // => false
   */
  intersectsWith(other: RangeLike, exclusive = false): boolean {
    const that = toRange(other, 'other')
    return exclusive
      ? this.end.isGreaterThan(that.start) && this.start.isLessThan(that.end)
      : this.end.isGreaterThanOrEqual(that.start) && this.start.isLessThanOrEqual(that.end)
  }

  /**
   * Whether both ends of `other` are in this range (see `containsPoint` for `exclusive`).
   *
   * @example new Range([0, 0], [5, 0]).containsRange([[1, 0], [5, 0]]) // => true
   */
  containsRange(other: RangeLike, exclusive = false): boolean {
    const that = toRange(other, 'other')
    return this.containsPoint(that.start, exclusive) && this.containsPoint(that.end, exclusive)
  }

  /**
   * Whether `point` is within this range, ends included unless `exclusive`.
   *
   * @example new Range([0, 0], [1, 0]).containsPoint([1, 0], true) // => false
   */
  containsPoint(point: PointLike, exclusive = false): boolean {
    const p = toPoint(point, 'point')
    return exclusive
      ? p.isGreaterThan(this.start) && p.isLessThan(this.end)
      : p.isGreaterThanOrEqual(this.start) && p.isLessThanOrEqual(this.end)
  }

  /** Whether `row` is between the start and end rows inclusive. @example new Range([1, 5], [3, 0]).intersectsRow(3) // => true */
  intersectsRow(row: number): boolean {
    assertNumber(row, 'row')
    return this.start.row <= row && row <= this.end.row
  }

  /**
   * Whether the rows `startRow..endRow` (inclusive, either order) overlap this range's rows.
   *
   * @example new Range([1, 0], [3, 0]).intersectsRowRange(5, 3) // => true
   */
  intersectsRowRange(startRow: number, endRow: number): boolean {
    assertNumber(startRow, 'startRow')
    assertNumber(endRow, 'endRow')
    const low = Math.min(startRow, endRow)
    const high = Math.max(startRow, endRow)
    return this.end.row >= low && high >= this.start.row
  }

  /** `[(row, column) - (row, column)]`. @example new Range([0, 1], [2, 3]).toString() // => '[(0, 1) - (2, 3)]' */
  toString(): string {
    return `[${this.start} - ${this.end}]`
  }
}

/**
 * Converts any `RangeLike` to a `Range`, naming `name` in the `TypeError` for anything else.
 * Package-internal: the public entry point is `Range.fromObject`.
 *
 * @example toRange([[0, 0], [1, 2]], 'other') // => Range((0, 0), (1, 2))
 */
export function toRange(value: unknown, name = 'range'): Range {
  if (value instanceof Range) return value
  if (Array.isArray(value)) {
    return new Range(toPoint(value[0], `${name}[0]`), toPoint(value[1], `${name}[1]`))
  }
  if (typeof value === 'object' && value !== null) {
    const { start, end } = value as { start?: unknown; end?: unknown }
    return new Range(toPoint(start, `${name}.start`), toPoint(end, `${name}.end`))
  }
  throw new TypeError(
    `${name} must be a Range, [start, end] or {start, end}, got ${describeValue(value)}`,
  )
}

/** The distance `text` covers, as a `Point.traverse` delta. */
function textExtent(text: string): PointTuple {
  let rows = 0
  let lineStart = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === LF) {
      rows++
      lineStart = i + 1
    } else if (code === CR) {
      // A CR directly followed by LF is one line break, not two.
      if (text.charCodeAt(i + 1) === LF) i++
      rows++
      lineStart = i + 1
    }
  }
  return [rows, text.length - lineStart]
}
