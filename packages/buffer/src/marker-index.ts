import type { Marker, ShiftedBucket } from './marker.js'

/** Markers per bucket before it is split in two, by default. */
const DEFAULT_BUCKET_SIZE = 128

/**
 * A run of markers sorted by start. Their offsets are stored less `shift`, so moving every
 * marker of the bucket is one addition. The stored offsets are kept twice: on each marker
 * (`Marker.rawStart`, for reading one marker's offsets) and side by side in `starts` and
 * `ends` (for searches, which then read two flat arrays instead of visiting every marker).
 */
export class MarkerBucket implements ShiftedBucket {
  readonly markers: Marker[] = []
  /** `markers[i].rawStart`, for each i. */
  readonly starts: number[] = []
  /** `markers[i].rawEnd`, for each i. */
  readonly ends: number[] = []
  shift = 0
  /** Largest stored end in the bucket (add `shift`); may be too high after removals, never too low. */
  maxEnd = Number.NEGATIVE_INFINITY
}

/**
 * A marker layer's markers ordered by start offset, in buckets that each carry an offset
 * shift. An edit moves the markers after it by shifting whole buckets, and finds the markers
 * it touches without visiting the others: O(markers / bucket size + bucket size) per edit
 * instead of O(markers), and nothing depends on the length of the text.
 *
 * A marker's offsets are read through its bucket (`Marker.start` / `Marker.end`).
 */
export class MarkerIndex {
  private buckets: MarkerBucket[] = []
  /**
   * Start offset of each bucket's first marker, side by side in one array: searches over the
   * buckets read this instead of visiting every bucket's objects.
   */
  private starts: number[] = []
  /** No marker is longer than this (it may be too high after removals, never too low). */
  private spanBound = 0
  /** Markers removed since `spanBound` was last made exact. */
  private removalsSinceSpanBound = 0
  private size = 0

  /** `bucketSize`: markers a bucket holds before it is split (small sizes are for tests). */
  constructor(private readonly bucketSize = DEFAULT_BUCKET_SIZE) {}

  /** Adds `marker` (not in the index) with offsets `start` <= `end`. */
  insert(marker: Marker, start: number, end: number): void {
    let at = this.bucketIndexFor(start)
    if (at < 0) {
      if (this.buckets.length === 0) {
        this.buckets.push(new MarkerBucket())
        this.starts.push(start)
      }
      at = 0
    }
    const bucket = this.buckets[at]!
    const rawStart = start - bucket.shift
    const rawEnd = end - bucket.shift
    const markers = bucket.markers
    const starts = bucket.starts
    let low = 0
    let high = starts.length
    while (low < high) {
      const mid = (low + high) >> 1
      if (starts[mid]! <= rawStart) low = mid + 1
      else high = mid
    }
    if (low === markers.length) {
      markers.push(marker)
      starts.push(rawStart)
      bucket.ends.push(rawEnd)
    } else {
      markers.splice(low, 0, marker)
      starts.splice(low, 0, rawStart)
      bucket.ends.splice(low, 0, rawEnd)
    }
    if (low === 0) this.starts[at] = start
    marker.rawStart = rawStart
    marker.rawEnd = rawEnd
    marker.bucket = bucket
    if (rawEnd > bucket.maxEnd) bucket.maxEnd = rawEnd
    if (end - start > this.spanBound) this.spanBound = end - start
    this.size++
    if (markers.length > this.bucketSize) this.split(at)
  }

  /** Takes `marker` out of the index; its offsets stay readable as they were. */
  remove(marker: Marker): void {
    // Only this index puts markers in buckets: a marker's bucket is one of its own.
    const bucket = marker.bucket as MarkerBucket | null
    if (bucket === null) return
    const at = indexInBucket(bucket, marker)
    marker.rawStart += bucket.shift
    marker.rawEnd += bucket.shift
    marker.bucket = null
    const markers = bucket.markers
    markers.splice(at, 1)
    bucket.starts.splice(at, 1)
    bucket.ends.splice(at, 1)
    if (markers.length === 0 || at === 0) {
      const index = this.buckets.indexOf(bucket)
      if (markers.length === 0) {
        this.buckets.splice(index, 1)
        this.starts.splice(index, 1)
      } else {
        this.starts[index] = bucket.starts[0]! + bucket.shift
      }
    }
    this.size--
    this.removalsSinceSpanBound++
  }

  /** Moves `marker` to new offsets. */
  move(marker: Marker, start: number, end: number): void {
    this.remove(marker)
    this.insert(marker, start, end)
  }

  /**
   * Adds `delta` to both offsets of every marker that starts after `offset`. The caller makes
   * sure this keeps the order: no marker left at or before `offset` may end up after one moved.
   */
  shiftAfter(offset: number, delta: number): void {
    const at = this.bucketIndexFor(offset)
    if (at >= 0) {
      const bucket = this.buckets[at]!
      const { markers, starts, ends } = bucket
      const limit = offset - bucket.shift
      let maxEnd = Number.NEGATIVE_INFINITY
      for (let i = firstStartingAfter(starts, limit); i < markers.length; i++) {
        const marker = markers[i]!
        marker.rawStart = starts[i]! += delta
        marker.rawEnd = ends[i]! += delta
      }
      for (let i = 0; i < ends.length; i++) if (ends[i]! > maxEnd) maxEnd = ends[i]!
      bucket.maxEnd = maxEnd
    }
    const buckets = this.buckets
    const starts = this.starts
    for (let i = at + 1; i < buckets.length; i++) {
      buckets[i]!.shift += delta
      starts[i]! += delta
    }
  }

  /** Pushes onto `out` every marker with start <= `to` and end >= `from` (closed intervals). */
  overlapping(from: number, to: number, out: Marker[]): void {
    // Buckets before the last one starting below `from - spanBound` hold only markers that
    // end before `from`: skip them.
    const buckets = this.buckets
    const lowestStart = from - this.currentSpanBound()
    const first = Math.max(0, this.bucketIndexFor(lowestStart - 1))
    for (let i = first; i < buckets.length; i++) {
      const bucket = buckets[i]!
      const shift = bucket.shift
      if (this.starts[i]! > to) break
      if (bucket.maxEnd + shift < from) continue
      const { markers, starts, ends } = bucket
      const rawTo = to - shift
      const rawFrom = from - shift
      // In the first bucket, skip the markers that start too early to reach `from`.
      let j = i === first ? firstStartingAtOrAfter(starts, lowestStart - shift) : 0
      for (; j < starts.length; j++) {
        if (starts[j]! > rawTo) break
        if (ends[j]! >= rawFrom) out.push(markers[j]!)
      }
    }
  }

  /** Checks ordering and bookkeeping (tests only). */
  checkInvariants(): void {
    let previous = Number.NEGATIVE_INFINITY
    for (const bucket of this.buckets) {
      if (bucket.markers.length === 0) throw new Error('empty bucket')
      if (this.starts[this.buckets.indexOf(bucket)] !== bucket.markers[0]!.start) {
        throw new Error('stale bucket start')
      }
      bucket.markers.forEach((marker, i) => {
        if (marker.rawStart !== bucket.starts[i] || marker.rawEnd !== bucket.ends[i]) {
          throw new Error(`marker ${marker.id} has stale offsets in its bucket`)
        }
      })
      if (bucket.starts.length !== bucket.markers.length) throw new Error('bucket arrays differ')
      for (const marker of bucket.markers) {
        if (marker.bucket !== bucket) throw new Error(`marker ${marker.id} has a stale bucket`)
        if (marker.start < previous) throw new Error(`marker ${marker.id} is out of order`)
        if (marker.rawEnd > bucket.maxEnd) throw new Error(`bucket end too low at ${marker.id}`)
        previous = marker.start
      }
    }
  }

  /**
   * `spanBound`, made exact again once as many markers were removed as the index holds, so a
   * long marker that is gone stops widening searches (amortized O(1) per removal).
   */
  private currentSpanBound(): number {
    if (this.removalsSinceSpanBound > this.size) {
      let bound = 0
      for (const { starts, ends } of this.buckets) {
        for (let i = 0; i < starts.length; i++) {
          if (ends[i]! - starts[i]! > bound) bound = ends[i]! - starts[i]!
        }
      }
      this.spanBound = bound
      this.removalsSinceSpanBound = 0
    }
    return this.spanBound
  }

  /** Index of the last bucket whose first marker starts at or before `offset`, or -1. */
  private bucketIndexFor(offset: number): number {
    const starts = this.starts
    let low = 0
    let high = starts.length - 1
    let found = -1
    while (low <= high) {
      const mid = (low + high) >> 1
      if (starts[mid]! <= offset) {
        found = mid
        low = mid + 1
      } else {
        high = mid - 1
      }
    }
    return found
  }

  private split(at: number): void {
    const bucket = this.buckets[at]!
    const right = new MarkerBucket()
    right.shift = bucket.shift
    const half = bucket.markers.length >> 1
    const moved = bucket.markers.splice(half)
    const movedStarts = bucket.starts.splice(half)
    const movedEnds = bucket.ends.splice(half)
    let maxEnd = Number.NEGATIVE_INFINITY
    for (let i = 0; i < moved.length; i++) {
      const marker = moved[i]!
      right.markers.push(marker)
      right.starts.push(movedStarts[i]!)
      right.ends.push(movedEnds[i]!)
      marker.bucket = right
      if (movedEnds[i]! > maxEnd) maxEnd = movedEnds[i]!
    }
    right.maxEnd = maxEnd
    this.buckets.splice(at + 1, 0, right)
    this.starts.splice(at + 1, 0, movedStarts[0]! + right.shift)
  }
}

/** Index of the first of a bucket's sorted stored `starts` that is >= `rawStart`. */
const firstStartingAtOrAfter = (starts: readonly number[], rawStart: number): number => {
  let low = 0
  let high = starts.length
  while (low < high) {
    const mid = (low + high) >> 1
    if (starts[mid]! < rawStart) low = mid + 1
    else high = mid
  }
  return low
}

/** Index of the first of a bucket's sorted stored `starts` that is > `rawStart`. */
const firstStartingAfter = (starts: readonly number[], rawStart: number): number =>
  firstStartingAtOrAfter(starts, rawStart + 1)

/** Where `marker` is in `bucket`: found by its start, then among equal starts. */
const indexInBucket = (bucket: MarkerBucket, marker: Marker): number => {
  const { markers, starts } = bucket
  for (let i = firstStartingAtOrAfter(starts, marker.rawStart); i < markers.length; i++) {
    if (markers[i] === marker) return i
  }
  throw new Error(`marker ${marker.id} is not in its bucket`)
}
