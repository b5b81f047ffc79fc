/**
 * Opening a persisted document: 1M characters stored as a log of 100,000 updates in Tandem's
 * SQLite store (quick: 50k characters, 2,000 updates). See open-fixture.ts for how the history
 * is made; it is built once and cached under `.bench-results/cache/`.
 *
 * Server: a cold open. Every run starts a `TandemServer` (in this process) on a fresh copy of
 * the SQLite file; a bare y-websocket client connects to the room, which is not loaded, and the
 * time runs until the server's whole answer (sync step 2) has arrived. The server runs with its
 * default settings, so the room's first load also schedules the compaction of its long log.
 * Peer: the floor any server pays for the same answer: the same rows read from the same file
 * (better-sqlite3), applied to a fresh Y.Doc and sync step 2 encoded, without a network.
 * Cold means a new server and room: the OS file cache is warm in both cases.
 *
 * Client: time to the first rendered screen in Chromium, from navigation to the frame that
 * shows the document's first 30 lines with the right text, each run in a new browser context:
 * Tandem (`connect` + `TextEditor` + `EditorView`) against CodeMirror 6 with y-codemirror.next
 * over a y-websocket provider, on the same room of one Tandem server that holds it loaded.
 * Target: at most 1.0x.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { WebSocket } from 'ws'
import { type CaseRef, defineSuite, median, type SuiteBuilder } from '../../../bench/harness.js'
import { TEXT_NAME } from '../../../bench/peers.js'
import type { FirstScreen } from '../../collab/bench/first-screen.js'
import { SqliteStore, TandemServer } from '../src/index.js'
import { copyFixture, FIXTURE_ROOM, type Fixture, openFixture } from './open-fixture.js'
import { ClientPages, FIRST_SCREEN_LINES, type OpenedPage, type PageKind } from './open-pages.js'
import {
  answerFromRows,
  closeSocket,
  openRows,
  type RowReader,
  requestDocument,
  textOfUpdate,
  updateOfAnswer,
} from './open-sync.js'

const FULL_SIZE = { length: 1_000_000, updates: 100_000 }
const QUICK_SIZE = { length: 50_000, updates: 2_000 }
/** Untimed runs before the measured ones; the in-page times leave them out. */
const WARMUPS = 1

/** A server started for one cold open, on its own copy of the fixture. */
interface ColdServer {
  readonly data: string
  readonly store: SqliteStore
  readonly server: TandemServer
  readonly url: string
  socket: WebSocket | null
}

export default defineSuite({
  name: 'open-document',
  description: 'open a persisted document with a long update history: server and first screen',
  measure: { warmups: WARMUPS, minRuns: 5, maxRuns: 10, budgetMs: 20_000 },
  async define(s) {
    const fixture = await openFixture(s.quick ? QUICK_SIZE : FULL_SIZE, s.progress)
    const chars = fixture.length.toLocaleString('en-US')
    const updates = fixture.updates.toLocaleString('en-US')
    s.note(
      `fixture: ${chars} chars in ${updates} stored updates ` +
        `(${mib(fixture.updateBytes)} of updates, a ${mib(fixture.fileBytes)} SQLite file)`,
    )
    s.note(
      'server: cold open = a fresh TandemServer on a fresh copy of the file (OS file cache ' +
        'warm), a bare y-websocket client asks for the unloaded room; timed until the whole ' +
        'sync step 2 has arrived. Peer: the same rows read, applied to a fresh Y.Doc and ' +
        'sync step 2 encoded, no network',
    )
    s.note(
      `client: Chromium, a new context per run, navigation until the frame showing the first ` +
        `${FIRST_SCREEN_LINES} lines with the right text (checked in the page after every DOM ` +
        'change; drawn = next animation frame, then a task); both on one Tandem server with ' +
        'the room loaded',
    )
    defineServerRow(s, fixture)
    defineClientRow(s, fixture)
    s.report({ name: 'stored updates (rows)', value: fixture.updates, unit: 'rows' })
    s.report({ name: 'stored update bytes', value: fixture.updateBytes, unit: 'bytes' })
    s.report({ name: 'SQLite file', value: fixture.fileBytes, unit: 'bytes' })
    s.report({ name: 'document', value: fixture.length, unit: 'chars' })
  },
})

function defineServerRow(s: SuiteBuilder, fixture: Fixture): void {
  const coldServer = async (): Promise<ColdServer> => {
    const data = mkdtempSync(join(tmpdir(), 'tandem-open-server-'))
    const store = SqliteStore.open({ file: copyFixture(fixture, data) })
    const server = new TandemServer({ store })
    const port = await server.listen(0, '127.0.0.1')
    return { data, store, server, url: `ws://127.0.0.1:${port}`, socket: null }
  }
  const open = async (cold: ColdServer): Promise<Uint8Array> => {
    const request = requestDocument(cold.url, FIXTURE_ROOM)
    cold.socket = request.socket
    return request.answer
  }
  const checkText = (_: unknown, update: unknown) => {
    if (textOfUpdate(update as Uint8Array, TEXT_NAME) !== fixture.text) {
      throw new Error("the server's document differs from the fixture's")
    }
  }
  const stop = async (cold: ColdServer) => {
    if (cold.socket !== null) await closeSocket(cold.socket)
    await cold.server.close()
    await cold.store.close()
    rmSync(cold.data, { recursive: true, force: true })
  }
  const floor = s.case({
    name: 'rows → Y.Doc → sync step 2',
    setup: () => openRows(fixture.file),
    run: (reader: RowReader) => answerFromRows(reader, FIXTURE_ROOM),
    check: (_, message) => {
      const text = textOfUpdate(updateOfAnswer(message as Uint8Array), TEXT_NAME)
      if (text !== fixture.text) throw new Error("the floor's document differs from the fixture's")
    },
    teardown: (reader) => reader.close(),
  })
  const tandem = s.case({
    name: 'Tandem server: cold open',
    setup: coldServer,
    run: open,
    check: checkText,
    teardown: stop,
  })
  s.compare({ name: 'server cold open: Tandem / floor', candidate: tandem, peer: floor })
  for (const ref of [tandem, floor]) s.report({ case: ref, unit: 'ms' })
}

function defineClientRow(s: SuiteBuilder, fixture: Fixture): void {
  let pages: Promise<ClientPages> | null = null
  const started = () => {
    pages ??= ClientPages.start(fixture)
    return pages
  }
  const shown: Record<PageKind, FirstScreen[]> = { tandem: [], codemirror: [] }
  const pageCase = (kind: PageKind, name: string): CaseRef =>
    s.case({
      name,
      setup: async () => {
        const client = await started()
        return { client, opened: await client.newPage(kind) }
      },
      run: async ({ client, opened }: { client: ClientPages; opened: OpenedPage }) => {
        shown[kind].push(await client.open(opened))
      },
      check: ({ opened }) => ClientPages.check(opened),
      teardown: ({ opened }) => opened.context.close(),
    })
  const tandem = pageCase('tandem', 'Tandem view: first screen')
  const codemirror = pageCase('codemirror', 'CodeMirror 6 + y-codemirror.next: first screen')
  // The design's budget: first paint at or below CodeMirror 6 with y-codemirror.next.
  s.compare({
    name: 'first screen: Tandem / CodeMirror 6',
    candidate: tandem,
    peer: codemirror,
    target: '<= 1.0',
  })
  for (const ref of [tandem, codemirror]) s.report({ case: ref, unit: 'ms' })
  const inPage: [string, (screen: FirstScreen) => number][] = [
    ['navigation → script start', (screen) => screen.scriptMs],
    ['navigation → rows in the DOM', (screen) => screen.domMs],
    ['navigation → drawn', (screen) => screen.paintedMs],
    ['script start → drawn', (screen) => screen.paintedMs - screen.scriptMs],
  ]
  for (const kind of ['tandem', 'codemirror'] as const) {
    for (const [what, ms] of inPage) {
      s.report({
        name: `${kind} in-page: ${what}`,
        value: () => median(shown[kind].slice(WARMUPS).map(ms)),
        unit: 'ms',
      })
    }
  }
  s.after(async () => {
    if (pages !== null) await (await pages.catch(() => null))?.close()
  })
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`
}
