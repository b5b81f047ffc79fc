/**
 * The stock y-websocket server (`@y/websocket-server`), run as its own process on loopback
 * for tests, and a free loopback port to run it (or another server) on.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'

const HOST = '127.0.0.1'
const START_TIMEOUT_MS = 10_000

/** A port nobody listens on right now, on 127.0.0.1. */
export const freePort = async (): Promise<number> => {
  const server = createServer()
  server.listen(0, HOST)
  await once(server, 'listening')
  const address = server.address()
  server.close()
  await once(server, 'close')
  if (typeof address !== 'object' || address === null) throw new Error('no port was given')
  return address.port
}

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
    const child = spawn(process.execPath, [serverScript()], {
      env: { ...process.env, HOST, PORT: String(this.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.child = child
    let output = ''
    const listening = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the y-websocket server did not start: ${output}`)),
        START_TIMEOUT_MS,
      )
      const onData = (chunk: Buffer) => {
        output += chunk.toString()
        if (output.includes('running at')) {
          clearTimeout(timer)
          resolve()
        }
      }
      child.stdout?.on('data', onData)
      child.stderr?.on('data', onData)
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`the y-websocket server exited with ${code}: ${output}`))
      })
    })
    try {
      await listening
    } catch (error) {
      this.child = null
      child.kill('SIGKILL')
      throw error
    }
  }

  /** Kills the process at once (as a crash would) and waits for it to exit. */
  async stop(): Promise<void> {
    const child = this.child
    if (!child) return
    this.child = null
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit')
      child.kill('SIGKILL')
      await exited
    }
  }
}
