import type { PointLike, RangeLike } from '@tandem/text'
import { describe, expect, it } from 'vitest'
import { Random, seeds } from '../../../testing/random.js'
import { type FindMarkersParams, findMarkers } from './find-markers.js'
import { TextBuffer } from './text-buffer.js'

const point = (random: Random, buffer: TextBuffer): PointLike => {
  // Mostly valid positions, sometimes past a line's end, past the last row or negative.
  const row = random.int(-1, buffer.getLineCount())
  const column = random.chance(0.8) ? random.int(0, 6) : random.int(-2, 40)
  return [row, column]
}

const range = (random: Random, buffer: TextBuffer): RangeLike => [
  point(random, buffer),
  point(random, buffer),
]

/** One or two positional conditions, sometimes with a non-positional one. */
const query = (random: Random, buffer: TextBuffer): FindMarkersParams => {
  const params: FindMarkersParams = {}
  const rows = buffer.getLineCount()
  const count = random.int(1, 2)
  for (let i = 0; i < count; i++) {
    switch (random.int(0, 11)) {
      case 0:
        params.startPosition = point(random, buffer)
        break
      case 1:
        params.endPosition = point(random, buffer)
        break
      case 2:
        params.containsPoint = point(random, buffer)
        break
      case 3:
        params.startsInRange = range(random, buffer)
        break
      case 4:
        params.endsInRange = range(random, buffer)
        break
      case 5:
        params.containsRange = range(random, buffer)
        break
      case 6:
        params.intersectsRange = range(random, buffer)
        break
      case 7:
        params.containedInRange = range(random, buffer)
        break
      case 8:
        params.startRow = random.int(-1, rows)
        break
      case 9:
        params.endRow = random.int(-1, rows)
        break
      case 10:
        params.intersectsRow = random.int(-1, rows)
        break
      default:
        params.intersectsRowRange = [random.int(-1, rows), random.int(-1, rows)]
    }
  }
  if (random.chance(0.2)) params.valid = random.chance(0.5)
  return params
}

describe('findMarkers through the marker index', () => {
  for (const seed of seeds(6)) {
    it(`finds what a scan of every marker finds (seed ${seed})`, () => {
      const random = new Random(seed)
      const lines = Array.from({ length: 30 }, () => random.string(random.int(0, 6), ['a', 'b']))
      const buffer = new TextBuffer(lines.join(random.chance(0.5) ? '\n' : '\r\n'))
      const layer = buffer.addMarkerLayer()
      for (let i = 0; i < 300; i++) {
        layer.markRange(range(random, buffer), {
          invalidate: random.pick(['never', 'overlap', 'touch'] as const),
        })
      }
      for (let step = 0; step < 300; step++) {
        if (random.chance(0.3)) {
          buffer.setTextInRange(range(random, buffer), random.string(random.int(0, 3), ['x', '\n']))
        }
        const params = query(random, buffer)
        const context = `seed ${seed}, step ${step}, ${JSON.stringify(params)}`
        expect(layer.findMarkers(params), context).toEqual(findMarkers(layer.getMarkers(), params))
      }
    })
  }
})
