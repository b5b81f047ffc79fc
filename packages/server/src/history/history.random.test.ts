/**
 * Attribution and versions against a reference, through a real server on loopback over a
 * real SQLite file that compacts as it goes: three users with tokens type and delete at
 * random (each only their own letters, so every character names its author), versions are
 * saved now and then; afterwards the authors of every character, and the diff between every
 * two versions, must agree with what the stored log and the saved texts say.
 */
import { describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import { tokenAuth } from '../auth/token-authorizer.js'
import { signToken } from '../auth/tokens.js'
import type { StockClient } from '../testing/clients.js'
import { useTestServers } from '../testing/test-servers.js'

const WAIT = { timeout: 15_000, interval: 20 }
const SECRET = 'history-random-test-secret-long-enough'
const servers = useTestServers('history-random')

/** A small seeded generator (mulberry32), so a failing case can be replayed from its seed. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const USERS = [
  { name: 'ada', letters: 'abc' },
  { name: 'bob', letters: 'XYZ' },
  { name: 'cy', letters: '123' },
]
const authorOfChar = (char: string) => USERS.find((u) => u.letters.includes(char))!.name

const token = (sub: string) =>
  signToken({ room: '*', role: 'write', sub, exp: Math.floor(Date.now() / 1000) + 600 }, SECRET)

describe('attribution and versions against the stored log', () => {
  for (const seed of [7, 8]) {
    it(`agree with the reference after random typing, compaction and versions (seed ${seed})`, async () => {
      const next = random(seed)
      const { server, store, url } = await servers.start({
        ...tokenAuth(SECRET),
        compactAfterUpdates: 20,
        versions: { manualOnly: true },
      })
      const clients: StockClient[] = USERS.map((u) =>
        servers.client(url, 'r', { token: token(u.name) }),
      )
      await Promise.all(clients.map((c) => c.synced()))
      const saved: { id: string; text: string }[] = []
      const settle = async () => {
        await vi.waitFor(() => {
          const texts = clients.map((c) => c.text.toString())
          expect(new Set(texts).size).toBe(1)
        }, WAIT)
        await vi.waitFor(async () => {
          const runs = await server.history.authorsOf('r')
          expect(runs.at(-1)?.to ?? 0).toBe(clients[0]!.text.length)
        }, WAIT)
      }
      for (let round = 0; round < 6; round++) {
        for (let step = 0; step < 25; step++) {
          const who = Math.floor(next() * USERS.length)
          const text = clients[who]!.text
          if (text.length > 3 && next() < 0.3) {
            const at = Math.floor(next() * text.length)
            text.delete(at, Math.min(text.length - at, 1 + Math.floor(next() * 3)))
          } else {
            const letter = USERS[who]!.letters[Math.floor(next() * 3)]!
            text.insert(
              Math.floor(next() * (text.length + 1)),
              letter.repeat(1 + Math.floor(next() * 3)),
            )
          }
          if (next() < 0.2) await new Promise((resolve) => setTimeout(resolve, 5))
        }
        await settle()
        const version = await server.history.saveVersion('r', `round ${round}`, 'ada')
        saved.push({ id: version.id, text: clients[0]!.text.toString() })
      }
      // The stored log (compacted on the way) rebuilds the text everyone has.
      const stored = await store.load('r')
      expect(stored.updates.length).toBeLessThan(60)
      const doc = new Y.Doc()
      for (const update of stored.updates) Y.applyUpdate(doc, update)
      const text = doc.getText('text').toString()
      expect(text).toBe(clients[0]!.text.toString())
      // Every character's author is the user whose letters it is.
      const runs = await server.history.authorsOf('r')
      for (const { from, to, user } of runs) {
        for (const char of text.slice(from, to))
          expect(user, `${char} at ${from}`).toBe(authorOfChar(char))
      }
      // Every version reads as saved, and every diff turns one text into the other, the
      // insertions by the users whose letters they are.
      for (const { id, text: expected } of saved) {
        expect((await server.history.openVersion('r', id))?.text).toBe(expected)
      }
      for (let i = 0; i < saved.length; i++) {
        for (let j = i + 1; j < saved.length; j++) {
          const diff = (await server.history.diff('r', saved[i]!.id, saved[j]!.id))!
          const before = diff.runs
            .filter((r) => r.kind !== 'inserted')
            .map((r) => r.text)
            .join('')
          const after = diff.runs
            .filter((r) => r.kind !== 'deleted')
            .map((r) => r.text)
            .join('')
          expect(before).toBe(saved[i]!.text)
          expect(after).toBe(saved[j]!.text)
          for (const run of diff.runs) {
            if (run.kind === 'inserted') {
              for (const char of run.text) expect(run.user).toBe(authorOfChar(char))
            }
            if (run.kind === 'deleted') expect(USERS.map((u) => u.name)).toContain(run.user)
          }
        }
      }
    })
  }
})
