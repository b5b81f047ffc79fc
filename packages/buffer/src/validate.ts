import { Point, type PointLike, toPoint } from '@tandem/text'
import type { LineStore } from './line-store.js'

/**
 * `value` as an integer, throwing a TypeError naming `name` for NaN and non-numbers.
 * Fractions are floored; infinities pass through for callers that clip them.
 *
 * @example toFiniteInteger(2.7, 'row') // => 2
 */
export const toFiniteInteger = (value: unknown, name: string): number => {
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new TypeError(`${name} must be a number, got ${describe(value)}`)
  }
  return Number.isFinite(value) ? Math.floor(value) : value
}

/**
 * The valid position nearest to `position`, as Atom clips: a row before the first gives
 * (0, 0), a row past the last gives the end of the text, a column is clamped to
 * [0, line length]. Returns the same Point when it is already valid.
 *
 * @example clipPoint([-1, 5], lines, 'position') // => (0, 0)
 */
export const clipPoint = (position: PointLike, lines: LineStore, name: string): Point => {
  const point = position instanceof Point ? position : toPoint(position, name)
  const { row, column } = point
  if (row < 0) return Point.ZERO
  const lastRow = lines.lineCount - 1
  if (row > lastRow) return new Point(lastRow, lines.lineLengthForRow(lastRow))
  const wholeRow = Math.floor(row)
  const length = lines.lineLengthForRow(wholeRow)
  const clippedColumn = column < 0 ? 0 : column > length ? length : Math.floor(column)
  if (wholeRow === row && clippedColumn === column) return point
  return new Point(wholeRow, clippedColumn)
}

const describe = (value: unknown): string => {
  if (typeof value === 'number') return String(value)
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`
  return value === null ? 'null' : typeof value
}
