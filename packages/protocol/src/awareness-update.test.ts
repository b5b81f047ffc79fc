/**
 * Awareness updates checked as a server checks them: what stock y-protocols encodes reads back
 * entry by entry, and updates that are malformed, too large, too deep or not objects are
 * refused with a reason that says which client and which bound.
 */
import * as encoding from 'lib0/encoding'
import { describe, expect, it } from 'vitest'
import * as awarenessProtocol from 'y-protocols/awareness'
import * as Y from 'yjs'
import { Random, seeds } from '../../../testing/random.js'
import {
  type AwarenessLimits,
  AwarenessRefusal,
  encodeAwarenessEntries,
  jsonDepth,
  readAwarenessUpdate,
} from './index.js'

const LIMITS: AwarenessLimits = { maxClients: 4, maxStateBytes: 1_000, maxDepth: 8 }

/** An update of raw entries: each a client, a clock and the bytes of its state's JSON text. */
const rawUpdate = (entries: readonly [number, number, Uint8Array | string][]): Uint8Array => {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, entries.length)
  for (const [client, clock, state] of entries) {
    encoding.writeVarUint(encoder, client)
    encoding.writeVarUint(encoder, clock)
    if (typeof state === 'string') encoding.writeVarString(encoder, state)
    else encoding.writeVarUint8Array(encoder, state)
  }
  return encoding.toUint8Array(encoder)
}

/** The refusal reading `update` throws. */
const refusal = (update: Uint8Array, limits = LIMITS): AwarenessRefusal => {
  try {
    readAwarenessUpdate(update, limits)
  } catch (error) {
    if (error instanceof AwarenessRefusal) return error
    throw error
  }
  throw new Error('the update was not refused')
}

describe('readAwarenessUpdate', () => {
  it('reads what stock y-protocols encodes, removals as null', () => {
    const doc = new Y.Doc()
    doc.clientID = 42
    const awareness = new awarenessProtocol.Awareness(doc)
    awareness.setLocalState({ user: { name: 'Ada', color: '#d33' }, cursor: null })
    const entries = readAwarenessUpdate(
      awarenessProtocol.encodeAwarenessUpdate(awareness, [42]),
      LIMITS,
    )
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({
      client: 42,
      state: { user: { name: 'Ada', color: '#d33' }, cursor: null },
    })
    awareness.setLocalState(null)
    const [removal] = readAwarenessUpdate(
      awarenessProtocol.encodeAwarenessUpdate(awareness, [42]),
      LIMITS,
    )
    expect(removal).toMatchObject({ client: 42, state: null })
    awareness.destroy()
  })

  it('encodes entries that stock y-protocols applies as they were', () => {
    const entries = readAwarenessUpdate(
      rawUpdate([
        [1, 3, JSON.stringify({ user: { name: 'Ada' } })],
        [2, 1, JSON.stringify({ cursor: null })],
      ]),
      LIMITS,
    )
    const awareness = new awarenessProtocol.Awareness(new Y.Doc())
    awarenessProtocol.applyAwarenessUpdate(awareness, encodeAwarenessEntries(entries), 'test')
    expect(awareness.getStates().get(1)).toEqual({ user: { name: 'Ada' } })
    expect(awareness.getStates().get(2)).toEqual({ cursor: null })
    awareness.destroy()
  })

  it('refuses each kind of bad update, saying why', () => {
    const cases: [Uint8Array, AwarenessRefusal['kind'], RegExp][] = [
      [Uint8Array.of(1, 7), 'malformed', /does not decode/],
      [rawUpdate([[7, 1, '{"user":']]), 'malformed', /client 7 is not JSON/],
      [rawUpdate([[7, 1, Uint8Array.of(0x7b, 0xff, 0x7d)]]), 'malformed', /client 7 is not JSON/],
      [rawUpdate([[7, 1, `"${'x'.repeat(2_000)}"`]]), 'policy', /client 7 too large: .*1000/],
      [
        rawUpdate([[7, 1, `${'['.repeat(9)}${']'.repeat(9)}`]]),
        'policy',
        /client 7 nested too deep/,
      ],
      [rawUpdate([[7, 1, '[1, 2]']]), 'policy', /client 7 is not an object/],
      [rawUpdate([[7, 1, '"text"']]), 'policy', /client 7 is not an object/],
      [
        rawUpdate(Array.from({ length: 5 }, (_, i) => [i, 1, '{}'] as [number, number, string])),
        'policy',
        /too many awareness clients/,
      ],
    ]
    for (const [update, kind, reason] of cases) {
      const refused = refusal(update)
      expect(refused.kind, refused.message).toBe(kind)
      expect(refused.message).toMatch(reason)
    }
  })

  it('refuses a whole update for one bad entry, before reading any of it as good', () => {
    const update = rawUpdate([
      [1, 1, '{}'],
      [2, 1, '[]'],
    ])
    expect(refusal(update).message).toMatch(/client 2/)
  })

  it('throws nothing but a refusal for any corruption of a good update', () => {
    const good = rawUpdate([
      [1, 2, JSON.stringify({ user: { name: 'Ada', color: '#d33' }, cursor: { anchor: 1 } })],
      [3, 4, JSON.stringify({ selections: [[{ a: [1, { b: '"]' }] }]] })],
    ])
    for (const seed of seeds(50)) {
      const random = new Random(seed)
      const bytes = good.slice(0, random.int(0, good.length))
      for (let i = random.int(1, 4); i > 0 && bytes.length > 0; i--) {
        bytes[random.int(0, bytes.length - 1)] = random.int(0, 255)
      }
      try {
        readAwarenessUpdate(bytes, LIMITS)
      } catch (error) {
        expect(error, `seed ${seed}`).toBeInstanceOf(AwarenessRefusal)
      }
    }
  })
})

describe('jsonDepth', () => {
  const depth = (text: string) => jsonDepth(new TextEncoder().encode(text))

  it('counts arrays and objects, not brackets inside strings', () => {
    expect(depth('null')).toBe(0)
    expect(depth('{"a":[1,{"b":2}]}')).toBe(3)
    expect(depth('{"a":"[[[{{{"}')).toBe(1)
    expect(depth('{"a":"\\"[[["}')).toBe(1)
    expect(depth('{"a":"\\\\","b":[[1]]}')).toBe(3)
  })

  it('agrees with a parse for random nesting', () => {
    const parsedDepth = (value: unknown): number =>
      typeof value === 'object' && value !== null
        ? 1 + Math.max(0, ...Object.values(value).map(parsedDepth))
        : 0
    for (const seed of seeds(20)) {
      const random = new Random(seed)
      const value = (level: number): unknown => {
        if (level > 6 || random.chance(0.3)) return random.pick(['x', '"]', '\\{', 1, null])
        const items = Array.from({ length: random.int(0, 3) }, () => value(level + 1))
        return random.chance(0.5) ? items : Object.fromEntries(items.map((v, i) => [`k${i}`, v]))
      }
      const sample = value(0)
      expect(depth(JSON.stringify(sample)), `seed ${seed}`).toBe(parsedDepth(sample))
    }
  })
})
