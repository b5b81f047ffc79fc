/**
 * The message types of the y-websocket wire protocol and Tandem's additions. Every message
 * starts with its type as a varint, then a body in y-protocols' encodings (or, for Tandem's own
 * types, the bodies described below). Stock y-websocket clients and servers ignore types they
 * do not know, so Tandem's own never disturb them.
 */
import * as decoding from 'lib0/decoding'

/**
 * Message types: y-websocket's (0 to 3) and Tandem's own (100 and up).
 *
 * @example decoding.readVarUint(decoder) === MessageType.session
 */
export const MessageType = {
  /** Yjs sync: step 1, step 2 and updates. */
  sync: 0,
  /** An awareness update. */
  awareness: 1,
  /** Permission denied, sent by a server that refuses a client's update. */
  auth: 2,
  /** Asks for every awareness state. */
  queryAwareness: 3,
  /**
   * Tandem's own: a client asks for its user's last editing session (body: a user id, used
   * only when the connection has no authenticated user); the server answers with the same
   * type (body: the user id, then the session's JSON, empty when there is none). Stock
   * y-websocket clients never send it and are never sent it. See session-message.ts.
   */
  session: 100,
  /**
   * Tandem's own: a client hands over a fresh token for its open connection (body: the
   * token), e.g. before the one it connected with expires. The server checks it for the
   * connection's room and user and takes its role and expiry, or closes the connection (4401
   * or 4403, with the reason); it sends nothing back when it takes it. Stock y-websocket
   * clients never send it. See token-message.ts.
   */
  token: 101,
  /**
   * Tandem's own: what the server's store holds. A client asks once per connection (empty
   * body); from then on the server sends it, after the store has durably written updates from
   * that connection (and once at once), the state vector of what the store holds and the
   * deletions of that connection's updates stored since the last one. Stock y-websocket clients
   * never ask, so they are never sent it. See saved-message.ts.
   */
  saved: 102,
  /**
   * Tandem's own: a user's undo history in the room. A client asks for it (body: kind 0, then
   * a user id, used only when the connection has no authenticated user) and the server answers
   * with the same type (kind 2, the user id, the history; empty when none is kept); a client
   * hands over its history to keep (kind 1, the user id, the history), which the server caps
   * and keeps per room and user. Stock y-websocket clients never send it and are never sent
   * it. See undo-history-message.ts.
   */
  undoHistory: 103,
} as const

/**
 * The type of the message `data`, or -1 when it has none (it does not start with a varint).
 *
 * @example messageTypeOf(tokenMessage(token)) // => MessageType.token
 */
export const messageTypeOf = (data: Uint8Array): number => {
  try {
    return decoding.readVarUint(decoding.createDecoder(data))
  } catch {
    return -1
  }
}
