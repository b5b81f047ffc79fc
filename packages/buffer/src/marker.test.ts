import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { Random, seeds } from '../../../testing/random.js'
import type { MarkerChangeEvent } from './marker.js'
import type { InvalidationStrategy } from './marker-rules.js'
import { TestNetwork } from './testing/network.js'
import { TextBuffer } from './text-buffer.js'

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz'
const STRATEGIES: InvalidationStrategy[] = ['never', 'surround', 'overlap', 'inside', 'touch']

/** A buffer with one marker per strategy on [6, 9] of the alphabet. */
const setup = () => {
  const buffer = new TextBuffer(ALPHABET)
  const markers = Object.fromEntries(
    STRATEGIES.map((strategy) => [
      strategy,
      buffer.markRange(
        [
          [0, 6],
          [0, 9],
        ],
        { invalidate: strategy },
      ),
    ]),
  )
  const columns = (strategy: InvalidationStrategy) => {
    const range = markers[strategy]!.getRange()
    return [range.start.column, range.end.column]
  }
  const invalid = () => STRATEGIES.filter((s) => !markers[s]!.isValid())
  return { buffer, markers, columns, invalid }
}

describe('Marker: Atom semantics for local edits', () => {
  it('grows from insertions at its ends unless exclusive', () => {
    const a = setup()
    a.buffer.insert([0, 6], 'ABC')
    expect(a.columns('overlap')).toEqual([6, 12])
    expect(a.columns('inside')).toEqual([9, 12])
    expect(a.invalid()).toEqual(['touch'])
    const b = setup()
    b.buffer.insert([0, 9], 'ABC')
    expect(b.columns('overlap')).toEqual([6, 12])
    expect(b.columns('inside')).toEqual([6, 9])
    expect(b.invalid()).toEqual(['touch'])
  })

  it('moves a tailless marker past text inserted at it', () => {
    const buffer = new TextBuffer(ALPHABET)
    const marker = buffer.markPosition([0, 6])
    buffer.insert([0, 6], 'ABC')
    expect(marker.getRange().serialize()).toEqual([
      [0, 9],
      [0, 9],
    ])
    const tailed = buffer.markRange([
      [0, 2],
      [0, 2],
    ])
    buffer.insert([0, 2], 'xy')
    expect(tailed.getRange().serialize()).toEqual([
      [0, 2],
      [0, 4],
    ])
  })

  it('follows replacements as Atom does', () => {
    const cases: Array<[[number, number], string, number[], number[], InvalidationStrategy[]]> = [
      [[6, 7], 'ABC', [6, 11], [9, 11], ['inside', 'touch']],
      [[9, 11], 'ABC', [6, 9], [6, 9], ['touch']],
      [[4, 6], 'ABC', [7, 10], [7, 10], ['touch']],
      [[5, 10], 'ABC', [8, 8], [8, 8], ['surround', 'overlap', 'inside', 'touch']],
      [[7, 8], 'AB', [6, 10], [6, 10], ['inside', 'touch']],
      [[5, 7], 'ABC', [8, 10], [8, 10], ['overlap', 'inside', 'touch']],
      [[8, 10], 'ABC', [6, 11], [6, 11], ['overlap', 'inside', 'touch']],
    ]
    for (const [[from, to], text, inclusive, exclusive, invalid] of cases) {
      const s = setup()
      s.buffer.setTextInRange(
        [
          [0, from],
          [0, to],
        ],
        text,
      )
      const context = `replace [${from}, ${to}] with ${text}`
      expect(s.columns('never'), context).toEqual(inclusive)
      expect(s.columns('inside'), context).toEqual(exclusive)
      expect(s.invalid(), context).toEqual(invalid)
    }
  })

  it('destroys invalidated markers on layers that ask for it', () => {
    const buffer = new TextBuffer(ALPHABET)
    const layer = buffer.addMarkerLayer({ destroyInvalidatedMarkers: true })
    const inside = layer.markRange(
      [
        [0, 2],
        [0, 6],
      ],
      { invalidate: 'inside' },
    )
    const kept = layer.markRange(
      [
        [0, 0],
        [0, 3],
      ],
      { invalidate: 'inside' },
    )
    buffer.insert([0, 5], '!')
    expect(inside.isDestroyed()).toBe(true)
    expect(kept.isDestroyed()).toBe(false)
  })

  it('moves heads and tails, flipping orientation, and reports changes', () => {
    const buffer = new TextBuffer(ALPHABET)
    const marker = buffer.markRange([
      [0, 6],
      [0, 9],
    ])
    const events: MarkerChangeEvent[] = []
    marker.onDidChange((event) => events.push(event))
    marker.setHeadPosition([0, 3])
    expect(marker.isReversed()).toBe(true)
    expect(marker.getRange().serialize()).toEqual([
      [0, 3],
      [0, 6],
    ])
    expect(events[0]).toMatchObject({ textChanged: false, wasValid: true, isValid: true })
    expect(events[0]!.oldHeadPosition.toArray()).toEqual([0, 9])
    expect(events[0]!.newHeadPosition.toArray()).toEqual([0, 3])
    marker.setTailPosition([0, 12])
    expect(marker.getRange().serialize()).toEqual([
      [0, 3],
      [0, 12],
    ])
    expect(marker.isReversed()).toBe(true)
    marker.clearTail()
    expect(marker.hasTail()).toBe(false)
    expect(marker.getRange().isEmpty()).toBe(true)
    expect(marker.setHeadPosition(marker.getHeadPosition())).toBe(false)
    buffer.insert([0, 0], '...')
    expect(events.at(-1)).toMatchObject({ textChanged: true })
    expect(events.at(-1)!.newHeadPosition.toArray()).toEqual([0, 6])
  })

  it('finds markers with closed intervals, sorted by start then size', () => {
    const buffer = new TextBuffer('0123456789')
    const m1 = buffer.markRange([
      [0, 0],
      [0, 3],
    ])
    const m2 = buffer.markRange([
      [0, 0],
      [0, 5],
    ])
    const m3 = buffer.markRange([
      [0, 4],
      [0, 7],
    ])
    const m4 = buffer.markRange([
      [0, 0],
      [0, 7],
    ])
    const layer = buffer.getDefaultMarkerLayer()
    expect(layer.findMarkers({ startPosition: [0, 0] })).toEqual([m4, m2, m1])
    expect(layer.findMarkers({ containsPoint: [0, 4] })).toEqual([m4, m2, m3])
    expect(
      layer.findMarkers({
        containedInRange: [
          [0, 0],
          [0, 6],
        ],
      }),
    ).toEqual([m2, m1])
    expect(
      layer.findMarkers({
        intersectsRange: [
          [0, 7],
          [0, 9],
        ],
      }),
    ).toEqual([m4, m3])
    m3.setProperties({ kind: 'fold' })
    expect(layer.findMarkers({ kind: 'fold' })).toEqual([m3])
  })

  it('restores markers of history layers on undo and redo', () => {
    const buffer = new TextBuffer('hello world')
    const layer = buffer.addMarkerLayer({ maintainHistory: true })
    const marker = layer.markRange([
      [0, 0],
      [0, 5],
    ])
    buffer.transact(() => {
      buffer.delete([
        [0, 0],
        [0, 6],
      ])
      marker.setRange([
        [0, 0],
        [0, 5],
      ])
    })
    expect(marker.getRange().serialize()).toEqual([
      [0, 0],
      [0, 5],
    ])
    buffer.undo()
    expect(buffer.getText()).toBe('hello world')
    expect(marker.getRange().serialize()).toEqual([
      [0, 0],
      [0, 5],
    ])
    buffer.redo()
    expect(marker.getRange().serialize()).toEqual([
      [0, 0],
      [0, 5],
    ])
  })
})

describe('Marker: collaborative anchoring for remote edits', () => {
  const pair = (text: string) => {
    const a = new TextBuffer(text)
    const b = new TextBuffer({ doc: new Y.Doc() })
    Y.applyUpdate(b.doc, Y.encodeStateAsUpdate(a.doc))
    const sync = () => {
      Y.applyUpdate(b.doc, Y.encodeStateAsUpdate(a.doc, Y.encodeStateVector(b.doc)))
      Y.applyUpdate(a.doc, Y.encodeStateAsUpdate(b.doc, Y.encodeStateVector(a.doc)))
    }
    return { a, b, sync }
  }

  it('anchors markers moved or made after an edit in the same transaction to the text after it', () => {
    const { a, b, sync } = pair('hello world')
    const moved = b.markRange([
      [0, 6],
      [0, 11],
    ])
    let made = moved
    b.transact(() => {
      b.insert([0, 0], 'abc ')
      moved.setRange([
        [0, 4],
        [0, 9],
      ])
      made = b.markRange([
        [0, 10],
        [0, 15],
      ])
    })
    expect(b.getTextInRange(moved.getRange())).toBe('hello')
    // Another peer's edits at both markers' edges make them resolve their relative positions.
    sync()
    a.insert([0, 15], '!')
    a.insert([0, 6], 'X')
    a.insert([0, 4], '>')
    sync()
    expect(b.getText()).toBe('abc >heXllo world!')
    expect(b.getTextInRange(moved.getRange())).toBe('heXllo')
    expect(b.getTextInRange(made.getRange())).toBe('world')
  })

  it("keeps a peer's caret before text typed at it and selections from growing", () => {
    const { a, b, sync } = pair('one two three')
    const caret = b.markPosition([0, 4])
    const selection = b.markRange([
      [0, 4],
      [0, 7],
    ])
    a.insert([0, 4], 'X')
    a.insert([0, 9], 'Y')
    sync()
    expect(b.getText()).toBe('one Xtwo Ythree')
    expect(caret.getRange().start.toArray()).toEqual([0, 4])
    expect(b.getTextInRange(selection.getRange())).toBe('two')
    a.insert([0, 6], 'in')
    sync()
    expect(b.getTextInRange(selection.getRange())).toBe('tinwo')
    a.delete([
      [0, 0],
      [0, 12],
    ])
    sync()
    expect(selection.getRange().isEmpty()).toBe(true)
    expect(caret.getRange().start.toArray()).toEqual([0, 0])
  })

  for (const seed of seeds(6)) {
    it(`caches ranges equal to their relative positions across three peers (seed ${seed})`, () => {
      const random = new Random(seed)
      const network = new TestNetwork(3, random)
      const buffers = network.docs.map((doc) => new TextBuffer({ doc }))
      buffers[0]!.setText('The quick brown fox\njumps over\nthe lazy dog')
      network.flush()
      const layers = buffers.map((b) => b.addMarkerLayer())
      const check = (context: string) => {
        buffers.forEach((buffer, p) => {
          layers[p]!.checkIndex()
          for (const marker of layers[p]!.getMarkers()) {
            const { start, end } = marker.getRelativeRange()
            const s = Y.createAbsolutePositionFromRelativePosition(start, buffer.doc)
            const e = Y.createAbsolutePositionFromRelativePosition(end, buffer.doc)
            expect(
              [marker.start, marker.end],
              `${context}, peer ${p}, marker ${marker.id}`,
            ).toEqual([s?.index, e?.index])
            expect(marker.end).toBeLessThanOrEqual(buffer.getLength())
          }
        })
      }
      for (let step = 0; step < 300; step++) {
        const p = random.int(0, 2)
        const buffer = buffers[p]!
        const length = buffer.getLength()
        const roll = random.next()
        if (roll < 0.15) {
          const a = random.int(0, length)
          const b = random.int(0, length)
          layers[p]!.markRange(
            [buffer.positionForCharacterIndex(a), buffer.positionForCharacterIndex(b)],
            {
              invalidate: random.pick(STRATEGIES),
              exclusive: random.pick([undefined, true, false]),
            },
          )
        } else if (roll < 0.55) {
          const a = random.int(0, length)
          const b = random.int(a, Math.min(length, a + 4))
          buffer.setTextInRange(
            [buffer.positionForCharacterIndex(a), buffer.positionForCharacterIndex(b)],
            random.string(random.int(0, 3), ['x', 'y', ' ', '\n']),
          )
        } else if (roll < 0.6) {
          buffer.undo()
        } else {
          network.deliverSome(random.int(1, 4))
        }
        check(`seed ${seed}, step ${step}`)
      }
      network.flush()
      check(`seed ${seed}, after flush`)
      // A marker sent as relative positions lands on the same text on every peer.
      const text = buffers[0]!.getText()
      for (const marker of layers[0]!.getMarkers()) {
        const copy = layers[1]!.markRelativeRange(marker.getRelativeRange())!
        expect(buffers[1]!.getText()).toBe(text)
        expect(copy.getRange().serialize()).toEqual(marker.getRange().serialize())
      }
    })
  }
})
