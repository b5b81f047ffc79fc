/**
 * Proposals against a reference, through a real server on loopback: a program proposes to
 * replace a random stretch of the text over HTTP, a person then types and deletes at random
 * around it and inside it (never deleting the proposed stretch), and accepting must replace
 * exactly what the reference says the stretch holds by then: the characters it started with
 * and those typed strictly inside it, not those typed at its edges.
 */
import { describe, expect, it, vi } from 'vitest'
import { tokenAuth } from '../auth/token-authorizer.js'
import { signToken } from '../auth/tokens.js'
import { useTestServers } from '../testing/test-servers.js'

const WAIT = { timeout: 15_000, interval: 20 }
const SECRET = 'proposals-random-test-secret-long-enough'
const servers = useTestServers('proposals-random')

/** A small seeded generator (mulberry32), so a failing case can be replayed from its seed. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const token = (sub: string) =>
  signToken({ room: '*', role: 'write', sub, exp: Math.floor(Date.now() / 1000) + 600 }, SECRET)

/** A character of the reference text, and whether it is in the proposal's stretch. */
interface Char {
  readonly char: string
  readonly inside: boolean
}

describe('proposals against a reference', () => {
  for (const seed of [1, 2, 3]) {
    it(`replace what the stretch holds when accepted, whatever was typed meanwhile (seed ${seed})`, async () => {
      const next = random(seed)
      const pick = (n: number) => Math.floor(next() * n)
      const letter = () => 'abcdefghijklmnopqrstuvwxyz'[pick(26)]!
      const { port, url, server } = await servers.start(tokenAuth(SECRET))
      const ada = servers.client(url, 'doc', { token: token('ada') })
      await ada.synced()
      const initial = Array.from({ length: 20 }, letter).join('')
      ada.text.insert(0, initial)
      await vi.waitFor(async () => {
        const [run] = await server.history.authorsOf('doc')
        expect(run?.to).toBe(20)
      }, WAIT)
      const from = pick(19)
      const to = from + 1 + pick(20 - from - 1)
      const response = await fetch(`http://127.0.0.1:${port}/api/rooms/doc/changes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token('bot')}` },
        body: JSON.stringify({ propose: true, changes: [{ from, to, insert: 'PROPOSED' }] }),
      })
      const { proposal } = (await response.json()) as { proposal: string }
      const reference: Char[] = [...initial].map((char, i) => ({
        char,
        inside: i >= from && i < to,
      }))
      for (let step = 0; step < 40; step++) {
        const first = reference.findIndex((c) => c.inside)
        const last = first + reference.filter((c) => c.inside).length - 1
        const deletable = reference.flatMap((c, i) => (c.inside ? [] : [i]))
        const choice = pick(3)
        if (choice === 0 && last > first) {
          // Strictly inside: between two characters of the stretch.
          const at = first + 1 + pick(last - first)
          const char = letter().toUpperCase()
          ada.text.insert(at, char)
          reference.splice(at, 0, { char, inside: true })
        } else if (choice === 2 && deletable.length > 0) {
          const at = deletable[pick(deletable.length)]!
          ada.text.delete(at, 1)
          reference.splice(at, 1)
        } else {
          // Outside, edges included: at or before its first character, or after its last.
          const before = pick(2) === 0
          const at = before ? pick(first + 1) : last + 1 + pick(reference.length - last)
          const char = letter()
          ada.text.insert(at, char)
          reference.splice(at, 0, { char, inside: false })
        }
      }
      const typed = reference.map((c) => c.char).join('')
      expect(ada.text.toString(), `seed ${seed}`).toBe(typed)
      await vi.waitFor(async () => {
        const answer = await fetch(`http://127.0.0.1:${port}/api/rooms/doc`, {
          headers: { authorization: `Bearer ${token('bot')}` },
        })
        expect(((await answer.json()) as { text: string }).text).toBe(typed)
      }, WAIT)
      const start = reference.findIndex((c) => c.inside)
      const stretch = reference
        .filter((c) => c.inside)
        .map((c) => c.char)
        .join('')
      const [listed] = await server.proposals.list('doc')
      expect(listed?.changes, `seed ${seed}`).toEqual([
        { from: start, to: start + stretch.length, insert: 'PROPOSED', replaced: stretch },
      ])
      expect(await server.proposals.accept('doc', proposal, 'bob')).not.toBeNull()
      const expected = `${typed.slice(0, start)}PROPOSED${typed.slice(start + stretch.length)}`
      await vi.waitFor(() => expect(ada.text.toString(), `seed ${seed}`).toBe(expected), WAIT)
      const runs = await server.history.authorsOf('doc')
      expect(runs.filter((run) => run.user === 'bot')).toEqual([
        { from: start, to: start + 8, user: 'bot', time: expect.any(Number), acceptedBy: 'bob' },
      ])
    })
  }
})
