import type { TextChange } from './item-index.js'

/** How changes invalidate a marker (Atom's strategies). */
export type InvalidationStrategy = 'never' | 'surround' | 'overlap' | 'inside' | 'touch'

/** The part of a marker the movement rules look at, in offsets. */
export interface MarkerShape {
  start: number
  end: number
  exclusive: boolean
}

/**
 * The index of the change touching or preceding `offset` (the last change whose old start is
 * <= offset), or -1 when every change is after it. Changes are sorted and do not touch.
 */
export const changeAtOrBefore = (changes: readonly TextChange[], offset: number): number => {
  let low = 0
  let high = changes.length - 1
  let found = -1
  while (low <= high) {
    const mid = (low + high) >> 1
    if (changes[mid]!.oldStart <= offset) {
      found = mid
      low = mid + 1
    } else {
      high = mid - 1
    }
  }
  return found
}

/** Whether `offset` lies in the closed old range of `change`. */
export const touches = (change: TextChange, offset: number): boolean =>
  change.oldStart <= offset && offset <= change.oldEnd

/** `offset` moved past `change`, which ends at or before it (a plain shift). */
export const shiftPast = (change: TextChange, offset: number): number =>
  change.newEnd + (offset - change.oldEnd)

/**
 * Whether a marker's start moves to the end of the new text when `change` touches it, by
 * Atom's rules: when the change starts before it, or when the marker is exclusive and the
 * change starts exactly at it (and is an insertion or the marker is not empty). Otherwise the
 * start stays at the change's start.
 *
 * @example startMoves({ start: 6, end: 9, exclusive: false }, insertionAt6) // => false (grows)
 */
export const startMoves = (marker: MarkerShape, change: TextChange): boolean => {
  const s = change.oldStart
  if (s < marker.start) return true
  const insertion = change.oldStart === change.oldEnd
  return marker.exclusive && (marker.start !== marker.end || insertion) && s === marker.start
}

/**
 * Whether a marker's end moves to the end of the new text when `change` touches it: when its
 * start moved, when the change starts before the end, or when a non-exclusive marker's end is
 * exactly where the old text ended.
 */
export const endMoves = (marker: MarkerShape, change: TextChange, startMoved: boolean): boolean =>
  startMoved || change.oldStart < marker.end || (!marker.exclusive && change.oldEnd === marker.end)

/**
 * Whether `change` invalidates `marker` under `strategy` (Atom's rules, decided per change).
 * Both are in old offsets; the closed ranges must meet for any strategy to apply.
 */
export const invalidates = (
  strategy: InvalidationStrategy,
  marker: MarkerShape,
  change: TextChange,
): boolean => {
  if (strategy === 'never') return false
  const s = change.oldStart
  const oe = change.oldEnd
  const ms = marker.start
  const me = marker.end
  if (!(s <= me && ms <= oe)) return false
  if (strategy === 'touch') return true
  const empty = ms === me
  const insertion = s === oe
  if (strategy === 'inside') {
    if (s < me && oe > ms) return true
    return !marker.exclusive && (!empty || insertion) && (s === ms || oe === me)
  }
  const startsWithin = marker.exclusive
    ? (s < ms || (!empty && s === ms)) && ms < oe
    : s < ms && ms < oe
  const endsWithin = marker.exclusive
    ? s < me && (me < oe || (!empty && me === oe))
    : s < me && me < oe
  return strategy === 'overlap' ? startsWithin || endsWithin : startsWithin && endsWithin
}
