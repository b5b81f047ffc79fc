/**
 * The playground as `pnpm start` serves it, for the browser tests: built once with Vite into a
 * folder of its own, then served by a real `TandemServer` over a real SQLite file on a loopback
 * port that stays the same across restarts (the pages' address must not change).
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import {
  type Authorize,
  type DirectConnection,
  type OpenDocumentOptions,
  SqliteStore,
  StaticSite,
  TandemServer,
} from '@tandem/server'
import { freePort } from '../../../testing/processes.js'

const appDir = fileURLToPath(new URL('..', import.meta.url))

/**
 * Builds the app into a new temporary folder, as `pnpm start` builds it; resolves with the
 * folder and a function removing it.
 *
 * @example const { dir, remove } = await buildApp()
 */
export const buildApp = async (): Promise<{ dir: string; remove: () => void }> => {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-playground-'))
  const vite = join(appDir, 'node_modules', 'vite', 'bin', 'vite.js')
  await promisify(execFile)(
    process.execPath,
    [vite, 'build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: appDir },
  )
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/**
 * The app and its rooms on one port, with the documents in `file`. `stop()` closes the
 * server (documents stored); `start()` runs it again on the same port and file.
 *
 * @example const server = await AppServer.start({ app: dir, file }); page.goto(server.pageUrl('notes'))
 */
export class AppServer {
  private running: { server: TandemServer; store: SqliteStore } | null = null

  private constructor(
    readonly port: number,
    private readonly site: StaticSite,
    private readonly file: string,
    private readonly authorize: Authorize | undefined,
  ) {}

  static async start(options: {
    app: string
    file: string
    authorize?: Authorize
  }): Promise<AppServer> {
    const site = await StaticSite.open(options.app)
    const server = new AppServer(await freePort(), site, options.file, options.authorize)
    await server.start()
    return server
  }

  /** `http://127.0.0.1:<port>/`. */
  get url(): string {
    return `http://127.0.0.1:${this.port}/`
  }

  /** Where stock y-websocket clients find the rooms: `ws://127.0.0.1:<port>/ws`. */
  get roomsUrl(): string {
    return `ws://127.0.0.1:${this.port}/ws`
  }

  /** The page of document `room`, with `token` when given. */
  pageUrl(room: string, token?: string): string {
    const url = new URL(this.url)
    url.searchParams.set('room', room)
    if (token !== undefined) url.searchParams.set('token', token)
    return url.toString()
  }

  /** Opens `room` for a program in the server's process (see `TandemServer.openDocument`). */
  openDocument(room: string, options: OpenDocumentOptions): Promise<DirectConnection> {
    if (!this.running) throw new Error('the server is stopped')
    return this.running.server.openDocument(room, options)
  }

  get isRunning(): boolean {
    return this.running !== null
  }

  async start(): Promise<void> {
    if (this.running) return
    const store = SqliteStore.open({ file: this.file })
    const server = new TandemServer({
      store,
      site: this.site,
      ...(this.authorize ? { authorize: this.authorize } : {}),
    })
    await server.listen(this.port)
    this.running = { server, store }
  }

  async stop(): Promise<void> {
    const running = this.running
    if (!running) return
    this.running = null
    await running.server.close()
    await running.store.close()
  }
}
