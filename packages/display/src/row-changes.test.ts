import { describe, expect, it } from 'vitest'
import { Random, seeds } from '../../../testing/random.js'
import { type RowChange, RowChanges } from './row-changes.js'

const NEW = -1

/** Checks `runs` against a model of the rows: each is its old row number, or NEW. */
const expectRunsDescribe = (runs: readonly RowChange[], oldCount: number, rows: number[]) => {
  let delta = 0
  let previousEnd = -1
  for (const run of runs) {
    expect(run.oldStart).toBeGreaterThan(previousEnd - delta - 1)
    expect(run.newStart - run.oldStart).toBe(delta)
    expect(run.oldEnd).toBeGreaterThanOrEqual(run.oldStart)
    expect(run.newEnd).toBeGreaterThanOrEqual(run.newStart)
    delta += run.newEnd - run.newStart - (run.oldEnd - run.oldStart)
    previousEnd = run.newEnd
  }
  expect(oldCount + delta).toBe(rows.length)
  // Every row outside the runs is an old row, in its place shifted by the runs before it.
  let runIndex = 0
  let shift = 0
  for (let row = 0; row < rows.length; row++) {
    while (runIndex < runs.length && runs[runIndex]!.newEnd <= row) {
      const run = runs[runIndex]!
      shift += run.newEnd - run.newStart - (run.oldEnd - run.oldStart)
      runIndex++
    }
    const run = runs[runIndex]
    if (run !== undefined && row >= run.newStart) continue
    expect(rows[row], `row ${row}`).toBe(row - shift)
  }
}

describe('RowChanges', () => {
  it('composes splices given in the rows as they are after the ones before', () => {
    const changes = new RowChanges()
    changes.splice(10, 1, 3)
    changes.splice(2, 1, 0)
    expect(changes.take()).toEqual([
      { oldStart: 2, oldEnd: 3, newStart: 2, newEnd: 2 },
      { oldStart: 10, oldEnd: 11, newStart: 9, newEnd: 12 },
    ])
    expect(changes.isEmpty()).toBe(true)
  })

  it('merges splices that touch', () => {
    const changes = new RowChanges()
    changes.splice(4, 2, 2)
    changes.splice(6, 1, 3)
    expect(changes.take()).toEqual([{ oldStart: 4, oldEnd: 7, newStart: 4, newEnd: 9 }])
  })

  for (const seed of seeds(8)) {
    it(`describes random splices exactly or more coarsely (seed ${seed})`, () => {
      const random = new Random(seed)
      const oldCount = random.int(0, 200)
      const rows = Array.from({ length: oldCount }, (_, row) => row)
      const changes = new RowChanges()
      const steps = random.int(1, 80)
      for (let step = 0; step < steps; step++) {
        const start = random.int(0, rows.length)
        const removed = random.int(0, Math.min(5, rows.length - start))
        const added = random.int(0, 5)
        rows.splice(start, removed, ...Array.from({ length: added }, () => NEW))
        changes.splice(start, removed, added)
      }
      expectRunsDescribe(changes.take(), oldCount, rows)
    })
  }
})
