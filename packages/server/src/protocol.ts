/**
 * The y-websocket messages the server builds from its documents and awareness: every message
 * starts with its type (`MessageType` of `@tandem/protocol`, where Tandem's own messages are
 * too) as a varint, then a body in y-protocols' encodings.
 */
import { MessageType } from '@tandem/protocol'
import * as encoding from 'lib0/encoding'
import * as syncProtocol from 'y-protocols/sync'
import type * as Y from 'yjs'
import { encodeIntegratedState } from './yjs-store.js'

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
