/// <reference lib="dom" />
/**
 * In-page half of the view benchmark, the same for both editors: when a change is painted,
 * the keystroke and remote-keystroke probes, the first screen, and scrolling frame by frame.
 * Each editor's page wraps its editor in an {@link EditorAdapter} and calls
 * {@link installProbe}; the bench process drives the page through `globalThis.benchPage`.
 *
 * When a change is painted: a `requestAnimationFrame` loop posts a message from each frame's
 * first callback; that message runs as a task after the frame's rendering (the other
 * callbacks, style, layout, paint), so its time is when that frame was drawn. A change seen
 * in the DOM (a MutationObserver, checked after every DOM change of the editor) is painted by
 * the first frame whose rendering ends after it: the current frame when the editor changed
 * its DOM inside an animation frame callback (as Tandem's view does), the next one when it
 * changed it in a task (as CodeMirror does on input).
 */
import { WebsocketProvider } from 'y-websocket'
import * as Y from 'yjs'

/** One editor as the probe sees it. Rows are buffer rows (no folds or soft wrap here). */
export interface EditorAdapter {
  /** The element whose DOM changes are watched. */
  readonly root: HTMLElement
  /** The element that scrolls. */
  readonly scroller: HTMLElement
  /** The text row `row` shows in the DOM now (widgets such as remote carets left out); null when not rendered. */
  shownLine(row: number): string | null
  /** Row `row` of the editor's document. */
  modelLine(row: number): string
  lineCount(): number
  /** Puts the only caret at `row`, `column` and focuses the editor. */
  placeCaret(row: number, column: number): void
  /** Remote peers whose awareness state the editor has. */
  remotePeers(): number
  /** Resolves when the editor is synced and its language loaded. */
  readonly ready: Promise<void>
}

/** What the bench process sets as `globalThis.viewBench` before the page's script runs. */
export interface PageSettings {
  /** The y-websocket server, `ws://127.0.0.1:PORT`. */
  readonly url: string
  readonly room: string
  /** The document's first lines, as the first screen must show them. */
  readonly firstLines: readonly string[]
}

/** When the first screen was drawn, in milliseconds since navigation started. */
export interface FirstPaint {
  /** The page's script began. */
  readonly scriptMs: number
  /** The frame showing the first lines with the right text was drawn. */
  readonly paintedMs: number
}

/** Where to scroll, one step per frame: the row to bring to the top of the editor. */
export type ScrollPlan = readonly number[]

/** A scroll's frames: the time from each frame's drawing to the next's, one scroll step apart. */
export interface ScrollFrames {
  readonly intervalMs: readonly number[]
}

/** What the bench process calls in the page. */
export interface BenchPage {
  readonly firstPaint: Promise<FirstPaint>
  /** Resolves once the editor is ready ({@link EditorAdapter.ready}). */
  ready(): Promise<void>
  placeCaret(row: number, column: number): void
  remotePeers(): number
  lineCount(): number
  /**
   * Starts watching for `char` typed at `row`, `column`; {@link keyLatency} then gives the time
   * from that keystroke's keydown event to the frame that shows it.
   */
  expectKey(row: number, column: number, char: string): void
  keyLatency(): Promise<number>
  /** Connects a second client (a bare Y.Doc with a y-websocket provider) to the room. */
  startTypist(): Promise<void>
  /** The typist inserts `char` at the start of `row`; resolves with the time until the editor shows it. */
  remoteKey(row: number, char: string): Promise<number>
  /**
   * Scrolls to each row of `plan`, one step as each frame is drawn, then back to the top;
   * resolves with the time between consecutive drawn frames while it scrolled.
   */
  scroll(plan: ScrollPlan): Promise<ScrollFrames>
}

/** Bound on the wait for a keystroke to show, and for the typist to sync. */
const SHOW_TIMEOUT_MS = 10_000
/** Bound on the wait for the first screen, which includes loading the document. */
const FIRST_SCREEN_TIMEOUT_MS = 60_000
const SETTLE_FRAMES = 3

interface PaintWaiter {
  readonly frame: number
  readonly resolve: (paintedMs: number) => void
}

/** Frames drawn so far, and what waits for the next one to be drawn. */
let drawnFrames = 0
let waiters: PaintWaiter[] = []
const afterFrame: ((drawnMs: number) => void)[] = []

const channel = new MessageChannel()
channel.port1.onmessage = () => {
  drawnFrames++
  const now = performance.now()
  const ready = waiters.filter((waiter) => waiter.frame <= drawnFrames)
  waiters = waiters.filter((waiter) => waiter.frame > drawnFrames)
  for (const waiter of ready) waiter.resolve(now)
  for (const callback of afterFrame.splice(0)) callback(now)
}
const tick = () => {
  requestAnimationFrame(tick)
  channel.port2.postMessage(null)
}
requestAnimationFrame(tick)

/** Resolves with the time the frame that paints the DOM as it is now was drawn. */
const nextPaint = (): Promise<number> =>
  new Promise((resolve) => waiters.push({ frame: drawnFrames + 1, resolve }))

/** Resolves with the time of the frame that first paints `shown()` true; checked after each DOM change of `root`. */
const whenShown = (
  root: HTMLElement,
  shown: () => boolean,
  what: string,
  timeoutMs = SHOW_TIMEOUT_MS,
): Promise<number> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      observer.disconnect()
      reject(new Error(`${what} was not shown within ${timeoutMs} ms`))
    }, timeoutMs)
    const observer = new MutationObserver(() => {
      if (!shown()) return
      observer.disconnect()
      clearTimeout(timer)
      nextPaint().then(resolve)
    })
    observer.observe(root, { subtree: true, childList: true, characterData: true })
  })

const frames = (count: number): Promise<void> =>
  count <= 0 ? Promise.resolve() : nextPaint().then(() => frames(count - 1))

/** The settings the bench process gave this page. */
export const pageSettings = (): PageSettings =>
  (globalThis as unknown as { viewBench: PageSettings }).viewBench

/** The time the page's script began; the first call of each page. */
export const scriptStarted = performance.now()

/** An element of the benchmark's editor size (1000 x 800 pixels) in the page. */
export const editorElement = (): HTMLElement => {
  document.body.style.margin = '0'
  const element = document.createElement('div')
  element.style.cssText = 'width:1000px;height:800px;overflow:hidden'
  document.body.appendChild(element)
  return element
}

/**
 * Watches `adapter` for its first screen and publishes `globalThis.benchPage`. Call it right
 * after making the editor, before it has any text.
 */
export const installProbe = (adapter: EditorAdapter): void => {
  const { url, room, firstLines } = pageSettings()
  const firstPaint = whenShown(
    adapter.root,
    () => firstLines.every((line, row) => adapter.shownLine(row) === line),
    'the first screen',
    FIRST_SCREEN_TIMEOUT_MS,
  ).then((paintedMs) => ({ scriptMs: scriptStarted, paintedMs }))
  let keyDownMs = Number.NaN
  window.addEventListener('keydown', (event) => (keyDownMs = event.timeStamp), { capture: true })
  let pendingKey: Promise<number> | null = null
  let typist: { doc: Y.Doc; text: Y.Text; provider: WebsocketProvider } | null = null

  const page: BenchPage = {
    firstPaint,
    ready: () => adapter.ready,
    placeCaret: (row, column) => adapter.placeCaret(row, column),
    remotePeers: () => adapter.remotePeers(),
    lineCount: () => adapter.lineCount(),
    expectKey(row, column, char) {
      const before = adapter.modelLine(row)
      const expected = before.slice(0, column) + char + before.slice(column)
      keyDownMs = Number.NaN
      pendingKey = whenShown(adapter.root, () => adapter.shownLine(row) === expected, 'a keystroke')
    },
    async keyLatency() {
      if (pendingKey === null) throw new Error('expectKey first')
      const paintedMs = await pendingKey
      pendingKey = null
      if (Number.isNaN(keyDownMs)) throw new Error('no keydown event came')
      return paintedMs - keyDownMs
    },
    async startTypist() {
      const doc = new Y.Doc()
      const provider = new WebsocketProvider(url, room, doc, { disableBc: true })
      provider.awareness.setLocalState(null)
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error('the typist did not sync')),
          SHOW_TIMEOUT_MS,
        )
        provider.once('sync', () => {
          clearTimeout(timer)
          resolve()
        })
      })
      typist = { doc, text: doc.getText('text'), provider }
    },
    async remoteKey(row, char) {
      if (typist === null) throw new Error('startTypist first')
      const text = typist.text.toString()
      let index = 0
      for (let r = 0; r < row; r++) index = text.indexOf('\n', index) + 1
      const end = text.indexOf('\n', index)
      const expected = char + text.slice(index, end < 0 ? text.length : end)
      const shown = whenShown(
        adapter.root,
        () => adapter.shownLine(row) === expected,
        'a remote keystroke',
      )
      const sentMs = performance.now()
      typist.text.insert(index, char)
      return (await shown) - sentMs
    },
    async scroll(plan) {
      await frames(SETTLE_FRAMES)
      const drawn: number[] = []
      // Both editors give every row the same height here (no wrapping, no widgets between rows).
      const rowHeight = adapter.scroller.scrollHeight / adapter.lineCount()
      for (const row of plan) {
        await new Promise<void>((resolve) => {
          afterFrame.push((drawnMs) => {
            adapter.scroller.scrollTop = row * rowHeight
            drawn.push(drawnMs)
            resolve()
          })
        })
      }
      await new Promise<void>((resolve) =>
        afterFrame.push((drawnMs) => resolve(void drawn.push(drawnMs))),
      )
      adapter.scroller.scrollTop = 0
      await frames(SETTLE_FRAMES)
      return { intervalMs: drawn.slice(1).map((ms, i) => ms - drawn[i]!) }
    },
  }
  ;(globalThis as unknown as { benchPage: BenchPage }).benchPage = page
}
