/**
 * Saved acknowledgements: the server telling a connection what its store durably holds, so
 * that a client can tell its user that nothing typed is only in the page any more.
 *
 * - The request (client to server): type `MessageType.saved` and no body, once per
 *   connection. Only connections that asked are sent saved messages, so stock y-websocket
 *   clients (which log every message type they do not know) never see one.
 * - The saved message (server to client): the same type, then the state vector of what the
 *   store holds (Yjs's encoding, as a var-uint8-array), then the deletions of this
 *   connection's updates that the store took since the last saved message it was sent.
 *   Deletions are `[clients, then per client: client, ranges, then per range: clock,
 *   length]`, all var-uints, as Yjs encodes a delete set.
 *
 * A state vector says which items are stored, but not which deletions: a client that only
 * deleted text adds no item, so the deletions it sent come back explicitly.
 */
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import { MessageType } from './message-type.js'

/** Deleted items of one client: `length` clocks from `clock` on. */
export interface DeletedRange {
  /** The clock of the first deleted item. */
  readonly clock: number
  /** How many clocks, from `clock` on, are deleted. */
  readonly length: number
}

/** What a saved message says. */
export interface SavedState {
  /**
   * For each client, the clock its stored items reach (every item below it is stored), as in
   * a Yjs state vector (`Y.decodeStateVector`).
   */
  readonly stateVector: ReadonlyMap<number, number>
  /**
   * Deletions of this connection's updates the store took since the previous saved message on
   * the connection: for each client, the ranges of its items that they delete.
   */
  readonly deletions: ReadonlyMap<number, readonly DeletedRange[]>
}

/**
 * The request that makes a server send saved messages on this connection.
 *
 * @example provider.ws.send(savedRequest())
 */
export const savedRequest = (): Uint8Array => Uint8Array.of(MessageType.saved)

/**
 * A saved message: `stateVector` is what the store holds, in Yjs's state vector encoding (as
 * `Y.encodeStateVector` writes it); `deletions` those of the connection's stored updates.
 *
 * @example peer.reply('saved', () => savedMessage(Y.encodeStateVector(doc), deletions))
 */
export const savedMessage = (
  stateVector: Uint8Array,
  deletions: ReadonlyMap<number, readonly DeletedRange[]> = new Map(),
): Uint8Array => {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, MessageType.saved)
  encoding.writeVarUint8Array(encoder, stateVector)
  encoding.writeVarUint(encoder, deletions.size)
  for (const [client, ranges] of deletions) {
    encoding.writeVarUint(encoder, client)
    encoding.writeVarUint(encoder, ranges.length)
    for (const { clock, length } of ranges) {
      encoding.writeVarUint(encoder, clock)
      encoding.writeVarUint(encoder, length)
    }
  }
  return encoding.toUint8Array(encoder)
}

/**
 * What a saved message says, read after its type. Throws a `RangeError` when it does not
 * decode (cut short, or a state vector with bytes to spare); bytes after the deletions are
 * left for later versions.
 *
 * @example readSavedMessage(decoder).stateVector.get(doc.clientID) // => 42
 */
export const readSavedMessage = (decoder: decoding.Decoder): SavedState => {
  try {
    const stateVector = readStateVector(decoding.readVarUint8Array(decoder))
    const deletions = new Map<number, DeletedRange[]>()
    const clients = decoding.readVarUint(decoder)
    for (let i = 0; i < clients; i++) {
      const client = decoding.readVarUint(decoder)
      const count = decoding.readVarUint(decoder)
      const ranges = deletions.get(client) ?? []
      for (let j = 0; j < count; j++) {
        const clock = decoding.readVarUint(decoder)
        ranges.push({ clock, length: decoding.readVarUint(decoder) })
      }
      deletions.set(client, ranges)
    }
    return { stateVector, deletions }
  } catch (error) {
    if (error instanceof RangeError) throw error
    throw new RangeError(`a saved message that does not decode: ${String(error)}`)
  }
}

/** A state vector in Yjs's encoding: a count, then (client, clock) pairs, nothing after. */
const readStateVector = (bytes: Uint8Array): Map<number, number> => {
  const decoder = decoding.createDecoder(bytes)
  const stateVector = new Map<number, number>()
  const count = decoding.readVarUint(decoder)
  for (let i = 0; i < count; i++) {
    const client = decoding.readVarUint(decoder)
    stateVector.set(client, decoding.readVarUint(decoder))
  }
  if (decoding.hasContent(decoder)) {
    throw new RangeError(
      `a saved message's state vector has ${bytes.length - decoder.pos} bytes to spare`,
    )
  }
  return stateVector
}
