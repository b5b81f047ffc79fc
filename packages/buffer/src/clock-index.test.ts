import { describe, expect, it } from 'vitest'
import { Random, seeds } from '../../../testing/random.js'
import { ClockIndex } from './clock-index.js'
import { Span } from './span-tree.js'

const span = (client: number, clock: number, len: number) =>
  new Span(client, clock, len, true, null as unknown as Span['leaf'])

describe('ClockIndex', () => {
  for (const seed of seeds(6)) {
    it(`finds what a sorted list finds, through thousands of adds and removes (seed ${seed})`, () => {
      const random = new Random(seed)
      const index = new ClockIndex()
      const model = new Map<number, Span[]>()
      // Clocks 0..N of each client are cut into non-overlapping spans added in random order.
      for (const client of [1, 2]) {
        const spans: Span[] = []
        for (let clock = 0; clock < 3_000; ) {
          const len = random.int(1, 3)
          spans.push(span(client, clock, len))
          clock += len
        }
        for (let i = spans.length - 1; i > 0; i--) {
          const j = random.int(0, i)
          ;[spans[i], spans[j]] = [spans[j]!, spans[i]!]
        }
        model.set(client, [])
        for (const s of spans) {
          index.add(s)
          model.get(client)!.push(s)
          if (random.chance(0.1)) {
            const list = model.get(client)!
            const victim = list.splice(random.int(0, list.length - 1), 1)[0]!
            index.remove(victim)
          }
        }
      }
      for (const [client, list] of model) {
        const holder = new Map<number, Span>()
        for (const s of list) for (let c = s.clock; c < s.clock + s.len; c++) holder.set(c, s)
        for (let clock = 0; clock < 3_010; clock += random.int(1, 4)) {
          expect(index.find(client, clock)).toBe(holder.get(clock))
        }
        const from = random.int(0, 2_900)
        const len = random.int(1, 100)
        const expected = [
          ...new Set(
            [...holder.entries()].filter(([c]) => c >= from && c < from + len).map(([, s]) => s),
          ),
        ].sort((a, b) => a.clock - b.clock)
        expect(index.overlapping(client, from, len)).toEqual(expected)
      }
      expect(index.find(3, 0)).toBeUndefined()
    })
  }
})
