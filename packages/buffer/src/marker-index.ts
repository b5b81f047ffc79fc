import type { Marker } from './marker.js'

/** Markers per bucket before it is split in two, by default. */
const DEFAULT_BUCKET_SIZE = 128

/**
 * A run of markers sorted by start. Their offsets are stored less `shift`, so moving every
 * marker of the bucket is one addition.
 */
export class MarkerBucket {
  readonly markers: Marker[] = []
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

  /** `bucketSize`: markers a bucket holds before it is split (small sizes are for tests). */
  constructor(private readonly bucketSize = DEFAULT_BUCKET_SIZE) {}

  /** Adds `marker` (not in the index) with offsets `start` <= `end`. */
  insert(marker: Marker, start: number, end: number): void {
    let at = this.bucketIndexFor(start)
    if (at < 0) {
      if (this.buckets.length === 0) this.buckets.push(new MarkerBucket())
      at = 0
    }
    const bucket = this.buckets[at]!
    const rawStart = start - bucket.shift
    const rawEnd = end - bucket.shift
    const markers = bucket.markers
    let low = 0
    let high = markers.length
    while (low < high) {
      const mid = (low + high) >> 1
      if (markers[mid]!.rawStart <= rawStart) low = mid + 1
      else high = mid
    }
    markers.splice(low, 0, marker)
    marker.rawStart = rawStart
    marker.rawEnd = rawEnd
    marker.bucket = bucket
    if (rawEnd > bucket.maxEnd) bucket.maxEnd = rawEnd
    if (markers.length > this.bucketSize) this.split(at)
  }

  /** Takes `marker` out of the index; its offsets stay readable as they were. */
  remove(marker: Marker): void {
    const bucket = marker.bucket
    if (bucket === null) return
    marker.rawStart += bucket.shift
    marker.rawEnd += bucket.shift
    marker.bucket = null
    const markers = bucket.markers
    markers.splice(markers.indexOf(marker), 1)
    if (markers.length === 0) this.buckets.splice(this.buckets.indexOf(bucket), 1)
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
      const markers = bucket.markers
      const limit = offset - bucket.shift
      let maxEnd = Number.NEGATIVE_INFINITY
      for (const marker of markers) {
        if (marker.rawStart > limit) {
          marker.rawStart += delta
          marker.rawEnd += delta
        }
        if (marker.rawEnd > maxEnd) maxEnd = marker.rawEnd
      }
      bucket.maxEnd = maxEnd
    }
    const buckets = this.buckets
    for (let i = at + 1; i < buckets.length; i++) buckets[i]!.shift += delta
  }

  /** Pushes onto `out` every marker with start <= `to` and end >= `from` (closed intervals). */
  overlapping(from: number, to: number, out: Marker[]): void {
    for (const bucket of this.buckets) {
      const shift = bucket.shift
      const markers = bucket.markers
      if (markers[0]!.rawStart + shift > to) break
      if (bucket.maxEnd + shift < from) continue
      for (const marker of markers) {
        if (marker.rawStart + shift > to) break
        if (marker.rawEnd + shift >= from) out.push(marker)
      }
    }
  }

  /** Checks ordering and bookkeeping (tests only). */
  checkInvariants(): void {
    let previous = Number.NEGATIVE_INFINITY
    for (const bucket of this.buckets) {
      if (bucket.markers.length === 0) throw new Error('empty bucket')
      for (const marker of bucket.markers) {
        if (marker.bucket !== bucket) throw new Error(`marker ${marker.id} has a stale bucket`)
        if (marker.start < previous) throw new Error(`marker ${marker.id} is out of order`)
        if (marker.rawEnd > bucket.maxEnd) throw new Error(`bucket end too low at ${marker.id}`)
        previous = marker.start
      }
    }
  }

  /** Index of the last bucket whose first marker starts at or before `offset`, or -1. */
  private bucketIndexFor(offset: number): number {
    const buckets = this.buckets
    let low = 0
    let high = buckets.length - 1
    let found = -1
    while (low <= high) {
      const mid = (low + high) >> 1
      const bucket = buckets[mid]!
      if (bucket.markers[0]!.rawStart + bucket.shift <= offset) {
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
    const moved = bucket.markers.splice(bucket.markers.length >> 1)
    let maxEnd = Number.NEGATIVE_INFINITY
    for (const marker of moved) {
      right.markers.push(marker)
      marker.bucket = right
      if (marker.rawEnd > maxEnd) maxEnd = marker.rawEnd
    }
    right.maxEnd = maxEnd
    this.buckets.splice(at + 1, 0, right)
  }
}
