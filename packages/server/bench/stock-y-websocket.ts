/**
 * The stock y-websocket server (`@y/websocket-server`), started in this process by running
 * its own command's script, as `npx y-websocket` does: the HTTP server, the `ws` version and
 * the connection handler are the package's, untouched. It keeps every document in memory and
 * stores nothing (no `YPERSISTENCE`).
 *
 * The script takes its address from `HOST` and `PORT` and says nothing to its caller once it
 * listens, so the port is picked beforehand and the script is taken to be ready once the port
 * accepts a connection.
 */
import { createRequire } from 'node:module'
import { connect } from 'node:net'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { freePort } from '../../../testing/processes.js'

/** What the benchmark reads of the stock server's `utils.js`. */
interface StockUtils {
  /** Every document the process holds, by room name; the server never removes one. */
  readonly docs: Map<string, { readonly conns: Map<unknown, unknown> }>
}

/** The running stock server, as load-server.ts drives every server. */
export interface StockServer {
  readonly port: number
  /** Rooms with a connection: documents whose last connection left stay in memory. */
  rooms(): number
  close(): Promise<void>
}

const READY_TIMEOUT_MS = 10_000

/**
 * Runs the stock server's script on `host` and a free port; resolves once it accepts
 * connections. It runs until the process ends.
 *
 * @example const server = await startStockYWebsocket('127.0.0.1'); server.port
 */
export const startStockYWebsocket = async (host: string): Promise<StockServer> => {
  const require = createRequire(import.meta.url)
  const folder = dirname(require.resolve('@y/websocket-server/package.json'))
  const port = await freePort()
  process.env.HOST = host
  process.env.PORT = String(port)
  await import(pathToFileURL(join(folder, 'src/server.js')).href)
  // The script imports this same file, so this is the map it fills.
  const { docs } = (await import(pathToFileURL(join(folder, 'src/utils.js')).href)) as StockUtils
  await accepting(host, port)
  return {
    port,
    rooms: () => [...docs.values()].filter((doc) => doc.conns.size > 0).length,
    // The script offers no way to stop; the process exits after this.
    close: async () => {},
  }
}

/** Resolves once `host:port` accepts a TCP connection; rejects after a while. */
const accepting = async (host: string, port: number): Promise<void> => {
  const deadline = performance.now() + READY_TIMEOUT_MS
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, host)
      socket.once('connect', () => {
        socket.destroy()
        resolve(true)
      })
      socket.once('error', () => resolve(false))
    })
    if (open) return
    if (performance.now() > deadline) {
      throw new Error(`the stock y-websocket server did not listen on ${host}:${port}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
