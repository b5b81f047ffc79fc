/**
 * `tandem-server` run as its own process for tests, from source, on a free loopback port.
 */
import { fileURLToPath } from 'node:url'
import {
  freePort,
  type StartedProcess,
  startNodeProcess,
  stopProcess,
} from '../../../../testing/processes.js'

const CLI = fileURLToPath(new URL('../cli.ts', import.meta.url))

/**
 * A server process over the data folder `data`. `kill(signal)` stops it; `start()` runs it
 * again on the same port and folder.
 *
 * @example const server = await ServerProcess.start({ data }); await server.kill('SIGKILL')
 */
export class ServerProcess {
  private process: StartedProcess | null = null
  private earlierOutput = ''

  private constructor(
    readonly port: number,
    readonly data: string,
    private readonly extraArgs: readonly string[],
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /**
   * Starts a process on a free port, with `args` and `env` added to its own; `postgres` and
   * `redis` become `--postgres`, `--postgres-schema`, `--redis` and `--redis-prefix`.
   */
  static async start(options: {
    data: string
    args?: readonly string[]
    env?: NodeJS.ProcessEnv
    postgres?: { url: string; schema?: string }
    redis?: { url: string; prefix?: string }
  }): Promise<ServerProcess> {
    const { postgres, redis } = options
    const args = [
      ...(postgres ? ['--postgres', postgres.url] : []),
      ...(postgres?.schema ? ['--postgres-schema', postgres.schema] : []),
      ...(redis ? ['--redis', redis.url] : []),
      ...(redis?.prefix ? ['--redis-prefix', redis.prefix] : []),
      ...(options.args ?? []),
    ]
    const server = new ServerProcess(await freePort(), options.data, args, options.env ?? {})
    await server.start()
    return server
  }

  /** `ws://127.0.0.1:<port>`. */
  get url(): string {
    return `ws://127.0.0.1:${this.port}`
  }

  /** Everything the process printed (its JSON log lines), over all its runs. */
  get output(): string {
    return this.earlierOutput + (this.process?.output() ?? '')
  }

  /** Runs the process; resolves once it listens. */
  async start(): Promise<void> {
    if (this.process) throw new Error('the server process is already running')
    this.process = await startNodeProcess({
      args: [
        '--conditions=source',
        '--import',
        'tsx',
        CLI,
        ...['--port', String(this.port), '--data', this.data, '--log-level', 'debug'],
        ...this.extraArgs,
      ],
      // A secret in the environment of the tests must not turn tokens on unasked.
      env: { TANDEM_AUTH_SECRET: undefined, ...this.env },
      ready: '"msg":"listening"',
    })
  }

  /**
   * Closes the reading end of the process's stdout and stderr, as `tandem-server ... | head -1`
   * does once `head` has its line: every later write of the process fails with EPIPE.
   */
  closeOutput(): void {
    this.process?.child.stdout?.destroy()
    this.process?.child.stderr?.destroy()
  }

  /**
   * Stops reading the process's stdout and stderr, as a reader that hangs would: once the
   * pipes are full, every later write of the process would have to wait.
   */
  stopReadingOutput(): void {
    this.process?.child.stdout?.pause()
    this.process?.child.stderr?.pause()
  }

  /**
   * Sends `signal` and resolves with the exit code (null if signalled). A process still running
   * `withinMs` later is killed with SIGKILL and the promise rejects, so a process that hangs
   * fails its test rather than outliving it.
   */
  async stop(signal: NodeJS.Signals, withinMs = 20_000): Promise<number | null> {
    const running = this.process
    if (!running) return null
    let timer: NodeJS.Timeout | undefined
    const hung = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        running.child.kill('SIGKILL')
        reject(new Error(`the server did not exit within ${withinMs} ms of ${signal}`))
      }, withinMs)
    })
    try {
      return await Promise.race([this.kill(signal), hung])
    } finally {
      clearTimeout(timer)
    }
  }

  /** Sends `signal` and waits for the exit; resolves with the exit code (null if signalled). */
  async kill(signal: NodeJS.Signals): Promise<number | null> {
    const running = this.process
    if (!running) return null
    this.process = null
    const code = await stopProcess(running.child, signal)
    this.earlierOutput += running.output()
    return code
  }
}
