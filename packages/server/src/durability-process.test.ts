/**
 * The crash window, made deterministic: a server process whose store is held between two
 * appends is killed with SIGKILL, and no client may have anything the store lacks. Once with a
 * SQLite store whose appends the test holds over IPC, once with `tandem-server` on PostgreSQL
 * held by real table locks taken in other database sessions.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MessageType } from '@tandem/protocol'
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import { Client } from 'pg'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import * as syncProtocol from 'y-protocols/sync'
import * as Y from 'yjs'
import { signToken } from './auth/tokens.js'
import { PostgresStore } from './storage/postgres-store.js'
import { SqliteStore } from './storage/sqlite-store.js'
import { openClient, type StockClient } from './testing/clients.js'
import { HeldServerProcess } from './testing/held-server-process.js'
import { ServerProcess } from './testing/server-process.js'
import { dropSchema, neededServices, POSTGRES_URL, uniqueNames } from './testing/services.js'

const WAIT = { timeout: 15_000, interval: 10 }
const root = mkdtempSync(join(tmpdir(), 'tandem-durability-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const clients: StockClient[] = []
const sockets: WebSocket[] = []
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const c of clients.splice(0)) c.destroy()
  for (const ws of sockets.splice(0)) ws.terminate()
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const client = (url: string, room: string, params?: Record<string, string>) => {
  const c = openClient(url, room, params)
  clients.push(c)
  return c
}

/**
 * A read-only viewer on a raw WebSocket, so the test knows when the server has its request:
 * it asks for the document, then for everyone's awareness, and `asked` resolves with the
 * awareness answer (a server handles one connection's messages in order, and answers such a
 * question even when nobody has a state). Whatever sync messages it is sent go into `doc`.
 */
const rawViewer = (url: string) => {
  const ws = new WebSocket(url)
  sockets.push(ws)
  const doc = new Y.Doc()
  let answered: () => void = () => {}
  const asked = new Promise<void>((resolve) => {
    answered = resolve
  })
  ws.on('message', (data: Buffer) => {
    const decoder = decoding.createDecoder(new Uint8Array(data))
    const type = decoding.readVarUint(decoder)
    if (type === MessageType.awareness) answered()
    if (type !== MessageType.sync) return
    if (decoding.readVarUint(decoder) === syncProtocol.messageYjsSyncStep1) return
    Y.applyUpdate(doc, decoding.readVarUint8Array(decoder))
  })
  ws.on('open', () => {
    const request = encoding.createEncoder()
    encoding.writeVarUint(request, MessageType.sync)
    syncProtocol.writeSyncStep1(request, new Y.Doc())
    ws.send(encoding.toUint8Array(request))
    ws.send(new Uint8Array([MessageType.queryAwareness]))
  })
  return { doc, text: doc.getText('text'), asked }
}

/** The document `updates` rebuild. */
const docOf = (updates: readonly Uint8Array[]): Y.Doc => {
  const doc = new Y.Doc()
  for (const update of updates) Y.applyUpdate(doc, update)
  return doc
}

/**
 * What the store lacks of what `viewer` has, as its text and the store's: `missing` is false
 * when the store holds every item and deletion the viewer has.
 */
const compare = (stored: readonly Uint8Array[], viewer: { doc: Y.Doc; text: Y.Text }) => {
  const store = docOf(stored)
  return {
    viewer: viewer.text.toString(),
    store: store.getText('text').toString(),
    missing: !Y.snapshotContainsUpdate(Y.snapshot(store), Y.encodeStateAsUpdate(viewer.doc)),
  }
}

describe('kill -9 between two appends (SQLite, appends held by the test)', () => {
  it('leaves no client with anything the store lacks', async () => {
    const data = join(root, 'held')
    const server = await HeldServerProcess.start(data)
    cleanups.push(() => server.kill())
    const writer = client(server.url, 'notes')
    await writer.synced()
    await server.hold()
    writer.text.insert(0, 'one ')
    await server.parked(1, 1)
    const viewer = rawViewer(`${server.url}/notes?role=read`)
    await viewer.asked
    writer.text.insert(4, 'two')
    // The first append goes through; the second then waits in the store.
    server.release(1)
    await vi.waitFor(() => expect(viewer.text.toString()).toMatch(/^one /), WAIT)
    await server.parked(2, 1)
    await server.kill()
    const store = SqliteStore.open({ file: join(data, 'tandem.sqlite') })
    cleanups.push(() => store.close())
    expect(compare((await store.load('notes')).updates, viewer)).toEqual({
      viewer: 'one ',
      store: 'one ',
      missing: false,
    })
  })
})

const skip = await neededServices('the PostgreSQL kill test', { postgres: true })

/** A second database session, as an operator or a slow transaction would hold one. */
const session = async (): Promise<Client> => {
  const db = new Client({ connectionString: POSTGRES_URL })
  db.on('error', () => {})
  await db.connect()
  cleanups.push(() => db.end().catch(() => {}))
  return db
}

describe.skipIf(skip !== null)(
  'kill -9 between two appends (PostgreSQL, held by table locks)',
  () => {
    it('leaves no client with anything the store lacks', async () => {
      const { schema } = uniqueNames('locked')
      cleanups.push(() => dropSchema(schema))
      const secret = 'a secret of at least thirty-two bytes, for tests'
      const server = await ServerProcess.start({
        data: join(root, 'locked'),
        postgres: { url: POSTGRES_URL, schema },
        env: { TANDEM_AUTH_SECRET: secret },
      })
      cleanups.push(async () => {
        await server.kill('SIGKILL')
      })
      const token = (role: 'read' | 'write') =>
        signToken(
          { room: 'notes', role, sub: role, exp: Math.floor(Date.now() / 1000) + 600 },
          secret,
        )
      const watcher = await session()
      /** Sessions of this database waiting for a lock. */
      const waiting = async (): Promise<number> => {
        const { rows } = await watcher.query<{ n: string }>(
          `SELECT count(*) AS n FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        )
        return Number(rows[0]!.n)
      }
      const writer = client(server.url, 'notes', { token: token('write') })
      await writer.synced()

      const first = await session()
      await first.query('BEGIN')
      await first.query(`LOCK TABLE "${schema}".updates IN EXCLUSIVE MODE`)
      writer.text.insert(0, 'one ')
      await vi.waitFor(async () => expect(await waiting()).toBe(1), WAIT)
      const viewer = rawViewer(`${server.url}/notes?token=${token('read')}`)
      await viewer.asked
      // A second lock queues behind the first append, and the second append behind it: once
      // the first commits, the second waits, whenever the server sends it.
      const second = await session()
      await second.query('BEGIN')
      const secondLock = second.query(`LOCK TABLE "${schema}".updates IN EXCLUSIVE MODE`)
      await vi.waitFor(async () => expect(await waiting()).toBe(2), WAIT)
      writer.text.insert(4, 'two')
      await first.query('COMMIT')
      await secondLock
      await vi.waitFor(() => expect(viewer.text.toString()).toMatch(/^one /), WAIT)
      await vi.waitFor(async () => expect(await waiting()).toBe(1), WAIT)
      await server.kill('SIGKILL')
      // The dead server's append still waits in the database, and would commit once the lock
      // goes: end it, as a crash of the machine would.
      await watcher.query(
        `SELECT pg_terminate_backend(pid) FROM pg_locks
         WHERE relation = $1::regclass AND NOT granted`,
        [`"${schema}".updates`],
      )
      await second.query('ROLLBACK')

      const store = await PostgresStore.open({ connectionString: POSTGRES_URL, schema })
      cleanups.push(() => store.close())
      expect(compare((await store.load('notes')).updates, viewer)).toEqual({
        viewer: 'one ',
        store: 'one ',
        missing: false,
      })
    })
  },
)
