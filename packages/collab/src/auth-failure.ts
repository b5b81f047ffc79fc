/**
 * Telling a refused connection from a lost one, and learning the server's reason.
 *
 * A server refuses a bad token in one of two ways: it answers the WebSocket upgrade with
 * HTTP 401 or 403, or it accepts the socket and closes it with close code 4401 or 4403. A
 * browser's WebSocket hides the HTTP status of a refused upgrade (it reports only a close
 * with code 1006, as for an unreachable server), so after a connection that never opened
 * the same URL is asked once over plain HTTP: a server that checks tokens answers that
 * request with the same status and its reason as the body.
 */

/** Why the server would not let this client in. */
export interface AuthFailure {
  /** The server's words, e.g. `'token expired'`. */
  readonly reason: string
  /** The HTTP status of the refusal (401 or 403), when it came as one. */
  readonly status?: number
  /** The WebSocket close code (4401 or 4403), when the server closed an open socket. */
  readonly closeCode?: number
}

/** WebSocket close codes that mean "not allowed": 4000 plus the HTTP statuses 401 and 403. */
export const AUTH_CLOSE_CODES: ReadonlySet<number> = new Set([4401, 4403])

const AUTH_STATUSES: ReadonlySet<number> = new Set([401, 403])

/** How long the HTTP question may take before it counts as no answer. */
const PROBE_TIMEOUT_MS = 5_000

/** The longest reason kept from a server's answer. */
const MAX_REASON_LENGTH = 500

/**
 * The error `whenSynced` rejects with when the server refused this client.
 *
 * @example connection.whenSynced.catch((error) => error instanceof AuthError && showLogin(error.failure.reason))
 */
export class AuthError extends Error {
  /** Always `'AuthError'`. */
  override readonly name = 'AuthError'

  constructor(
    /** What the server said: the close code or status, and its reason. */
    readonly failure: AuthFailure,
  ) {
    super(`the server refused the connection: ${failure.reason}`)
  }
}

/** The failure a close event stands for, or null when the close is not about auth. */
export const authFailureFromClose = (event: unknown): AuthFailure | null => {
  if (typeof event !== 'object' || event === null) return null
  const { code, reason } = event as { code?: unknown; reason?: unknown }
  if (typeof code !== 'number' || !AUTH_CLOSE_CODES.has(code)) return null
  const text = typeof reason === 'string' && reason !== '' ? reason : 'not allowed'
  return { reason: clip(text), closeCode: code }
}

/**
 * Asks `socketUrl` over HTTP whether this client may connect. Resolves to the failure when the
 * server answers 401 or 403, and to null for any other answer or none (the server is down,
 * the request timed out, the environment has no `fetch`).
 */
export const probeAuthFailure = async (socketUrl: string): Promise<AuthFailure | null> => {
  if (typeof fetch !== 'function') return null
  const url = new URL(socketUrl)
  url.protocol = url.protocol === 'wss:' ? 'https:' : 'http:'
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) })
    if (!AUTH_STATUSES.has(response.status)) {
      await response.body?.cancel()
      return null
    }
    const body = (await response.text()).trim()
    return { reason: clip(body || response.statusText || 'not allowed'), status: response.status }
  } catch {
    return null
  }
}

const clip = (text: string): string =>
  text.length > MAX_REASON_LENGTH ? `${text.slice(0, MAX_REASON_LENGTH)}…` : text
