/**
 * Telling a refused connection from a lost one, and learning the server's reason.
 *
 * A server refuses a bad token in one of two ways: it answers the WebSocket upgrade with
 * HTTP 401 or 403, or it accepts the socket and closes it with close code 4401 or 4403. A
 * browser's WebSocket hides the HTTP status of a refused upgrade (it reports only a close
 * with code 1006, as for an unreachable server), so after a connection that never opened
 * the same URL is asked once over plain HTTP, saying it asks for a failed upgrade
 * (`UPGRADE_PROBE_ACCEPT`): a Tandem server answers with the status and reason it gave the
 * upgrade. Any other answer, or none, tells what kind of failure it was: nothing listening,
 * an address the server refuses, a server that takes no WebSockets there, a server error.
 */

import { AUTH_CLOSE_CODES, UPGRADE_PROBE_ACCEPT } from '@tandem/protocol'

/** Why the server would not let this client in. */
export interface AuthFailure {
  /** The server's words, e.g. `'token expired'`. */
  readonly reason: string
  /** The HTTP status of the refusal (401 or 403), when it came as one. */
  readonly status?: number
  /** The WebSocket close code (4401 or 4403), when the server closed an open socket. */
  readonly closeCode?: number
}

/**
 * Why a connection could not be made, other than a refused token:
 * - `unreachable`: nothing answered at the address (a wrong host or port, a server down);
 * - `refused`: the server refused the address for good (a 4xx status such as 400 or 404:
 *   a URL that names no room, a wrong path); attempts stop;
 * - `not-websocket`: the server answered HTTP but took no WebSocket there (not a y-websocket
 *   server, or a proxy that does not pass WebSockets);
 * - `server-error`: the server failed (a 5xx status); attempts go on.
 */
export interface ConnectFailure {
  /** What kind of failure it was; see the interface's comment. */
  readonly kind: 'unreachable' | 'refused' | 'not-websocket' | 'server-error'
  /** What went wrong, in words for a person, with the server's own reason when it gave one. */
  readonly reason: string
  /** The address asked (over HTTP, with the WebSocket URL's path and query). */
  readonly url: string
  /** The HTTP status of the answer, when there was one. */
  readonly status?: number
}

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

/**
 * The error `whenSynced` rejects with when the server refused the address for good (a
 * `refused` failure: attempts stop).
 *
 * @example connection.whenSynced.catch((error) => error instanceof ConnectError && show(error.failure.reason))
 */
export class ConnectError extends Error {
  /** Always `'ConnectError'`. */
  override readonly name = 'ConnectError'

  constructor(
    /** Why the connection could not be made. */
    readonly failure: ConnectFailure,
  ) {
    super(`could not connect: ${failure.reason}`)
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

/** What the HTTP question after a failed connection learned: at most one of the two. */
export interface ProbeAnswer {
  /** The server refused this client's token. */
  readonly auth?: AuthFailure
  /** The connection failed for another reason. */
  readonly failure?: ConnectFailure
}

/**
 * Asks `socketUrl` over HTTP why a WebSocket to it did not open: a refused token (401, 403),
 * another failure (see `ConnectFailure`), or nothing to tell (426: the address takes
 * WebSockets, so the socket was lost for another reason; or no `fetch` here).
 *
 * @example const answer = await probeConnection('ws://127.0.0.1:1234/ws/notes')
 */
export const probeConnection = async (socketUrl: string): Promise<ProbeAnswer> => {
  if (typeof fetch !== 'function') return {}
  const url = new URL(socketUrl)
  url.protocol = url.protocol === 'wss:' ? 'https:' : 'http:'
  const shown = url.href
  let response: Response
  try {
    response = await fetch(url, {
      headers: { accept: UPGRADE_PROBE_ACCEPT },
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    })
  } catch (error) {
    const cause = (error as { cause?: { code?: unknown } }).cause?.code
    const timedOut = (error as { name?: unknown }).name === 'TimeoutError'
    const why = timedOut
      ? `no answer within ${PROBE_TIMEOUT_MS / 1000} s`
      : typeof cause === 'string'
        ? cause
        : 'no connection'
    return {
      failure: {
        kind: 'unreachable',
        reason: `nothing answers at ${url.origin} (${why})`,
        url: shown,
      },
    }
  }
  const { status } = response
  if (status === 426) {
    await response.body?.cancel()
    return {}
  }
  const body = clip((await response.text().catch(() => '')).trim())
  if (AUTH_STATUSES.has(status)) {
    return { auth: { reason: body || response.statusText || 'not allowed', status } }
  }
  const said = body === '' || /^\s*</.test(body) ? '' : `: ${body}`
  if (status >= 500) {
    return {
      failure: {
        kind: 'server-error',
        reason: `the server failed with ${status}${said}`,
        url: shown,
        status,
      },
    }
  }
  if (status >= 400 && status !== 408 && status !== 429) {
    return {
      failure: {
        kind: 'refused',
        reason: `the server refused ${shown} with ${status}${said}`,
        url: shown,
        status,
      },
    }
  }
  return {
    failure: {
      kind: 'not-websocket',
      reason:
        `${url.origin} answered ${status} but took no WebSocket at ${url.pathname}: ` +
        'not a y-websocket server there, or a proxy that does not pass WebSockets',
      url: shown,
      status,
    },
  }
}

const clip = (text: string): string =>
  text.length > MAX_REASON_LENGTH ? `${text.slice(0, MAX_REASON_LENGTH)}…` : text
