/**
 * The bench-process half of the view benchmark: one stock y-websocket server (its own child
 * process, on 127.0.0.1), one Chromium, and the two editors' pages bundled and served on
 * loopback. Each opened page gets a fresh browser context and is driven through the
 * `benchPage` object of paint-probe.ts.
 */
import { fileURLToPath } from 'node:url'
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core'
import { launchChromium } from '../../../testing/browser.js'
import { type PageServer, servePage } from '../../../testing/page-server.js'
import { LoadServer } from '../../server/bench/load-servers.js'
import type {
  BenchPage,
  FirstPaint,
  PageSettings,
  ScrollFrames,
  ScrollPlan,
} from './paint-probe.js'

/** The editors compared. */
export type EditorKind = 'tandem' | 'codemirror'

/** How each editor is named in rows. */
export const EDITOR_LABEL: Record<EditorKind, string> = {
  tandem: 'Tandem',
  codemirror: 'CodeMirror 6',
}

const ENTRIES: Record<EditorKind, string> = {
  tandem: fileURLToPath(new URL('./tandem-page.ts', import.meta.url)),
  codemirror: fileURLToPath(new URL('./codemirror-page.ts', import.meta.url)),
}

const VIEWPORT = { width: 1100, height: 900 }
/** Bound on every wait for a page: loading, syncing, a keystroke's paint, a scroll. */
const PAGE_TIMEOUT_MS = 120_000
const PEERS_TIMEOUT_MS = 30_000
const SCRIPT_TIMEOUT_MS = 30_000

type PageGlobals = { benchPage: BenchPage; viewBench: PageSettings }
/** The page's globals, inside functions that run in the page (they cannot see this module). */
type G = PageGlobals

/** An editor page in its own context. */
export class EditorPage {
  private constructor(
    readonly kind: EditorKind,
    private readonly context: BrowserContext,
    readonly page: Page,
    private readonly cdp: CDPSession,
    /** Errors the page threw. */
    readonly errors: string[],
  ) {}

  /** Opens `kind`'s page on `settings.room`; resolves once navigation has begun. */
  static async open(
    browser: Browser,
    server: PageServer,
    kind: EditorKind,
    settings: PageSettings,
  ): Promise<EditorPage> {
    const context = await browser.newContext({ viewport: VIEWPORT })
    try {
      const page = await context.newPage()
      page.setDefaultTimeout(PAGE_TIMEOUT_MS)
      const errors: string[] = []
      page.on('pageerror', (error) => errors.push(error.message))
      await page.addInitScript((given) => {
        ;(globalThis as unknown as PageGlobals).viewBench = given
      }, settings)
      const cdp = await context.newCDPSession(page)
      await page.goto(server.url, { waitUntil: 'commit' })
      await page
        .waitForFunction(() => 'benchPage' in globalThis, undefined, { timeout: SCRIPT_TIMEOUT_MS })
        .catch((error: unknown) => {
          throw errors.length > 0
            ? new Error(`the ${kind} page threw: ${errors.join('; ')}`)
            : error
        })
      return new EditorPage(kind, context, page, cdp, errors)
    } catch (error) {
      await context.close()
      throw error
    }
  }

  /** When the first screen was drawn (see paint-probe.ts). */
  firstPaint(): Promise<FirstPaint> {
    return this.call(() => (globalThis as unknown as G).benchPage.firstPaint)
  }

  /** Resolves once the editor has synced and loaded its language. */
  ready(): Promise<void> {
    return this.call(() => (globalThis as unknown as G).benchPage.ready())
  }

  /** Waits until the editor has `count` remote peers' awareness states. */
  async waitForPeers(count: number): Promise<void> {
    await this.page.waitForFunction(
      (n) => (globalThis as unknown as G).benchPage.remotePeers() >= n,
      count,
      {
        timeout: PEERS_TIMEOUT_MS,
      },
    )
  }

  /** The JS heap the page uses after a full collection, in bytes. */
  async heapBytes(): Promise<number> {
    await this.cdp.send('HeapProfiler.collectGarbage')
    await this.cdp.send('HeapProfiler.collectGarbage')
    const { usedSize } = await this.cdp.send('Runtime.getHeapUsage')
    return usedSize
  }

  /** Places the caret, then types `text` one key at a time, at most one key per `everyMs`; resolves with each key's time to paint. */
  async type(
    at: { readonly row: number; readonly column: number },
    text: string,
    everyMs: number,
  ): Promise<number[]> {
    await this.call(
      ({ row, column }) => (globalThis as unknown as G).benchPage.placeCaret(row, column),
      at,
    )
    const latencies: number[] = []
    for (const [i, char] of [...text].entries()) {
      const started = performance.now()
      await this.call(
        ({ row, column, char }) =>
          (globalThis as unknown as G).benchPage.expectKey(row, column, char),
        { row: at.row, column: at.column + i, char },
      )
      await this.page.keyboard.type(char)
      latencies.push(await this.call(() => (globalThis as unknown as G).benchPage.keyLatency()))
      const left = everyMs - (performance.now() - started)
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, left))
    }
    return latencies
  }

  /** Connects the page's second client, which types the remote keystrokes. */
  startTypist(): Promise<void> {
    return this.call(() => (globalThis as unknown as G).benchPage.startTypist())
  }

  /** The typist types `text` at the start of `row`, one key per `everyMs`; resolves with each key's time to paint. */
  async typeRemotely(row: number, text: string, everyMs: number): Promise<number[]> {
    const latencies: number[] = []
    for (const char of text) {
      const started = performance.now()
      latencies.push(
        await this.call(
          (args) => (globalThis as unknown as G).benchPage.remoteKey(args.row, args.char),
          { row, char },
        ),
      )
      const left = everyMs - (performance.now() - started)
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, left))
    }
    return latencies
  }

  /** Lines of the editor's document. */
  lineCount(): Promise<number> {
    return this.call(() => (globalThis as unknown as G).benchPage.lineCount())
  }

  /** Scrolls through `plan`, one step per frame (see paint-probe.ts). */
  scroll(plan: ScrollPlan): Promise<ScrollFrames> {
    return this.call((steps) => (globalThis as unknown as G).benchPage.scroll(steps), plan)
  }

  /** Starts CDP's sampling profiler in the page (for finding where a slow row's time goes). */
  async startProfile(): Promise<void> {
    await this.cdp.send('Profiler.enable')
    await this.cdp.send('Profiler.setSamplingInterval', { interval: 200 })
    await this.cdp.send('Profiler.start')
  }

  /** Stops the profiler; resolves with the profile as JSON (a `.cpuprofile` file's text). */
  async stopProfile(): Promise<string> {
    const { profile } = await this.cdp.send('Profiler.stop')
    return JSON.stringify(profile)
  }

  /** Throws when the page threw. */
  check(): void {
    if (this.errors.length > 0) {
      throw new Error(`the ${this.kind} page threw: ${this.errors.join('; ')}`)
    }
  }

  /** Closes the page's context. */
  close(): Promise<void> {
    return this.context.close()
  }

  /** Runs `fn` in the page; fails when it has not answered within {@link PAGE_TIMEOUT_MS}. */
  private async call<A, R>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(new Error(`the ${this.kind} page did not answer within ${PAGE_TIMEOUT_MS} ms`)),
        PAGE_TIMEOUT_MS,
      )
    })
    try {
      return await Promise.race([
        this.page.evaluate(fn as (arg: unknown) => Promise<R>, arg as unknown),
        late,
      ])
    } finally {
      clearTimeout(timer)
    }
  }
}

/**
 * The server, Chromium and the two pages' servers, started together and closed together.
 *
 * @example const bench = await ViewBench.start(); const page = await bench.open('tandem', settings)
 */
export class ViewBench {
  private constructor(
    private readonly server: LoadServer,
    private readonly browser: Browser,
    private readonly pages: Record<EditorKind, PageServer>,
  ) {}

  /** Starts the stock y-websocket server, Chromium and the page servers. */
  static async start(): Promise<ViewBench> {
    const cleanups: (() => Promise<unknown>)[] = []
    try {
      const server = await LoadServer.start('y-websocket')
      cleanups.push(() => server.stop())
      const browser = await launchChromium()
      cleanups.push(() => browser.close())
      const [tandem, codemirror] = await Promise.all([
        servePage({ entry: ENTRIES.tandem }),
        servePage({ entry: ENTRIES.codemirror }),
      ])
      cleanups.push(
        () => tandem.close(),
        () => codemirror.close(),
      )
      return new ViewBench(server, browser, { tandem, codemirror })
    } catch (error) {
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {})
      throw error
    }
  }

  /** The y-websocket server's address. */
  get url(): string {
    return this.server.url
  }

  /** Opens `kind`'s editor on a room, in a fresh context. */
  open(kind: EditorKind, settings: Omit<PageSettings, 'url'>): Promise<EditorPage> {
    return EditorPage.open(this.browser, this.pages[kind], kind, { ...settings, url: this.url })
  }

  /** Closes Chromium, the page servers and the y-websocket server. */
  async close(): Promise<void> {
    await this.browser.close().catch(() => {})
    await Promise.all([this.pages.tandem.close(), this.pages.codemirror.close()])
    await this.server.stop()
  }
}
