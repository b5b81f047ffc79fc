/**
 * Three `tandem-server` processes sharing rooms through a real Redis and PostgreSQL, stock
 * y-websocket clients spread across them typing at random (seeded), and one process killed
 * with SIGKILL mid-run.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as prng from 'lib0/prng'
import { Client } from 'pg'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import { startNodeProcess } from '../../../../testing/processes.js'
import { PostgresStore } from '../storage/postgres-store.js'
import { openClient, type StockClient } from '../testing/clients.js'
import { ServerProcess } from '../testing/server-process.js'
import {
  dropSchema,
  POSTGRES_URL,
  REDIS_URL,
  scaleOutServices,
  uniqueNames,
} from '../testing/services.js'

const WAIT = { timeout: 30_000, interval: 20 }
const SEED = Number(process.env.SEED ?? 7)
const ROOMS = ['alpha', 'beta']
const CLI = fileURLToPath(new URL('../cli.ts', import.meta.url))

describe('tandem-server scale-out flags', () => {
  it('refuses --redis without --postgres, saying why', async () => {
    const started = startNodeProcess({
      args: ['--conditions=source', '--import', 'tsx', CLI, '--port', '0', '--redis', REDIS_URL],
      ready: '"msg":"listening"',
    })
    await expect(started).rejects.toThrow(
      /exited with 2: .*--redis needs --postgres: instances sharing rooms must share their storage too/s,
    )
  })
})

const skip = await scaleOutServices('the scale-out process test')
const { schema, prefix } = uniqueNames('procs')
const root = mkdtempSync(join(tmpdir(), 'tandem-scale-'))

describe.skipIf(skip !== null)('three tandem-server processes over Redis and PostgreSQL', () => {
  const processes: ServerProcess[] = []
  const clients: StockClient[] = []
  afterEach(async () => {
    for (const c of clients.splice(0)) c.destroy()
    for (const p of processes.splice(0)) await p.kill('SIGKILL')
  })
  afterAll(async () => {
    rmSync(root, { recursive: true, force: true })
    await dropSchema(schema)
  })

  /** The stored document of each room, read through a store of its own. */
  const storedDocs = async () => {
    const store = await PostgresStore.open({ connectionString: POSTGRES_URL, schema })
    try {
      const docs = new Map<string, Y.Doc>()
      for (const room of ROOMS) {
        const doc = new Y.Doc()
        for (const update of (await store.load(room)).updates) Y.applyUpdate(doc, update)
        docs.set(room, doc)
      }
      return docs
    } finally {
      await store.close()
    }
  }

  /** The items in `state` written by clients other than `own` that `stored` lacks. */
  const missingFromOthers = (state: Uint8Array, own: number, stored: Y.Doc) => {
    const missing = Y.diffUpdate(state, Y.encodeStateVector(stored))
    return Y.decodeUpdate(missing)
      .structs.filter((struct) => struct.id.client !== own)
      .map((struct) => `${struct.id.client}:${struct.id.clock}`)
  }

  it(`converges, and loses nothing stored, when one is killed mid-run (seed ${SEED})`, async () => {
    const random = prng.create(SEED)
    for (let i = 0; i < 3; i++) {
      processes.push(
        await ServerProcess.start({
          data: join(root, `data-${i}`),
          postgres: { url: POSTGRES_URL, schema },
          redis: { url: REDIS_URL, prefix },
        }),
      )
    }
    // Six clients: each room has one on every process.
    const placed = Array.from({ length: 6 }, (_, i) => ({
      room: ROOMS[i % 2]!,
      server: Math.floor(i / 2),
      client: openClient(processes[Math.floor(i / 2)]!.url, ROOMS[i % 2]!),
    }))
    clients.push(...placed.map((p) => p.client))
    await Promise.all(placed.map((p) => p.client.synced()))

    const edit = () => {
      const { client } = placed[prng.int32(random, 0, placed.length - 1)]!
      const length = client.text.length
      if (length > 10 && prng.bool(random) && prng.bool(random)) {
        const at = prng.int32(random, 0, length - 1)
        client.text.delete(at, Math.min(prng.int32(random, 1, 4), length - at))
      } else {
        client.text.insert(prng.int32(random, 0, length), prng.word(random, 1, 6))
      }
    }
    const pause = () => new Promise((resolve) => setTimeout(resolve, prng.int32(random, 0, 3)))

    for (let round = 0; round < 150; round++) {
      edit()
      await pause()
    }

    // Kill the second process while its clients are connected.
    const killed = processes[1]!
    await killed.kill('SIGKILL')
    const snapshots = placed.map((p) => ({
      room: p.room,
      own: p.client.doc.clientID,
      state: Y.encodeStateAsUpdate(p.client.doc),
    }))
    const stored = await storedDocs()
    // Whatever a client received from another client was stored before it was relayed.
    for (const { room, own, state } of snapshots) {
      expect(missingFromOthers(state, own, stored.get(room)!)).toEqual([])
    }

    // Its clients move to the surviving processes, keeping their documents.
    for (const [i, p] of placed.entries()) {
      if (p.server !== 1) continue
      p.client.provider.destroy()
      p.server = i % 2 === 0 ? 0 : 2
      p.client = openClient(processes[p.server]!.url, p.room, {}, p.client.doc)
      clients.push(p.client)
    }
    for (let round = 0; round < 150; round++) {
      edit()
      await pause()
    }

    for (const room of ROOMS) {
      const inRoom = placed.filter((p) => p.room === room).map((p) => p.client)
      await vi.waitFor(() => {
        for (const c of inRoom) expect(c.text.toString()).toBe(inRoom[0]!.text.toString())
      }, WAIT)
    }
    // Every client's update reached a client elsewhere, so it is stored: the database has
    // each room exactly as its clients do.
    const final = await storedDocs()
    for (const p of placed) {
      expect(final.get(p.room)!.getText('text').toString()).toBe(p.client.text.toString())
    }
    expect(placed.some((p) => p.client.text.length > 0)).toBe(true)

    // A surviving process stops cleanly, closing its relay and store.
    expect(await processes[0]!.kill('SIGTERM')).toBe(0)
    expect(processes[0]!.output).toContain('"msg":"stopped"')
    expect(processes[0]!.output).toMatch(/"relay":"redis [^"]+ prefix/)
    for (const survivor of [processes[0]!, processes[2]!]) {
      expect(survivor.output).not.toContain('"msg":"relay failed"')
    }
  })
})

describe.skipIf(skip !== null)('an update its instance stored but never published', () => {
  const { schema: lostSchema, prefix: lostPrefix } = uniqueNames('lost')
  const processes: ServerProcess[] = []
  const clients: StockClient[] = []
  const sessions: Client[] = []
  afterEach(async () => {
    for (const c of clients.splice(0)) c.destroy()
    for (const p of processes.splice(0)) await p.kill('SIGKILL')
    for (const db of sessions.splice(0)) await db.end().catch(() => {})
  })
  afterAll(() => dropSchema(lostSchema))

  it('reaches the clients of the other instances once the instance that stored it is back', async () => {
    const start = async (name: string) => {
      const server = await ServerProcess.start({
        data: join(root, name),
        postgres: { url: POSTGRES_URL, schema: lostSchema },
        redis: { url: REDIS_URL, prefix: lostPrefix },
      })
      processes.push(server)
      return server
    }
    const [a, b] = [await start('lost-a'), await start('lost-b')]
    const writer = openClient(a.url, 'lost')
    const reader = openClient(b.url, 'lost')
    clients.push(writer, reader)
    await Promise.all([writer.synced(), reader.synced()])
    writer.text.insert(0, 'ab')
    await vi.waitFor(() => expect(reader.text.toString()).toBe('ab'), WAIT)
    // A's next append waits on a lock; A dies; the database commits the append all the same.
    const lock = new Client({ connectionString: POSTGRES_URL })
    lock.on('error', () => {})
    sessions.push(lock)
    await lock.connect()
    await lock.query('BEGIN')
    await lock.query(`LOCK TABLE "${lostSchema}".updates IN EXCLUSIVE MODE`)
    writer.text.insert(2, 'X')
    await vi.waitFor(async () => {
      const { rows } = await lock.query<{ n: string }>(
        `SELECT count(*) AS n FROM pg_locks WHERE relation = $1::regclass AND NOT granted`,
        [`"${lostSchema}".updates`],
      )
      expect(Number(rows[0]!.n)).toBe(1)
    }, WAIT)
    await a.kill('SIGKILL')
    await lock.query('COMMIT')
    await vi.waitFor(async () => {
      const store = await PostgresStore.open({ connectionString: POSTGRES_URL, schema: lostSchema })
      try {
        const doc = new Y.Doc()
        for (const update of (await store.load('lost')).updates) Y.applyUpdate(doc, update)
        expect(doc.getText('text').toString()).toBe('abX')
      } finally {
        await store.close()
      }
    }, WAIT)
    expect(reader.text.toString()).toBe('ab')
    // A comes back and loads the room; B catches up from the store.
    await a.start()
    await vi.waitFor(() => expect(reader.text.toString()).toBe('abX'), WAIT)
    writer.text.insert(3, 'Y')
    await vi.waitFor(() => expect(reader.text.toString()).toBe('abXY'), WAIT)
  })
})
