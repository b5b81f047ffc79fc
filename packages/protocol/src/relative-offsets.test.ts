import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { Random, seeds } from '../../../testing/random.js'
import { offsetsInText, relativePositionsAt } from './relative-offsets.js'

/** What Yjs itself says, one position at a time. */
const yjsOffsets = (text: Y.Text, positions: readonly (Y.RelativePosition | null)[]) =>
  positions.map((position) => {
    if (position === null) return null
    const absolute = Y.createAbsolutePositionFromRelativePosition(position, text.doc!)
    return absolute !== null && absolute.type === text ? absolute.index : null
  })

describe('offsetsInText', () => {
  it.each(seeds(20))(
    'gives what Yjs gives for each position, after edits by several peers, seed %i',
    (seed) => {
      const random = new Random(seed)
      const docs = [new Y.Doc(), new Y.Doc(), new Y.Doc()]
      const texts = docs.map((doc) => doc.getText('text'))
      const other = docs[0]!.getText('other')
      other.insert(0, 'elsewhere')
      const undo = new Y.UndoManager(texts[0]!, { captureTimeout: 0 })
      const positions: (Y.RelativePosition | null)[] = [null]
      const sync = () => {
        for (const from of docs)
          for (const to of docs) {
            if (from !== to) Y.applyUpdate(to, Y.encodeStateAsUpdate(from, Y.encodeStateVector(to)))
          }
      }
      for (let step = 0; step < 60; step++) {
        const text = random.pick(texts)
        const length = text.length
        if (length > 0 && random.chance(0.3)) {
          const at = random.int(0, length - 1)
          text.delete(at, Math.min(random.int(1, 5), length - at))
        } else {
          text.insert(random.int(0, length), random.string(random.int(1, 6), ['a', 'b', 'é', '😀']))
        }
        if (random.chance(0.1)) undo.undo()
        if (random.chance(0.1)) undo.redo()
        if (random.chance(0.3)) sync()
        // Positions taken now, on any peer, at either side, some at the ends.
        const at = random.pick(texts)
        const index = random.int(0, at.length)
        positions.push(Y.createRelativePositionFromTypeIndex(at, index, random.pick([0, -1])))
      }
      positions.push(Y.createRelativePositionFromTypeIndex(other, 3))
      sync()
      for (const text of texts) {
        expect(offsetsInText(text, positions), `seed ${seed}`).toEqual(yjsOffsets(text, positions))
      }
    },
  )

  it.each(seeds(10))('makes the positions Yjs makes for many offsets at once, seed %i', (seed) => {
    const random = new Random(seed)
    const doc = new Y.Doc()
    const text = doc.getText('text')
    for (let step = 0; step < 80; step++) {
      if (text.length > 0 && random.chance(0.3)) {
        const at = random.int(0, text.length - 1)
        text.delete(at, Math.min(random.int(1, 4), text.length - at))
      } else {
        text.insert(random.int(0, text.length), random.string(random.int(1, 5), ['x', 'y', '中']))
      }
    }
    const offsets = Array.from({ length: 30 }, () => random.int(0, text.length))
    const made = relativePositionsAt(text, offsets).map((position) =>
      Y.relativePositionToJSON(position),
    )
    const expected = offsets.map((offset) =>
      Y.relativePositionToJSON(Y.createRelativePositionFromTypeIndex(text, offset)),
    )
    expect(made).toEqual(expected)
    expect(() => relativePositionsAt(text, [text.length + 1])).toThrow(RangeError)
  })
})
