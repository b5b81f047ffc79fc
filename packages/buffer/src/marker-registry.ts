import type { Marker } from './marker.js'

/** Destroyed markers tolerated in the list before it is compacted, at the least. */
const MIN_COMPACTION = 16

/**
 * A layer's live markers by id, in id order. Marker ids only grow, so a new marker goes at
 * the end of one array, and a lookup is a binary search: cheaper in time and memory than a
 * Map for the tens of thousands of markers of a multi-cursor editor.
 *
 * A destroyed marker stays in the array, skipped, until destroyed ones outnumber live ones;
 * then the array is compacted, so removal costs O(1) amortized. The registry reads
 * `Marker.destroyed`: a marker is destroyed before `remove` and revived before `add`.
 */
export class MarkerRegistry {
  private list: Marker[] = []
  private live = 0

  /** Number of live markers. */
  get size(): number {
    return this.live
  }

  /** Adds a live marker: a new one, or one revived (by undo) that may still be listed. */
  add(marker: Marker): void {
    const list = this.list
    const last = list.length - 1
    if (last < 0 || list[last]!.id < marker.id) {
      list.push(marker)
    } else {
      const at = this.indexOf(marker.id)
      if (list[at] === marker) {
        this.live++
        return
      }
      list.splice(at, 0, marker)
    }
    this.live++
  }

  /** Forgets a marker that was just destroyed. */
  remove(marker: Marker): void {
    if (!marker.destroyed) throw new Error('only a destroyed marker leaves the registry')
    this.live--
    const dead = this.list.length - this.live
    if (dead >= MIN_COMPACTION && dead > this.live) this.compact()
  }

  /** The live marker with `id`. */
  get(id: number): Marker | undefined {
    const marker = this.list[this.indexOf(id)]
    return marker !== undefined && marker.id === id && !marker.destroyed ? marker : undefined
  }

  /** The live markers in id (creation) order, in a new array. */
  values(): Marker[] {
    if (this.list.length !== this.live) this.compact()
    return this.list.slice()
  }

  /** Index of the first listed marker with an id >= `id`. */
  private indexOf(id: number): number {
    const list = this.list
    let low = 0
    let high = list.length
    while (low < high) {
      const mid = (low + high) >> 1
      if (list[mid]!.id < id) low = mid + 1
      else high = mid
    }
    return low
  }

  private compact(): void {
    this.list = this.list.filter((marker) => !marker.destroyed)
  }
}
