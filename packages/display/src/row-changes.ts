/** One run of screen rows replaced: old rows [`oldStart`, `oldEnd`) became [`newStart`, `newEnd`). */
export interface RowChange {
  oldStart: number
  oldEnd: number
  newStart: number
  newEnd: number
}

/** Beyond this many separate runs, pending changes collapse into one that spans them all. */
const MAX_RUNS = 32

/**
 * Screen rows replaced since the last report, composed: each `splice` is given in the rows
 * as they are after the splices before it, and the result maps the rows of the last report
 * to the rows now. Runs that touch merge; past `MAX_RUNS` runs everything merges into one,
 * which stays correct (it only covers rows that did not change too).
 *
 * @example
 * const changes = new RowChanges()
 * changes.splice(10, 1, 3) // row 10 became rows 10-12
 * changes.splice(2, 1, 0) // then row 2 went away
 * changes.take() // => [{oldStart: 2, oldEnd: 3, newStart: 2, newEnd: 2}, {oldStart: 10, oldEnd: 11, newStart: 9, newEnd: 12}]
 */
export class RowChanges {
  private runs: RowChange[] = []

  /** Whether nothing changed since the last `take`. */
  isEmpty(): boolean {
    return this.runs.length === 0
  }

  /** Rows [`start`, `start + oldCount`) of the current layout were replaced by `newCount` rows. */
  splice(start: number, oldCount: number, newCount: number): void {
    const runs = this.runs
    const end = start + oldCount
    const shift = newCount - oldCount
    // Runs wholly before the splice keep their place; `delta` is how far they moved rows.
    let first = 0
    let delta = 0
    while (first < runs.length && runs[first]!.newEnd < start) {
      const run = runs[first]!
      delta += run.newEnd - run.newStart - (run.oldEnd - run.oldStart)
      first++
    }
    let last = first
    let newStart = start
    let newEnd = end
    let mergedDelta = delta
    while (last < runs.length && runs[last]!.newStart <= end) {
      const run = runs[last]!
      newStart = Math.min(newStart, run.newStart)
      newEnd = Math.max(newEnd, run.newEnd)
      mergedDelta += run.newEnd - run.newStart - (run.oldEnd - run.oldStart)
      last++
    }
    const merged: RowChange = {
      oldStart: newStart - delta,
      oldEnd: newEnd - mergedDelta,
      newStart,
      newEnd: newEnd + shift,
    }
    for (let i = last; i < runs.length; i++) {
      runs[i]!.newStart += shift
      runs[i]!.newEnd += shift
    }
    runs.splice(first, last - first, merged)
    if (runs.length > MAX_RUNS) this.collapse()
  }

  /** The composed changes, sorted, and a fresh start. */
  take(): RowChange[] {
    const runs = this.runs
    this.runs = []
    return runs
  }

  private collapse(): void {
    const first = this.runs[0]!
    const last = this.runs[this.runs.length - 1]!
    this.runs = [
      {
        oldStart: first.oldStart,
        oldEnd: last.oldEnd,
        newStart: first.newStart,
        newEnd: last.newEnd,
      },
    ]
  }
}
