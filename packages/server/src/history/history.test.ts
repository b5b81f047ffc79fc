import * as encoding from 'lib0/encoding'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { ATTRIBUTION_RESOLUTION_MS, Attribution } from './attribution.js'
import { ClientRuns } from './client-runs.js'
import { authorsOfText } from './text-authors.js'
import { idsOfUpdate } from './update-ids.js'
import { forEachVisibleRun } from './yjs-items.js'

/** A small seeded generator (mulberry32), so a failing case can be replayed from its seed. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

describe('ClientRuns', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`keeps the first author of every clock, as a plain array does (seed ${seed})`, () => {
      const next = random(seed)
      const runs = new ClientRuns()
      const reference: number[] = []
      for (let step = 0; step < 300; step++) {
        const appending = next() < 0.5
        const clock = appending ? reference.length : Math.floor(next() * 400)
        const length = 1 + Math.floor(next() * 20)
        const author = Math.floor(next() * 3)
        runs.add(clock, length, author)
        for (let c = clock; c < clock + length; c++)
          if (reference[c] === undefined) reference[c] = author
        const seen: number[] = []
        runs.forEachIn(0, 450, (at, size, who) => {
          for (let c = at; c < at + size; c++) seen[c] = who
        })
        const wrong = Array.from({ length: 450 }, (_, c) => c).find(
          (c) => seen[c] !== (reference[c] ?? -1),
        )
        expect(wrong, `step ${step}`).toBeUndefined()
      }
      let previousEnd = -1
      let previousAuthor = -1
      runs.forEach((clock, length, author) => {
        expect(length).toBeGreaterThan(0)
        expect(clock).toBeGreaterThanOrEqual(previousEnd)
        if (clock === previousEnd) expect(author).not.toBe(previousAuthor)
        previousEnd = clock + length
        previousAuthor = author
      })
    })
  }
})

describe('idsOfUpdate', () => {
  it('reads the clocks an update inserts and the ones it deletes', () => {
    const doc = new Y.Doc()
    const text = doc.getText('text')
    text.insert(0, 'hello world')
    const before = Y.encodeStateVector(doc)
    doc.transact(() => {
      text.delete(0, 6)
      text.insert(5, '!')
    })
    const ids = idsOfUpdate(Y.encodeStateAsUpdate(doc, before))
    expect(ids.inserted.get(doc.clientID)).toEqual([{ clock: 11, length: 1 }])
    expect(ids.deleted.get(doc.clientID)).toEqual([{ clock: 0, length: 6 }])
  })

  it('throws on bytes that are not an update', () => {
    expect(() => idsOfUpdate(new Uint8Array([200, 1, 2]))).toThrow()
  })
})

describe('forEachVisibleRun', () => {
  it('gives the ids Yjs reports for each offset, in text order', () => {
    const next = random(11)
    const [a, b] = [new Y.Doc(), new Y.Doc()]
    for (let step = 0; step < 200; step++) {
      const doc = next() < 0.5 ? a : b
      const text = doc.getText('text')
      if (text.length > 0 && next() < 0.3) {
        const at = Math.floor(next() * text.length)
        text.delete(at, Math.min(text.length - at, 1 + Math.floor(next() * 4)))
      } else {
        text.insert(
          Math.floor(next() * (text.length + 1)),
          'xyz'.slice(0, 1 + Math.floor(next() * 3)),
        )
      }
      if (next() < 0.3) {
        Y.applyUpdate(a, Y.encodeStateAsUpdate(b))
        Y.applyUpdate(b, Y.encodeStateAsUpdate(a))
      }
    }
    const text = a.getText('text')
    const ids: string[] = []
    forEachVisibleRun(text, (client, clock, length) => {
      for (let i = 0; i < length; i++) ids.push(`${client}:${clock + i}`)
      return true
    })
    expect(ids.length).toBe(text.length)
    ids.forEach((id, offset) => {
      const item = Y.createRelativePositionFromTypeIndex(text, offset).item
      expect(`${item?.client}:${item?.clock}`).toBe(id)
    })
  })
})

/** Two users typing into one document; every update attributed as a server would. */
const twoAuthors = (seed: number) => {
  const next = random(seed)
  const server = new Y.Doc()
  const attribution = new Attribution()
  const users = [
    { doc: new Y.Doc(), name: 'ada', letters: 'abc' },
    { doc: new Y.Doc(), name: 'bob', letters: 'XYZ' },
  ]
  let time = Date.UTC(2026, 10, 27, 9)
  for (let step = 0; step < 300; step++) {
    const user = users[Math.floor(next() * 2)]!
    const text = user.doc.getText('text')
    const before = Y.encodeStateVector(user.doc)
    if (text.length > 0 && next() < 0.25) {
      const at = Math.floor(next() * text.length)
      text.delete(at, Math.min(text.length - at, 1 + Math.floor(next() * 3)))
    } else {
      const letter = user.letters[Math.floor(next() * 3)]!
      text.insert(Math.floor(next() * (text.length + 1)), letter.repeat(1 + Math.floor(next() * 4)))
    }
    const update = Y.encodeStateAsUpdate(user.doc, before)
    Y.applyUpdate(server, update)
    attribution.record(idsOfUpdate(update), user.name, time)
    time += 7_000
    for (const other of users) Y.applyUpdate(other.doc, Y.encodeStateAsUpdate(server))
  }
  return { server, attribution }
}

describe('Attribution', () => {
  for (const seed of [21, 22, 23]) {
    it(`names the author of every character, whoever typed around it (seed ${seed})`, () => {
      const { server, attribution } = twoAuthors(seed)
      const text = server.getText('text')
      const content = text.toString()
      const runs = authorsOfText(text, attribution, 0, content.length)
      expect(runs[0]?.from).toBe(0)
      expect(runs[runs.length - 1]?.to).toBe(content.length)
      for (const run of runs) {
        const written = content.slice(run.from, run.to)
        expect(written).toMatch(run.user === 'ada' ? /^[abc]+$/ : /^[XYZ]+$/)
        expect((run.time ?? 0) % ATTRIBUTION_RESOLUTION_MS).toBe(0)
      }
      // A part of the text gives the same authors as the whole, cut to it.
      const from = Math.floor(content.length / 3)
      const to = Math.floor((2 * content.length) / 3)
      const part = authorsOfText(text, attribution, from, to)
      expect(part.map((r) => content.slice(r.from, r.to)).join('')).toBe(content.slice(from, to))
    })
  }

  it('survives encoding, and keeps its first author when runs are adopted', () => {
    const { server, attribution } = twoAuthors(31)
    const text = server.getText('text')
    const copy = Attribution.decode(attribution.encode())
    expect(authorsOfText(text, copy, 0, text.length)).toEqual(
      authorsOfText(text, attribution, 0, text.length),
    )
    const later = new Attribution()
    later.record(idsOfUpdate(Y.encodeStateAsUpdate(server)), 'mallory', Date.now())
    copy.adopt(later)
    expect(authorsOfText(text, copy, 0, text.length).map((r) => r.user)).not.toContain('mallory')
    expect(copy.users()).toEqual(expect.arrayContaining(['ada', 'bob']))
  })

  it('does not make an author of a sender that only repeats what others made', () => {
    const attribution = new Attribution()
    const ids = (clock: number, length: number) => ({
      inserted: new Map([[7, [{ clock, length }]]]),
      deleted: new Map([[7, [{ clock: 0, length: 1 }]]]),
    })
    attribution.record(ids(0, 5), 'ada', 0)
    attribution.record(ids(0, 5), 'anonymous', 60_000)
    expect(attribution.users()).toEqual(['ada'])
    expect(attribution.usersSince(60_000)).toEqual([])
    attribution.record(ids(0, 6), 'bob', 120_000)
    expect(attribution.usersSince(60_000)).toEqual(['bob'])
  })

  it('keeps who accepted a proposal through encoding, apart from the same author unaccepted', () => {
    const attribution = new Attribution()
    const ids = (clock: number) => ({
      inserted: new Map([[7, [{ clock, length: 2 }]]]),
      deleted: new Map(),
    })
    attribution.record(ids(0), 'bot', 60_000)
    attribution.record(ids(2), 'bot', 60_000, 'ada')
    const visit = (copy: Attribution) => {
      const seen: [number, string | null, string | null][] = []
      copy.forEachInserted(7, 0, 4, (clock, _length, author) =>
        seen.push([clock, author?.user ?? null, author?.acceptedBy ?? null]),
      )
      return seen
    }
    const expected = [
      [0, 'bot', null],
      [2, 'bot', 'ada'],
    ]
    expect(visit(attribution)).toEqual(expected)
    expect(visit(Attribution.decode(attribution.encode()))).toEqual(expected)
    expect(attribution.users()).toEqual(['bot'])
    expect(attribution.usersSince(60_000)).toEqual(['bot', 'ada'])
  })

  it('reads the format written before accepters were kept', () => {
    const encoder = encoding.createEncoder()
    for (const n of [1, 1]) encoding.writeVarUint(encoder, n) // format 1; one user
    encoding.writeVarString(encoder, 'ada')
    for (const n of [1, 0]) encoding.writeVarUint(encoder, n) // one author: user 0
    encoding.writeVarInt(encoder, 3) // at minute 3
    for (const n of [1, 7, 1, 0, 4, 0, 0]) encoding.writeVarUint(encoder, n) // 7: 0-3 by 0
    const read = Attribution.decode(encoding.toUint8Array(encoder))
    const authors: unknown[] = []
    read.forEachInserted(7, 0, 4, (_clock, length, author) => authors.push({ length, author }))
    expect(authors).toEqual([
      { length: 4, author: { user: 'ada', time: 3 * ATTRIBUTION_RESOLUTION_MS, acceptedBy: null } },
    ])
  })

  it('refuses bytes that are not an attribution with a TypeError', () => {
    expect(() => Attribution.decode(new Uint8Array([9, 9, 9]))).toThrow(TypeError)
    expect(() => Attribution.decode(new Uint8Array([1, 1]))).toThrow(TypeError)
    const good = new Attribution()
    good.record({ inserted: new Map([[1, [{ clock: 0, length: 3 }]]]), deleted: new Map() }, 'a', 0)
    const bytes = good.encode()
    expect(() => Attribution.decode(bytes.slice(0, bytes.length - 1))).toThrow(TypeError)
  })
})
