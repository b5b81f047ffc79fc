/**
 * The servers of the load benchmark, each in a child process of its own on 127.0.0.1 (see
 * load-server.ts), so that the CPU time and memory it reports are the server's alone. A
 * child ends when its parent does: it stops when its IPC channel closes, and this module
 * kills whatever is left when the process exits.
 *
 * Tandem over PostgreSQL gets a schema of its own for each start, dropped when it stops: by
 * the child as it closes its store, and again here once the child has exited, in case it was
 * killed first.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { dropSchema, uniqueNames } from '../src/testing/services.js'

/** The servers the benchmark runs. */
export type ServerKind =
  | 'tandem-sqlite'
  | 'tandem-postgres'
  | 'tandem-memory'
  | 'y-websocket'
  | 'hocuspocus'

/** How a server is shown in tables. */
export const SERVER_LABEL: Record<ServerKind, string> = {
  'tandem-sqlite': 'Tandem (SQLite)',
  'tandem-postgres': 'Tandem (PostgreSQL)',
  'tandem-memory': 'Tandem (memory)',
  'y-websocket': 'y-websocket',
  hocuspocus: 'hocuspocus',
}

/** What a server process reports about itself. */
export interface ServerStats {
  /** User + system CPU time since the process started, in milliseconds. */
  readonly cpuMs: number
  readonly rssBytes: number
  /** Live JS heap plus memory of buffers outside it. */
  readonly heapBytes: number
  /** Documents the server holds in memory. */
  readonly rooms: number
}

/** A request for stats; with `gc`, after a full collection, so that heap is what is live. */
export interface StatsRequest {
  readonly id: number
  readonly gc: boolean
}

const ENTRY = fileURLToPath(new URL('./load-server.ts', import.meta.url))
const START_TIMEOUT_MS = 20_000
const STATS_TIMEOUT_MS = 10_000
const STOP_TIMEOUT_MS = 10_000

/** Where a server keeps its documents: a SQLite folder, a PostgreSQL schema, or nothing. */
type Data =
  | { readonly kind: 'folder'; readonly path: string }
  | { readonly kind: 'schema'; readonly name: string }
  | null

/**
 * Children still running, with their data: killed and their folders removed if this process
 * exits before stopping them. A schema cannot be dropped from an exit handler, where nothing
 * may wait, so it stays behind then; when this process dies without that handler (a signal),
 * each child sees its IPC channel close and drops its schema as it stops.
 */
const running = new Map<ChildProcess, Data>()
process.once('exit', () => {
  for (const [child, data] of running) {
    child.kill('SIGKILL')
    if (data?.kind === 'folder') rmSync(data.path, { recursive: true, force: true })
  }
})

/** Fresh data for a server of `kind`, and the arguments that hand it to the child. */
const dataFor = (kind: ServerKind): { data: Data; args: string[] } => {
  switch (kind) {
    case 'tandem-sqlite': {
      const path = mkdtempSync(join(tmpdir(), 'tandem-load-'))
      return { data: { kind: 'folder', path }, args: [path] }
    }
    case 'tandem-postgres': {
      const { schema } = uniqueNames('load')
      return { data: { kind: 'schema', name: schema }, args: [schema] }
    }
    default:
      return { data: null, args: [] }
  }
}

/** Removes what a stopped server kept. */
const removeData = async (data: Data): Promise<void> => {
  if (data?.kind === 'folder') rmSync(data.path, { recursive: true, force: true })
  if (data?.kind === 'schema') await dropSchema(data.name)
}

/**
 * A server process. `url` is where clients connect; `stats()` asks it for its CPU time and
 * memory; `stop()` ends it and removes its data.
 *
 * @example const server = await LoadServer.start('hocuspocus'); ...; await server.stop()
 */
export class LoadServer {
  private nextId = 0
  private readonly waiting = new Map<number, (stats: ServerStats) => void>()
  private output = ''

  private constructor(
    readonly kind: ServerKind,
    private readonly child: ChildProcess,
    private readonly data: Data,
    readonly port: number,
  ) {
    child.on('message', (message: { id?: number; stats?: ServerStats }) => {
      if (message.id === undefined || message.stats === undefined) return
      this.waiting.get(message.id)?.(message.stats)
      this.waiting.delete(message.id)
    })
  }

  /** Starts a fresh server of `kind`; resolves once it listens. */
  static async start(kind: ServerKind): Promise<LoadServer> {
    const { data, args } = dataFor(kind)
    // No `source` condition: the peers are run from their published builds, as users run them.
    const child = fork(ENTRY, [kind, ...args], {
      execArgv: ['--import', 'tsx', '--expose-gc'],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    })
    running.set(child, data)
    let output = ''
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4_000)
    }
    child.stdout?.on('data', keep)
    child.stderr?.on('data', keep)
    try {
      const port = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${kind} did not start within ${START_TIMEOUT_MS} ms: ${output}`)),
          START_TIMEOUT_MS,
        )
        child.on('message', (message: { ready?: number }) => {
          if (message.ready === undefined) return
          clearTimeout(timer)
          resolve(message.ready)
        })
        child.once('exit', (code) => {
          clearTimeout(timer)
          reject(new Error(`${kind} exited with ${code} before listening: ${output}`))
        })
      })
      const server = new LoadServer(kind, child, data, port)
      child.stdout?.off('data', keep)
      child.stderr?.off('data', keep)
      child.stdout?.on('data', (chunk: Buffer) => server.keep(chunk))
      child.stderr?.on('data', (chunk: Buffer) => server.keep(chunk))
      return server
    } catch (error) {
      await killChild(child)
      await removeData(data)
      throw error
    }
  }

  /** `ws://127.0.0.1:<port>`. */
  get url(): string {
    return `ws://127.0.0.1:${this.port}`
  }

  /** The process's CPU time and memory; with `gc`, memory after a full collection. */
  stats(gc: boolean): Promise<ServerStats> {
    if (this.child.exitCode !== null || !this.child.connected) {
      return Promise.reject(new Error(`${this.kind} is not running: ${this.output}`))
    }
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id)
        reject(new Error(`${this.kind} did not report its stats within ${STATS_TIMEOUT_MS} ms`))
      }, STATS_TIMEOUT_MS)
      this.waiting.set(id, (stats) => {
        clearTimeout(timer)
        resolve(stats)
      })
      this.child.send({ id, gc } satisfies StatsRequest)
    })
  }

  /** Stops the process (killing it if it does not exit in time) and removes its data. */
  async stop(): Promise<void> {
    try {
      await killChild(this.child)
    } finally {
      await removeData(this.data)
    }
  }

  private keep(chunk: Buffer): void {
    this.output = (this.output + chunk.toString()).slice(-4_000)
  }
}

/** Closes the IPC channel (the child then stops itself) and waits; SIGKILL after a while. */
const killChild = async (child: ChildProcess): Promise<void> => {
  try {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = once(child, 'exit')
    if (child.connected) child.disconnect()
    else child.kill('SIGTERM')
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), STOP_TIMEOUT_MS)
    })
    const outcome = await Promise.race([exited, late])
    clearTimeout(timer)
    if (outcome === 'late') {
      child.kill('SIGKILL')
      await exited
    }
  } finally {
    running.delete(child)
  }
}
