import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { Attribution } from './attribution.js'
import { idsOfUpdate } from './update-ids.js'
import { changesOf, type DiffRun, diffStates, type TextChange } from './version-diff.js'

/** A small seeded generator (mulberry32), so a failing case can be replayed from its seed. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const apply = (text: string, changes: readonly TextChange[]): string => {
  let result = ''
  let at = 0
  for (const { from, to, insert } of changes) {
    expect(from).toBeGreaterThanOrEqual(at)
    result += text.slice(at, from) + insert
    at = to
  }
  return result + text.slice(at)
}

const sides = (runs: readonly DiffRun[]) => ({
  before: runs
    .filter((r) => r.kind !== 'inserted')
    .map((r) => r.text)
    .join(''),
  after: runs
    .filter((r) => r.kind !== 'deleted')
    .map((r) => r.text)
    .join(''),
})

/**
 * Two users editing one server document (lower-case letters by ada, upper-case by bob, emoji
 * now and then), its state kept after every step, every update attributed.
 */
const history = (seed: number, steps: number) => {
  const next = random(seed)
  const server = new Y.Doc()
  const attribution = new Attribution()
  const users = [
    { doc: new Y.Doc(), name: 'ada', letters: ['a', 'b', '\u{1F600}'] },
    { doc: new Y.Doc(), name: 'bob', letters: ['X', 'Y', '\u6587'] },
  ]
  const states: { state: Uint8Array; text: string }[] = []
  for (let step = 0; step < steps; step++) {
    const user = users[Math.floor(next() * 2)]!
    const text = user.doc.getText('text')
    const before = Y.encodeStateVector(user.doc)
    if (text.length > 2 && next() < 0.35) {
      // Whole characters only: an emoji is two units.
      const chars = [...text.toString()]
      const at = Math.floor(next() * chars.length)
      const count = Math.min(chars.length - at, 1 + Math.floor(next() * 3))
      const from = chars.slice(0, at).join('').length
      text.delete(from, chars.slice(at, at + count).join('').length)
    } else {
      const chars = [...text.toString()]
      const at = chars.slice(0, Math.floor(next() * (chars.length + 1))).join('').length
      text.insert(at, user.letters[Math.floor(next() * 3)]!.repeat(1 + Math.floor(next() * 3)))
    }
    const update = Y.encodeStateAsUpdate(user.doc, before)
    Y.applyUpdate(server, update)
    attribution.record(idsOfUpdate(update), user.name, Date.UTC(2026, 10, 1) + step * 60_000)
    for (const other of users) Y.applyUpdate(other.doc, Y.encodeStateAsUpdate(server))
    states.push({ state: Y.encodeStateAsUpdate(server), text: server.getText('text').toString() })
  }
  return { states, attribution }
}

describe('diffStates', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`gives both texts and the changes between any two states (seed ${seed})`, () => {
      const { states, attribution } = history(seed, 120)
      const next = random(seed * 7)
      for (let k = 0; k < 25; k++) {
        const [i, j] = [Math.floor(next() * states.length), Math.floor(next() * states.length)]
        const a = states[Math.min(i, j)]!
        const b = states[Math.max(i, j)]!
        // Backwards too: what turns the later text into the earlier one.
        const back = diffStates(b.state, a.state, 'text', attribution)
        expect(sides(back)).toEqual({ before: b.text, after: a.text })
        expect(apply(b.text, changesOf(back))).toBe(a.text)
        const runs = diffStates(a.state, b.state, 'text', attribution)
        expect(sides(runs), `seed ${seed}, pair ${k}`).toEqual({ before: a.text, after: b.text })
        expect(apply(a.text, changesOf(runs))).toBe(b.text)
        for (const run of runs) {
          if (run.kind === 'inserted') {
            expect(run.text).toMatch(
              run.user === 'ada' ? /^(?:[ab]|\u{1F600})+$/u : /^[XY\u6587]+$/u,
            )
          }
          if (run.kind !== 'same') expect(run.user, JSON.stringify(run)).not.toBeNull()
        }
      }
    })
  }

  it('tells a word deleted and typed again from no change at all', () => {
    const doc = new Y.Doc()
    const text = doc.getText('text')
    text.insert(0, 'hello world')
    const earlier = Y.encodeStateAsUpdate(doc)
    text.delete(6, 5)
    text.insert(6, 'world')
    const runs = diffStates(earlier, Y.encodeStateAsUpdate(doc), 'text')
    expect(runs.map(({ kind, text: t }) => [kind, t])).toEqual([
      ['same', 'hello '],
      ['deleted', 'world'],
      ['inserted', 'world'],
    ])
    expect(changesOf(runs)).toEqual([{ from: 6, to: 11, insert: 'world' }])
  })

  it('diffs states of a document whose deleted text was collected', () => {
    const doc = new Y.Doc()
    const text = doc.getText('text')
    text.insert(0, 'one two three')
    const earlier = Y.encodeStateAsUpdate(doc)
    text.delete(4, 4)
    // The later state was encoded after garbage collection: 'two ' is gone from it.
    const later = Y.encodeStateAsUpdate(doc)
    expect(sides(diffStates(earlier, later, 'text'))).toEqual({
      before: 'one two three',
      after: 'one three',
    })
    expect(sides(diffStates(later, earlier, 'text'))).toEqual({
      before: 'one three',
      after: 'one two three',
    })
  })
})
