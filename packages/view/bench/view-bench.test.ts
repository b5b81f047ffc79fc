/**
 * The view benchmark's pieces, once and small: the document generator, both pages bundled
 * and opened on a room with one typing peer, a few local and remote keystrokes timed in each
 * editor, and a short scroll. It checks that every probe answers with sane numbers; it does
 * not judge them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { type EditorKind, ViewBench } from './bench-browser.js'
import { javascriptText } from './javascript-text.js'
import { PeerRoom } from './remote-peers.js'

describe('javascriptText', () => {
  it('makes seeded JavaScript of the asked length or line count', () => {
    const text = javascriptText({ chars: 5_000, seed: 3 })
    expect(text).toHaveLength(5_000)
    expect(text).toBe(javascriptText({ chars: 5_000, seed: 3 }))
    expect(text).toMatch(/export function \w+\(/)
    expect(javascriptText({ lines: 100, seed: 3 }).split('\n')).toHaveLength(100)
  })
})

describe('the view benchmark in Chromium', () => {
  let bench: ViewBench | undefined
  const text = javascriptText({ chars: 3_000, seed: 1 })
  const doc = new Y.Doc()
  doc.getText('text').insert(0, text)
  const update = Y.encodeStateAsUpdate(doc)

  beforeAll(async () => {
    bench = await ViewBench.start()
  })
  afterAll(async () => {
    await bench?.close()
  })

  it.each<EditorKind>(['tandem', 'codemirror'])('measures %s', async (kind) => {
    const room = await PeerRoom.open(bench!.url, `test-${kind}`, update, {
      peers: 1,
      seed: 1,
      fromRow: 20,
    })
    const page = await bench!.open(kind, {
      room: `test-${kind}`,
      firstLines: text.split('\n').slice(0, 30),
    })
    try {
      const { scriptMs, paintedMs } = await page.firstPaint()
      expect(paintedMs).toBeGreaterThan(scriptMs)
      await page.ready()
      await page.waitForPeers(1)
      room.start()
      const local = await page.type({ row: 10, column: 0 }, 'ab;', 0)
      room.stop()
      await page.startTypist()
      const remote = await page.typeRemotely(3, 'xy', 0)
      for (const ms of [...local, ...remote]) {
        expect(ms).toBeGreaterThan(0)
        expect(ms).toBeLessThan(10_000)
      }
      const { intervalMs } = await page.scroll([4, 8, 12, 16])
      expect(intervalMs).toHaveLength(4)
      expect(await page.heapBytes()).toBeGreaterThan(100_000)
      page.check()
    } finally {
      room.close()
      await page.close()
    }
  })
})
