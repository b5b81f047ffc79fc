import { describe, expect, it } from 'vitest'
import { Point, type PointLike } from './index.js'

const INF = Number.POSITIVE_INFINITY

function p(row: number, column: number): Point {
  return new Point(row, column)
}

describe('Point construction', () => {
  it('stores row and column and defaults both to 0', () => {
    expect(p(3, 4).row).toBe(3)
    expect(p(3, 4).column).toBe(4)
    expect(new Point().toArray()).toEqual([0, 0])
    expect(new Point(2).toArray()).toEqual([2, 0])
  })

  it('has readonly fields', () => {
    const point = p(1, 2)
    // @ts-expect-error: a point cannot be changed
    point.row = 5
    // The fields are readonly to the type checker only; the compile error above is the test.
    expect(point.column).toBe(2)
  })

  it('accepts Infinity and negative values', () => {
    expect(p(-1, -2).toString()).toBe('(-1, -2)')
    expect(p(INF, INF).isEqual(Point.INFINITY)).toBe(true)
  })

  it('throws a TypeError naming the argument for NaN and non-numbers', () => {
    expect(() => p(Number.NaN, 0)).toThrow(new TypeError('row must be a number, got NaN'))
    expect(() => p(0, Number.NaN)).toThrow(new TypeError('column must be a number, got NaN'))
    expect(() => new Point('1' as unknown as number, 0)).toThrow(
      new TypeError('row must be a number, got "1"'),
    )
    expect(() => new Point(0, null as unknown as number)).toThrow(
      new TypeError('column must be a number, got null'),
    )
  })
})

describe('Point constants', () => {
  it('ZERO is (0, 0) and INFINITY is (Infinity, Infinity)', () => {
    expect(Point.ZERO.toArray()).toEqual([0, 0])
    expect(Point.INFINITY.toArray()).toEqual([INF, INF])
    // Shared by everyone, so frozen at run time too.
    expect(Object.isFrozen(Point.ZERO)).toBe(true)
    expect(Object.isFrozen(Point.INFINITY)).toBe(true)
    expect(() => {
      ;(Point.ZERO as { row: number }).row = 5
    }).toThrow(TypeError)
  })
})

describe('Point.fromObject', () => {
  it('accepts arrays, objects and points', () => {
    expect(Point.fromObject([1, 3]).toArray()).toEqual([1, 3])
    expect(Point.fromObject({ row: 1, column: 3 }).toArray()).toEqual([1, 3])
    expect(Point.fromObject([INF, INF]).isEqual(Point.INFINITY)).toBe(true)
  })

  it('returns the same point unless asked to copy', () => {
    const origin = p(0, 0)
    expect(Point.fromObject(origin)).toBe(origin)
    expect(Point.fromObject(origin, false)).toBe(origin)
    const copy = Point.fromObject(origin, true)
    expect(copy).not.toBe(origin)
    expect(copy.isEqual(origin)).toBe(true)
  })

  it('always makes a new point from a plain form', () => {
    const point = Point.fromObject([1, 2], true)
    expect(point).toBeInstanceOf(Point)
  })

  it('throws TypeErrors for bad input', () => {
    expect(() => Point.fromObject([Number.NaN, 0])).toThrow(
      new TypeError('row must be a number, got NaN'),
    )
    expect(() => Point.fromObject({ row: 1 } as unknown as PointLike)).toThrow(
      new TypeError('column must be a number, got undefined'),
    )
    expect(() => Point.fromObject(['1', 2] as unknown as PointLike)).toThrow(
      new TypeError('row must be a number, got "1"'),
    )
    expect(() => Point.fromObject(null as unknown as PointLike)).toThrow(
      /point must be a Point, \[row, column\] or \{row, column\}, got null/,
    )
    expect(() => Point.fromObject('1,2' as unknown as PointLike)).toThrow(TypeError)
  })
})

describe('Point.min and Point.max', () => {
  it('pick the earlier and later point', () => {
    expect(Point.min(p(3, 4), p(1, 1)).toArray()).toEqual([1, 1])
    expect(Point.min([1, 2], [5, 6]).toArray()).toEqual([1, 2])
    expect(Point.max(p(3, 4), p(1, 1)).toArray()).toEqual([3, 4])
    expect(Point.max([1, 2], { row: 5, column: 6 }).toArray()).toEqual([5, 6])
    expect(Point.max([1, 2], Point.INFINITY)).toBe(Point.INFINITY)
  })

  it('return the first argument on a tie', () => {
    const a = p(1, 1)
    const b = p(1, 1)
    expect(Point.min(a, b)).toBe(a)
    expect(Point.max(a, b)).toBe(a)
  })

  it('name the bad argument', () => {
    expect(() => Point.min([0, 0], [Number.NaN, 0])).toThrow(
      new TypeError('b.row must be a number, got NaN'),
    )
    expect(() => Point.max(undefined as unknown as PointLike, [0, 0])).toThrow(/^a must be/)
  })
})

describe('Point.assertValid', () => {
  it('passes valid forms and names the argument otherwise', () => {
    expect(() => Point.assertValid([1, 2])).not.toThrow()
    expect(() => Point.assertValid({ row: 1, column: 2 })).not.toThrow()
    expect(() => Point.assertValid(p(1, 2))).not.toThrow()
    expect(() => Point.assertValid({ row: 1, column: Number.NaN })).toThrow(
      new TypeError('point.column must be a number, got NaN'),
    )
    expect(() => Point.assertValid(42, 'position')).toThrow(/^position must be a Point/)
  })
})

describe('Point copy and negate', () => {
  it('copy returns an equal, distinct point', () => {
    const point = p(3, 4)
    expect(point.copy()).not.toBe(point)
    expect(point.copy().isEqual(point)).toBe(true)
  })

  it('negate flips both signs without producing -0', () => {
    expect(p(1, 2).negate().toString()).toBe('(-1, -2)')
    expect(p(-1, 2).negate().toString()).toBe('(1, -2)')
    expect(p(3, 0).negate().column).toBe(0)
    expect(Object.is(p(3, 0).negate().column, -0)).toBe(false)
    expect(Point.ZERO.negate()).toBe(Point.ZERO)
    expect(Point.INFINITY.negate().toArray()).toEqual([-INF, -INF])
  })
})

describe('Point comparison', () => {
  it('compare orders by row, then column, accepting loose forms', () => {
    expect(p(2, 3).compare(p(2, 6))).toBe(-1)
    expect(p(2, 3).compare([3, 4])).toBe(-1)
    expect(p(1, 1).compare({ row: 1, column: 1 })).toBe(0)
    expect(p(2, 3).compare([2, 0])).toBe(1)
    expect(p(2, 3).compare([1, 9])).toBe(1)
    expect(p(1e9, 1e9).compare(Point.INFINITY)).toBe(-1)
    expect(Point.INFINITY.compare([INF, INF])).toBe(0)
  })

  it('the is* predicates agree with compare', () => {
    const point = p(2, 3)
    const cases: [PointLike, boolean, boolean, boolean, boolean][] = [
      // other, <, <=, >, >=
      [[2, 5], true, true, false, false],
      [[3, 0], true, true, false, false],
      [[2, 3], false, true, false, true],
      [[2, 1], false, false, true, true],
      [[1, 9], false, false, true, true],
    ]
    for (const [other, lt, le, gt, ge] of cases) {
      expect(point.isLessThan(other)).toBe(lt)
      expect(point.isLessThanOrEqual(other)).toBe(le)
      expect(point.isGreaterThan(other)).toBe(gt)
      expect(point.isGreaterThanOrEqual(other)).toBe(ge)
    }
  })

  it('isEqual accepts loose forms and is false for null and undefined', () => {
    expect(p(1, 1).isEqual(p(1, 1))).toBe(true)
    expect(p(1, 1).isEqual([1, 1])).toBe(true)
    expect(p(1, 2).isEqual({ row: 1, column: 3 })).toBe(false)
    expect(p(1, 2).isEqual(null)).toBe(false)
    expect(p(1, 2).isEqual(undefined)).toBe(false)
  })

  it('comparisons reject bad input naming the argument', () => {
    expect(() => p(0, 0).compare([0, Number.NaN])).toThrow(
      new TypeError('other.column must be a number, got NaN'),
    )
    expect(() => p(0, 0).isEqual('x' as unknown as PointLike)).toThrow(/^other must be a Point/)
  })
})

describe('Point sign predicates', () => {
  it('isZero', () => {
    expect(p(0, 0).isZero()).toBe(true)
    expect(p(0, 1).isZero()).toBe(false)
    expect(p(1, 0).isZero()).toBe(false)
  })

  it('isPositive reads the point as a forward distance', () => {
    expect(p(-1, -1).isPositive()).toBe(false)
    expect(p(-1, 0).isPositive()).toBe(false)
    expect(p(-1, INF).isPositive()).toBe(false)
    expect(p(0, 0).isPositive()).toBe(false)
    expect(p(0, 1).isPositive()).toBe(true)
    expect(p(5, 0).isPositive()).toBe(true)
    expect(p(5, -1).isPositive()).toBe(true)
  })

  it('isNegative reads the point as a backward distance', () => {
    expect(p(-1, 5).isNegative()).toBe(true)
    expect(p(0, -1).isNegative()).toBe(true)
    expect(p(0, 0).isNegative()).toBe(false)
    expect(p(0, 1).isNegative()).toBe(false)
    expect(p(1, -INF).isNegative()).toBe(false)
  })
})

describe('Point.translate', () => {
  it('adds rows and columns as a vector', () => {
    expect(p(1, 1).translate(p(2, 3)).toArray()).toEqual([3, 4])
    expect(Point.ZERO.translate([5, 6]).toArray()).toEqual([5, 6])
    expect(p(1, 5).translate({ row: 1, column: -2 }).toArray()).toEqual([2, 3])
    expect(p(3, 4).translate([-3, -4]).isZero()).toBe(true)
  })

  it('keeps the column when moving rows, unlike traverse', () => {
    expect(p(10, 5).translate([2, 2]).toArray()).toEqual([12, 7])
    expect(p(10, 5).traverse([2, 2]).toArray()).toEqual([12, 2])
  })

  it('returns this for a zero delta and saturates at INFINITY', () => {
    const point = p(4, 2)
    expect(point.translate([0, 0])).toBe(point)
    expect(point.translate(Point.ZERO)).toBe(point)
    expect(Point.INFINITY.translate([2, 3]).isEqual(Point.INFINITY)).toBe(true)
  })

  it('throws instead of producing NaN', () => {
    expect(() => Point.INFINITY.translate(Point.INFINITY.negate())).toThrow(
      new TypeError('row must be a number, got NaN'),
    )
    expect(() => p(0, 0).translate([1, Number.NaN])).toThrow(
      new TypeError('delta.column must be a number, got NaN'),
    )
  })
})

describe('Point.traverse', () => {
  it('adds columns on the same row', () => {
    expect(p(2, 3).traverse(p(0, 3)).toArray()).toEqual([2, 6])
    expect(p(2, 3).traverse([0, -3]).toArray()).toEqual([2, 0])
  })

  it('resets the column when it moves down rows', () => {
    expect(p(1, 3).traverse(p(4, 2)).toArray()).toEqual([5, 2])
    expect(p(1, 3).traverse([5, 0]).toArray()).toEqual([6, 0])
  })

  it('handles negative row deltas and INFINITY', () => {
    expect(p(5, 3).traverse([-2, 7]).toArray()).toEqual([3, 7])
    expect(p(5, 3).traverse(Point.INFINITY).isEqual(Point.INFINITY)).toBe(true)
    expect(p(5, 3).traverse([0, INF]).toArray()).toEqual([5, INF])
  })

  it('returns this for a zero delta', () => {
    const point = p(4, 2)
    expect(point.traverse([0, 0])).toBe(point)
  })

  it('names a bad delta', () => {
    expect(() => p(0, 0).traverse({ row: 'a', column: 0 } as unknown as PointLike)).toThrow(
      new TypeError('delta.row must be a number, got "a"'),
    )
  })
})

describe('Point.traversalFrom', () => {
  it('is the distance from start in typewriter space', () => {
    expect(p(2, 5).traversalFrom(p(2, 3)).toArray()).toEqual([0, 2])
    expect(p(2, 3).traversalFrom([2, 5]).toArray()).toEqual([0, -2])
    expect(p(2, 3).traversalFrom([2, 3]).toArray()).toEqual([0, 0])
    expect(p(3, 4).traversalFrom([2, 3]).toArray()).toEqual([1, 4])
    expect(p(2, 3).traversalFrom([3, 5]).toArray()).toEqual([-1, 3])
  })

  it('is zero between equal infinite points, not NaN', () => {
    expect(Point.INFINITY.traversalFrom(Point.INFINITY).isZero()).toBe(true)
    expect(p(3, INF).traversalFrom([3, INF]).isZero()).toBe(true)
    expect(Point.INFINITY.traversalFrom([2, 7]).toArray()).toEqual([INF, INF])
    expect(p(2, INF).traversalFrom([2, 7]).toArray()).toEqual([0, INF])
  })

  it('is undone by traverse', () => {
    const start = p(2, 8)
    for (const end of [p(2, 9), p(2, 1), p(7, 0), p(0, 4)]) {
      expect(start.traverse(end.traversalFrom(start)).isEqual(end)).toBe(true)
    }
  })
})

describe('Point conversion', () => {
  it('toArray and serialize give [row, column]', () => {
    expect(p(1, 3).toArray()).toEqual([1, 3])
    expect(Point.ZERO.serialize()).toEqual([0, 0])
    expect(Point.INFINITY.serialize()).toEqual([INF, INF])
    expect(Point.fromObject(p(7, 8).serialize()).isEqual([7, 8])).toBe(true)
  })

  it('toArray returns a fresh array each time', () => {
    const point = p(1, 2)
    const array = point.toArray()
    array[0] = 9
    expect(point.toArray()).toEqual([1, 2])
  })

  it('toString gives (row, column)', () => {
    expect(p(4, 5).toString()).toBe('(4, 5)')
    expect(`${Point.ZERO}`).toBe('(0, 0)')
    expect(Point.INFINITY.toString()).toBe('(Infinity, Infinity)')
    expect(p(-1, -2).toString()).toBe('(-1, -2)')
  })
})
