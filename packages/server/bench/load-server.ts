/**
 * One server of the load benchmark, run as a child process so that its CPU time and memory
 * are its own. Started by `LoadServer.start` (load-servers.ts) with an IPC channel:
 *
 *   node --import tsx --expose-gc load-server.ts <kind> [data folder | schema]
 *
 * `kind` is `tandem-sqlite` (TandemServer over SqliteStore in the data folder),
 * `tandem-postgres` (TandemServer over PostgresStore in the schema, dropped when it stops),
 * `tandem-memory` (TandemServer over a MemoryStore), `y-websocket` (the stock server's own
 * command, keeping documents in memory) or `hocuspocus` (@hocuspocus/server with no
 * extension: nothing is stored). It listens on a free port of 127.0.0.1, sends
 * `{ready: port}`, then answers every `{id, gc}` with its `ServerStats`. It stops when
 * the parent closes the channel (or dies), or on SIGTERM.
 */
import { join } from 'node:path'
import type { DocumentStore } from '../src/storage/document-store.js'
import { PostgresStore } from '../src/storage/postgres-store.js'
import { SqliteStore } from '../src/storage/sqlite-store.js'
import { TandemServer } from '../src/tandem-server.js'
import { dropSchema, POSTGRES_URL } from '../src/testing/services.js'
import type { ServerStats, StatsRequest } from './load-servers.js'
import { MemoryStore } from './memory-store.js'
import { type HocuspocusServerModule, importPublished } from './published.js'
import { startStockYWebsocket } from './stock-y-websocket.js'

/** A running server: its port, how many rooms it holds, and how to stop it. */
interface Running {
  readonly port: number
  rooms(): number
  close(): Promise<void>
}

const HOST = '127.0.0.1'

const startTandem = async (
  store: DocumentStore,
  afterClose: () => Promise<void> = async () => {},
): Promise<Running> => {
  const server = new TandemServer({
    store,
    // Rooms unload as soon as they are empty, as hocuspocus does by default, so that each run
    // starts from the same memory.
    idleUnloadMs: 0,
    // Every client comes from 127.0.0.1 here, where users' clients come from many addresses.
    maxConnectionsPerIp: Number.POSITIVE_INFINITY,
  })
  const port = await server.listen(0, HOST)
  return {
    port,
    rooms: () => server.openRooms.length,
    close: async () => {
      await server.close()
      await store.close()
      await afterClose()
    },
  }
}

const startTandemOnPostgres = async (schema: string): Promise<Running> => {
  const store = await PostgresStore.open({ connectionString: POSTGRES_URL, schema })
  return startTandem(store, () => dropSchema(schema))
}

const startHocuspocus = async (): Promise<Running> => {
  const { Server } = (await importPublished('@hocuspocus/server')) as HocuspocusServerModule
  const server = new Server({ address: HOST, port: 0, quiet: true, stopOnSignals: false })
  await server.listen()
  return {
    port: server.address.port,
    rooms: () => server.hocuspocus.getDocumentsCount(),
    close: () => server.destroy(),
  }
}

const start = (kind: string, data: string | undefined): Promise<Running> => {
  switch (kind) {
    case 'tandem-sqlite':
      if (data === undefined) throw new TypeError('tandem-sqlite needs a data folder')
      return startTandem(SqliteStore.open({ file: join(data, 'tandem.sqlite') }))
    case 'tandem-postgres':
      if (data === undefined) throw new TypeError('tandem-postgres needs a schema')
      return startTandemOnPostgres(data)
    case 'tandem-memory':
      return startTandem(new MemoryStore())
    case 'y-websocket':
      return startStockYWebsocket(HOST)
    case 'hocuspocus':
      return startHocuspocus()
    default:
      throw new TypeError(`unknown server kind ${JSON.stringify(kind)}`)
  }
}

const collect = (globalThis as { gc?: () => void }).gc

const statsOf = (running: Running, gc: boolean): ServerStats => {
  // Read the clock before collecting: the collection is the benchmark's, not the server's.
  const { user, system } = process.cpuUsage()
  if (gc) collect?.()
  const memory = process.memoryUsage()
  return {
    cpuMs: (user + system) / 1000,
    rssBytes: memory.rss,
    heapBytes: memory.heapUsed + memory.external,
    rooms: running.rooms(),
  }
}

const main = async () => {
  const send = process.send?.bind(process)
  if (send === undefined) throw new Error('load-server.ts must be started with an IPC channel')
  const [kind, data] = process.argv.slice(2)
  const running = await start(kind ?? '', data)
  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    await running.close().catch(() => {})
    process.exit(0)
  }
  process.on('message', (message: StatsRequest) => {
    send({ id: message.id, stats: statsOf(running, message.gc) })
  })
  process.on('disconnect', () => void stop())
  process.on('SIGTERM', () => void stop())
  send({ ready: running.port })
}

main().catch((error: unknown) => {
  console.error(`load-server: ${error instanceof Error ? error.stack : error}`)
  process.exit(1)
})
