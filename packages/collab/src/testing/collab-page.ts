/**
 * A browser page for `connect`'s tests: one editor, connected when the test calls
 * `collabPage.open`, driven and read through `globalThis.collabPage`.
 */
import { TextBuffer } from '@tandem/buffer'
import { TextEditor } from '@tandem/editor'
import * as Y from 'yjs'
import { type CollabConnection, type ConnectOptions, connect } from '../connect.js'

/** What a test can do with the page. */
export interface CollabPage {
  /** Connects a new editor; resolves once the IndexedDB copy (if any) has loaded. */
  open(options: Pick<ConnectOptions, 'url' | 'room' | 'user' | 'offline' | 'token'>): Promise<void>
  insertText(text: string): void
  setCursor(row: number, column: number): void
  text(): string
  status(): string
  /** The server's refusal, if it refused this client. */
  authFailure(): { reason: string; status?: number } | null
  /** The text of the copy kept in IndexedDB for `room` on `url`, read straight from the database. */
  storedText(url: string, room: string): Promise<string>
  /** The other peers as this editor shows them: name, own tab, ranges. */
  remoteCursors(): { name: string; ownTab: boolean; ranges: string[] }[]
  close(): void
}

let editor: TextEditor | null = null
let connection: CollabConnection | null = null

const opened = (): { editor: TextEditor; connection: CollabConnection } => {
  if (!editor || !connection) throw new Error('call collabPage.open first')
  return { editor, connection }
}

/** The parts of the browser's IndexedDB API `readAll` uses. */
interface IdbRequest<T> {
  result: T
  error: unknown
  onsuccess: (() => void) | null
  onerror: (() => void) | null
}
interface IdbDatabase {
  objectStoreNames: { contains(name: string): boolean }
  transaction(store: string): { objectStore(name: string): { getAll(): IdbRequest<unknown[]> } }
  close(): void
}

/** Every value in `store` of the IndexedDB database `name` (none when it does not exist). */
const readAll = (name: string, store: string): Promise<unknown[]> =>
  new Promise((resolve, reject) => {
    const idb = (
      globalThis as unknown as { indexedDB: { open(name: string): IdbRequest<IdbDatabase> } }
    ).indexedDB
    const request = idb.open(name)
    request.onerror = () => reject(request.error)
    request.onsuccess = () => {
      const db = request.result
      if (!db.objectStoreNames.contains(store)) {
        db.close()
        return resolve([])
      }
      const all = db.transaction(store).objectStore(store).getAll()
      all.onerror = () => reject(all.error)
      all.onsuccess = () => {
        db.close()
        resolve(all.result)
      }
    }
  })

const collabPage: CollabPage = {
  async open(options) {
    editor = new TextEditor({ buffer: new TextBuffer() })
    connection = connect(editor, { ...options, maxBackoffMs: 200, throttleMs: 0 })
    await connection.whenLoaded
  },
  insertText: (text) => void opened().editor.insertText(text),
  setCursor: (row, column) => void opened().editor.setCursorBufferPosition([row, column]),
  text: () => opened().editor.getText(),
  status: () => opened().connection.status,
  authFailure: () => opened().connection.authFailure,
  remoteCursors: () =>
    opened()
      .connection.getRemoteCursors()
      .map((cursor) => ({
        name: cursor.user.name,
        ownTab: cursor.ownTab,
        ranges: cursor.selections.map((selection) => selection.range.toString()),
      })),
  storedText: async (url, room) => {
    const doc = new Y.Doc()
    for (const update of await readAll(`tandem:${url}/${room}`, 'updates')) {
      Y.applyUpdate(doc, update as Uint8Array)
    }
    return doc.getText('text').toString()
  },
  close() {
    connection?.destroy()
    editor?.destroy()
    connection = null
    editor = null
  },
}

;(globalThis as unknown as { collabPage: CollabPage }).collabPage = collabPage
