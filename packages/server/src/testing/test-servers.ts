/**
 * Servers for the server's tests: each on a free port over a SQLite file of its own in a
 * temporary folder, with stock clients, all closed after each test.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach } from 'vitest'
import type { TandemServerOptions } from '../server-options.js'
import { SqliteStore } from '../storage/sqlite-store.js'
import { TandemServer } from '../tandem-server.js'
import { openClient, type StockClient } from './clients.js'

/** A running test server. */
export interface TestServer {
  readonly server: TandemServer
  readonly store: SqliteStore
  readonly file: string
  readonly port: number
  /** `ws://127.0.0.1:<port>` */
  readonly url: string
}

/**
 * Sets up test servers for the enclosing file or `describe`: `start(options)` runs one,
 * `client(url, room, params)` connects a stock client; both are closed after each test, and
 * the folder of SQLite files after all of them.
 *
 * @example const servers = useTestServers('tokens'); const { url } = await servers.start()
 */
export const useTestServers = (label: string) => {
  const dir = mkdtempSync(join(tmpdir(), `tandem-${label}-`))
  const running: TestServer[] = []
  const clients: StockClient[] = []
  let files = 0
  const destroyClients = () => {
    for (const c of clients.splice(0)) c.destroy()
  }
  afterEach(async () => {
    destroyClients()
    for (const { server, store } of running.splice(0)) {
      await server.close()
      await store.close()
    }
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  return {
    /** The temporary folder of this file's SQLite files. */
    dir,
    /** A server over `file` (a new SQLite file unless given) with `options`. */
    async start(
      options: Omit<TandemServerOptions, 'store'> & { file?: string } = {},
    ): Promise<TestServer> {
      const { file = join(dir, `${label}-${++files}.sqlite`), ...rest } = options
      const store = SqliteStore.open({ file })
      const server = new TandemServer({ store, ...rest })
      const port = await server.listen(0, '127.0.0.1')
      const started = { server, store, file, port, url: `ws://127.0.0.1:${port}` }
      running.push(started)
      return started
    },
    /** A stock y-websocket client of `room` on `url`, destroyed after the test. */
    client(url: string, room: string, params?: Record<string, string>): StockClient {
      const c = openClient(url, room, params)
      clients.push(c)
      return c
    },
    /** Destroys every client connected so far (they leave their rooms). */
    destroyClients,
  }
}
