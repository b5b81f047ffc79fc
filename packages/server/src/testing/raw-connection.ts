/**
 * A WebSocket client that speaks the y-websocket protocol by hand, for tests that play a
 * client no library would be: one that never reads, floods, or sends what it should not.
 */
import { once } from 'node:events'
import { MessageType } from '@tandem/protocol'
import * as encoding from 'lib0/encoding'
import { WebSocket } from 'ws'
import * as syncProtocol from 'y-protocols/sync'
import * as Y from 'yjs'

/** An open raw connection and what happened to it. */
export interface RawConnection {
  readonly ws: WebSocket
  /** Every message received, unless the connection was told to stop reading. */
  readonly received: Uint8Array[]
  /** Resolves with the close code and reason, however the connection ends. */
  readonly closed: Promise<{ code: number; reason: string }>
  send(message: Uint8Array): void
  /** Stops reading: what the server sends piles up in the sockets. */
  stopReading(): void
}

/**
 * Opens `url` and resolves once open. With `reading: false` it never reads from the start, so
 * the socket's buffers never grow from reading and what the server sends stays with the server.
 *
 * @example const attacker = await rawConnection(`${url}/notes`, { reading: false })
 */
export const rawConnection = async (
  url: string,
  options: { reading?: boolean } = {},
): Promise<RawConnection> => {
  const ws = new WebSocket(url)
  const received: Uint8Array[] = []
  ws.on('message', (data: Buffer) => received.push(new Uint8Array(data)))
  ws.on('error', () => {})
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  )
  if (options.reading === false) ws.once('open', () => ws.pause())
  await once(ws, 'open')
  return {
    ws,
    received,
    closed,
    send: (message) => ws.send(message),
    stopReading: () => ws.pause(),
  }
}

const message = (type: number, write: (encoder: encoding.Encoder) => void): Uint8Array => {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, type)
  write(encoder)
  return encoding.toUint8Array(encoder)
}

/** Sync step 1 of an empty document: "send me the whole document". */
export const askForDocument = (): Uint8Array =>
  message(MessageType.sync, (encoder) => syncProtocol.writeSyncStep1(encoder, new Y.Doc()))

/** "Send me everyone's awareness state." */
export const askForAwareness = (): Uint8Array => message(MessageType.queryAwareness, () => {})

/** A sync update message carrying `update`. */
export const updateOf = (update: Uint8Array): Uint8Array =>
  message(MessageType.sync, (encoder) => syncProtocol.writeUpdate(encoder, update))

/**
 * An awareness message setting `client`'s state to the JSON text `json` at `clock`, written
 * by hand so that any text can be sent, even text no library would encode.
 */
export const awarenessOf = (client: number, clock: number, json: string): Uint8Array =>
  message(MessageType.awareness, (encoder) => {
    const update = encoding.createEncoder()
    encoding.writeVarUint(update, 1)
    encoding.writeVarUint(update, client)
    encoding.writeVarUint(update, clock)
    encoding.writeVarString(update, json)
    encoding.writeVarUint8Array(encoder, encoding.toUint8Array(update))
  })
