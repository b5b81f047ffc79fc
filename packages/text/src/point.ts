import { assertNumber, describeValue } from './assert.js'

/** A point as a plain `{row, column}` object. A `Point` is one too. */
export interface PointObject {
  /** Zero-based row. */
  readonly row: number
  /** Zero-based column, in UTF-16 code units. */
  readonly column: number
}

/** A point as a `[row, column]` tuple, the form `Point.serialize` returns. */
export type PointTuple = readonly [row: number, column: number]

/**
 * Anything the public API accepts where a point is expected, as Atom does.
 *
 * @example const p: PointLike = [1, 2] // same as new Point(1, 2) or {row: 1, column: 2}
 */
export type PointLike = Point | PointObject | PointTuple

/**
 * An immutable row/column position (or distance) in a text. Columns count UTF-16 code
 * units. Operations return new points, or `this` when the result would be equal.
 *
 * @example new Point(1, 2).traverse([0, 3]).toString() // => '(1, 5)'
 */
export class Point {
  /** The origin, (0, 0). @example Point.ZERO.isZero() // => true */
  static readonly ZERO: Point = Object.freeze(new Point(0, 0))

  /** A point after every real position, (Infinity, Infinity). @example Point.INFINITY.row // => Infinity */
  static readonly INFINITY: Point = Object.freeze(
    new Point(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY),
  )

  /** Zero-based row. */
  readonly row: number
  /** Zero-based column in UTF-16 code units. */
  readonly column: number

  /**
   * Builds a point; a missing row or column is 0. NaN and non-numbers throw a `TypeError`
   * naming the argument. Its fields are readonly; it is not frozen at run time (freezing
   * made building one four times slower, and editors build millions), except the shared
   * constants.
   *
   * @example new Point(3, 4).toArray() // => [3, 4]
   */
  constructor(row = 0, column = 0) {
    assertNumber(row, 'row')
    assertNumber(column, 'column')
    this.row = row
    this.column = column
  }

  /**
   * Converts a `Point`, `[row, column]` or `{row, column}` to a `Point`. A `Point` is
   * returned as is unless `copy` is true.
   *
   * @example Point.fromObject({row: 1, column: 2}).isEqual([1, 2]) // => true
   */
  static fromObject(object: PointLike, copy = false): Point {
    const point = toPoint(object)
    return copy && point === object ? point.copy() : point
  }

  /**
   * The earlier of two points; the first one on a tie.
   *
   * @example Point.min([3, 4], [1, 1]).toString() // => '(1, 1)'
   */
  static min(a: PointLike, b: PointLike): Point {
    const first = toPoint(a, 'a')
    const second = toPoint(b, 'b')
    return first.isLessThanOrEqual(second) ? first : second
  }

  /**
   * The later of two points; the first one on a tie.
   *
   * @example Point.max([3, 4], [1, 1]).toString() // => '(3, 4)'
   */
  static max(a: PointLike, b: PointLike): Point {
    const first = toPoint(a, 'a')
    const second = toPoint(b, 'b')
    return first.isGreaterThanOrEqual(second) ? first : second
  }

  /**
   * Throws a `TypeError` naming `name` unless `value` is a point in one of the accepted
   * forms with numeric (non-NaN) row and column.
   *
   * @example Point.assertValid(userInput, 'position')
   */
  static assertValid(value: unknown, name = 'point'): asserts value is PointLike {
    toPoint(value, name)
  }

  /** A distinct point equal to this one. @example new Point(1, 2).copy().isEqual([1, 2]) // => true */
  copy(): Point {
    return new Point(this.row, this.column)
  }

  /**
   * The point with row and column negated (never -0).
   *
   * @example new Point(1, -2).negate().toString() // => '(-1, 2)'
   */
  negate(): Point {
    // Subtracting from 0 rather than using unary minus keeps -0 out of the values.
    return this.isZero() ? this : new Point(0 - this.row, 0 - this.column)
  }

  /**
   * -1, 0 or 1 as this point is before, equal to or after `other` (row first, then column).
   *
   * @example new Point(2, 3).compare([2, 6]) // => -1
   */
  compare(other: PointLike): -1 | 0 | 1 {
    const that = toPoint(other, 'other')
    if (this.row !== that.row) return this.row < that.row ? -1 : 1
    if (this.column !== that.column) return this.column < that.column ? -1 : 1
    return 0
  }

  /**
   * Whether `other` has the same row and column; `null`/`undefined` are never equal.
   *
   * @example new Point(1, 1).isEqual({row: 1, column: 1}) // => true
   */
  isEqual(other: PointLike | null | undefined): boolean {
    if (other == null) return false
    const that = toPoint(other, 'other')
    return this.row === that.row && this.column === that.column
  }

  /** Whether this point is before `other`. @example new Point(1, 9).isLessThan([2, 0]) // => true */
  isLessThan(other: PointLike): boolean {
    return this.compare(other) < 0
  }

  /** Whether this point is before or at `other`. @example new Point(1, 1).isLessThanOrEqual([1, 1]) // => true */
  isLessThanOrEqual(other: PointLike): boolean {
    return this.compare(other) <= 0
  }

  /** Whether this point is after `other`. @example new Point(2, 0).isGreaterThan([1, 9]) // => true */
  isGreaterThan(other: PointLike): boolean {
    return this.compare(other) > 0
  }

  /** Whether this point is after or at `other`. @example new Point(1, 1).isGreaterThanOrEqual([1, 1]) // => true */
  isGreaterThanOrEqual(other: PointLike): boolean {
    return this.compare(other) >= 0
  }

  /** Whether row and column are both 0. @example new Point(0, 0).isZero() // => true */
  isZero(): boolean {
    return this.row === 0 && this.column === 0
  }

  /**
   * Whether this point, read as a distance, moves forward: a positive row, or row 0 and a
   * positive column.
   *
   * @example new Point(5, -1).isPositive() // => true
   */
  isPositive(): boolean {
    return this.row === 0 ? this.column > 0 : this.row > 0
  }

  /**
   * Whether this point, read as a distance, moves backward: a negative row, or row 0 and a
   * negative column.
   *
   * @example new Point(0, -1).isNegative() // => true
   */
  isNegative(): boolean {
    return this.row === 0 ? this.column < 0 : this.row < 0
  }

  /**
   * Vector addition: adds `delta`'s row and column to this point's. Compare `traverse`.
   * Infinity plus -Infinity is NaN, which throws a `TypeError` rather than yield a bad point.
   *
   * @example new Point(1, 5).translate([2, 1]).toString() // => '(3, 6)'
   */
  translate(delta: PointLike): Point {
    const d = toPoint(delta, 'delta')
    if (d.isZero()) return this
    return new Point(this.row + d.row, this.column + d.column)
  }

  /**
   * Typewriter addition: moving down `delta.row` rows returns the carriage to column 0, so
   * the result's column is `delta.column` when `delta.row` is not 0, and this column plus
   * `delta.column` when it is. This is where text of extent `delta` inserted here ends.
   *
   * @example new Point(10, 5).traverse([2, 2]).toString() // => '(12, 2)'
   */
  traverse(delta: PointLike): Point {
    const d = toPoint(delta, 'delta')
    if (d.isZero()) return this
    return d.row === 0
      ? new Point(this.row, this.column + d.column)
      : new Point(this.row + d.row, d.column)
  }

  /**
   * The inverse of `traverse`: the distance `d` with `start.traverse(d)` equal to this point.
   * Equal columns give a column distance of 0 even when both are Infinity.
   *
   * @example new Point(3, 4).traversalFrom([2, 3]).toString() // => '(1, 4)'
   */
  traversalFrom(start: PointLike): Point {
    const s = toPoint(start, 'start')
    if (this.row !== s.row) return new Point(this.row - s.row, this.column)
    // Infinity - Infinity is NaN; equal columns are simply no distance at all.
    return this.column === s.column ? Point.ZERO : new Point(0, this.column - s.column)
  }

  /** A new `[row, column]` array. @example new Point(1, 3).toArray() // => [1, 3] */
  toArray(): [row: number, column: number] {
    return [this.row, this.column]
  }

  /** The plain form `Point.fromObject` reads back: `[row, column]`. @example Point.ZERO.serialize() // => [0, 0] */
  serialize(): [row: number, column: number] {
    return this.toArray()
  }

  /** `(row, column)`. @example new Point(4, 5).toString() // => '(4, 5)' */
  toString(): string {
    return `(${this.row}, ${this.column})`
  }
}

const fieldName = (name: string | undefined, field: string): string =>
  name === undefined ? field : `${name}.${field}`

/**
 * Converts any `PointLike` to a `Point` (the same object when it already is one), naming
 * `name` in the `TypeError` for anything else: for APIs that validate their arguments.
 *
 * @example toPoint([1, 2], 'delta') // => Point(1, 2); toPoint('x', 'delta') throws
 */

export function toPoint(value: unknown, name?: string): Point {
  if (value instanceof Point) return value
  let row: unknown
  let column: unknown
  if (Array.isArray(value)) {
    row = value[0]
    column = value[1]
  } else if (typeof value === 'object' && value !== null) {
    row = (value as { row?: unknown }).row
    column = (value as { column?: unknown }).column
  } else {
    throw new TypeError(
      `${name ?? 'point'} must be a Point, [row, column] or {row, column}, got ${describeValue(value)}`,
    )
  }
  // Checked here, not only in the constructor, so the message names the caller's argument
  // (built only on failure: this runs for every position an API call receives).
  if (typeof row !== 'number' || Number.isNaN(row)) assertNumber(row, fieldName(name, 'row'))
  if (typeof column !== 'number' || Number.isNaN(column)) {
    assertNumber(column, fieldName(name, 'column'))
  }
  return new Point(row, column)
}
