import { describe, expect, it } from 'vitest'
import { Point, Range, type RangeLike, type RangeTuple } from './index.js'

const INF = Number.POSITIVE_INFINITY

// Seeded randomness: every property below runs TRIALS cases with seeds BASE_SEED,
// BASE_SEED + 1, ...; a failure names its seed, and TANDEM_SEED=<seed> replays it first.
const TRIALS = 400
const BASE_SEED = Number(process.env.TANDEM_SEED ?? Math.floor(Math.random() * 2 ** 31))

/** mulberry32: a tiny, fast, well-mixed 32-bit generator; returns floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
}

interface Random {
  int(min: number, max: number): number
  point(): Point
  delta(): Point
  range(): Range
  pick<T>(items: readonly T[]): T
}

function makeRandom(seed: number): Random {
  const next = mulberry32(seed)
  const random: Random = {
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    // Small coordinates so that ties (same row, same point) are common.
    point: () => new Point(random.int(0, 4), random.int(0, 4)),
    delta: () => new Point(random.int(-3, 3), random.int(-3, 3)),
    range: () => new Range(random.point(), random.point()),
    pick: (items) => items[random.int(0, items.length - 1)] as (typeof items)[number],
  }
  return random
}

/** Runs `check` for TRIALS seeds, labelling any failure with the seed that produced it. */
function forEachSeed(check: (random: Random, seed: string) => void): void {
  for (let trial = 0; trial < TRIALS; trial++) {
    const seed = BASE_SEED + trial
    check(makeRandom(seed), `seed ${seed} (replay with TANDEM_SEED=${seed})`)
  }
}

function r(startRow: number, startColumn: number, endRow: number, endColumn: number): Range {
  return new Range([startRow, startColumn], [endRow, endColumn])
}

/** The `[[row, column], [row, column]]` form, to exercise the loose input path. */
function rt(startRow: number, startColumn: number, endRow: number, endColumn: number): RangeTuple {
  return [
    [startRow, startColumn],
    [endRow, endColumn],
  ]
}

describe('Range construction', () => {
  it('orders its points so that start <= end', () => {
    const range = new Range([2, 0], [1, 4])
    expect(range.start.toArray()).toEqual([1, 4])
    expect(range.end.toArray()).toEqual([2, 0])
    expect(new Range(new Point(0, 1), new Point(0, 1)).isEmpty()).toBe(true)
  })

  it('defaults to the empty range at (0, 0)', () => {
    expect(new Range().serialize()).toEqual([
      [0, 0],
      [0, 0],
    ])
  })

  it('keeps Point arguments and has readonly ends', () => {
    const a = new Point(1, 1)
    const b = new Point(2, 2)
    const range = new Range(b, a)
    expect(range.start).toBe(a)
    expect(range.end).toBe(b)
    // @ts-expect-error: a range cannot be changed
    range.start = b
  })

  it('names a bad point', () => {
    expect(() => new Range([0, Number.NaN], [1, 1])).toThrow(
      new TypeError('pointA.column must be a number, got NaN'),
    )
    expect(() => new Range([0, 0], { row: '1', column: 1 } as never)).toThrow(
      new TypeError('pointB.row must be a number, got "1"'),
    )
  })
})

describe('Range.fromObject', () => {
  it('accepts [[r, c], [r, c]], [Point, Point] and {start, end}', () => {
    expect(
      Range.fromObject([
        [0, 1],
        [2, 3],
      ]).toString(),
    ).toBe('[(0, 1) - (2, 3)]')
    expect(Range.fromObject([new Point(2, 3), new Point(0, 1)]).toString()).toBe(
      '[(0, 1) - (2, 3)]',
    )
    expect(Range.fromObject({ start: [0, 1], end: { row: 2, column: 3 } }).toString()).toBe(
      '[(0, 1) - (2, 3)]',
    )
  })

  it('returns the same range unless asked to copy', () => {
    const range = r(0, 1, 2, 3)
    expect(Range.fromObject(range)).toBe(range)
    const copy = Range.fromObject(range, true)
    expect(copy).not.toBe(range)
    expect(copy.isEqual(range)).toBe(true)
  })

  it('round-trips serialize', () => {
    const range = r(1, 2, 3, 4)
    expect(Range.fromObject(range.serialize()).isEqual(range)).toBe(true)
  })

  it('throws TypeErrors naming the part that is wrong', () => {
    expect(() =>
      Range.fromObject([
        [0, 0],
        [Number.NaN, 0],
      ]),
    ).toThrow(new TypeError('range[1].row must be a number, got NaN'))
    expect(() => Range.fromObject({ start: [0, 0] } as unknown as RangeLike)).toThrow(
      /^range\.end must be a Point/,
    )
    expect(() => Range.fromObject(7 as unknown as RangeLike)).toThrow(
      /^range must be a Range, \[start, end\] or \{start, end\}, got 7/,
    )
  })
})

describe('Range.fromPointWithDelta', () => {
  it('adds the deltas to the start as a vector', () => {
    expect(Range.fromPointWithDelta([1, 2], 0, 3).toString()).toBe('[(1, 2) - (1, 5)]')
    expect(Range.fromPointWithDelta([1, 2], 2, 3).toString()).toBe('[(1, 2) - (3, 5)]')
  })

  it('normalises negative deltas', () => {
    expect(Range.fromPointWithDelta([3, 3], -1, -1).toString()).toBe('[(2, 2) - (3, 3)]')
  })

  it('names bad deltas', () => {
    expect(() => Range.fromPointWithDelta([0, 0], Number.NaN, 0)).toThrow(
      new TypeError('rowDelta must be a number, got NaN'),
    )
    expect(() => Range.fromPointWithDelta([0, 0], 0, '1' as unknown as number)).toThrow(
      new TypeError('columnDelta must be a number, got "1"'),
    )
  })
})

describe('Range.fromPointWithTraversalExtent', () => {
  it('traverses the start by the extent', () => {
    expect(Range.fromPointWithTraversalExtent([1, 2], [0, 3]).toString()).toBe('[(1, 2) - (1, 5)]')
    expect(Range.fromPointWithTraversalExtent([1, 2], [1, 3]).toString()).toBe('[(1, 2) - (2, 3)]')
  })
})

describe('Range.fromText', () => {
  it('starts at (0, 0) without a start point', () => {
    expect(Range.fromText('').toString()).toBe('[(0, 0) - (0, 0)]')
    expect(Range.fromText('abc').toString()).toBe('[(0, 0) - (0, 3)]')
    expect(Range.fromText('ab\ncde').toString()).toBe('[(0, 0) - (1, 3)]')
  })

  it('adds to the start column on a single line and resets it after a break', () => {
    expect(Range.fromText([2, 4], 'abc').toString()).toBe('[(2, 4) - (2, 7)]')
    expect(Range.fromText([2, 4], 'abc\n').toString()).toBe('[(2, 4) - (3, 0)]')
    expect(Range.fromText(new Point(2, 4), 'a\nbc').toString()).toBe('[(2, 4) - (3, 2)]')
  })

  it('counts \\r\\n, \\n and a lone \\r as one line break each', () => {
    expect(Range.fromText('a\r\nb').toString()).toBe('[(0, 0) - (1, 1)]')
    expect(Range.fromText('a\rb').toString()).toBe('[(0, 0) - (1, 1)]')
    expect(Range.fromText('\r\n\r\n').toString()).toBe('[(0, 0) - (2, 0)]')
    expect(Range.fromText('\n\r').toString()).toBe('[(0, 0) - (2, 0)]')
    expect(Range.fromText('\r\r\n\n').toString()).toBe('[(0, 0) - (3, 0)]')
    expect(Range.fromText('x\r').toString()).toBe('[(0, 0) - (1, 0)]')
  })

  it('counts columns in UTF-16 code units', () => {
    expect(Range.fromText('😀').toString()).toBe('[(0, 0) - (0, 2)]')
  })

  it('throws for a non-string text and a bad start', () => {
    expect(() => Range.fromText(undefined as unknown as string)).toThrow(
      new TypeError('text must be a string, got undefined'),
    )
    expect(() => Range.fromText([0, 0], 5 as unknown as string)).toThrow(
      new TypeError('text must be a string, got 5'),
    )
    expect(() => Range.fromText([Number.NaN, 0], 'a')).toThrow(
      new TypeError('start.row must be a number, got NaN'),
    )
  })
})

describe('Range copy, negate and serialize', () => {
  it('copy returns an equal, distinct range', () => {
    const range = r(1, 2, 3, 4)
    expect(range.copy()).not.toBe(range)
    expect(range.copy().isEqual(range)).toBe(true)
  })

  it('negate negates both points and re-orders them', () => {
    expect(r(0, 0, 0, 0).negate().toString()).toBe('[(0, 0) - (0, 0)]')
    expect(r(1, 2, 3, 4).negate().toString()).toBe('[(-3, -4) - (-1, -2)]')
    expect(new Range([-1, -2], [-3, -4]).negate().toString()).toBe('[(1, 2) - (3, 4)]')
    expect(new Range([-1, 2], [3, -4]).negate().toString()).toBe('[(-3, 4) - (1, -2)]')
  })

  it('serialize gives [[r, c], [r, c]]', () => {
    expect(r(0, 1, 2, 3).serialize()).toEqual(rt(0, 1, 2, 3))
  })

  it('toString gives [(r, c) - (r, c)]', () => {
    expect(r(0, 1, 2, 3).toString()).toBe('[(0, 1) - (2, 3)]')
    expect(new Range(Point.ZERO, Point.INFINITY).toString()).toBe('[(0, 0) - (Infinity, Infinity)]')
  })
})

describe('Range details', () => {
  it('isEmpty', () => {
    expect(r(1, 1, 1, 1).isEmpty()).toBe(true)
    expect(r(1, 1, 1, 2).isEmpty()).toBe(false)
    expect(r(1, 1, 2, 1).isEmpty()).toBe(false)
  })

  it('isSingleLine', () => {
    expect(r(1, 0, 1, 9).isSingleLine()).toBe(true)
    expect(r(1, 9, 2, 0).isSingleLine()).toBe(false)
  })

  it('getRowCount counts both end rows', () => {
    expect(r(1, 0, 1, 0).getRowCount()).toBe(1)
    expect(r(1, 5, 3, 0).getRowCount()).toBe(3)
  })

  it('getRows lists every row and refuses infinite ranges', () => {
    expect(r(1, 5, 3, 0).getRows()).toEqual([1, 2, 3])
    expect(r(4, 0, 4, 2).getRows()).toEqual([4])
    expect(() => new Range(Point.ZERO, Point.INFINITY).getRows()).toThrow(RangeError)
  })

  it('getExtent is the end traversed from the start', () => {
    expect(r(1, 2, 1, 5).getExtent().toArray()).toEqual([0, 3])
    expect(r(1, 2, 3, 4).getExtent().toArray()).toEqual([2, 4])
    expect(r(1, 2, 1, 2).getExtent().isZero()).toBe(true)
    expect(new Range([1, 2], Point.INFINITY).getExtent().toArray()).toEqual([INF, INF])
  })
})

describe('Range.union', () => {
  it('covers both ranges', () => {
    expect(
      r(0, 0, 1, 0)
        .union(r(2, 0, 3, 0))
        .toString(),
    ).toBe('[(0, 0) - (3, 0)]')
    expect(
      r(2, 0, 3, 0)
        .union(rt(0, 0, 1, 0))
        .toString(),
    ).toBe('[(0, 0) - (3, 0)]')
    expect(
      r(0, 5, 2, 0)
        .union({ start: [1, 0], end: [4, 4] })
        .toString(),
    ).toBe('[(0, 5) - (4, 4)]')
  })

  it('returns this when the other range is inside, or the other range when it covers this', () => {
    const outer = r(0, 0, 5, 0)
    const inner = r(1, 0, 2, 0)
    expect(outer.union(inner)).toBe(outer)
    expect(outer.union(outer)).toBe(outer)
    expect(inner.union(outer)).toBe(outer)
  })
})

describe('Range.translate and Range.traverse', () => {
  it('translate moves both points by one delta', () => {
    expect(r(1, 1, 1, 3).translate([1, 2]).toString()).toBe('[(2, 3) - (2, 5)]')
    expect(r(1, 1, 2, 3).translate([0, -1]).toString()).toBe('[(1, 0) - (2, 2)]')
  })

  it('translate moves each point by its own delta and re-orders crossed points', () => {
    expect(r(1, 1, 1, 3).translate([0, 0], [0, 2]).toString()).toBe('[(1, 1) - (1, 5)]')
    expect(r(1, 1, 1, 3).translate([0, 5], [0, 0]).toString()).toBe('[(1, 3) - (1, 6)]')
  })

  it('traverse resets columns when moving rows; translate does not', () => {
    expect(r(1, 1, 1, 3).traverse([1, 2]).toString()).toBe('[(2, 2) - (2, 2)]')
    expect(r(1, 1, 1, 3).translate([1, 2]).toString()).toBe('[(2, 3) - (2, 5)]')
    expect(r(1, 1, 1, 3).traverse([0, 2]).toString()).toBe('[(1, 3) - (1, 5)]')
  })

  it('return this for zero deltas', () => {
    const range = r(1, 1, 2, 3)
    expect(range.translate([0, 0])).toBe(range)
    expect(range.translate(Point.ZERO, [0, 0])).toBe(range)
    expect(range.traverse(Point.ZERO)).toBe(range)
  })

  it('name bad deltas', () => {
    expect(() => r(0, 0, 1, 1).translate([0, 0], [Number.NaN, 0])).toThrow(
      new TypeError('endDelta.row must be a number, got NaN'),
    )
    expect(() => r(0, 0, 1, 1).traverse([0, Number.NaN])).toThrow(
      new TypeError('delta.column must be a number, got NaN'),
    )
  })
})

describe('Range.compare and Range.isEqual', () => {
  it('orders by start', () => {
    expect(r(0, 0, 1, 0).compare(r(0, 1, 1, 0))).toBe(-1)
    expect(r(2, 0, 2, 0).compare(rt(1, 0, 9, 0))).toBe(1)
  })

  it('puts the longer range first on equal starts', () => {
    expect(r(0, 0, 5, 0).compare(rt(0, 0, 1, 0))).toBe(-1)
    expect(r(0, 0, 1, 0).compare(rt(0, 0, 5, 0))).toBe(1)
    expect(r(0, 0, 1, 0).compare({ start: [0, 0], end: [1, 0] })).toBe(0)
  })

  it('sorts ranges by start, then longest first', () => {
    const ranges = [r(1, 0, 1, 2), r(0, 0, 0, 1), r(1, 0, 3, 0), r(0, 0, 2, 0), r(1, 0, 1, 0)]
    const sorted = [...ranges].sort((a, b) => a.compare(b)).map(String)
    expect(sorted).toEqual([
      '[(0, 0) - (2, 0)]',
      '[(0, 0) - (0, 1)]',
      '[(1, 0) - (3, 0)]',
      '[(1, 0) - (1, 2)]',
      '[(1, 0) - (1, 0)]',
    ])
  })

  it('isEqual accepts loose forms and is false for null and undefined', () => {
    expect(r(0, 1, 2, 3).isEqual(rt(2, 3, 0, 1))).toBe(true)
    expect(r(0, 1, 2, 3).isEqual({ start: [0, 1], end: [2, 3] })).toBe(true)
    expect(r(0, 1, 2, 3).isEqual(rt(0, 1, 2, 4))).toBe(false)
    expect(r(0, 1, 2, 3).isEqual(null)).toBe(false)
    expect(r(0, 1, 2, 3).isEqual(undefined)).toBe(false)
  })

  it('name a bad other range', () => {
    expect(() => r(0, 0, 0, 0).compare(rt(0, 0, 0, Number.NaN))).toThrow(
      new TypeError('other[1].column must be a number, got NaN'),
    )
  })
})

describe('Range.coversSameRows', () => {
  it('compares the start and end rows only', () => {
    expect(r(1, 0, 2, 5).coversSameRows(rt(1, 3, 2, 0))).toBe(true)
    expect(r(1, 0, 2, 5).coversSameRows(rt(1, 0, 3, 0))).toBe(false)
    expect(r(1, 0, 2, 5).coversSameRows(rt(0, 0, 2, 5))).toBe(false)
  })
})

describe('Range.intersectsWith', () => {
  const range = r(1, 2, 3, 4)
  const cases: [RangeLike, boolean, boolean][] = [
    // other, inclusive, exclusive
    [rt(1, 0, 1, 1), false, false],
    [rt(1, 1, 1, 2), true, false],
    [rt(1, 1, 1, 3), true, true],
    [rt(3, 4, 4, 5), true, false],
    [rt(3, 3, 4, 5), true, true],
    [rt(1, 5, 2, 2), true, true],
    [rt(3, 5, 4, 4), false, false],
    [rt(1, 2, 1, 2), true, false],
    [rt(3, 4, 3, 4), true, false],
    [rt(2, 0, 2, 0), true, true],
    [rt(0, 0, 9, 9), true, true],
  ]

  it.each(cases)('with %j: inclusive %s, exclusive %s', (other, inclusive, exclusive) => {
    expect(range.intersectsWith(other)).toBe(inclusive)
    expect(range.intersectsWith(other, false)).toBe(inclusive)
    expect(range.intersectsWith(other, true)).toBe(exclusive)
    const that = Range.fromObject(other)
    expect(that.intersectsWith(range)).toBe(inclusive)
    expect(that.intersectsWith(range, true)).toBe(exclusive)
  })

  it('treats INFINITY like any other point', () => {
    const toEnd = new Range([5, 0], Point.INFINITY)
    expect(toEnd.intersectsWith(rt(9, 0, 9, 9))).toBe(true)
    expect(toEnd.intersectsWith(rt(0, 0, 5, 0), true)).toBe(false)
  })
})

describe('Range.containsPoint and Range.containsRange', () => {
  const range = r(1, 2, 3, 4)

  it('containsPoint includes the ends unless exclusive', () => {
    expect(range.containsPoint([1, 2])).toBe(true)
    expect(range.containsPoint([3, 4])).toBe(true)
    expect(range.containsPoint([2, 0])).toBe(true)
    expect(range.containsPoint([1, 1])).toBe(false)
    expect(range.containsPoint({ row: 3, column: 5 })).toBe(false)
    expect(range.containsPoint([1, 2], true)).toBe(false)
    expect(range.containsPoint([3, 4], true)).toBe(false)
    expect(range.containsPoint(new Point(2, 99), true)).toBe(true)
  })

  it('an empty range contains only its point, and nothing exclusively', () => {
    const empty = r(1, 1, 1, 1)
    expect(empty.containsPoint([1, 1])).toBe(true)
    expect(empty.containsPoint([1, 1], true)).toBe(false)
  })

  it('containsRange needs both ends inside', () => {
    expect(range.containsRange(rt(1, 2, 3, 4))).toBe(true)
    expect(range.containsRange(rt(1, 3, 3, 3))).toBe(true)
    expect(range.containsRange(rt(1, 2, 3, 3), true)).toBe(false)
    expect(range.containsRange(rt(1, 3, 3, 3), true)).toBe(true)
    expect(range.containsRange(rt(0, 0, 2, 0))).toBe(false)
    expect(range.containsRange({ start: [2, 0], end: [4, 0] })).toBe(false)
  })

  it('name a bad point', () => {
    expect(() => range.containsPoint([1, Number.NaN])).toThrow(
      new TypeError('point.column must be a number, got NaN'),
    )
  })
})

describe('Range.intersectsRow and Range.intersectsRowRange', () => {
  const range = r(1, 5, 3, 0)

  it('intersectsRow includes the start and end rows', () => {
    expect(range.intersectsRow(0)).toBe(false)
    expect(range.intersectsRow(1)).toBe(true)
    expect(range.intersectsRow(2)).toBe(true)
    expect(range.intersectsRow(3)).toBe(true)
    expect(range.intersectsRow(4)).toBe(false)
  })

  it('intersectsRowRange accepts the rows in either order', () => {
    expect(range.intersectsRowRange(3, 5)).toBe(true)
    expect(range.intersectsRowRange(5, 3)).toBe(true)
    expect(range.intersectsRowRange(4, 5)).toBe(false)
    expect(range.intersectsRowRange(0, 0)).toBe(false)
    expect(range.intersectsRowRange(0, 1)).toBe(true)
    expect(range.intersectsRowRange(2, 2)).toBe(true)
    expect(range.intersectsRowRange(0, INF)).toBe(true)
  })

  it('reject NaN rows by name', () => {
    expect(() => range.intersectsRow(Number.NaN)).toThrow(
      new TypeError('row must be a number, got NaN'),
    )
    expect(() => range.intersectsRowRange(0, Number.NaN)).toThrow(
      new TypeError('endRow must be a number, got NaN'),
    )
  })
})

describe('Point and Range properties (seeded random)', () => {
  it('traverse undoes traversalFrom', () => {
    forEachSeed((random, seed) => {
      const start = random.point()
      const end = random.int(0, 9) === 0 ? Point.INFINITY : random.point()
      const extent = end.traversalFrom(start)
      expect(start.traverse(extent).isEqual(end), `${seed}: ${start} -> ${end}`).toBe(true)
    })
  })

  it('translate by a delta and its negation is the identity', () => {
    forEachSeed((random, seed) => {
      const point = random.point()
      const delta = random.delta()
      const back = point.translate(delta).translate(delta.negate())
      expect(back.isEqual(point), `${seed}: ${point} + ${delta}`).toBe(true)
    })
  })

  it('point compare is antisymmetric and agrees with isEqual', () => {
    forEachSeed((random, seed) => {
      const a = random.point()
      const b = random.point()
      expect(a.compare(b), `${seed}: ${a} vs ${b}`).toBe(-b.compare(a) || 0)
      expect(a.compare(b) === 0, `${seed}: ${a} vs ${b}`).toBe(a.isEqual(b))
      expect(Point.min(a, b).isLessThanOrEqual(Point.max(a, b)), seed).toBe(true)
    })
  })

  it('ranges are normalised whichever order their points come in', () => {
    forEachSeed((random, seed) => {
      const a = random.point()
      const b = random.point()
      const range = new Range(a, b)
      expect(range.start.isLessThanOrEqual(range.end), `${seed}: ${range}`).toBe(true)
      expect(range.isEqual(new Range(b, a)), `${seed}: ${range}`).toBe(true)
    })
  })

  it('range compare is antisymmetric, transitive and agrees with isEqual', () => {
    forEachSeed((random, seed) => {
      const [a, b, c] = [random.range(), random.range(), random.range()]
      const label = `${seed}: ${a} ${b} ${c}`
      expect(a.compare(b), label).toBe(-b.compare(a) || 0)
      expect(a.compare(b) === 0, label).toBe(a.isEqual(b))
      if (a.compare(b) <= 0 && b.compare(c) <= 0) expect(a.compare(c), label).toBeLessThanOrEqual(0)
    })
  })

  it('union contains both ranges and is the smallest such range', () => {
    forEachSeed((random, seed) => {
      const a = random.range()
      const b = random.range()
      const union = a.union(b)
      const label = `${seed}: ${a} u ${b} = ${union}`
      expect(union.containsRange(a), label).toBe(true)
      expect(union.containsRange(b), label).toBe(true)
      expect(union.start.isEqual(Point.min(a.start, b.start)), label).toBe(true)
      expect(union.end.isEqual(Point.max(a.end, b.end)), label).toBe(true)
      expect(union.isEqual(b.union(a)), label).toBe(true)
    })
  })

  it('intersectsWith is symmetric and matches an overlap reference', () => {
    forEachSeed((random, seed) => {
      const a = random.range()
      const b = random.range()
      const label = `${seed}: ${a} and ${b}`
      // Reference: the overlap runs from the later start to the earlier end. Exclusively,
      // it must have a length, except that an empty range strictly inside the other counts.
      const lastStart = Point.max(a.start, b.start)
      const firstEnd = Point.min(a.end, b.end)
      const emptyInside =
        (a.isEmpty() && b.containsPoint(a.start, true)) ||
        (b.isEmpty() && a.containsPoint(b.start, true))
      expect(a.intersectsWith(b), label).toBe(lastStart.isLessThanOrEqual(firstEnd))
      expect(a.intersectsWith(b, true), label).toBe(lastStart.isLessThan(firstEnd) || emptyInside)
      expect(a.intersectsWith(b), label).toBe(b.intersectsWith(a))
      expect(a.intersectsWith(b, true), label).toBe(b.intersectsWith(a, true))
    })
  })

  it('containment implies intersection and containsRange follows containsPoint', () => {
    forEachSeed((random, seed) => {
      const a = random.range()
      const b = random.range()
      const exclusive = random.int(0, 1) === 1
      const label = `${seed}: ${a} contains ${b} (exclusive: ${exclusive})`
      const contains = a.containsRange(b, exclusive)
      expect(contains, label).toBe(
        a.containsPoint(b.start, exclusive) && a.containsPoint(b.end, exclusive),
      )
      if (contains && !b.isEmpty()) expect(a.intersectsWith(b, exclusive), label).toBe(true)
      expect(a.containsRange(a), label).toBe(true)
    })
  })

  it('a range is rebuilt from its start and extent', () => {
    forEachSeed((random, seed) => {
      const range = random.range()
      const rebuilt = Range.fromPointWithTraversalExtent(range.start, range.getExtent())
      expect(rebuilt.isEqual(range), `${seed}: ${range}`).toBe(true)
      expect(range.getRows().length, `${seed}: ${range}`).toBe(range.getRowCount())
    })
  })

  it('fromText matches splitting the text on line breaks', () => {
    const pieces = ['a', 'bc', '\n', '\r', '\r\n', '😀', '']
    forEachSeed((random, seed) => {
      let text = ''
      for (let i = random.int(0, 8); i > 0; i--) text += random.pick(pieces)
      const start = random.point()
      const lines = text.split(/\r\n|\n|\r/)
      const last = lines[lines.length - 1] ?? ''
      const expected =
        lines.length === 1
          ? new Point(start.row, start.column + last.length)
          : new Point(start.row + lines.length - 1, last.length)
      const range = Range.fromText(start, text)
      expect(range.isEqual([start, expected]), `${seed}: ${JSON.stringify(text)}`).toBe(true)
    })
  })
})
