/**
 * Signed tokens: what they carry, and that nothing but an untouched, current HS256 token
 * under the right secret is accepted.
 */
import { createHmac } from 'node:crypto'
import * as prng from 'lib0/prng'
import { describe, expect, it } from 'vitest'
import {
  checkSecret,
  MAX_TOKEN_LIFETIME_SECONDS,
  roomMatches,
  signToken,
  type TokenClaims,
  TokenError,
  type TokenProblem,
  verifyToken,
} from './tokens.js'

const SECRET = 'a secret of forty characters, for tests'.padEnd(40, '.')
const NOW = 1_750_000_000
const CLAIMS: TokenClaims = { room: 'team/*', role: 'read', sub: 'ada', iat: NOW, exp: NOW + 60 }
const SEED = Number(process.env.SEED ?? 20_240_611)

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** A token with any header and payload, signed with HS256 under `secret` regardless. */
const forge = (header: unknown, payload: unknown, secret = SECRET) => {
  const input = `${b64(header)}.${b64(payload)}`
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`
}

/** The problem `verifyToken` reports for `token`, or null when it accepts it. */
const problemOf = (token: string, now = NOW, secret = SECRET): TokenProblem | null => {
  try {
    verifyToken(token, secret, { now })
    return null
  } catch (error) {
    if (error instanceof TokenError) return error.problem
    throw error
  }
}

describe('signToken and verifyToken', () => {
  it('round-trip the claims, and refuse the token under another secret', () => {
    const token = signToken(CLAIMS, SECRET)
    expect(token.split('.')).toHaveLength(3)
    expect(verifyToken(token, SECRET, { now: NOW })).toEqual(CLAIMS)
    expect(verifyToken(token, Buffer.from(SECRET), { now: NOW + 59 })).toEqual(CLAIMS)
    expect(problemOf(token, NOW, `${SECRET}!`)).toBe('signature')
    const unicode = { ...CLAIMS, room: 'équipe/📝 *', sub: 'zoë', nbf: NOW - 5 }
    expect(verifyToken(signToken(unicode, SECRET), SECRET, { now: NOW })).toEqual(unicode)
  })

  it('refuses every token with one character changed, in header, payload or signature', () => {
    const token = signToken(CLAIMS, SECRET)
    const alphabet = [
      ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
      ...'.=+/ %é\u0000',
    ]
    // Every character for every other one: this includes the spellings of a part's last
    // character that differ only in bits base64url decoding drops.
    for (let at = 0; at < token.length; at++) {
      for (const char of alphabet) {
        if (char === token[at]) continue
        const changed = token.slice(0, at) + char + token.slice(at + 1)
        expect(problemOf(changed), `position ${at}: ${changed}`).not.toBeNull()
      }
    }
  })

  it('refuses every token with one byte of a part changed', () => {
    const gen = prng.create(SEED + 1)
    const parts = signToken(CLAIMS, SECRET).split('.')
    for (const [index, part] of parts.entries()) {
      const bytes = Buffer.from(part, 'base64url')
      for (let at = 0; at < bytes.length; at++) {
        const changed = Buffer.from(bytes)
        changed[at] = changed[at]! ^ prng.int32(gen, 1, 255)
        const tampered = [...parts]
        tampered[index] = changed.toString('base64url')
        expect(
          problemOf(tampered.join('.')),
          `seed ${SEED + 1}, part ${index}, byte ${at}`,
        ).not.toBeNull()
      }
    }
  })

  it('refuses alg none, HS512, RS256 and a critical extension, even when signed', () => {
    const payload = b64(CLAIMS)
    expect(problemOf(`${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`)).toBe('algorithm')
    expect(problemOf(`${b64({ alg: 'none' })}.${payload}.c2ln`)).toBe('algorithm')
    expect(problemOf(forge({ alg: 'none' }, CLAIMS))).toBe('algorithm')
    const hs512 = `${b64({ alg: 'HS512' })}.${payload}`
    const signed = createHmac('sha512', SECRET).update(hs512).digest('base64url')
    expect(problemOf(`${hs512}.${signed}`)).toBe('algorithm')
    expect(problemOf(forge({ alg: 'RS256' }, CLAIMS))).toBe('algorithm')
    expect(problemOf(forge({ typ: 'JWT' }, CLAIMS))).toBe('algorithm')
    expect(problemOf(forge({ alg: 'HS256', crit: ['exp'] }, CLAIMS))).toBe('algorithm')
    expect(problemOf(forge({ alg: 'HS256' }, CLAIMS))).toBeNull()
  })

  it('refuses an expired token and one not yet valid, saying since or until when', () => {
    const token = signToken(CLAIMS, SECRET)
    expect(problemOf(token, NOW + 60)).toBe('expired')
    expect(() => verifyToken(token, SECRET, { now: NOW + 61 })).toThrow(
      `expired at ${new Date((NOW + 60) * 1000).toISOString()}`,
    )
    const later = signToken({ ...CLAIMS, nbf: NOW + 10 }, SECRET)
    expect(problemOf(later, NOW + 9)).toBe('not-yet-valid')
    expect(problemOf(later, NOW + 10)).toBeNull()
    // By the clock: a token that expired a minute ago.
    const old = signToken({ ...CLAIMS, iat: 1, exp: Math.floor(Date.now() / 1000) - 60 }, SECRET)
    expect(() => verifyToken(old, SECRET)).toThrow(TokenError)
  })

  it('refuses a token that lives longer than the cap, 30 days unless the verifier says otherwise', () => {
    const day = 24 * 3600
    expect(MAX_TOKEN_LIFETIME_SECONDS).toBe(30 * day)
    const month = signToken({ ...CLAIMS, exp: NOW + 30 * day }, SECRET)
    expect(problemOf(month)).toBeNull()
    const longer = signToken({ ...CLAIMS, exp: NOW + 30 * day + 1 }, SECRET)
    expect(problemOf(longer)).toBe('lifetime')
    expect(() => verifyToken(longer, SECRET, { now: NOW })).toThrow(
      `lives too long: ${30 * day + 1} s from issue to expiry, more than the ${30 * day} s allowed`,
    )
    // The lifetime counts from `iat`, however little of it is left.
    expect(problemOf(longer, NOW + 2 * day)).toBe('lifetime')
    // Without `iat`, or with one in the future, from now.
    const noIat = forge({ alg: 'HS256' }, { room: 'r', role: 'read', sub: 'a', exp: 1e308 })
    expect(problemOf(noIat)).toBe('lifetime')
    const fromNow = forge({ alg: 'HS256' }, { room: 'r', role: 'read', sub: 'a', exp: NOW + day })
    expect(problemOf(fromNow)).toBeNull()
    const future = signToken({ ...CLAIMS, iat: NOW + 365 * day, exp: NOW + 366 * day }, SECRET)
    expect(problemOf(future)).toBe('lifetime')
    // The cap is the verifier's to choose.
    expect(verifyToken(longer, SECRET, { now: NOW, maxLifetimeSeconds: 31 * day }).sub).toBe('ada')
    expect(() =>
      verifyToken(signToken({ ...CLAIMS, exp: NOW + 61 }, SECRET), SECRET, {
        now: NOW,
        maxLifetimeSeconds: 60,
      }),
    ).toThrow(TokenError)
    expect(() => verifyToken(month, SECRET, { now: NOW, maxLifetimeSeconds: 0 })).toThrow(
      RangeError,
    )
  })

  it('refuses malformed tokens and missing or ill-typed claims', () => {
    for (const bad of ['', 'abc', 'a.b', 'a.b.c.d', '..', `${'x'.repeat(9000)}.a.b`]) {
      expect(problemOf(bad), bad.slice(0, 20)).toBe('malformed')
    }
    expect(problemOf(forge({ alg: 'HS256' }, [1, 2]))).toBe('malformed')
    expect(problemOf(forge({ alg: 'HS256' }, 'text'))).toBe('malformed')
    const { room: _room, ...noRoom } = CLAIMS
    const { exp: _exp, ...noExp } = CLAIMS
    const ill: unknown[] = [
      noRoom,
      noExp,
      { ...CLAIMS, room: '' },
      { ...CLAIMS, room: 'half \ud800' },
      { ...CLAIMS, room: 'x'.repeat(513) },
      { ...CLAIMS, role: 'admin' },
      { ...CLAIMS, sub: 7 },
      { ...CLAIMS, sub: '' },
      { ...CLAIMS, exp: `${NOW + 60}` },
      { ...CLAIMS, iat: 'yesterday' },
      { ...CLAIMS, nbf: null },
    ]
    for (const payload of ill) {
      expect(problemOf(forge({ alg: 'HS256' }, payload)), JSON.stringify(payload)).toBe('claims')
    }
    expect(() => signToken({ ...CLAIMS, role: 'admin' as 'read' }, SECRET)).toThrow(TypeError)
  })

  it('refuses secrets shorter than 32 bytes, with a clear error', () => {
    expect(() => checkSecret('x'.repeat(31))).toThrow(
      'the secret must have at least 32 bytes to be safe, got 31',
    )
    expect(() => signToken(CLAIMS, 'short')).toThrow(RangeError)
    expect(() => verifyToken('a.b.c', new Uint8Array(16))).toThrow(RangeError)
    // Counted in UTF-8 bytes: 11 three-byte characters are enough.
    expect(() => checkSecret('鍵'.repeat(11))).not.toThrow()
  })
})

describe('roomMatches', () => {
  const table: [pattern: string, room: string, matches: boolean][] = [
    ['notes', 'notes', true],
    ['notes', 'notes2', false],
    ['notes', 'Notes', false],
    ['notes', 'note', false],
    ['*', 'anything/at all', true],
    ['team/*', 'team/notes', true],
    ['team/*', 'team/', true],
    ['team/*', 'team/a/b', true],
    ['team/*', 'teams', false],
    ['team/*', 'other/team/x', false],
    ['*/notes', 'a/b/notes', true],
    ['*/notes', 'notes', false],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'a-b-b-c', true],
    ['a*b*c', 'acb', false],
    ['a*a', 'a', false],
    ['a*a', 'aa', true],
    ['ab*ba', 'aba', false],
    ['**', '', true],
    // Regular-expression metacharacters are plain characters.
    ['a.c', 'abc', false],
    ['a.c', 'a.c', true],
    ['(x|y)+', 'x', false],
    ['(x|y)+', '(x|y)+', true],
    ['[abc]', 'a', false],
    ['^$\\d?{2}', '^$\\d?{2}', true],
    ['team?', 'team', false],
    ['*.md', 'readme.md', true],
    ['*.md', 'readme-md', false],
    // `*` is never literal, but it matches a `*` too.
    ['a*', 'a*', true],
    // Unicode: exact, no normalization; `*` spans astral characters whole.
    ['équipe/*', 'équipe/plan', true],
    ['équipe/*', 'e\u0301quipe/plan', false],
    ['📝*📝', '📝 notes 📝', true],
    ['📝*📝', '📝', false],
    ['*日本', '東京 日本', true],
  ]
  it.each(table)('%s against %s: %s', (pattern, room, matches) => {
    expect(roomMatches(pattern, room)).toBe(matches)
  })

  it('refuses unusable patterns with a TypeError', () => {
    expect(() => roomMatches('', 'a')).toThrow(TypeError)
    expect(() => roomMatches('\udc00*', 'a')).toThrow(TypeError)
  })
})
