import { describe, expect, it } from 'vitest'
import { Random, seeds } from '../../../testing/random.js'
import type { Marker } from './marker.js'
import { MarkerRegistry } from './marker-registry.js'
import { TextBuffer } from './text-buffer.js'

/** Just what the registry reads of a marker. */
interface Entry {
  id: number
  destroyed: boolean
}

const asMarker = (entry: Entry) => entry as unknown as Marker

describe('MarkerRegistry', () => {
  for (const seed of seeds(8)) {
    it(`matches a map through adds, removals and revivals (seed ${seed})`, () => {
      const random = new Random(seed)
      const registry = new MarkerRegistry()
      const model = new Map<number, Entry>()
      const gone: Entry[] = []
      let nextId = 1
      for (let step = 0; step < 3000; step++) {
        const context = `seed ${seed}, step ${step}`
        const roll = random.next()
        if (roll < 0.45 || model.size === 0) {
          const entry = { id: nextId++, destroyed: false }
          registry.add(asMarker(entry))
          model.set(entry.id, entry)
        } else if (roll < 0.85) {
          const entry = random.pick([...model.values()])
          entry.destroyed = true
          registry.remove(asMarker(entry))
          model.delete(entry.id)
          gone.push(entry)
        } else if (gone.length > 0) {
          // Undo brings a destroyed marker back, under its old id.
          const entry = gone.splice(random.int(0, gone.length - 1), 1)[0]!
          entry.destroyed = false
          registry.add(asMarker(entry))
          model.set(entry.id, entry)
        }
        expect(registry.size, context).toBe(model.size)
        const probe = random.int(0, nextId)
        expect(registry.get(probe), `${context}, id ${probe}`).toBe(model.get(probe))
        if (step % 50 === 0) {
          const expected = [...model.values()].sort((a, b) => a.id - b.id)
          expect(registry.values(), context).toEqual(expected)
        }
      }
    })
  }

  it('refuses to forget a marker that is not destroyed', () => {
    const registry = new MarkerRegistry()
    const entry = { id: 1, destroyed: false }
    registry.add(asMarker(entry))
    expect(() => registry.remove(asMarker(entry))).toThrow(/destroyed/)
  })

  it('lists markers brought back by undo under their old ids, in id order', () => {
    const buffer = new TextBuffer({ text: 'one two three' })
    const layer = buffer.addMarkerLayer({ maintainHistory: true })
    const first = layer.markRange([
      [0, 0],
      [0, 3],
    ])
    const second = layer.markRange([
      [0, 4],
      [0, 7],
    ])
    buffer.transact(() => {
      second.destroy()
      buffer.insert([0, 13], '!')
    })
    const third = layer.markRange([
      [0, 8],
      [0, 13],
    ])
    expect(layer.getMarkers()).toEqual([first, third])
    buffer.undo()
    expect(layer.getMarker(second.id)).toBe(second)
    expect(layer.getMarkers().map((marker) => marker.id)).toEqual([first.id, second.id])
    expect(layer.getMarkerCount()).toBe(2)
  })
})
