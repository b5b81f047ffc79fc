/**
 * `PostgresStore`'s batched appends against a real PostgreSQL (see postgres-store.test.ts for
 * the database and the schema): one transaction for a turn's appends to many rooms, a failed
 * batch failing exactly its appends, and batches in flight together on the same rooms, from
 * one process and from two, while rooms compact.
 */
import { Pool } from 'pg'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { neededServices, POSTGRES_URL } from '../testing/services.js'
import { type LogSize, StorageError } from './document-store.js'
import { PostgresStore } from './postgres-store.js'

const SCHEMA = `tandem_batches_${process.pid}_${Date.now().toString(36)}`

const unavailable = await neededServices('the PostgresStore batching tests', { postgres: true })

/** Lets the current turn of the event loop end, so that the appends made in it are sent. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** A client typing into its own document: each character one update. */
const writer = () => {
  const doc = new Y.Doc()
  const text = doc.getText('text')
  let last: Uint8Array | null = null
  doc.on('update', (update: Uint8Array) => {
    last = update
  })
  return {
    doc,
    /** Types `char` at the end; returns its update. */
    type(char: string): Uint8Array {
      text.insert(text.length, char)
      return last!
    },
  }
}

/** The text of the updates, applied in order. */
const textOf = (updates: readonly Uint8Array[]): string => {
  const doc = new Y.Doc()
  for (const update of updates) Y.applyUpdate(doc, update)
  return doc.getText('text').toString()
}

/** The text of every document of `writers` merged. */
const mergedText = (writers: readonly { doc: Y.Doc }[]): string =>
  textOf(writers.map(({ doc }) => Y.encodeStateAsUpdate(doc)))

describe.skipIf(unavailable !== null)('PostgresStore batches on a real database', () => {
  const admin = new Pool({ connectionString: POSTGRES_URL, max: 2 })
  const opened: PostgresStore[] = []

  /** A store on this file's schema, emptied first with `fresh`. */
  const open = async (fresh: boolean, maxConnections?: number) => {
    if (fresh) await admin.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`)
    const store = await PostgresStore.open({
      connectionString: POSTGRES_URL,
      schema: SCHEMA,
      maxConnections,
    })
    opened.push(store)
    return store
  }

  /** The transactions that wrote `room`'s rows: each row's `xmin`. */
  const writtenBy = async (rooms: readonly string[]): Promise<Set<string>> => {
    const { rows } = await admin.query<{ xmin: string }>(
      `SELECT xmin::text AS xmin FROM "${SCHEMA}".updates WHERE room = ANY($1)`,
      [rooms],
    )
    return new Set(rows.map((row) => row.xmin))
  }

  /** `room`'s counters as stored, which must match its rows. */
  const counters = async (room: string): Promise<LogSize> => {
    const { rows } = await admin.query<{ updates: string; bytes: string }>(
      `SELECT updates, bytes FROM "${SCHEMA}".rooms WHERE room = $1`,
      [room],
    )
    const row = rows[0]
    return { updates: Number(row?.updates ?? 0), bytes: Number(row?.bytes ?? 0) }
  }

  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close()
  })
  afterAll(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`)
    await admin.end()
  })

  it('writes the appends of one turn, to many rooms, in one transaction', async () => {
    const store = await open(true)
    const rooms = Array.from({ length: 40 }, (_, i) => `room ${i}`)
    const writers = rooms.map(() => writer())
    // Three updates per room, interleaved across rooms, all in this turn.
    const appends: { room: string; update: Uint8Array; size: Promise<LogSize> }[] = []
    for (const char of 'abc') {
      rooms.forEach((room, i) => {
        const update = writers[i]!.type(char)
        appends.push({ room, update, size: store.append(room, update) })
      })
    }
    const sizes = await Promise.all(appends.map(({ size }) => size))

    expect(await writtenBy(rooms)).toHaveProperty('size', 1)
    for (const [i, room] of rooms.entries()) {
      const loaded = await store.load(room)
      expect(textOf(loaded.updates)).toBe('abc')
      expect(loaded.size).toEqual(await counters(room))
      // Each append learnt the size of its room's log right after it.
      const mine = appends.flatMap((append, j) => (append.room === room ? [sizes[j]!] : []))
      const bytes = appends
        .filter((append) => append.room === room)
        .map(({ update }) => update.length)
      expect(mine).toEqual([
        { updates: 1, bytes: bytes[0] },
        { updates: 2, bytes: bytes[0]! + bytes[1]! },
        { updates: 3, bytes: bytes[0]! + bytes[1]! + bytes[2]! },
      ])
      expect(loaded.updates.map((u) => [...u])).toEqual(
        appends.filter((a) => a.room === room).map((a) => [...a.update]),
      )
      expect(writers[i]!.doc.getText('text').toString()).toBe('abc')
    }
  })

  it('fails every append of a failed batch, stores none of them, and goes on', async () => {
    const store = await open(true)
    // A real failure inside the batch's statement: the database refuses one room's rows.
    await admin.query(`
      CREATE FUNCTION "${SCHEMA}".refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.room = 'poison' THEN RAISE EXCEPTION 'no poison here'; END IF;
        RETURN NEW;
      END $$`)
    await admin.query(`
      CREATE TRIGGER refuse_poison BEFORE INSERT ON "${SCHEMA}".updates
      FOR EACH ROW EXECUTE FUNCTION "${SCHEMA}".refuse_poison()`)
    const a = writer()
    const b = writer()
    await store.append('a', a.type('1'))

    const failed = await Promise.allSettled([
      store.append('a', a.type('2')),
      store.append('poison', writer().type('x')),
      store.append('b', b.type('1')),
    ])
    for (const outcome of failed) {
      expect(outcome.status).toBe('rejected')
      const reason = (outcome as PromiseRejectedResult).reason as StorageError
      expect(reason).toBeInstanceOf(StorageError)
      expect(reason.message).toMatch(/failed to append updates: no poison here/)
    }
    expect((await store.load('a')).updates).toHaveLength(1)
    expect(await counters('a')).toEqual((await store.load('a')).size)
    expect(await store.load('b')).toEqual({ updates: [], size: { updates: 0, bytes: 0 } })
    expect(await counters('b')).toEqual({ updates: 0, bytes: 0 })

    // The next turn's batch is written as if nothing had happened; the writers send again
    // what was refused, as clients do when they reconnect.
    b.type('2')
    const [sizeA, sizeB] = await Promise.all([
      store.append('a', Y.encodeStateAsUpdate(a.doc)),
      store.append('b', Y.encodeStateAsUpdate(b.doc)),
      store.append('c', writer().type('!')),
    ])
    expect(sizeA.updates).toBe(2)
    expect(sizeB.updates).toBe(1)
    expect(textOf((await store.load('a')).updates)).toBe('12')
    expect(textOf((await store.load('b')).updates)).toBe('12')
    expect(await store.listRooms()).toEqual(['a', 'b', 'c'])
  })

  it('keeps every append and exact counters with batches in flight together on the same rooms', async () => {
    const first = await open(true, 4)
    const second = await open(false, 4)
    const rooms = Array.from({ length: 12 }, (_, i) => `shared ${i}`)
    // The first three rooms are compacted while the appends go on.
    const compacted = rooms.slice(0, 3)
    // Each process types into every room, one writer per room and process.
    const writers = [first, second].map(() => rooms.map(() => writer()))
    const sizes = new Map<string, Promise<LogSize>[]>(rooms.map((room) => [room, []]))
    const compactions: Promise<LogSize>[] = []
    for (let turn = 0; turn < 30; turn++) {
      // The two processes take the rooms in opposite orders, and a turn's batch leaves before
      // the previous one has committed: their counter rows are contended every turn.
      const order = turn % 2 === 0 ? rooms : [...rooms].reverse()
      for (const [p, store] of [first, second].entries()) {
        for (const room of p === 0 ? order : [...order].reverse()) {
          const update = writers[p]![rooms.indexOf(room)]!.type('abcdefghij'[turn % 10]!)
          sizes.get(room)!.push(store.append(room, update))
        }
      }
      if (turn % 5 === 4) {
        compactions.push(first.compact(compacted[turn % 3]!))
        compactions.push(second.compact(compacted[(turn + 1) % 3]!))
      }
      await nextTurn()
    }
    const settled = await Promise.all(rooms.map((room) => Promise.all(sizes.get(room)!)))
    await Promise.all(compactions)

    expect((await writtenBy(rooms)).size).toBeGreaterThan(1)
    for (const [i, room] of rooms.entries()) {
      const loaded = await first.load(room)
      expect(textOf(loaded.updates)).toBe(mergedText(writers.map((w) => w[i]!)))
      expect(loaded.size).toEqual(await counters(room))
      if (compacted.includes(room)) continue
      // Each append saw its own log size: the batches' counter updates were serialized.
      const counts = settled[i]!.map((size) => size.updates).sort((x, y) => x - y)
      expect(counts).toEqual(Array.from({ length: 60 }, (_, n) => n + 1))
    }
  })

  it('stores the appends already made when it closes', async () => {
    const store = await open(true)
    const a = writer()
    const pending = ['x', 'y', 'z'].map((char) => store.append('closing', a.type(char)))
    await store.close()
    expect((await Promise.all(pending)).at(-1)?.updates).toBe(3)
    await expect(store.append('closing', a.type('!'))).rejects.toBeInstanceOf(StorageError)
    const reopened = await open(false)
    expect(textOf((await reopened.load('closing')).updates)).toBe('xyz')
  })
})
