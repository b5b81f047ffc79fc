/**
 * The two ends of the open-document benchmark's server row: a bare y-websocket client that
 * asks a server for a whole document, and the floor any server pays to answer it from the
 * same SQLite rows (read them, apply them to a fresh Y.Doc, encode the answer).
 */
import Database from 'better-sqlite3'
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import { WebSocket } from 'ws'
import * as syncProtocol from 'y-protocols/sync'
import * as Y from 'yjs'

const MESSAGE_SYNC = 0

/** Bound on one request, so that a stuck server fails the case instead of hanging it. */
const REQUEST_TIMEOUT_MS = 60_000

/** Sync step 1 of a client that has nothing: "send me everything". */
const askForEverything = (): Uint8Array => {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, MESSAGE_SYNC)
  syncProtocol.writeSyncStep1(encoder, new Y.Doc())
  return encoding.toUint8Array(encoder)
}

/** The update in a sync step 2 message, or null for any other message. */
const stepTwoUpdate = (message: Uint8Array): Uint8Array | null => {
  const decoder = decoding.createDecoder(message)
  if (decoding.readVarUint(decoder) !== MESSAGE_SYNC) return null
  if (decoding.readVarUint(decoder) !== syncProtocol.messageYjsSyncStep2) return null
  return decoding.readVarUint8Array(decoder)
}

/** A connection that asked a server for a document, and the server's answer once it came. */
export interface DocumentRequest {
  readonly socket: WebSocket
  /** The update of the server's sync step 2: the whole document. */
  readonly answer: Promise<Uint8Array>
}

/**
 * Connects to `room` on `url` (`ws://host:port`) as a y-websocket client holding nothing,
 * sends sync step 1 as soon as the socket opens, and resolves `answer` with the server's
 * sync step 2 (its bytes only: nothing is decoded on the clock). Close `socket` afterwards.
 *
 * @example const { socket, answer } = requestDocument(url, 'notes'); await answer; socket.close()
 */
export function requestDocument(url: string, room: string): DocumentRequest {
  const socket = new WebSocket(`${url}/${encodeURIComponent(room)}`)
  socket.binaryType = 'nodebuffer'
  const answer = new Promise<Uint8Array>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no sync step 2 from ${url} within ${REQUEST_TIMEOUT_MS} ms`)),
      REQUEST_TIMEOUT_MS,
    )
    socket.on('open', () => socket.send(askForEverything()))
    socket.on('message', (data: Buffer) => {
      const update = stepTwoUpdate(new Uint8Array(data.buffer, data.byteOffset, data.byteLength))
      if (update === null) return
      clearTimeout(timer)
      resolve(update)
    })
    const fail = (why: string) => {
      clearTimeout(timer)
      reject(new Error(why))
    }
    socket.on('error', (error) => fail(`connection to ${url} failed: ${error.message}`))
    socket.on('close', (code) => fail(`connection to ${url} closed (${code}) before sync step 2`))
  })
  answer.catch(() => {})
  return { socket, answer }
}

/** Closes `socket` and waits until it is closed. */
export async function closeSocket(socket: WebSocket): Promise<void> {
  if (socket.readyState === WebSocket.CLOSED) return
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  socket.close()
  await closed
}

/** The text named `name` of the document an update holds. */
export function textOfUpdate(update: Uint8Array, name: string): string {
  const doc = new Y.Doc()
  Y.applyUpdate(doc, update)
  const text = doc.getText(name).toString()
  doc.destroy()
  return text
}

/** A SQLite file opened read-only, with the statement that reads one room's log. */
export interface RowReader {
  /** Every stored update of `room`, in order. */
  rows(room: string): Uint8Array[]
  close(): void
}

/**
 * Opens `file` (a `SqliteStore` file) read-only through better-sqlite3, as any server would
 * read a log of updates.
 *
 * @example const reader = openRows(file); const rows = reader.rows('notes'); reader.close()
 */
export function openRows(file: string): RowReader {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  const select = db.prepare('SELECT data FROM updates WHERE room = ? ORDER BY seq')
  return {
    rows: (room) => (select.all(room) as { data: Buffer }[]).map((row) => row.data),
    close: () => db.close(),
  }
}

/**
 * The least a server does to answer a client holding nothing: the room's rows read, applied
 * to a fresh document in one transaction, and sync step 2 encoded. Returns that message.
 *
 * @example const message = answerFromRows(openRows(file), 'notes')
 */
export function answerFromRows(reader: RowReader, room: string): Uint8Array {
  const doc = new Y.Doc()
  const rows = reader.rows(room)
  Y.transact(doc, () => {
    for (const row of rows) Y.applyUpdate(doc, row)
  })
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, MESSAGE_SYNC)
  syncProtocol.writeSyncStep2(encoder, doc, Y.encodeStateVector(new Y.Doc()))
  return encoding.toUint8Array(encoder)
}

/** The update in a sync step 2 message made by {@link answerFromRows}. */
export function updateOfAnswer(message: Uint8Array): Uint8Array {
  const update = stepTwoUpdate(message)
  if (update === null) throw new Error('not a sync step 2 message')
  return update
}
