import { TextBuffer } from '@tandem/buffer'
import { Point } from '@tandem/text'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { Random, seeds } from '../../../testing/random.js'
import { DisplayLayer, type DisplayLayerSettings } from './display-layer.js'

const PIECES = [
  'a',
  'b',
  'c',
  ' ',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '-',
  '/',
  '漢',
  '字',
  '😀',
  'e\u0301',
  'x\ufe0f',
]

const randomText = (random: Random, length: number) => {
  let text = ''
  for (let i = 0; i < length; i++) text += random.pick(PIECES)
  return text
}

const randomPoint = (random: Random, buffer: TextBuffer) => {
  const row = random.int(0, buffer.getLastRow())
  return new Point(row, random.int(0, buffer.lineLengthForRow(row) ?? 0))
}

const randomSettings = (random: Random): DisplayLayerSettings => ({
  tabLength: random.int(1, 6),
  softWrapColumn: random.next() < 0.25 ? null : random.int(2, 24),
  softWrapHangingIndent: random.int(0, 3),
  atomicSoftTabs: random.next() < 0.7,
})

/** Everything observable about a layer: its rows and every position's translations. */
const snapshot = (display: DisplayLayer, buffer: TextBuffer) => {
  const lines = display.getScreenLines().map((l) => `${l.lineText}|${l.bufferRange}`)
  const toScreen: string[] = []
  for (let row = 0; row <= buffer.getLastRow(); row++) {
    for (let column = 0; column <= (buffer.lineLengthForRow(row) ?? 0) + 1; column++) {
      for (const clipDirection of ['backward', 'forward', 'closest'] as const) {
        toScreen.push(`${display.translateBufferPosition([row, column], { clipDirection })}`)
      }
    }
  }
  const toBuffer: string[] = []
  for (let row = -1; row <= display.getScreenLineCount(); row++) {
    const length = display.lineLengthForScreenRow(row) ?? 3
    for (let column = 0; column <= length + 1; column++) {
      for (const clipDirection of ['backward', 'forward', 'closest'] as const) {
        const options = { clipDirection, skipSoftWrapIndentation: column % 2 === 0 }
        toBuffer.push(`${display.translateScreenPosition([row, column], options)}`)
      }
    }
  }
  return { count: display.getScreenLineCount(), lines, toScreen, toBuffer }
}

describe('DisplayLayer kept up to date equals one laid out from scratch', () => {
  for (const seed of seeds(12)) {
    it(`through random local and remote edits, folds and settings (seed ${seed})`, () => {
      const random = new Random(seed)
      const docA = new Y.Doc()
      const docB = new Y.Doc()
      const buffer = new TextBuffer({ doc: docA, text: randomText(random, 60) })
      Y.applyUpdate(docB, Y.encodeStateAsUpdate(docA))
      const remote = new TextBuffer({ doc: docB })
      const toA = () => Y.applyUpdate(docA, Y.encodeStateAsUpdate(docB, Y.encodeStateVector(docA)))
      const toB = () => Y.applyUpdate(docB, Y.encodeStateAsUpdate(docA, Y.encodeStateVector(docB)))
      let settings = randomSettings(random)
      const display = new DisplayLayer(buffer, settings)
      for (let step = 0; step < 60; step++) {
        const action = random.int(0, 9)
        if (action <= 3) {
          const a = randomPoint(random, buffer)
          const b = randomPoint(random, buffer)
          buffer.setTextInRange([a, b], randomText(random, random.int(0, 4)), {
            normalizeLineEndings: false,
          })
          toB()
        } else if (action <= 5) {
          toB()
          remote.transact(() => {
            for (let k = random.int(1, 3); k > 0; k--) {
              const a = randomPoint(random, remote)
              const b = randomPoint(random, remote)
              remote.setTextInRange([a, b], randomText(random, random.int(0, 3)), {
                normalizeLineEndings: false,
              })
            }
          })
          toA()
        } else if (action <= 7) {
          const a = randomPoint(random, buffer)
          const b = randomPoint(random, buffer)
          display.foldBufferRange([a, b])
        } else if (action === 8) {
          display.destroyFoldsIntersectingBufferRange([
            randomPoint(random, buffer),
            randomPoint(random, buffer),
          ])
        } else {
          settings = randomSettings(random)
          display.reset(settings)
        }
        display.checkInvariants()
        const fresh = new DisplayLayer(buffer, { ...settings, foldLayer: display.foldLayer })
        const context = `seed ${seed}, step ${step}, text ${JSON.stringify(buffer.getText())}`
        expect(snapshot(display, buffer), context).toEqual(snapshot(fresh, buffer))
        fresh.destroy()
      }
    })
  }
})
