/**
 * Handing a fresh token over on an open connection, as `@tandem/server` takes it: a message of
 * type 101 whose body is the token. The server checks it for the connection's room and user
 * and takes its role and expiry, or closes the connection (4401 or 4403) saying why; it sends
 * nothing back when it takes it. Other y-websocket servers ignore the message.
 */
import * as encoding from 'lib0/encoding'

/** The message type of a token handover (as `@tandem/server` numbers it). */
export const TOKEN_MESSAGE = 101

/**
 * The message that hands `token` over.
 *
 * @example provider.ws.send(tokenMessage(freshToken))
 */
export const tokenMessage = (token: string): Uint8Array => {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, TOKEN_MESSAGE)
  encoding.writeVarString(encoder, token)
  return encoding.toUint8Array(encoder)
}
