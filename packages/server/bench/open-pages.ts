/**
 * The bench-process half of the open-document benchmark's client row: one Chromium, one
 * Tandem server holding the fixture's room loaded, and the two pages (Tandem's editor and
 * CodeMirror's) served on loopback. Each run opens a page in a fresh browser context and
 * waits until it reports its first screen (see `packages/collab/bench/first-screen.ts`).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchChromium } from '../../../testing/browser.js'
import { type PageServer, servePage } from '../../../testing/page-server.js'
import type { FirstScreen, OpenDocumentSettings } from '../../collab/bench/first-screen.js'
import { SqliteStore, TandemServer } from '../src/index.js'
import { copyFixture, FIXTURE_ROOM, type Fixture } from './open-fixture.js'
import { closeSocket, type DocumentRequest, requestDocument, textOfUpdate } from './open-sync.js'

/** The editors the client row opens. */
export type PageKind = 'tandem' | 'codemirror'

const ENTRIES: Record<PageKind, string> = {
  tandem: fileURLToPath(new URL('../../collab/bench/open-tandem-page.ts', import.meta.url)),
  codemirror: fileURLToPath(new URL('../../collab/bench/open-codemirror-page.ts', import.meta.url)),
}

/** Lines of the first screen each page must show: both editors show more in 800 pixels. */
export const FIRST_SCREEN_LINES = 30

const VIEWPORT = { width: 1280, height: 900 }
const FIRST_SCREEN_TIMEOUT_MS = 60_000

/** One run's page: a fresh context, and the errors the page threw. */
export interface OpenedPage {
  readonly kind: PageKind
  readonly context: BrowserContext
  readonly page: Page
  readonly errors: string[]
}

/**
 * Chromium, the pages and a server with the room loaded, for the client row's runs.
 *
 * @example const pages = await ClientPages.start(fixture); const p = await pages.newPage('tandem')
 */
export class ClientPages {
  private constructor(
    private readonly browser: Browser,
    private readonly pages: Record<PageKind, PageServer>,
    private readonly server: TandemServer,
    private readonly store: SqliteStore,
    private readonly holder: DocumentRequest,
    private readonly data: string,
    private readonly settings: OpenDocumentSettings,
  ) {}

  /**
   * Starts a server on a copy of `fixture` and loads its room (a connection keeps it loaded),
   * then Chromium and the two pages. Fails with what to do when Chromium is not installed.
   */
  static async start(fixture: Fixture): Promise<ClientPages> {
    const data = mkdtempSync(join(tmpdir(), 'tandem-open-pages-'))
    const cleanups: (() => unknown)[] = [() => rmSync(data, { recursive: true, force: true })]
    try {
      const store = SqliteStore.open({ file: copyFixture(fixture, data) })
      cleanups.unshift(() => store.close())
      const server = new TandemServer({ store })
      cleanups.unshift(() => server.close())
      const url = `ws://127.0.0.1:${await server.listen(0, '127.0.0.1')}`
      const holder = requestDocument(url, FIXTURE_ROOM)
      cleanups.unshift(() => closeSocket(holder.socket))
      if (textOfUpdate(await holder.answer, 'text') !== fixture.text) {
        throw new Error('the server holds another document than the fixture')
      }
      const browser = await launchChromium()
      cleanups.unshift(() => browser.close())
      const [tandem, codemirror] = await Promise.all([
        servePage({ entry: ENTRIES.tandem }),
        servePage({ entry: ENTRIES.codemirror }),
      ])
      cleanups.unshift(
        () => tandem.close(),
        () => codemirror.close(),
      )
      const expected = fixture.text.split('\n').slice(0, FIRST_SCREEN_LINES)
      const settings = { url, room: FIXTURE_ROOM, expected }
      return new ClientPages(browser, { tandem, codemirror }, server, store, holder, data, settings)
    } catch (error) {
      for (const cleanup of cleanups) await Promise.resolve(cleanup()).catch(() => {})
      throw error
    }
  }

  /** A blank page in a fresh context, set up to open `kind`'s editor on the room. */
  async newPage(kind: PageKind): Promise<OpenedPage> {
    const context = await this.browser.newContext({ viewport: VIEWPORT })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.addInitScript((settings) => {
      const page = globalThis as unknown as Record<string, unknown>
      page.openDocument = settings
      page.firstScreen = new Promise((resolve) => {
        page.reportFirstScreen = resolve
      })
    }, this.settings)
    return { kind, context, page, errors }
  }

  /** Navigates `opened` to its editor; resolves when the page has shown the first screen. */
  async open(opened: OpenedPage): Promise<FirstScreen> {
    await opened.page.goto(this.pages[opened.kind].url, { waitUntil: 'commit' })
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(new Error(`${opened.kind}: no first screen after ${FIRST_SCREEN_TIMEOUT_MS} ms`)),
        FIRST_SCREEN_TIMEOUT_MS,
      )
    })
    try {
      return await Promise.race([
        opened.page.evaluate(
          () => (globalThis as unknown as { firstScreen: Promise<FirstScreen> }).firstScreen,
        ),
        timeout,
      ])
    } finally {
      clearTimeout(timer)
    }
  }

  /** Fails when `opened`'s page threw. */
  static check(opened: OpenedPage): void {
    if (opened.errors.length > 0) {
      throw new Error(`the ${opened.kind} page threw: ${opened.errors.join('; ')}`)
    }
  }

  /** Closes everything: Chromium, the pages' servers, the Tandem server, its data. */
  async close(): Promise<void> {
    await this.browser.close()
    await Promise.all([this.pages.tandem.close(), this.pages.codemirror.close()])
    await closeSocket(this.holder.socket)
    await this.server.close()
    await this.store.close()
    rmSync(this.data, { recursive: true, force: true })
  }
}
