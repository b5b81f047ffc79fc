/**
 * How a Tandem server tells a client what it may not do, in words and codes both ends share:
 * the WebSocket close codes of refused access, the reasons sent with them, the reason of a
 * refused update (y-protocols' permission-denied message), and the `Accept` header of the HTTP
 * question a client asks after a WebSocket upgrade failed.
 */
import * as encoding from 'lib0/encoding'
import * as authProtocol from 'y-protocols/auth'
import { MessageType } from './message-type.js'

/**
 * WebSocket close codes for access that ended or was refused: 4000 plus the HTTP status.
 *
 * @example ws.close(AuthCloseCode.unauthorized, TOKEN_EXPIRED_REASON)
 */
export const AuthCloseCode = {
  /** The token expired, or one handed over is not valid (as HTTP 401). */
  unauthorized: 4401,
  /** A token handed over is valid but does not open this room for this user (as HTTP 403). */
  forbidden: 4403,
} as const

/**
 * The close codes that mean "not allowed" (`AuthCloseCode`'s), for a client to tell a refusal
 * from a lost connection.
 *
 * @example AUTH_CLOSE_CODES.has(event.code)
 */
export const AUTH_CLOSE_CODES: ReadonlySet<number> = new Set(Object.values(AuthCloseCode))

/** The close reason of a connection whose token expired. */
export const TOKEN_EXPIRED_REASON = 'token expired'

/** The close reason of a connection handed a token of another user. */
export const OTHER_USER_REASON = 'the token is for another user'

/** The reason a read-only connection's update is refused with (a permission-denied message). */
export const READ_ONLY_REASON = 'read-only: this connection may not edit the document'

/**
 * y-protocols' permission-denied message, with the reason the client is told.
 *
 * @example peer.send(permissionDeniedMessage(READ_ONLY_REASON))
 */
export const permissionDeniedMessage = (reason: string): Uint8Array => {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, MessageType.auth)
  authProtocol.writePermissionDenied(encoder, reason)
  return encoding.toUint8Array(encoder)
}

/**
 * The `Accept` header of the HTTP question a client asks after a failed upgrade: a Tandem
 * server answers it with the status and reason it gave the upgrade (a safelisted header, so a
 * browser sends it across origins without a preflight).
 */
export const UPGRADE_PROBE_ACCEPT = 'text/plain; tandem=upgrade-probe'
