/**
 * Signed access tokens: JSON Web Tokens signed with HMAC-SHA256 (HS256) under a secret the
 * server and whoever mints tokens share. A token names a room pattern, a role and a user, and
 * expires, within a bounded lifetime. Only HS256 is accepted: `none` and every other algorithm
 * are refused, so a token's header can never choose how it is checked.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Role } from '../room.js'
import { MAX_ROOM_LENGTH } from '../storage/document-store.js'

/** What a token grants. Times are seconds since the epoch (JWT "NumericDate"). */
export interface TokenClaims {
  /** The rooms the token opens: a room name, where each `*` matches any run of characters. */
  readonly room: string
  /** What the token allows in those rooms. */
  readonly role: Role
  /** The user's id. */
  readonly sub: string
  /** The token is refused from this moment on. */
  readonly exp: number
  /** When it was issued; `signToken` sets it to the current time unless given. */
  readonly iat?: number
  /** The token is refused before this moment. */
  readonly nbf?: number
}

/** Why a token was refused. */
export type TokenProblem =
  | 'malformed'
  | 'algorithm'
  | 'signature'
  | 'expired'
  | 'not-yet-valid'
  | 'lifetime'
  | 'claims'

/** Thrown by `verifyToken`: `problem` says why the token is refused, the message says more. */
export class TokenError extends Error {
  /** Always `'TokenError'`. */
  override readonly name = 'TokenError'

  constructor(
    /** Why the token was refused. */
    readonly problem: TokenProblem,
    message: string,
  ) {
    super(message)
  }
}

/** The fewest secret bytes accepted: as many as the SHA-256 output, as RFC 7518 asks. */
export const MIN_SECRET_BYTES = 32

/** The longest token accepted, in characters; longer input is refused before any work. */
export const MAX_TOKEN_LENGTH = 8192

/**
 * The longest lifetime a token may have unless its verifier allows more: 30 days. A token is
 * a key that cannot be taken back before it expires; one that never does (`exp` of 1e308)
 * would open its rooms for good to whoever obtained it.
 */
export const MAX_TOKEN_LIFETIME_SECONDS = 30 * 24 * 3600

const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))
const BASE64URL = /^[A-Za-z0-9_-]+$/
const LONE_SURROGATE = /\p{Cs}/u

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url')
}

/** The secret's bytes (a string is taken as its UTF-8 bytes, never decoded). */
const secretBytes = (secret: string | Uint8Array): Uint8Array => {
  if (typeof secret === 'string') return Buffer.from(secret, 'utf8')
  if (secret instanceof Uint8Array) return secret
  throw new TypeError(`a secret must be a string or a Uint8Array, got ${typeof secret}`)
}

/**
 * Throws a `RangeError` unless `secret` has at least `MIN_SECRET_BYTES` bytes (a string counts
 * its UTF-8 bytes).
 *
 * @example checkSecret(randomBytes(32).toString('base64url'))
 */
export const checkSecret = (secret: string | Uint8Array): void => {
  const bytes = secretBytes(secret).length
  if (bytes < MIN_SECRET_BYTES) {
    throw new RangeError(
      `the secret must have at least ${MIN_SECRET_BYTES} bytes to be safe, got ${bytes}; ` +
        'make one with: openssl rand -base64 32',
    )
  }
}

const sign = (input: string, secret: string | Uint8Array): Buffer =>
  createHmac('sha256', secretBytes(secret)).update(input).digest()

const isNumericDate = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value)

/** Why `pattern` is not a usable room pattern, or null. */
const patternProblem = (pattern: unknown): string | null => {
  if (typeof pattern !== 'string' || pattern === '' || pattern.length > MAX_ROOM_LENGTH) {
    return `must be a string of 1 to ${MAX_ROOM_LENGTH} characters`
  }
  if (LONE_SURROGATE.test(pattern)) return 'must be well-formed text (no lone surrogate)'
  return null
}

/** Why `claims` are not usable claims, or null. */
const claimsProblem = (claims: Record<string, unknown>): string | null => {
  const room = patternProblem(claims.room)
  if (room !== null) return `claim "room" ${room}`
  if (claims.role !== 'read' && claims.role !== 'write') {
    return 'claim "role" must be "read" or "write"'
  }
  if (typeof claims.sub !== 'string' || claims.sub === '') {
    return 'claim "sub" (the user id) must be a non-empty string'
  }
  if (!isNumericDate(claims.exp)) return 'claim "exp" must be a number of seconds since the epoch'
  for (const name of ['iat', 'nbf'] as const) {
    if (claims[name] !== undefined && !isNumericDate(claims[name])) {
      return `claim "${name}" must be a number of seconds since the epoch when present`
    }
  }
  return null
}

/** The current time in seconds since the epoch. */
const nowSeconds = (): number => Math.floor(Date.now() / 1000)

/**
 * A token carrying `claims`, signed with HS256 under `secret`. `iat` is the current time unless
 * given. Throws a `TypeError` for unusable claims and a `RangeError` for a short secret.
 *
 * @example
 * const token = signToken({ room: 'team/*', role: 'read', sub: 'ada', exp: nowInSeconds + 3600 }, secret)
 */
export const signToken = (claims: TokenClaims, secret: string | Uint8Array): string => {
  checkSecret(secret)
  const problem = claimsProblem({ ...claims })
  if (problem !== null) throw new TypeError(`cannot sign: ${problem}`)
  const payload: TokenClaims = {
    room: claims.room,
    role: claims.role,
    sub: claims.sub,
    iat: claims.iat ?? nowSeconds(),
    exp: claims.exp,
    ...(claims.nbf === undefined ? {} : { nbf: claims.nbf }),
  }
  const input = `${HEADER}.${base64url(JSON.stringify(payload))}`
  return `${input}.${sign(input, secret).toString('base64url')}`
}

/** The bytes of one base64url part of a token, or null unless it is canonical base64url. */
const decodePart = (part: string): Buffer | null => {
  if (!BASE64URL.test(part)) return null
  const bytes = Buffer.from(part, 'base64url')
  // Node ignores stray trailing bits; a token must have one spelling only.
  return bytes.toString('base64url') === part ? bytes : null
}

/** The JSON object a part encodes, or null. */
const decodeObject = (part: string): Record<string, unknown> | null => {
  const bytes = decodePart(part)
  if (bytes === null) return null
  try {
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}

const malformed = (what: string) => new TokenError('malformed', `malformed token: ${what}`)

const dateOf = (seconds: number): string => {
  const date = new Date(seconds * 1000)
  return Number.isNaN(date.getTime()) ? `${seconds}` : date.toISOString()
}

/** Options of `verifyToken`. */
export interface VerifyOptions {
  /** The current time in seconds since the epoch (default: the clock). */
  readonly now?: number
  /**
   * The longest lifetime accepted, in seconds (default `MAX_TOKEN_LIFETIME_SECONDS`, 30 days):
   * from `iat` (or from now, when `iat` is missing or later) to `exp`.
   */
  readonly maxLifetimeSeconds?: number
}

/** Throws a `RangeError` unless `seconds` is a usable lifetime cap. */
export const checkMaxLifetime = (seconds: number): void => {
  if (!(typeof seconds === 'number' && seconds > 0 && !Number.isNaN(seconds))) {
    throw new RangeError(
      `a token lifetime cap must be a positive number of seconds, got ${seconds}`,
    )
  }
}

/**
 * The claims of `token` if it is an HS256 token signed under `secret`, well-formed, valid at
 * `now`, and not living longer than `maxLifetimeSeconds`; otherwise throws a `TokenError`
 * saying why. The signature is checked before the claims are read, and in constant time.
 * Claims other than those of `TokenClaims` are dropped.
 *
 * @example const { room, role, sub } = verifyToken(request.token, secret)
 */
export const verifyToken = (
  token: string,
  secret: string | Uint8Array,
  options: VerifyOptions = {},
): TokenClaims => {
  checkSecret(secret)
  const maxLifetime = options.maxLifetimeSeconds ?? MAX_TOKEN_LIFETIME_SECONDS
  checkMaxLifetime(maxLifetime)
  if (typeof token !== 'string') throw malformed(`expected a string, got ${typeof token}`)
  if (token.length > MAX_TOKEN_LENGTH) {
    throw malformed(`longer than ${MAX_TOKEN_LENGTH} characters`)
  }
  const parts = token.split('.')
  if (parts.length !== 3) throw malformed('expected three base64url parts separated by dots')
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string]
  const header = decodeObject(headerPart)
  if (header === null) throw malformed('the header is not base64url-encoded JSON')
  if (header.alg !== 'HS256') {
    throw new TokenError(
      'algorithm',
      `unsupported algorithm ${JSON.stringify(header.alg) ?? 'undefined'}: only HS256 is accepted`,
    )
  }
  // Extensions this code does not know must not be ignored (RFC 7515, section 4.1.11).
  if (header.crit !== undefined) {
    throw new TokenError('algorithm', 'unsupported header parameter "crit"')
  }
  const signature = decodePart(signaturePart)
  const expected = sign(`${headerPart}.${payloadPart}`, secret)
  if (signature === null || signature.length !== expected.length) {
    throw new TokenError('signature', 'bad signature')
  }
  if (!timingSafeEqual(signature, expected)) throw new TokenError('signature', 'bad signature')
  const claims = decodeObject(payloadPart)
  if (claims === null) throw malformed('the payload is not base64url-encoded JSON')
  const problem = claimsProblem(claims)
  if (problem !== null) throw new TokenError('claims', problem)
  const valid = claims as unknown as TokenClaims
  const now = options.now ?? Date.now() / 1000
  if (now >= valid.exp) throw new TokenError('expired', `expired at ${dateOf(valid.exp)}`)
  if (valid.nbf !== undefined && now < valid.nbf) {
    throw new TokenError('not-yet-valid', `not valid before ${dateOf(valid.nbf)}`)
  }
  // From issue to expiry; an issue time in the future counts from now, or it would stretch it.
  const lifetime = valid.exp - Math.min(valid.iat ?? now, now)
  if (lifetime > maxLifetime) {
    throw new TokenError(
      'lifetime',
      `lives too long: ${Math.ceil(lifetime)} s from issue to expiry, more than the ${maxLifetime} s allowed`,
    )
  }
  return {
    room: valid.room,
    role: valid.role,
    sub: valid.sub,
    exp: valid.exp,
    ...(valid.iat === undefined ? {} : { iat: valid.iat }),
    ...(valid.nbf === undefined ? {} : { nbf: valid.nbf }),
  }
}

/**
 * Whether the room name `room` matches `pattern`. Each `*` in a pattern matches any run of
 * characters, the empty run and `/` included; every other character, regular-expression
 * metacharacters included, matches only itself. The whole name must match. Comparison is
 * exact: case-sensitive, without Unicode normalization. There is no escape for a literal `*`:
 * a name containing `*` is matched by a pattern with a `*` at that place.
 *
 * @example roomMatches('team/*', 'team/notes') // => true; roomMatches('team/*', 'teams') // => false
 */
export const roomMatches = (pattern: string, room: string): boolean => {
  const problem = patternProblem(pattern)
  if (problem !== null) throw new TypeError(`a room pattern ${problem}, got ${String(pattern)}`)
  const pieces = pattern.split('*')
  const first = pieces[0]!
  if (pieces.length === 1) return room === first
  const last = pieces[pieces.length - 1]!
  if (room.length < first.length + last.length) return false
  if (!room.startsWith(first) || !room.endsWith(last)) return false
  // Taking each middle piece at its earliest place leaves the most room for the rest.
  let at = first.length
  const end = room.length - last.length
  for (const piece of pieces.slice(1, -1)) {
    const found = room.indexOf(piece, at)
    if (found === -1 || found + piece.length > end) return false
    at = found + piece.length
  }
  return true
}
