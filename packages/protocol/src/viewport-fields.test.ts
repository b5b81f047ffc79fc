/**
 * The fields of following a peer, read from untrusted states: a well-formed viewport comes back
 * resolving where it was written (after travelling as JSON), and anything else reads as absent.
 */
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import {
  MAX_VIEWPORT_JSON_LENGTH,
  readFollowing,
  readViewport,
  relativePositionToJSON,
} from './index.js'

const travelled = <T>(value: T): Record<string, unknown> => JSON.parse(JSON.stringify(value))

const textDoc = (): { doc: Y.Doc; text: Y.Text } => {
  const doc = new Y.Doc()
  const text = doc.getText('text')
  text.insert(0, 'one\ntwo\nthree\nfour\n')
  return { doc, text }
}

const at = (doc: Y.Doc, position: Y.RelativePosition | undefined) =>
  position === undefined
    ? null
    : (Y.createAbsolutePositionFromRelativePosition(position, doc)?.index ?? null)

describe('readViewport', () => {
  it('reads a viewport back, resolving to where it was written', () => {
    const { doc, text } = textDoc()
    const viewport = {
      start: relativePositionToJSON(Y.createRelativePositionFromTypeIndex(text, 4, 0)),
      end: relativePositionToJSON(Y.createRelativePositionFromTypeIndex(text, 13, -1)),
    }
    const read = readViewport(travelled({ viewport }))
    expect(read).not.toBeNull()
    expect(at(doc, read?.start)).toBe(4)
    expect(at(doc, read?.end)).toBe(13)
    // Still right after an edit before it.
    text.insert(0, 'zero\n')
    expect(at(doc, read?.start)).toBe(9)
  })

  it('reads the end of the text (a position without an item)', () => {
    const { doc, text } = textDoc()
    const end = relativePositionToJSON(Y.createRelativePositionFromTypeIndex(text, text.length))
    const read = readViewport(travelled({ viewport: { start: end, end } }))
    expect(at(doc, read?.end)).toBe(text.length)
  })

  it('ignores what is absent, malformed or too large', () => {
    const { text } = textDoc()
    const good = relativePositionToJSON(Y.createRelativePositionFromTypeIndex(text, 1))
    const bad: unknown[] = [
      undefined,
      null,
      7,
      'viewport',
      [good, good],
      {},
      { start: good },
      { end: good },
      { start: good, end: null },
      { start: good, end: { item: { client: -1, clock: 0 } } },
      { start: { type: null, tname: null, item: null, assoc: 0 }, end: good },
      { start: good, end: { tname: 7 } },
      { start: good, end: { item: { client: 1, clock: 1.5 } } },
      { start: good, end: { ...good, assoc: 'after' } },
      { start: { tname: 'x'.repeat(MAX_VIEWPORT_JSON_LENGTH) }, end: good },
    ]
    for (const viewport of bad) {
      expect(readViewport(travelled({ viewport })), JSON.stringify(viewport)).toBeNull()
    }
    expect(readViewport({})).toBeNull()
  })

  it('takes a viewport just within the bound and refuses one just beyond it', () => {
    const good = { type: null, tname: '', item: null, assoc: 0 }
    const sized = (length: number) => {
      const probe = { start: { ...good, tname: 'a' }, end: good }
      const room = length - JSON.stringify(probe).length + 1
      return { start: { ...good, tname: 'a'.repeat(room) }, end: { ...good, tname: 'b' } }
    }
    const within = sized(MAX_VIEWPORT_JSON_LENGTH - 3)
    expect(JSON.stringify(within).length).toBeLessThanOrEqual(MAX_VIEWPORT_JSON_LENGTH)
    expect(readViewport({ viewport: within })).not.toBeNull()
    const beyond = sized(MAX_VIEWPORT_JSON_LENGTH + 1)
    expect(JSON.stringify(beyond).length).toBeGreaterThan(MAX_VIEWPORT_JSON_LENGTH)
    expect(readViewport({ viewport: beyond })).toBeNull()
  })
})

describe('readFollowing', () => {
  it('reads a Yjs client id', () => {
    expect(readFollowing({ following: 42 })).toBe(42)
    expect(readFollowing({ following: 0 })).toBe(0)
    expect(readFollowing({ following: 0xffff_ffff })).toBe(0xffff_ffff)
  })

  it('reads anything else as following nobody', () => {
    for (const following of [
      undefined,
      null,
      -1,
      1.5,
      2 ** 32,
      Number.NaN,
      '42',
      [42],
      { id: 42 },
    ]) {
      expect(readFollowing({ following }), String(following)).toBeNull()
    }
  })
})
