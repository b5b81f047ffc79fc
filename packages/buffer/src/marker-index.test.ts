import { describe, expect, it } from 'vitest'
import { Random, seeds } from '../../../testing/random.js'
import type { Marker } from './marker.js'
import { MarkerIndex } from './marker-index.js'

/** Just what the index reads and writes of a marker. */
class Entry {
  rawStart = 0
  rawEnd = 0
  bucket: { shift: number } | null = null
  constructor(readonly id: number) {}
  get start(): number {
    return this.rawStart + (this.bucket?.shift ?? 0)
  }
  get end(): number {
    return this.rawEnd + (this.bucket?.shift ?? 0)
  }
}

const asMarker = (entry: Entry) => entry as unknown as Marker

describe('MarkerIndex', () => {
  for (const seed of seeds(8)) {
    it(`matches a plain list through inserts, removals and shifts (seed ${seed})`, () => {
      const random = new Random(seed)
      const index = new MarkerIndex(4)
      const model = new Map<Entry, { start: number; end: number }>()
      let nextId = 1
      for (let step = 0; step < 2000; step++) {
        const context = `seed ${seed}, step ${step}`
        const roll = random.next()
        const entries = [...model.keys()]
        if (roll < 0.4 || entries.length === 0) {
          const start = random.int(0, 200)
          // Now and then a long one, which widens searches until it is gone.
          const end = start + (random.next() < 0.05 ? random.int(20, 150) : random.int(0, 20))
          const entry = new Entry(nextId++)
          index.insert(asMarker(entry), start, end)
          model.set(entry, { start, end })
        } else if (roll < 0.6) {
          const entry = random.pick(entries)
          index.remove(asMarker(entry))
          model.delete(entry)
        } else if (roll < 0.8) {
          // An edit at [from, to]: markers touching it leave, the rest after it shift.
          const from = random.int(0, 200)
          const to = from + random.int(0, 10)
          const delta = random.int(from - to, 10)
          const touched: Marker[] = []
          index.overlapping(from, to, touched)
          const expected = entries.filter((e) => {
            const m = model.get(e)!
            return m.start <= to && m.end >= from
          })
          expect(new Set(touched), context).toEqual(new Set(expected.map(asMarker)))
          for (const entry of expected) {
            index.remove(asMarker(entry))
            model.delete(entry)
          }
          index.shiftAfter(to, delta)
          for (const m of model.values()) {
            if (m.start > to) {
              m.start += delta
              m.end += delta
            }
          }
        } else {
          const entry = random.pick(entries)
          const start = random.int(0, 200)
          const end = start + random.int(0, 20)
          index.move(asMarker(entry), start, end)
          model.set(entry, { start, end })
        }
        index.checkInvariants()
        for (const [entry, m] of model)
          expect([entry.start, entry.end], context).toEqual([m.start, m.end])
      }
    })
  }

  it('finds a long marker ending where a search starts, in a bucket it skips past', () => {
    // Bucket size 2: the long marker and one cursor share the first bucket, the other cursors
    // (same start) fill the second. Searching at the long marker's end must still find it.
    const index = new MarkerIndex(2)
    const long = new Entry(1)
    index.insert(asMarker(long), 0, 10)
    for (let id = 2; id <= 4; id++) index.insert(asMarker(new Entry(id)), 0, 0)
    const found: Marker[] = []
    index.overlapping(10, 10, found)
    expect(found).toEqual([asMarker(long)])
  })

  it('finds markers after its length bound was made exact again', () => {
    const index = new MarkerIndex(2)
    const long = new Entry(1)
    index.insert(asMarker(long), 0, 1000)
    const short = Array.from({ length: 8 }, (_, i) => new Entry(i + 2))
    for (const [i, entry] of short.entries()) index.insert(asMarker(entry), i * 100, i * 100 + 1)
    index.remove(asMarker(long))
    for (const entry of short) index.move(asMarker(entry), entry.start, entry.end)
    const found: Marker[] = []
    index.overlapping(701, 701, found)
    expect(found).toEqual([asMarker(short[7]!)])
  })
})
