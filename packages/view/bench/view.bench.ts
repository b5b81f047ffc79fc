/**
 * The view in Chromium against the editor users would pick instead: Tandem (`TextEditor` in
 * JavaScript, `EditorView`, `connect`) against CodeMirror 6 (`@codemirror/view` with line
 * numbers, the caret's line marked in the gutter, drawn selections and `@codemirror/lang-javascript`
 * highlighted by the default style) bound by y-codemirror.next, both on the same documents and
 * the same remote peers through one stock y-websocket server (`@y/websocket-server`, its own
 * process on 127.0.0.1). Every measured page is a fresh browser context on a fresh room holding
 * the document; the two editors take turns, the order flipping each round.
 *
 * Rows (each Tandem's figure, CodeMirror's and the ratio Tandem / CodeMirror, target <= 1):
 * - keystroke to paint, p50 and p99: real key events (CDP `Input.dispatchKeyEvent`, through
 *   playwright's keyboard) typed at row 10, one at most every 60 ms, while 0, 10 or 50 Node
 *   peers type and move their carets below row 20; from the keydown event's time stamp to the
 *   frame that shows the character (see paint-probe.ts for how a frame's drawing is timed);
 * - a remote keystroke to paint: a second client in the page types at row 3, through the
 *   server, until the editor's frame shows it;
 * - scrolling a 100,000-line file one step per frame (4 rows a step, then jumps through the
 *   whole file): frames drawn more than 20 ms after the one before (a 60 Hz frame and a fifth
 *   for the frame timer's jitter), and the p99 time between frames;
 * - opening: navigation to the frame showing the first 30 lines (text, colours or not), and
 *   the JS heap after two forced collections (CDP `HeapProfiler.collectGarbage`).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as Y from 'yjs'
import { defineSuite, median, type SuiteBuilder, type Target } from '../../../bench/harness.js'
import { charsLabel } from '../../../bench/peers.js'
import { EDITOR_LABEL, type EditorKind, type EditorPage, ViewBench } from './bench-browser.js'
import { javascriptText } from './javascript-text.js'
import type { ScrollPlan } from './paint-probe.js'
import { PeerRoom } from './remote-peers.js'

/** Sizes and counts of a full run and of a quick one. */
interface Plan {
  readonly typingLengths: readonly number[]
  readonly peerCounts: readonly number[]
  /** Keystrokes counted per page, after `warmupKeys` that are not. */
  readonly keys: number
  readonly remoteLengths: readonly number[]
  readonly remoteKeys: number
  readonly openLengths: readonly number[]
  readonly scrollLines: number
  /** Scroll steps of each kind. */
  readonly scrollSteps: number
  /** Pages per editor for each row, taking turns. */
  readonly rounds: number
}

const FULL: Plan = {
  typingLengths: [1_000, 100_000, 1_000_000],
  peerCounts: [0, 10, 50],
  keys: 60,
  remoteLengths: [1_000, 100_000, 1_000_000],
  remoteKeys: 40,
  openLengths: [1_000, 100_000, 1_000_000],
  scrollLines: 100_000,
  scrollSteps: 300,
  rounds: 2,
}
const QUICK: Plan = {
  typingLengths: [1_000, 100_000],
  peerCounts: [0, 10],
  keys: 12,
  remoteLengths: [100_000],
  remoteKeys: 10,
  openLengths: [100_000],
  scrollLines: 20_000,
  scrollSteps: 60,
  rounds: 1,
}

const EDITORS: readonly EditorKind[] = ['tandem', 'codemirror']
const GOAL: Target = '<= 1'
const WARMUP_KEYS = 4
/** At most one keystroke per this many milliseconds, local or remote. */
const KEY_EVERY_MS = 60
const TYPED = 'value = count + 12; '
const TYPING_AT = { row: 10, column: 0 }
const REMOTE_ROW = 3
/** The peers keep to this row and below. */
const PEERS_FROM_ROW = 20
const FIRST_SCREEN_LINES = 30
/** Peers get this long, once all are shown, before typing is counted. */
const PEERS_SETTLE_MS = 300
/** Scrolling rows per step in the steady part of a scroll. */
const SCROLL_ROWS_PER_STEP = 4
/**
 * A frame drawn later than this after the one before took longer than a 60 Hz frame: 16.7 ms
 * and a fifth more, since headless Chromium's frame timer itself wanders by a millisecond or
 * two (an idle page draws its frames 15.5 to 18.5 ms apart).
 */
const LONG_FRAME_MS = 20

/**
 * A folder to write a CPU profile of every measured page into (`.cpuprofile`, for Chromium's
 * DevTools); profiling slows the pages, so leave it unset for figures.
 */
const PROFILE_DIR = process.env.TANDEM_VIEW_PROFILE

/** A document: its text and the Yjs update that makes it. */
interface Doc {
  readonly label: string
  readonly text: string
  readonly update: Uint8Array
}

const makeDoc = (label: string, text: string): Doc => {
  const doc = new Y.Doc()
  doc.getText('text').insert(0, text)
  const update = Y.encodeStateAsUpdate(doc)
  doc.destroy()
  return { label, text, update }
}

/** Each editor's numbers for one row. */
type Figures = Record<EditorKind, number[]>
const figures = (): Figures => ({ tandem: [], codemirror: [] })

export default defineSuite({
  name: 'view',
  description:
    'the view in Chromium vs CodeMirror 6 + y-codemirror.next: typing, remote typing, scrolling, opening',
  async define(s) {
    const plan = s.quick ? QUICK : FULL
    s.progress('starting the y-websocket server and Chromium, bundling the pages')
    const bench = await ViewBench.start()
    s.after(() => bench.close())
    explain(s, plan)
    const docs = new Map<number, Doc>()
    const docOf = (length: number): Doc => {
      let doc = docs.get(length)
      if (doc === undefined) {
        doc = makeDoc(charsLabel(length), javascriptText({ chars: length, seed: length }))
        docs.set(length, doc)
      }
      return doc
    }
    const runner = new Runner(s, bench, plan.rounds)
    await defineOpening(s, runner, plan.openLengths.map(docOf))
    await defineTyping(s, runner, plan, docOf)
    await defineRemoteTyping(s, runner, plan, docOf)
    const lines = plan.scrollLines
    await defineScrolling(
      s,
      runner,
      makeDoc(`${lines.toLocaleString('en-US')} lines`, javascriptText({ lines, seed: 7 })),
      plan.scrollSteps,
    )
  },
})

/** Opens pages on fresh rooms, one editor after the other, for a number of rounds. */
class Runner {
  private rooms = 0

  constructor(
    private readonly s: SuiteBuilder,
    private readonly bench: ViewBench,
    private readonly rounds: number,
  ) {}

  /**
   * For each round and editor (the order flipping each round), a room holding `doc` with
   * `peers` peers, and `kind`'s page on it shown and ready; `body` measures, then everything
   * is closed.
   */
  async eachPage(
    doc: Doc,
    peers: number,
    what: string,
    body: (page: EditorPage, room: PeerRoom) => Promise<void>,
  ): Promise<void> {
    for (let round = 0; round < this.rounds; round++) {
      const order = round % 2 === 0 ? EDITORS : [...EDITORS].reverse()
      for (const kind of order) {
        this.s.progress(`${what}: ${EDITOR_LABEL[kind]}, round ${round + 1} of ${this.rounds}`)
        const name = `view-${this.rooms++}`
        const room = await PeerRoom.open(this.bench.url, name, doc.update, {
          peers,
          seed: this.rooms,
          fromRow: PEERS_FROM_ROW,
        })
        let page: EditorPage | null = null
        try {
          page = await this.bench.open(kind, {
            room: name,
            firstLines: doc.text.split('\n').slice(0, FIRST_SCREEN_LINES),
          })
          if (PROFILE_DIR !== undefined) await page.startProfile()
          await body(page, room)
          if (PROFILE_DIR !== undefined) {
            mkdirSync(PROFILE_DIR, { recursive: true })
            const file = `${what.replace(/[^a-z0-9]+/gi, '-')}-${kind}-${round + 1}.cpuprofile`
            writeFileSync(join(PROFILE_DIR, file), await page.stopProfile())
          }
          page.check()
        } finally {
          room.close()
          await page?.close()
        }
      }
    }
  }
}

/** First paint and memory after opening each document. */
async function defineOpening(s: SuiteBuilder, runner: Runner, docs: readonly Doc[]): Promise<void> {
  for (const doc of docs) {
    const painted = figures()
    const heap = figures()
    await runner.eachPage(doc, 0, `opening ${doc.label}`, async (page) => {
      const { paintedMs } = await page.firstPaint()
      await page.ready()
      await new Promise((resolve) => setTimeout(resolve, 500))
      painted[page.kind].push(paintedMs)
      heap[page.kind].push((await page.heapBytes()) / 2 ** 20)
    })
    rows(s, `${doc.label}: open to first paint`, painted, median, 'ms')
    rows(s, `${doc.label}: JS heap after opening`, heap, median, 'MiB')
  }
}

/** Local typing at each size with each number of peers. */
async function defineTyping(
  s: SuiteBuilder,
  runner: Runner,
  plan: Plan,
  docOf: (length: number) => Doc,
): Promise<void> {
  const text = TYPED.repeat(Math.ceil((WARMUP_KEYS + plan.keys) / TYPED.length)).slice(
    0,
    WARMUP_KEYS + plan.keys,
  )
  const summaries = { p50: new Map<string, Figures>(), p99: new Map<string, Figures>() }
  for (const peers of plan.peerCounts) {
    for (const length of plan.typingLengths) {
      const doc = docOf(length)
      const label = `${doc.label}, ${peers} peers`
      const latencies = figures()
      await runner.eachPage(doc, peers, `typing, ${label}`, async (page, room) => {
        await page.firstPaint()
        await page.ready()
        await page.waitForPeers(peers)
        room.start()
        await new Promise((resolve) => setTimeout(resolve, PEERS_SETTLE_MS))
        const measured = await page.type(TYPING_AT, text, KEY_EVERY_MS)
        room.stop()
        latencies[page.kind].push(...measured.slice(WARMUP_KEYS))
      })
      rows(s, `keystroke to paint p50, ${label}`, latencies, (v) => quantile(v, 0.5), 'ms')
      rows(s, `keystroke to paint p99, ${label}`, latencies, (v) => quantile(v, 0.99), 'ms')
      for (const [name, q] of [
        ['p50', 0.5],
        ['p99', 0.99],
      ] as const) {
        summaries[name].set(`${peers} ${length}`, {
          tandem: [quantile(latencies.tandem, q)],
          codemirror: [quantile(latencies.codemirror, q)],
        })
      }
    }
  }
  for (const [name, byRow] of Object.entries(summaries)) {
    s.plot({
      name: `view-keystroke-${name}`,
      title: `Keystroke to paint in Chromium (${name})`,
      xLabel: 'document characters',
      series: plan.peerCounts.flatMap((peers) =>
        EDITORS.map((kind) => ({
          name: `${EDITOR_LABEL[kind]}, ${peers} peers`,
          points: plan.typingLengths.map((length) => ({
            x: length,
            ms: byRow.get(`${peers} ${length}`)![kind][0]!,
          })),
        })),
      ),
    })
  }
}

/** A keystroke of another client, at each size. */
async function defineRemoteTyping(
  s: SuiteBuilder,
  runner: Runner,
  plan: Plan,
  docOf: (length: number) => Doc,
): Promise<void> {
  const text = 'abcdefghij'.repeat(Math.ceil((WARMUP_KEYS + plan.remoteKeys) / 10))
  for (const length of plan.remoteLengths) {
    const doc = docOf(length)
    const latencies = figures()
    await runner.eachPage(doc, 0, `remote typing, ${doc.label}`, async (page) => {
      await page.firstPaint()
      await page.ready()
      await page.startTypist()
      const measured = await page.typeRemotely(
        REMOTE_ROW,
        text.slice(0, WARMUP_KEYS + plan.remoteKeys),
        KEY_EVERY_MS,
      )
      latencies[page.kind].push(...measured.slice(WARMUP_KEYS))
    })
    rows(s, `remote keystroke to paint p50, ${doc.label}`, latencies, (v) => quantile(v, 0.5), 'ms')
    rows(
      s,
      `remote keystroke to paint p99, ${doc.label}`,
      latencies,
      (v) => quantile(v, 0.99),
      'ms',
    )
  }
}

/** Scrolling through a long file, steadily and then in jumps. */
async function defineScrolling(
  s: SuiteBuilder,
  runner: Runner,
  doc: Doc,
  steps: number,
): Promise<void> {
  const lines = doc.text.split('\n').length
  const plans: [string, ScrollPlan][] = [
    [
      `${SCROLL_ROWS_PER_STEP} rows a frame`,
      Array.from({ length: steps }, (_, i) => (i + 1) * SCROLL_ROWS_PER_STEP),
    ],
    [
      'jumping through the file',
      Array.from({ length: steps }, (_, i) => Math.round(((i + 1) * (lines - 1)) / steps)),
    ],
  ]
  const intervals = plans.map(() => figures())
  await runner.eachPage(doc, 0, `scrolling ${doc.label}`, async (page) => {
    await page.firstPaint()
    await page.ready()
    for (const [i, [, plan]] of plans.entries()) {
      const frames = await page.scroll(plan)
      intervals[i]![page.kind].push(...frames.intervalMs)
    }
  })
  for (const [i, [what]] of plans.entries()) {
    const label = `scroll ${doc.label}, ${what}`
    rows(s, `${label}: frames over ${LONG_FRAME_MS} ms`, intervals[i]!, longFrames, 'frames')
    rows(s, `${label}: p99 frame`, intervals[i]!, (v) => quantile(v, 0.99), 'ms')
  }
}

/** Frames drawn more than {@link LONG_FRAME_MS} after the previous one. */
const longFrames = (intervals: readonly number[]): number =>
  intervals.filter((ms) => ms > LONG_FRAME_MS).length

/** Tandem's figure, CodeMirror's, and their ratio against the goal. */
function rows(
  s: SuiteBuilder,
  name: string,
  samples: Figures,
  summarize: (values: readonly number[]) => number,
  unit: string,
): void {
  const tandem = summarize(samples.tandem)
  const codemirror = summarize(samples.codemirror)
  s.report({ name: `${name}: ${EDITOR_LABEL.tandem}`, value: tandem, unit })
  s.report({ name: `${name}: ${EDITOR_LABEL.codemirror}`, value: codemirror, unit })
  if (codemirror > 0) {
    s.report({
      name: `${name}: Tandem / CodeMirror 6`,
      value: tandem / codemirror,
      unit: 'x',
      target: GOAL,
    })
  } else {
    s.report({
      name: `${name}: Tandem - CodeMirror 6`,
      value: tandem - codemirror,
      unit,
      target: '<= 0',
    })
  }
}

/** The nearest-rank quantile `q` of `values`. */
function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) throw new Error('no samples')
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!
}

/** Notes what the rows measure. */
function explain(s: SuiteBuilder, plan: Plan): void {
  s.note(
    `each page a fresh Chromium context (1000 x 800 px editor) on a fresh room of one stock ` +
      `y-websocket server; ${plan.rounds} page(s) per editor per row, taking turns`,
  )
  s.note(
    `keystroke: ${plan.keys} counted keys per page after ${WARMUP_KEYS}, one at most every ` +
      `${KEY_EVERY_MS} ms at row ${TYPING_AT.row}, keydown time stamp to the frame showing it; ` +
      `peers type and move their carets about once a second each, from row ${PEERS_FROM_ROW} on`,
  )
  s.note(
    'a frame is timed by a message posted from its first animation frame callback, which runs ' +
      'once the frame is drawn; a DOM change is painted by the first frame drawn after it',
  )
}
