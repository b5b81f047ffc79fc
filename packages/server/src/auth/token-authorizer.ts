/**
 * Hooks that admit connections carrying a signed token (see `tokens.ts`): `authorize` checks
 * the token a connection opens with, `authorizeToken` a fresh one handed over on an open
 * connection. Both give the token's role, its `sub` as the user, and its `exp` as the moment
 * access ends.
 */
import type { IncomingMessage } from 'node:http'
import {
  type Authorization,
  type Authorize,
  type AuthorizeToken,
  AuthRefusal,
} from '../server-options.js'
import { checkMaxLifetime, checkSecret, roomMatches, TokenError, verifyToken } from './tokens.js'

/** Options of `tokenAuthorizer` and `tokenAuth`. */
export interface TokenAuthOptions {
  /** The longest token lifetime accepted, in seconds (default 30 days; see `verifyToken`). */
  readonly maxLifetimeSeconds?: number
}

/** The hooks of `TandemServerOptions` that check signed tokens, as `tokenAuth` gives them. */
export interface TokenAuth {
  /** Checks the token a connection opens with. */
  readonly authorize: Authorize
  /** Checks a fresh token handed over on an open connection. */
  readonly authorizeToken: AuthorizeToken
}

/** The refusal reason when a request carries no token. */
export const NO_TOKEN_REASON = 'a token is needed: pass it as the query parameter "token"'

/** The token of `request`: its `token` query parameter, else its `Authorization: Bearer` header. */
const tokenOf = (request: IncomingMessage): string | null => {
  const query = new URL(request.url ?? '/', 'http://localhost').searchParams.get('token')
  if (query !== null && query !== '') return query
  const bearer = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '')
  return bearer === null ? null : bearer[1]!
}

/** What `token` allows in `room`, or an `AuthRefusal` saying why nothing. */
const checkToken = (
  token: string,
  room: string,
  secret: string | Uint8Array,
  maxLifetimeSeconds: number | undefined,
): Authorization => {
  let claims: ReturnType<typeof verifyToken>
  try {
    claims = verifyToken(token, secret, { maxLifetimeSeconds })
  } catch (error) {
    if (error instanceof TokenError) throw new AuthRefusal(401, `invalid token: ${error.message}`)
    throw error
  }
  if (!roomMatches(claims.room, room)) {
    throw new AuthRefusal(403, `the token does not open the room ${JSON.stringify(room)}`)
  }
  return { role: claims.role, user: claims.sub, expiresAt: claims.exp * 1000 }
}

/**
 * Both hooks for signed tokens under `secret`, to spread into `TandemServerOptions`: a
 * connection opens with a token (see `tokenAuthorizer`), is closed with 4401 when that token
 * expires, and may hand over a fresh one for the same user and room before then, which is
 * checked the same way (a bad one closes the connection with 4401, one for another room or
 * user with 4403). Throws a `RangeError` at once for a secret shorter than 32 bytes or an
 * unusable `maxLifetimeSeconds`.
 *
 * @example new TandemServer({ store, ...tokenAuth(process.env.TANDEM_AUTH_SECRET!) })
 */
export const tokenAuth = (
  secret: string | Uint8Array,
  options: TokenAuthOptions = {},
): TokenAuth => {
  checkSecret(secret)
  const { maxLifetimeSeconds } = options
  if (maxLifetimeSeconds !== undefined) checkMaxLifetime(maxLifetimeSeconds)
  return {
    authorize: (request, room) => {
      const token = tokenOf(request)
      if (token === null) throw new AuthRefusal(401, NO_TOKEN_REASON)
      return checkToken(token, room, secret, maxLifetimeSeconds)
    },
    authorizeToken: (token, room) => {
      if (token === '') throw new AuthRefusal(401, 'invalid token: the token handed over is empty')
      return checkToken(token, room, secret, maxLifetimeSeconds)
    },
  }
}

/**
 * An `Authorize` that reads a token signed under `secret` from the `token` query parameter
 * (what a y-websocket client sends with `params: { token }`) or, failing that, from an
 * `Authorization: Bearer` header. It refuses with 401 when there is no token or the token is
 * malformed, badly signed, expired, not yet valid or too long-lived, and with 403 when the
 * token's room pattern does not match the room; otherwise the connection gets the token's
 * role, its `sub` as the user, and its `exp` as the end of its access (the connection is
 * closed then). It is `tokenAuth(secret).authorize`: without `authorizeToken` beside it,
 * clients cannot hand over a fresh token. Throws a `RangeError` at once for a secret shorter
 * than 32 bytes or an unusable `maxLifetimeSeconds`.
 *
 * @example new TandemServer({ store, authorize: tokenAuthorizer(process.env.TANDEM_AUTH_SECRET!) })
 */
export const tokenAuthorizer = (
  secret: string | Uint8Array,
  options: TokenAuthOptions = {},
): Authorize => tokenAuth(secret, options).authorize
