import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { Random, seeds } from '../../../testing/random.js'
import type { MarkerLayer } from './marker-layer.js'
import { TestNetwork } from './testing/network.js'
import { TextBuffer } from './text-buffer.js'

// A saved history against the history it was saved from: peer 1 edits through a TextBuffer
// among two other peers, with undo and redo; now and then everything is delivered, peer 1's
// history is saved, and a fresh document loaded from a server's copy (garbage collected, as a
// live room keeps it) takes it in a new buffer. Then both buffers, each on its own copy of the
// document, undo and redo the same random sequence: after every call they must hold the same
// text, agree on whether the call did anything, and hold their carets at the same places. The
// new buffer writes as peer 1 (its copy is never synced with the first), so that even the
// order of items its redo makes is the order the first buffer's makes.

const ALPHABET = ['a', 'b', 'c', ' ', '\n', 'xy', 'hello ']

const randomRange = (random: Random, length: number, reach = 6): [number, number] => {
  const start = random.int(0, length)
  const end = random.chance(0.4) ? Math.min(length, start + random.int(0, reach)) : start
  return [start, end]
}

const rangesOf = (layer: MarkerLayer): string[] =>
  layer
    .getMarkers()
    .map((marker) => String(marker.getRange()))
    .sort()

const reloadedCopy = (source: Y.Doc): Y.Doc => {
  const server = new Y.Doc()
  Y.applyUpdate(server, Y.encodeStateAsUpdate(source))
  const doc = new Y.Doc()
  doc.clientID = source.clientID
  Y.applyUpdate(doc, Y.encodeStateAsUpdate(server))
  return doc
}

describe('a saved undo history against the one it was saved from', () => {
  for (const seed of seeds(8)) {
    it(`undoes and redoes as the original does (seed ${seed})`, () => {
      const random = new Random(seed)
      const network = new TestNetwork(3, new Random(seed * 104729))
      const first = new TextBuffer({ doc: network.docs[0]! })
      const carets = first.addMarkerLayer({ maintainHistory: true, role: 'carets' })
      const caret = carets.markPosition([0, 0], { invalidate: 'never' })
      const log: string[] = []
      const fail = (what: string) =>
        new Error(`seed ${seed}: ${what} after ${log.slice(-8).join('; ')}`)
      for (let round = 0; round < 4; round++) {
        for (let step = 0; step < 60; step++) {
          const roll = random.next()
          const text = first.getText()
          if (roll < 0.35) {
            const [start, end] = randomRange(random, text.length)
            const insert = random.chance(0.8) ? random.string(random.int(1, 3), ALPHABET) : ''
            first.transact(() => {
              const range = [
                first.positionForCharacterIndex(start),
                first.positionForCharacterIndex(end),
              ] as const
              const changed = first.setTextInRange([range[0], range[1]], insert || 'z', {
                normalizeLineEndings: false,
              })
              caret.setHeadPosition(changed.end)
            })
            log.push(`edit ${start}-${end}`)
          } else if (roll < 0.55) {
            const peer = random.int(1, 2)
            const peerText = network.docs[peer]!.getText('text')
            const [start, end] = randomRange(random, peerText.length, random.chance(0.3) ? 30 : 6)
            if (end > start) peerText.delete(start, end - start)
            if (random.chance(0.7)) peerText.insert(start, random.string(2, ALPHABET))
            log.push(`peer ${peer}`)
          } else if (roll < 0.7) {
            network.deliverSome(random.int(1, 5))
            log.push('deliver')
          } else if (roll < 0.88) {
            log.push(`undo ${first.undo()}`)
          } else {
            log.push(`redo ${first.redo()}`)
          }
        }
        network.flush()
        const saved = first.saveUndoHistory()
        const copy = reloadedCopy(first.doc)
        const second = new TextBuffer({ doc: copy })
        const secondCarets = second.addMarkerLayer({ maintainHistory: true, role: 'carets' })
        second.loadUndoHistory(saved)
        expect(second.getText()).toBe(first.getText())
        // Both go through the same calls; the first then carries on with its own edits.
        for (let call = 0; call < 25; call++) {
          const undo = random.chance(0.65)
          const a = undo ? first.undo() : first.redo()
          const b = undo ? second.undo() : second.redo()
          log.push(`${undo ? 'undo' : 'redo'} both ${a}`)
          if (a !== b) throw fail(`the original said ${a}, the copy ${b}`)
          if (first.getText() !== second.getText()) {
            throw fail(
              `texts differ: ${JSON.stringify(first.getText())} vs ${JSON.stringify(second.getText())}`,
            )
          }
          if (a) expect(rangesOf(secondCarets)).toEqual(rangesOf(carets))
        }
        second.destroy()
      }
    })
  }
})
