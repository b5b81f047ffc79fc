import { Point, type PointLike, Range, type RangeLike } from '@tandem/text'
import type { Marker } from './marker.js'

/**
 * Conditions for `MarkerLayer.findMarkers`. Every interval is closed (touching counts), as in
 * Atom; keys not listed here match the marker's properties.
 */
export interface FindMarkersParams {
  /** The marker starts exactly here. */
  startPosition?: PointLike
  /** The marker ends exactly here. */
  endPosition?: PointLike
  /** The marker starts inside this range. */
  startsInRange?: RangeLike
  /** The marker ends inside this range. */
  endsInRange?: RangeLike
  /** The marker contains this point. */
  containsPoint?: PointLike
  /** Atom's other name for `containsPoint`. */
  containsPosition?: PointLike
  /** The marker contains all of this range. */
  containsRange?: RangeLike
  /** The marker touches or overlaps this range. */
  intersectsRange?: RangeLike
  /** The marker lies entirely inside this range. */
  containedInRange?: RangeLike
  /** The marker starts on this row. */
  startRow?: number
  /** The marker ends on this row. */
  endRow?: number
  /** The marker covers part of this row. */
  intersectsRow?: number
  /** The marker covers part of the rows from the first to the second, both included. */
  intersectsRowRange?: [number, number]
  /** Only markers whose validity is this. */
  valid?: boolean
  /** Only markers with this invalidation strategy. */
  invalidate?: string
  /** Only markers whose head is (true) or is not (false) at the start. */
  reversed?: boolean
  /** Only markers that have (true) or lack (false) a tail. */
  tailed?: boolean
  [property: string]: unknown
}

type Test = (range: Range, marker: Marker) => boolean

const inRange = (point: Point, range: Range) =>
  range.start.isLessThanOrEqual(point) && point.isLessThanOrEqual(range.end)

/** Builds one test per condition. */
const testFor = (key: string, value: unknown): Test => {
  switch (key) {
    case 'startPosition': {
      const p = Point.fromObject(value as PointLike)
      return (r) => r.start.isEqual(p)
    }
    case 'endPosition': {
      const p = Point.fromObject(value as PointLike)
      return (r) => r.end.isEqual(p)
    }
    case 'startsInRange': {
      const q = Range.fromObject(value as RangeLike)
      return (r) => inRange(r.start, q)
    }
    case 'endsInRange': {
      const q = Range.fromObject(value as RangeLike)
      return (r) => inRange(r.end, q)
    }
    case 'containsPoint':
    case 'containsPosition': {
      const p = Point.fromObject(value as PointLike)
      return (r) => inRange(p, r)
    }
    case 'containsRange': {
      const q = Range.fromObject(value as RangeLike)
      return (r) => r.start.isLessThanOrEqual(q.start) && q.end.isLessThanOrEqual(r.end)
    }
    case 'intersectsRange': {
      const q = Range.fromObject(value as RangeLike)
      return (r) => r.start.isLessThanOrEqual(q.end) && q.start.isLessThanOrEqual(r.end)
    }
    case 'containedInRange': {
      const q = Range.fromObject(value as RangeLike)
      return (r) => q.start.isLessThanOrEqual(r.start) && r.end.isLessThanOrEqual(q.end)
    }
    case 'startRow':
      return (r) => r.start.row === value
    case 'endRow':
      return (r) => r.end.row === value
    case 'intersectsRow':
      return (r) => r.start.row <= (value as number) && (value as number) <= r.end.row
    case 'intersectsRowRange': {
      const [first, last] = value as [number, number]
      return (r) => r.start.row <= last && first <= r.end.row
    }
    case 'valid':
      return (_r, m) => m.isValid() === value
    case 'invalidate':
      return (_r, m) => m.getInvalidationStrategy() === value
    case 'reversed':
      return (_r, m) => m.isReversed() === value
    case 'tailed':
      return (_r, m) => m.hasTail() === value
    default:
      return (_r, m) => JSON.stringify(m.getProperties()[key]) === JSON.stringify(value)
  }
}

/** Offsets of clipped positions, for {@link searchWindow}. */
export interface OffsetMapper {
  /** Offset of `position` after clipping it to the text. */
  offsetOf(position: PointLike): number
}

const POSITION_KEYS = ['startPosition', 'endPosition', 'containsPoint', 'containsPosition'] as const
const RANGE_KEYS = [
  'startsInRange',
  'endsInRange',
  'containsRange',
  'intersectsRange',
  'containedInRange',
] as const
const ROW_KEYS = ['startRow', 'endRow', 'intersectsRow'] as const

/**
 * A span of offsets `[from, to]` that every marker matching `params` overlaps (closed), or
 * null when no positional condition narrows the search: each positional condition gives
 * such a span, and the narrowest is taken. Positions are clipped first; clipping only widens
 * the span, so it never loses a match.
 *
 * @example searchWindow({ intersectsRow: 2 }, mapper) // => offsets of (2, 0) and the end of row 2
 */
export const searchWindow = (
  params: FindMarkersParams,
  mapper: OffsetMapper,
): [number, number] | null => {
  let best: [number, number] | null = null
  const consider = (start: PointLike, end: PointLike) => {
    const from = mapper.offsetOf(start)
    const to = mapper.offsetOf(end)
    if (best === null || to - from < best[1] - best[0]) best = [from, to]
  }
  const considerRows = (first: unknown, last: unknown) => {
    if (typeof first !== 'number' || typeof last !== 'number') return
    if (Number.isNaN(first) || Number.isNaN(last)) return
    // With first > last, a match spans from row `last` or before to row `first` or after.
    consider(new Point(Math.min(first, last), 0), new Point(Math.max(first, last), Infinity))
  }
  for (const key of POSITION_KEYS) {
    const value = params[key]
    if (value !== undefined) consider(value, value)
  }
  for (const key of RANGE_KEYS) {
    const value = params[key]
    if (value === undefined) continue
    const range = Range.fromObject(value)
    consider(range.start, range.end)
  }
  for (const key of ROW_KEYS) considerRows(params[key], params[key])
  const rows = params.intersectsRowRange
  if (Array.isArray(rows)) considerRows(rows[0], rows[1])
  return best
}

/**
 * The markers matching `params`, sorted by start, then longest first, then creation order.
 *
 * @example findMarkers(layer.getMarkers(), { intersectsRow: 3 })
 */
export const findMarkers = (markers: Iterable<Marker>, params: FindMarkersParams): Marker[] => {
  const tests = Object.entries(params)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => testFor(key, value))
  const found: Marker[] = []
  for (const marker of markers) {
    const range = marker.getRange()
    if (tests.every((test) => test(range, marker))) found.push(marker)
  }
  return found.sort((a, b) => a.compare(b) || a.id - b.id)
}
