/**
 * An `authorize` hook that admits connections carrying a signed token (see `tokens.ts`).
 */
import type { IncomingMessage } from 'node:http'
import { type Authorize, AuthRefusal } from '../tandem-server.js'
import { checkMaxLifetime, checkSecret, roomMatches, TokenError, verifyToken } from './tokens.js'

/** Options of `tokenAuthorizer`. */
export interface TokenAuthOptions {
  /** The longest token lifetime accepted, in seconds (default 30 days; see `verifyToken`). */
  readonly maxLifetimeSeconds?: number
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

/**
 * An `Authorize` that reads a token signed under `secret` from the `token` query parameter
 * (what a y-websocket client sends with `params: { token }`) or, failing that, from an
 * `Authorization: Bearer` header. It refuses with 401 when there is no token or the token is
 * malformed, badly signed, expired or not yet valid, and with 403 when the token's room
 * pattern does not match the room; otherwise the connection gets the token's role, and its
 * `sub` as the user. A token is checked when a connection opens; a connection stays open
 * after its token expires. Throws a `RangeError` at once for a secret shorter than 32 bytes
 * or an unusable `maxLifetimeSeconds`.
 *
 * @example new TandemServer({ store, authorize: tokenAuthorizer(process.env.TANDEM_AUTH_SECRET!) })
 */
export const tokenAuthorizer = (
  secret: string | Uint8Array,
  options: TokenAuthOptions = {},
): Authorize => {
  checkSecret(secret)
  const { maxLifetimeSeconds } = options
  if (maxLifetimeSeconds !== undefined) checkMaxLifetime(maxLifetimeSeconds)
  return (request, room) => {
    const token = tokenOf(request)
    if (token === null) throw new AuthRefusal(401, NO_TOKEN_REASON)
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
    return { role: claims.role, user: claims.sub }
  }
}
