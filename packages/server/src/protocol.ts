/**
 * The y-websocket wire protocol: every message starts with its type as a varint, then a body
 * in y-protocols' encodings. These helpers build the messages the server sends.
 */
import * as encoding from 'lib0/encoding'
import * as authProtocol from 'y-protocols/auth'
import * as syncProtocol from 'y-protocols/sync'
import type * as Y from 'yjs'
import { encodeIntegratedState } from './yjs-store.js'

/** Message types, as y-websocket numbers them. */
export const MessageType = {
  /** Yjs sync: step 1, step 2 and updates. */
  sync: 0,
  /** An awareness update. */
  awareness: 1,
  /** Permission denied, sent before the server closes. */
  auth: 2,
  /** Asks for every awareness state. */
  queryAwareness: 3,
  /**
   * Tandem's own: a client asks for its user's last editing session (body: a user id, used
   * only when the connection has no authenticated user); the server answers with the same
   * type (body: the user id, then the session's JSON, empty when there is none). Stock
   * y-websocket clients never send it and are never sent it.
   */
  session: 100,
  /**
   * Tandem's own: a client hands over a fresh token for its open connection (body: the
   * token), e.g. before the one it connected with expires. The server checks it for the
   * connection's room and user and takes its role and expiry, or closes the connection (4401
   * or 4403, with the reason); it sends nothing back when it takes it. Stock y-websocket
   * clients never send it.
   */
  token: 101,
} as const

const message = (type: number, write: (encoder: encoding.Encoder) => void): Uint8Array => {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, type)
  write(encoder)
  return encoding.toUint8Array(encoder)
}

/** Sync step 1: the server's state vector, asking the client for what the server lacks. */
export const syncStep1Message = (doc: Y.Doc): Uint8Array =>
  message(MessageType.sync, (encoder) => syncProtocol.writeSyncStep1(encoder, doc))

/**
 * Sync step 2: what the client lacks, given its state vector; never the updates Yjs holds
 * pending (y-protocols' own `writeSyncStep2` would add them).
 */
export const syncStep2Message = (doc: Y.Doc, stateVector: Uint8Array): Uint8Array =>
  message(MessageType.sync, (encoder) => {
    encoding.writeVarUint(encoder, syncProtocol.messageYjsSyncStep2)
    encoding.writeVarUint8Array(encoder, encodeIntegratedState(doc, stateVector))
  })

/** A document update to relay. */
export const updateMessage = (update: Uint8Array): Uint8Array =>
  message(MessageType.sync, (encoder) => syncProtocol.writeUpdate(encoder, update))

/** An awareness message carrying `update` (y-protocols' awareness encoding). */
export const awarenessUpdateMessage = (update: Uint8Array): Uint8Array =>
  message(MessageType.awareness, (encoder) => encoding.writeVarUint8Array(encoder, update))

/** y-protocols' permission-denied message, with the reason the client is told. */
export const permissionDeniedMessage = (reason: string): Uint8Array =>
  message(MessageType.auth, (encoder) => authProtocol.writePermissionDenied(encoder, reason))

/** The answer to a session request: `user`'s last session in the room, or none. */
export const sessionMessage = (user: string, session: string | null): Uint8Array =>
  message(MessageType.session, (encoder) => {
    encoding.writeVarString(encoder, user)
    encoding.writeVarString(encoder, session ?? '')
  })
