/**
 * The stock y-websocket server (`@y/websocket-server`), run as its own process on loopback
 * for tests.
 */
import type { ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { freePort, startNodeProcess, stopProcess } from '../../../../testing/processes.js'

const HOST = '127.0.0.1'

const serverScript = (): string => {
  const require = createRequire(import.meta.url)
  return join(dirname(require.resolve('@y/websocket-server/package.json')), 'src/server.js')
}

/**
 * A y-websocket server process (documents in memory only). `stop()` kills it, `start()` runs
 * it again on the same port, with every document gone.
 *
 * @example const server = await YWebsocketServer.start(); connect(editor, { url: server.url, ... })
 */
export class YWebsocketServer {
  private child: ChildProcess | null = null

  private constructor(readonly port: number) {}

  /** Starts a server on a free port. */
  static async start(): Promise<YWebsocketServer> {
    const server = new YWebsocketServer(await freePort())
    await server.start()
    return server
  }

  /** `ws://127.0.0.1:<port>`. */
  get url(): string {
    return `ws://${HOST}:${this.port}`
  }

  /** Whether the process is running. */
  get running(): boolean {
    return this.child !== null
  }

  /** Runs the process, resolving once it listens. */
  async start(): Promise<void> {
    if (this.child) throw new Error('the server is already running')
    const { child } = await startNodeProcess({
      args: [serverScript()],
      env: { HOST, PORT: String(this.port) },
      ready: 'running at',
    })
    this.child = child
  }

  /** Kills the process at once (as a crash would) and waits for it to exit. */
  async stop(): Promise<void> {
    const child = this.child
    this.child = null
    if (child) await stopProcess(child, 'SIGKILL')
  }
}
