/**
 * Runs of authors kept right through changes made before the next answer: replaced text
 * leaves its run, inserted text is in none, what follows moves; checked against the text
 * itself after random edits.
 */
import { describe, expect, it } from 'vitest'
import { mapRuns, mapSpan, type OffsetChange, type OffsetRun } from './attribution-runs.js'

const run = (from: number, to: number, user = 'ada'): OffsetRun => ({ from, to, user, time: 0 })

describe('mapRuns', () => {
  it('splits a run where text is inserted inside it, and moves what follows', () => {
    const runs = [run(0, 4), run(4, 8, 'bob')]
    expect(mapRuns(runs, [{ from: 2, to: 2, length: 3 }])).toEqual([
      run(0, 2),
      run(5, 7),
      run(7, 11, 'bob'),
    ])
  })

  it('leaves text inserted at a run’s edge out of it', () => {
    expect(mapRuns([run(2, 5)], [{ from: 2, to: 2, length: 1 }])).toEqual([run(3, 6)])
    expect(mapRuns([run(2, 5)], [{ from: 5, to: 5, length: 1 }])).toEqual([run(2, 5)])
  })

  it('drops what a change replaced and keeps the rest of the run', () => {
    const changes: OffsetChange[] = [
      { from: 1, to: 3, length: 0 },
      { from: 6, to: 9, length: 2 },
    ]
    expect(mapRuns([run(0, 10), run(10, 12, 'bob')], changes)).toEqual([
      run(0, 1),
      run(1, 4),
      run(6, 7),
      run(7, 9, 'bob'),
    ])
  })

  it('agrees with the text after random edits: every run still covers the same characters', () => {
    let seed = 7
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % n
    }
    for (let round = 0; round < 200; round++) {
      // Each original character is a distinct letter of its author; new ones are '*'.
      const text = Array.from({ length: 30 }, (_, i) => String.fromCharCode(65 + i))
      let runs = [run(0, 10), run(10, 20, 'bob'), run(20, 30, 'cy')]
      const owner = (ch: string) => {
        const i = ch.charCodeAt(0) - 65
        return i < 10 ? 'ada' : i < 20 ? 'bob' : 'cy'
      }
      let current = [...text]
      const changes: OffsetChange[] = []
      let at = 0
      while (at < current.length && changes.length < 4) {
        const from = at + random(5)
        if (from > current.length) break
        const to = Math.min(current.length, from + random(3))
        const length = random(3)
        changes.push({ from, to, length })
        at = to + 1
      }
      for (const change of [...changes].reverse()) {
        current.splice(change.from, change.to - change.from, ...'*'.repeat(change.length))
      }
      runs = mapRuns(runs, changes)
      const covered = new Array(current.length).fill(null)
      for (const r of runs) for (let i = r.from; i < r.to; i++) covered[i] = r.user
      current = current.map((ch, i) => `${ch}:${covered[i]}`)
      for (const cell of current) {
        const [ch, user] = cell.split(':') as [string, string]
        expect(user).toBe(ch === '*' ? 'null' : owner(ch))
      }
    }
  })
})

describe('mapSpan', () => {
  it('moves a span with the text and grows it with insertions inside', () => {
    expect(mapSpan({ from: 2, to: 8 }, [{ from: 4, to: 4, length: 3 }])).toEqual({
      from: 2,
      to: 11,
    })
    expect(mapSpan({ from: 2, to: 8 }, [{ from: 0, to: 1, length: 0 }])).toEqual({ from: 1, to: 7 })
    expect(mapSpan({ from: 2, to: 8 }, [{ from: 1, to: 9, length: 0 }])).toEqual({ from: 1, to: 1 })
  })
})
