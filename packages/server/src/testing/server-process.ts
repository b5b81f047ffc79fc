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
