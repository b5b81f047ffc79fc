/**
 * `PostgresStore` against a real PostgreSQL (`TANDEM_POSTGRES_URL`, by default the `test`
 * database on 127.0.0.1:5432), in a schema of its own that is dropped afterwards. Without a
 * reachable database the tests are skipped, except in CI, where that is a failure.
 */
import { Pool } from 'pg'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { neededServices, POSTGRES_URL } from '../testing/services.js'
import { describeDocumentStore, type OpenStore } from '../testing/store-contract.js'
import { StorageError } from './document-store.js'
import { PostgresStore } from './postgres-store.js'

const DATABASE_URL = POSTGRES_URL
const SCHEMA = `tandem_test_${process.pid}_${Date.now().toString(36)}`

type OpenOptions = Parameters<OpenStore>[0]

const unavailable = await neededServices('the PostgresStore tests', { postgres: true })

describe.skipIf(unavailable !== null)('PostgresStore on a real database', () => {
  const admin = new Pool({ connectionString: DATABASE_URL, max: 2 })
  const opened: PostgresStore[] = []

  /** A store on this run's schema; `fresh` drops the schema first. */
  const open = async ({ fresh, maxSessionsPerRoom }: OpenOptions) => {
    if (fresh) await admin.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`)
    return PostgresStore.open({
      connectionString: DATABASE_URL,
      schema: SCHEMA,
      maxSessionsPerRoom,
    })
  }

  const openStore = async (fresh: boolean) => {
    const store = await open({ fresh })
    opened.push(store)
    return store
  }

  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close()
  })
  afterAll(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`)
    await admin.end()
  })

  describeDocumentStore('PostgresStore', open)

  /** A document typing `chars`, one update per character. */
  const typed = (chars: string) => {
    const doc = new Y.Doc()
    const updates: Uint8Array[] = []
    doc.on('update', (update: Uint8Array) => updates.push(update))
    for (const char of chars) doc.getText('text').insert(0, char)
    return updates
  }

  const textOf = (updates: readonly Uint8Array[]) => {
    const doc = new Y.Doc()
    for (const update of updates) Y.applyUpdate(doc, update)
    return doc.getText('text').toString()
  }

  it('loses nothing when two processes append to and compact one room at once', async () => {
    const first = await openStore(true)
    const second = await openStore(false)
    const stores = [first, second]
    const writers = Array.from({ length: 6 }, (_, i) => typed(`writer ${i}: 0123456789`))
    const all = writers.flat()
    let appending = true
    let compactions = 0
    const compacting = (async () => {
      while (appending) {
        await Promise.all(stores.map((store) => store.compact('shared')))
        compactions += 2
      }
    })()
    // Each writer appends its keystrokes one after another, half through each process.
    await Promise.all(
      writers.map(async (updates, i) => {
        for (const update of updates) await stores[i % 2]!.append('shared', update)
      }),
    )
    appending = false
    await compacting

    expect(compactions).toBeGreaterThan(0)
    expect(textOf((await second.load('shared')).updates)).toBe(textOf(all))

    // The size counters stayed in step with the rows through it all.
    const extra = typed('!')[0]!
    const size = await first.append('shared', extra)
    expect(size).toEqual((await second.load('shared')).size)
    const [a, b] = await Promise.all(stores.map((store) => store.compact('shared')))
    const after = await first.load('shared')
    expect(after.updates).toHaveLength(1)
    expect(after.size).toEqual({ updates: 1, bytes: after.updates[0]!.length })
    expect([a, b]).toContainEqual(after.size)
    expect(textOf(after.updates)).toBe(textOf([...all, extra]))
  })

  it('lets several processes create the tables at once', async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`)
    const stores = await Promise.all(Array.from({ length: 4 }, () => openStore(false)))
    await stores[0]!.append('r', typed('x')[0]!)
    expect(await stores[3]!.listRooms()).toEqual(['r'])
  })

  it('adds the author columns and the attribution table to a schema made before them', async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`)
    await admin.query(`CREATE SCHEMA "${SCHEMA}"`)
    for (const create of [
      `CREATE TABLE "${SCHEMA}".updates (room text NOT NULL,
         seq bigint GENERATED ALWAYS AS IDENTITY, data bytea NOT NULL, PRIMARY KEY (room, seq))`,
      `CREATE TABLE "${SCHEMA}".rooms (room text PRIMARY KEY, updates bigint NOT NULL,
         bytes bigint NOT NULL)`,
      `CREATE TABLE "${SCHEMA}".sessions (room text NOT NULL, user_id text NOT NULL,
         data text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now(),
         PRIMARY KEY (room, user_id))`,
      `CREATE TABLE "${SCHEMA}".meta (room text NOT NULL, key text NOT NULL,
         value text NOT NULL, PRIMARY KEY (room, key))`,
    ]) {
      await admin.query(create)
    }
    await admin.query(`INSERT INTO "${SCHEMA}".updates (room, data) VALUES ('r', $1)`, [
      Buffer.from(typed('x')[0]!),
    ])
    const store = await openStore(false)
    await store.append('r', typed('y')[0]!, { user: 'ada', time: 0, acceptedBy: 'bob' })
    expect((await store.load('r')).updates).toHaveLength(2)
    expect((await store.loadAttribution('r')).users()).toEqual(['ada'])
    await store.compact('r')
    expect((await store.loadAttribution('r')).users()).toEqual(['ada'])
    expect((await store.loadAttribution('r')).usersSince(0)).toEqual(['ada', 'bob'])
  })

  it('adds the program changes table to a schema made before it', async () => {
    const before = await openStore(true)
    await before.saveUndoHistory('r', 'ada', new Uint8Array([1]))
    await before.close()
    await admin.query(`DROP TABLE "${SCHEMA}".program_changes`)
    const store = await openStore(false)
    await store.saveProgramChange('r', 'a', new Uint8Array([1, 2]))
    expect(await store.loadProgramChanges('r', 10)).toEqual([
      { id: 'a', change: new Uint8Array([1, 2]) },
    ])
    expect(await store.loadUndoHistory('r', 'ada')).toEqual(new Uint8Array([1]))
  })

  it('rejects calls once closed', async () => {
    const store = await openStore(true)
    await store.close()
    await expect(store.load('r')).rejects.toThrow(/closed/)
    await expect(store.append('r', new Uint8Array([0, 0]))).rejects.toBeInstanceOf(StorageError)
    await store.close()
  })

  it('refuses text PostgreSQL cannot hold, and bad schema names, with a TypeError', async () => {
    const store = await openStore(true)
    await expect(store.append('a\0b', new Uint8Array([0, 0]))).rejects.toThrow(TypeError)
    await expect(store.setMeta('r', 'k', 'v\0')).rejects.toThrow(TypeError)
    await expect(
      PostgresStore.open({ connectionString: DATABASE_URL, schema: 'x"; DROP' }),
    ).rejects.toThrow(TypeError)
  })

  it('reports a failing statement as a StorageError with its cause', async () => {
    const store = await openStore(true)
    await admin.query(`DROP TABLE "${SCHEMA}".meta`)
    const failure = await store.getMeta('r', 'title').catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(StorageError)
    expect((failure as StorageError).message).toMatch(/PostgreSQL at .* failed to read metadata/)
    expect((failure as StorageError).cause).toBeDefined()
  })
})

describe('PostgresStore without a database', () => {
  it('rejects with a StorageError naming the address it could not reach', async () => {
    const failure = await PostgresStore.open({
      connectionString: 'postgres://postgres@127.0.0.1:1/test',
      connectTimeoutMs: 2_000,
    }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(StorageError)
    expect((failure as StorageError).message).toMatch(
      /^PostgreSQL at 127\.0\.0\.1:1 is unreachable: .*ECONNREFUSED/,
    )
    expect((failure as StorageError).cause).toBeInstanceOf(Error)
  })
})
