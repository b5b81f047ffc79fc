/**
 * One entry of the log of program changes as bytes, for a store to keep (see change-log.ts):
 * a format byte, then with lib0's encoding its id, user, message, time, who undid it, whether
 * its deleted text is kept, its lengths, the id ranges it inserted per client, and the text it
 * deleted, each piece with its relative position (`Y.encodeRelativePosition`).
 *
 * @module
 */
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import * as Y from 'yjs'
import type { IdRange } from '../history/update-ids.js'
import { type DeletedText, type LoggedChange, sizeOfChange } from './change-log.js'

/** The first byte of an encoded entry; another value is a format this server does not read. */
const FORMAT = 1

/**
 * `change` as bytes.
 *
 * @example store.saveProgramChange(change.room, change.id, encodeProgramChange(change))
 */
export const encodeProgramChange = (change: LoggedChange): Uint8Array => {
  const encoder = encoding.createEncoder()
  encoding.writeUint8(encoder, FORMAT)
  encoding.writeVarString(encoder, change.id)
  encoding.writeVarString(encoder, change.user)
  writeNullable(encoder, change.message)
  encoding.writeFloat64(encoder, change.time)
  writeNullable(encoder, change.undoneBy)
  encoding.writeUint8(encoder, change.restorable ? 1 : 0)
  encoding.writeVarUint(encoder, change.insertedLength)
  encoding.writeVarUint(encoder, change.deletedLength)
  encoding.writeVarUint(encoder, change.inserted.size)
  for (const [client, ranges] of change.inserted) {
    encoding.writeVarUint(encoder, client)
    encoding.writeVarUint(encoder, ranges.length)
    for (const range of ranges) {
      encoding.writeVarUint(encoder, range.clock)
      encoding.writeVarUint(encoder, range.length)
    }
  }
  encoding.writeVarUint(encoder, change.deleted.length)
  for (const { text, at } of change.deleted) {
    encoding.writeVarString(encoder, text)
    encoding.writeVarUint8Array(encoder, Y.encodeRelativePosition(at))
  }
  return encoding.toUint8Array(encoder)
}

/**
 * The entry `bytes` encode, as a change of `room`; null when they are not an entry this server
 * reads (another format, cut short, or values out of range).
 *
 * @example decodeProgramChange('notes', encodeProgramChange(change))?.id === change.id // => true
 */
export const decodeProgramChange = (room: string, bytes: Uint8Array): LoggedChange | null => {
  try {
    const decoder = decoding.createDecoder(bytes)
    if (decoding.readUint8(decoder) !== FORMAT) return null
    const id = decoding.readVarString(decoder)
    const user = decoding.readVarString(decoder)
    const message = readNullable(decoder)
    const time = decoding.readFloat64(decoder)
    const undoneBy = readNullable(decoder)
    const restorable = decoding.readUint8(decoder) === 1
    const insertedLength = decoding.readVarUint(decoder)
    const deletedLength = decoding.readVarUint(decoder)
    const inserted = new Map<number, IdRange[]>()
    for (let clients = decoding.readVarUint(decoder); clients > 0; clients--) {
      const client = decoding.readVarUint(decoder)
      const ranges: IdRange[] = []
      for (let count = decoding.readVarUint(decoder); count > 0; count--) {
        ranges.push({ clock: decoding.readVarUint(decoder), length: decoding.readVarUint(decoder) })
      }
      inserted.set(client, ranges)
    }
    const deleted: DeletedText[] = []
    for (let count = decoding.readVarUint(decoder); count > 0; count--) {
      const text = decoding.readVarString(decoder)
      deleted.push({ text, at: Y.decodeRelativePosition(decoding.readVarUint8Array(decoder)) })
    }
    if (id === '' || user === '' || !Number.isSafeInteger(time) || time < 0) return null
    if (decoding.hasContent(decoder)) return null
    const change: LoggedChange = {
      id,
      room,
      user,
      message,
      time,
      inserted,
      insertedLength,
      deleted,
      deletedLength,
      restorable,
      undoneBy,
      bytes: 0,
    }
    change.bytes = sizeOfChange(change)
    return change
  } catch {
    return null
  }
}

const writeNullable = (encoder: encoding.Encoder, value: string | null): void => {
  encoding.writeUint8(encoder, value === null ? 0 : 1)
  if (value !== null) encoding.writeVarString(encoder, value)
}

const readNullable = (decoder: decoding.Decoder): string | null =>
  decoding.readUint8(decoder) === 0 ? null : decoding.readVarString(decoder)
