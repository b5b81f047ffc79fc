/**
 * `tandem-server` run as its own process for tests, from source, on a free loopback port.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'

const CLI = fileURLToPath(new URL('../cli.ts', import.meta.url))
const START_TIMEOUT_MS = 15_000

/** A port nobody listens on right now, on 127.0.0.1. */
export const freePort = async (): Promise<number> => {
  const probe = createServer().listen(0, '127.0.0.1')
  await once(probe, 'listening')
  const { port } = probe.address() as { port: number }
  probe.close()
  await once(probe, 'close')
  return port
}

/**
 * A server process over the data folder `data`. `kill(signal)` stops it; `start()` runs it
 * again on the same port and folder.
 *
 * @example const server = await ServerProcess.start({ data }); await server.kill('SIGKILL')
 */
export class ServerProcess {
  private child: ChildProcess | null = null
  /** Everything the process printed (its JSON log lines). */
  output = ''

  private constructor(
    readonly port: number,
    readonly data: string,
    private readonly extraArgs: readonly string[],
  ) {}

  /** Starts a process on a free port. */
  static async start(options: { data: string; args?: readonly string[] }): Promise<ServerProcess> {
    const server = new ServerProcess(await freePort(), options.data, options.args ?? [])
    await server.start()
    return server
  }

  /** `ws://127.0.0.1:<port>`. */
  get url(): string {
    return `ws://127.0.0.1:${this.port}`
  }

  /** Runs the process; resolves once it listens. */
  async start(): Promise<void> {
    if (this.child) throw new Error('the server process is already running')
    const child = spawn(
      process.execPath,
      [
        '--conditions=source',
        '--import',
        'tsx',
        CLI,
        '--port',
        String(this.port),
        '--data',
        this.data,
        '--log-level',
        'debug',
        ...this.extraArgs,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    this.child = child
    const listening = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no start: ${this.output}`)),
        START_TIMEOUT_MS,
      )
      const onData = (chunk: Buffer) => {
        this.output += chunk.toString()
        if (this.output.includes('"msg":"listening"')) {
          clearTimeout(timer)
          resolve()
        }
      }
      child.stdout?.on('data', onData)
      child.stderr?.on('data', onData)
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`the server exited with ${code}: ${this.output}`))
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

  /** Sends `signal` and waits for the exit; resolves with the exit code (null if signalled). */
  async kill(signal: NodeJS.Signals): Promise<number | null> {
    const child = this.child
    if (!child) return null
    this.child = null
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode
    const exited = once(child, 'exit') as Promise<[number | null]>
    child.kill(signal)
    const [code] = await exited
    return code
  }
}
