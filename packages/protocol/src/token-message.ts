/**
 * Handing a fresh token over on an open connection: a message of type `MessageType.token`
 * whose body is the token (a var-string). `@tandem/server` checks it for the connection's room
 * and user and takes its role and expiry, or closes the connection (4401 or 4403) saying why;
 * it sends nothing back when it takes it. Other y-websocket servers ignore the message.
 */
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import { MessageType } from './message-type.js'

/**
 * The message that hands `token` over.
 *
 * @example provider.ws.send(tokenMessage(freshToken))
 */
export const tokenMessage = (token: string): Uint8Array => {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, MessageType.token)
  encoding.writeVarString(encoder, token)
  return encoding.toUint8Array(encoder)
}

/**
 * The token a token message hands over, read after its type. Throws when the body does not
 * decode.
 *
 * @example readTokenMessage(decoder) // => 'eyJ…'
 */
export const readTokenMessage = (decoder: decoding.Decoder): string =>
  decoding.readVarString(decoder)
