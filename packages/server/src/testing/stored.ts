/**
 * What a server's store holds, read straight from the SQLite file or the PostgreSQL schema a
 * server process runs on, for tests of the durability promise: a room's document rebuilt from
 * its stored updates, and every deletion those updates hold.
 */
import { join } from 'node:path'
import * as Y from 'yjs'
import { DATABASE_FILE } from '../backup-command.js'
import type { DocumentStore } from '../storage/document-store.js'
import { PostgresStore } from '../storage/postgres-store.js'
import { SqliteStore } from '../storage/sqlite-store.js'

/** A Yjs delete set (Yjs exports the functions over it, not the type). */
export type DeleteSet = ReturnType<typeof Y.createDeleteSet>

/** Where a server process keeps its documents: its data folder, or a PostgreSQL schema. */
export type StoreLocation =
  | { readonly data: string }
  | { readonly postgres: { readonly url: string; readonly schema: string } }

/** One room as the store holds it. */
export interface StoredRoom {
  /** The document rebuilt from every stored update. */
  readonly doc: Y.Doc
  /**
   * Every deletion in the stored updates, sorted and merged: also those of items the stored
   * document lacks, which Yjs keeps aside rather than in the document's own delete set.
   */
  readonly deletions: DeleteSet
  /** How many updates the log held. */
  readonly updates: number
}

/**
 * Opens the store at `at` as a server process opens it (`<data>/tandem.sqlite`, or the schema),
 * to read from: beside a server that writes, or after one was killed (SQLite then replays its
 * write-ahead log, as the server would on restart).
 *
 * @example const store = await openStoreAt({ data }); await store.load('notes')
 */
export const openStoreAt = async (at: StoreLocation): Promise<DocumentStore> =>
  'data' in at
    ? SqliteStore.open({ file: join(at.data, DATABASE_FILE) })
    : PostgresStore.open({
        connectionString: at.postgres.url,
        schema: at.postgres.schema,
        maxConnections: 2,
      })

/**
 * `room` as `store` holds it now.
 *
 * @example const { doc } = await readStoredRoom(store, 'notes'); doc.getText('text').toString()
 */
export const readStoredRoom = async (store: DocumentStore, room: string): Promise<StoredRoom> => {
  const { updates } = await store.load(room)
  const doc = new Y.Doc()
  Y.transact(doc, () => {
    for (const update of updates) Y.applyUpdate(doc, update)
  })
  const deletions = Y.mergeDeleteSets(updates.map((update) => Y.decodeUpdate(update).ds))
  return { doc, deletions, updates: updates.length }
}

/**
 * Every room of `rooms` as the store at `at` holds it, read through a store opened for this
 * and closed before returning.
 *
 * @example const stored = await readStoredRooms({ data }, ['a', 'b']); stored.get('a')!.doc
 */
export const readStoredRooms = async (
  at: StoreLocation,
  rooms: readonly string[],
): Promise<Map<string, StoredRoom>> => {
  const store = await openStoreAt(at)
  try {
    const stored = new Map<string, StoredRoom>()
    for (const room of rooms) stored.set(room, await readStoredRoom(store, room))
    return stored
  } finally {
    await store.close()
  }
}
