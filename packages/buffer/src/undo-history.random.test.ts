import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { Random, seeds } from '../../../testing/random.js'
import { TestNetwork } from './testing/network.js'
import { TextBuffer } from './text-buffer.js'

// The buffer's undo history against stock Yjs: two identical setups of three peers each (the
// same client ids, the same updates delivered in the same order). On the first setup peer 1
// edits through a TextBuffer and undoes with `buffer.undo()`; on the second, peer 1 makes the
// same Yjs edits under an origin that a stock `Y.UndoManager` tracks and undoes with it. After
// every step the two documents must hold the same text, and undo and redo must agree on
// whether they did anything.

const ALPHABET = ['a', 'b', 'c', ' ', '\n', 'xy', 'hello ']
const PEERS = 3
const STEPS = 300

/** One edit by offsets: delete [start, end), then insert `text` at `start`. */
interface Edit {
  start: number
  end: number
  text: string
}

/** The stock side: peer 1's edits carry `ORIGIN`, which its manager tracks. */
const ORIGIN = { name: 'stock peer 1' }

/** A random edit; `reach` bounds the length it deletes. */
const randomEdit = (random: Random, length: number, reach = 6): Edit => {
  const start = random.int(0, length)
  const end = random.chance(0.4) ? Math.min(length, start + random.int(0, reach)) : start
  let text = random.chance(0.8) ? random.string(random.int(1, 3), ALPHABET) : ''
  if (start === end && text === '') text = 'z'
  return { start, end, text }
}

const applyEdit = (text: Y.Text, edit: Edit): void => {
  if (edit.end > edit.start) text.delete(edit.start, edit.end - edit.start)
  if (edit.text !== '') text.insert(edit.start, edit.text)
}

const rangeOf = (buffer: TextBuffer, edit: Edit) => [
  buffer.positionForCharacterIndex(edit.start),
  buffer.positionForCharacterIndex(edit.end),
]

describe('undo history against stock Y.UndoManager', () => {
  for (const seed of seeds(6)) {
    it(`agrees with the stock manager on every step (seed ${seed})`, () => {
      const random = new Random(seed)
      const ours = new TestNetwork(PEERS, new Random(seed * 7919))
      const stock = new TestNetwork(PEERS, new Random(seed * 7919))
      const buffer = new TextBuffer({ doc: ours.docs[0]! })
      const stockText = stock.docs[0]!.getText('text')
      const manager = new Y.UndoManager(stockText, {
        trackedOrigins: new Set([ORIGIN]),
        captureTimeout: 0,
      })
      const log: string[] = []
      const check = (what: string) => {
        log.push(what)
        for (let peer = 0; peer < PEERS; peer++) {
          const a = ours.docs[peer]!.getText('text').toString()
          const b = stock.docs[peer]!.getText('text').toString()
          if (a !== b) {
            throw new Error(`seed ${seed}, peer ${peer + 1} after ${log.slice(-6).join('; ')}`)
          }
        }
        expect(buffer.getText()).toBe(stockText.toString())
      }
      for (let step = 0; step < STEPS; step++) {
        const roll = random.next()
        if (roll < 0.3) {
          const edit = randomEdit(random, stockText.length)
          const [start, end] = rangeOf(buffer, edit)
          buffer.setTextInRange([start!, end!], edit.text, { normalizeLineEndings: false })
          stock.docs[0]!.transact(() => applyEdit(stockText, edit), ORIGIN)
          check(`local ${JSON.stringify(edit)}`)
        } else if (roll < 0.37) {
          // Two edits in one transaction: one undo step on both sides.
          const first = randomEdit(random, stockText.length)
          const length = stockText.length - (first.end - first.start) + first.text.length
          const second = randomEdit(random, length)
          buffer.transact(() => {
            for (const edit of [first, second]) {
              const [start, end] = rangeOf(buffer, edit)
              buffer.setTextInRange([start!, end!], edit.text, { normalizeLineEndings: false })
            }
          })
          stock.docs[0]!.transact(() => {
            applyEdit(stockText, first)
            applyEdit(stockText, second)
          }, ORIGIN)
          check(`local pair ${JSON.stringify([first, second])}`)
        } else if (roll < 0.6) {
          // Wide deletions too: they remove whole local steps, whose undo then changes
          // nothing, so that the manager goes on to the step below.
          const peer = random.int(1, PEERS - 1)
          const reach = random.chance(0.3) ? 40 : 6
          const edit = randomEdit(random, stock.docs[peer]!.getText('text').length, reach)
          applyEdit(ours.docs[peer]!.getText('text'), edit)
          applyEdit(stock.docs[peer]!.getText('text'), edit)
          check(`peer ${peer + 1} ${JSON.stringify(edit)}`)
        } else if (roll < 0.72) {
          const count = random.int(1, 6)
          expect(ours.deliverSome(count)).toBe(stock.deliverSome(count))
          check(`deliver ${count}`)
        } else if (roll < 0.88) {
          const undone = buffer.undo()
          expect(undone).toBe(manager.undo() !== null)
          check(`undo ${undone}`)
        } else {
          const redone = buffer.redo()
          expect(redone).toBe(manager.redo() !== null)
          check(`redo ${redone}`)
        }
      }
      ours.flush()
      stock.flush()
      check('flush')
      expect(ours.docs[1]!.getText('text').toString()).toBe(buffer.getText())
    })
  }
})
