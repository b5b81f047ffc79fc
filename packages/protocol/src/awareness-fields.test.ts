/**
 * The awareness fields read from untrusted states: well-formed ones come back as they were
 * written (through JSON, as they travel), and whatever else a peer sends is left out or given
 * a safe default, never thrown on.
 */
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { Random, seeds } from '../../../testing/random.js'
import {
  type AwarenessSelection,
  MAX_REMOTE_SELECTIONS,
  MAX_SESSION_LENGTH,
  MAX_USER_ID_LENGTH,
  readSelections,
  readUser,
  readUserId,
  relativePositionFromJSON,
  relativePositionToJSON,
  sessionFromState,
} from './index.js'

/** A document with some text, typed by two clients so items have several ids. */
const documentWithText = (): { doc: Y.Doc; text: Y.Text } => {
  const doc = new Y.Doc()
  doc.clientID = 7
  const text = doc.getText('text')
  text.insert(0, 'hello world')
  const other = new Y.Doc()
  other.clientID = 8
  Y.applyUpdate(other, Y.encodeStateAsUpdate(doc))
  other.getText('text').insert(5, ', dear')
  Y.applyUpdate(doc, Y.encodeStateAsUpdate(other))
  return { doc, text }
}

/** `value` as it arrives after travelling in an awareness state. */
const travelled = <T>(value: T): unknown => JSON.parse(JSON.stringify(value))

describe('relative positions as JSON', () => {
  it('come back resolving to the same place, every key written, for every index and side', () => {
    const { doc, text } = documentWithText()
    for (let index = 0; index <= text.length; index++) {
      for (const assoc of [-1, 0]) {
        const position = Y.createRelativePositionFromTypeIndex(text, index, assoc)
        const json = relativePositionToJSON(position)
        expect(Object.keys(json).sort()).toEqual(['assoc', 'item', 'tname', 'type'])
        const read = relativePositionFromJSON(travelled(json))
        expect(read).not.toBeNull()
        expect(Y.createAbsolutePositionFromRelativePosition(read!, doc)?.index).toBe(index)
        expect(read!.assoc).toBe(assoc)
      }
    }
  })

  it("read Yjs's compact form too", () => {
    const { doc, text } = documentWithText()
    const position = Y.createRelativePositionFromTypeIndex(text, 4)
    const compact = travelled(Y.relativePositionToJSON(position))
    const read = relativePositionFromJSON(compact)
    expect(Y.createAbsolutePositionFromRelativePosition(read!, doc)?.index).toBe(4)
  })

  it('are null for anything that is not one', () => {
    for (const bad of [
      null,
      undefined,
      7,
      'text',
      [],
      {},
      { type: null, tname: null, item: null, assoc: 0 },
      { item: { client: -1, clock: 0 } },
      { item: { client: 1, clock: 2 ** 60 } },
      { item: { client: 1, clock: 1.5 } },
      { item: { client: '1', clock: 1 } },
      { item: 'x' },
      { tname: 7 },
      { tname: 'text', assoc: 'left' },
      { tname: 'text', assoc: 0.5 },
      { type: 'x', tname: 'text' },
    ]) {
      expect(relativePositionFromJSON(bad), JSON.stringify(bad)).toBeNull()
    }
  })
})

describe('readSelections', () => {
  const { text } = documentWithText()
  const at = (index: number) =>
    relativePositionToJSON(Y.createRelativePositionFromTypeIndex(text, index))
  const selection = (anchor: number, head: number): AwarenessSelection => ({
    anchor: at(anchor),
    head: at(head),
  })

  it('takes `selections` when present, else `cursor`', () => {
    const state = travelled({
      cursor: selection(1, 1),
      selections: [selection(0, 3), selection(1, 1)],
    }) as Record<string, unknown>
    expect(readSelections(state)).toHaveLength(2)
    expect(readSelections({ cursor: travelled(selection(2, 5)) })).toHaveLength(1)
    expect(readSelections({ cursor: null })).toEqual([])
    expect(readSelections({})).toEqual([])
  })

  it('skips entries that are not selections, and reads no more than the limit', () => {
    const good = travelled(selection(0, 2))
    expect(readSelections({ selections: [good, { anchor: 1 }, null, 'x', [], good] })).toHaveLength(
      2,
    )
    expect(readSelections({ selections: 'x', cursor: good })).toHaveLength(1)
    const many = Array.from({ length: MAX_REMOTE_SELECTIONS + 5 }, () => good)
    expect(readSelections({ selections: many })).toHaveLength(MAX_REMOTE_SELECTIONS)
  })

  it('never throws on random JSON a peer might send', () => {
    for (const seed of seeds(20)) {
      const random = new Random(seed)
      const value = (depth: number): unknown => {
        const kind = random.int(0, depth > 3 ? 3 : 6)
        if (kind === 0) return null
        if (kind === 1) return random.int(-3, 3) * random.pick([1, 0.5, 2 ** 60])
        if (kind === 2) return random.pick(['', 'text', 'anchor', '__proto__'])
        if (kind === 3) return random.chance(0.5)
        if (kind === 4) return Array.from({ length: random.int(0, 3) }, () => value(depth + 1))
        const object: Record<string, unknown> = {}
        for (const key of ['anchor', 'head', 'item', 'type', 'tname', 'assoc', 'client', 'clock']) {
          if (random.chance(0.5)) object[key] = value(depth + 1)
        }
        return object
      }
      for (let i = 0; i < 200; i++) {
        const state = travelled({ selections: value(0), cursor: value(0), user: value(0) })
        expect(() => readSelections(state as Record<string, unknown>), `seed ${seed}`).not.toThrow()
        expect(() => readUser(state as Record<string, unknown>, 1), `seed ${seed}`).not.toThrow()
      }
    }
  })
})

describe('readUser', () => {
  it('keeps a well-formed user as it is', () => {
    const user = { name: 'Ada', color: '#d33', colorLight: '#d333', id: 'ada@example.org' }
    expect(readUser({ user }, 7)).toEqual(user)
    expect(readUser({ user: { name: 'Bob', color: 'rgb(10, 20, 30)' } }, 7)).toEqual({
      name: 'Bob',
      color: 'rgb(10, 20, 30)',
    })
  })

  it('keeps the agent mark of a program, and only a true one', () => {
    const bot = { name: 'Bot', color: '#1a7f7a', id: 'bot', agent: true }
    expect(readUser({ user: bot }, 7)).toEqual(bot)
    expect(readUser({ user: { ...bot, agent: 'yes' } }, 7)).not.toHaveProperty('agent')
    expect(readUser({ user: { ...bot, agent: false } }, 7)).not.toHaveProperty('agent')
  })

  it('gives a missing or odd field a safe default, and cuts a long name', () => {
    expect(readUser({}, 7)).toEqual({ name: 'peer 7', color: '#888888' })
    expect(readUser({ user: 'Ada' }, 7)).toEqual({ name: 'peer 7', color: '#888888' })
    expect(readUser({ user: { name: '  ', color: 'url(javascript:x)' } }, 7)).toEqual({
      name: 'peer 7',
      color: '#888888',
    })
    const hostile = {
      name: 'x'.repeat(10_000),
      color: '#d33; background: url(x)',
      colorLight: 'expression(alert(1))',
      id: 5,
    }
    expect(readUser({ user: hostile }, 7)).toEqual({ name: 'x'.repeat(100), color: '#888888' })
  })

  it('keeps an id as long as a server accepts whole, and cuts a longer one there', () => {
    const id = 'i'.repeat(MAX_USER_ID_LENGTH)
    expect(readUser({ user: { name: 'Ada', color: '#d33', id } }, 7).id).toBe(id)
    expect(readUser({ user: { name: 'Ada', color: '#d33', id: `${id}more` } }, 7).id).toBe(id)
  })
})

describe('readUserId', () => {
  it('is the claimed `user.id` when it can name a user, else null', () => {
    expect(readUserId({ user: { name: 'Ada', color: '#d33', id: 'ada' } })).toBe('ada')
    expect(readUserId({ user: { id: 'x'.repeat(MAX_USER_ID_LENGTH) } })).toHaveLength(
      MAX_USER_ID_LENGTH,
    )
    for (const state of [
      {},
      { user: null },
      { user: 'ada' },
      { user: { id: '' } },
      { user: { id: 7 } },
      { user: { id: 'x'.repeat(MAX_USER_ID_LENGTH + 1) } },
    ]) {
      expect(readUserId(state), JSON.stringify(state).slice(0, 60)).toBeNull()
    }
  })
})

describe('sessionFromState', () => {
  it('takes selections, else the cursor, and nothing else', () => {
    const s = { anchor: { a: 1 }, head: { h: 2 } }
    expect(sessionFromState({ selections: [s, s] })).toBe(JSON.stringify({ selections: [s, s] }))
    expect(sessionFromState({ cursor: s, name: 'x' })).toBe(JSON.stringify({ selections: [s] }))
    expect(sessionFromState({ cursor: null })).toBeNull()
    expect(sessionFromState({ selections: [] })).toBeNull()
    expect(sessionFromState({ selections: ['x'.repeat(MAX_SESSION_LENGTH)] })).toBeNull()
  })

  it('keeps at most the limit of selections, in their order', () => {
    const many = Array.from({ length: MAX_REMOTE_SELECTIONS + 1 }, (_, i) => i)
    const kept = JSON.parse(sessionFromState({ selections: many })!).selections
    expect(kept).toEqual(many.slice(0, MAX_REMOTE_SELECTIONS))
  })

  it('keeps what readSelections reads back as the same places', () => {
    const { doc, text } = documentWithText()
    const at = (index: number) =>
      relativePositionToJSON(Y.createRelativePositionFromTypeIndex(text, index))
    const selections = [0, 3, 9].map((index) => ({ anchor: at(index), head: at(index + 2) }))
    const session = sessionFromState(travelled({ selections }) as Record<string, unknown>)
    const read = readSelections(JSON.parse(session!))
    const resolve = (position: Y.RelativePosition) =>
      Y.createAbsolutePositionFromRelativePosition(position, doc)?.index
    expect(read.map(({ anchor, head }) => [resolve(anchor), resolve(head)])).toEqual([
      [0, 2],
      [3, 5],
      [9, 11],
    ])
  })
})
