/**
 * What the page's address says: the document (`?room=`), the access token (`?token=`) and
 * the role that token claims, and where the server's rooms are.
 */

/** The document opened when the address names none. */
export const DEFAULT_ROOM = 'welcome'

/** The role a token claims, or null when there is no token or it cannot be read. */
export type TokenRole = 'read' | 'write' | null

/** What the page opens. */
export interface PageAddress {
  readonly room: string
  readonly token: string | undefined
  readonly role: TokenRole
}

/**
 * Reads the page's address. The token's payload is decoded, not verified (the server
 * verifies it): it only tells the page what to show before the server answers.
 *
 * @example readAddress(new URL('http://h/?room=notes&token=x.y.z')).room // => 'notes'
 */
export const readAddress = (url: URL): PageAddress => {
  const room = url.searchParams.get('room')?.trim() || DEFAULT_ROOM
  const token = url.searchParams.get('token') ?? undefined
  return { room, token, role: token === undefined ? null : roleOfToken(token) }
}

/** The address of document `room`, keeping the rest of `url` (the token among it). */
export const addressOfRoom = (url: URL, room: string): URL => {
  const next = new URL(url)
  next.searchParams.set('room', room)
  return next
}

/**
 * The `role` claim of a JSON Web Token, unverified; null for anything else.
 *
 * @example roleOfToken(signToken({ room: '*', role: 'read', sub: 'vi', exp }, secret)) // => 'read'
 */
export const roleOfToken = (token: string): TokenRole => {
  const payload = token.split('.')[1]
  if (payload === undefined) return null
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/')
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0))
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes))
    const role = (claims as { role?: unknown } | null)?.role
    return role === 'read' || role === 'write' ? role : null
  } catch {
    return null
  }
}

/**
 * The server's WebSocket address for rooms, on the page's own host: `ws://host/ws`
 * (`wss:` under https), as `tandem-server --static` serves them.
 */
export const roomsUrl = (page: URL): string =>
  `${page.protocol === 'https:' ? 'wss:' : 'ws:'}//${page.host}/ws`
