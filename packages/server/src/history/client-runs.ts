/**
 * One client's clocks, in runs that each name an author: the building block of an
 * attribution. Runs are kept sorted and apart in three parallel arrays, so that the usual
 * record (a client's next clocks) is a push and a lookup is a binary search.
 *
 * @module
 */

/** Runs of one client's clocks, each with the index of its author; first record wins. */
export class ClientRuns {
  /** First clock of each run. */
  private readonly starts: number[] = []
  /** One past the last clock of each run. */
  private readonly ends: number[] = []
  /** The author index of each run. */
  private readonly authors: number[] = []

  /** Number of runs. */
  get size(): number {
    return this.starts.length
  }

  /**
   * Gives `author` the clocks `clock` to `clock + length - 1` that no run holds yet (a clock
   * keeps the author first recorded for it). Touching runs of the same author join.
   *
   * @example runs.add(0, 5, 2)
   */
  add(clock: number, length: number, author: number): void {
    const end = clock + length
    const { starts, ends } = this
    if (starts.length === 0 || clock >= ends[ends.length - 1]!) {
      this.insertRun(starts.length, clock, end, author)
      return
    }
    let i = this.firstEndingAfter(clock)
    let at = clock
    while (at < end) {
      if (i < starts.length && starts[i]! <= at) {
        at = Math.max(at, ends[i]!)
        i++
        continue
      }
      const gapEnd = i < starts.length ? Math.min(end, starts[i]!) : end
      // The new run may have joined the one after it: go on from wherever the joined run ends.
      const joined = this.insertRun(i, at, gapEnd, author)
      at = ends[joined]!
      i = joined + 1
    }
  }

  /**
   * Calls `visit` for the clocks `clock` to `clock + length - 1` in order, a stretch at a time:
   * its first clock, its length and its author index (-1 where no run holds it).
   *
   * @example runs.forEachIn(0, 10, (clock, length, author) => …)
   */
  forEachIn(
    clock: number,
    length: number,
    visit: (clock: number, length: number, author: number) => void,
  ): void {
    const end = clock + length
    const { starts, ends, authors } = this
    let i = this.firstEndingAfter(clock)
    let at = clock
    while (at < end) {
      if (i >= starts.length || starts[i]! >= end) {
        visit(at, end - at, -1)
        return
      }
      if (starts[i]! > at) {
        visit(at, starts[i]! - at, -1)
        at = starts[i]!
      }
      const stop = Math.min(end, ends[i]!)
      visit(at, stop - at, authors[i]!)
      at = stop
      i++
    }
  }

  /** Calls `visit` with every run: first clock, length, author index. */
  forEach(visit: (clock: number, length: number, author: number) => void): void {
    for (let i = 0; i < this.starts.length; i++) {
      visit(this.starts[i]!, this.ends[i]! - this.starts[i]!, this.authors[i]!)
    }
  }

  /** Index of the first run that ends after `clock` (the run holding it, or the next). */
  private firstEndingAfter(clock: number): number {
    let low = 0
    let high = this.ends.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (this.ends[middle]! <= clock) low = middle + 1
      else high = middle
    }
    return low
  }

  /** Puts the run [start, end) before run `i`, joining neighbours of its author; returns its index. */
  private insertRun(i: number, start: number, end: number, author: number): number {
    const { starts, ends, authors } = this
    const joinsLeft = i > 0 && ends[i - 1] === start && authors[i - 1] === author
    const joinsRight = i < starts.length && starts[i] === end && authors[i] === author
    if (joinsLeft && joinsRight) {
      ends[i - 1] = ends[i]!
      starts.splice(i, 1)
      ends.splice(i, 1)
      authors.splice(i, 1)
      return i - 1
    }
    if (joinsLeft) {
      ends[i - 1] = end
      return i - 1
    }
    if (joinsRight) {
      starts[i] = start
      return i
    }
    if (i === starts.length) {
      starts.push(start)
      ends.push(end)
      authors.push(author)
    } else {
      starts.splice(i, 0, start)
      ends.splice(i, 0, end)
      authors.splice(i, 0, author)
    }
    return i
  }
}
