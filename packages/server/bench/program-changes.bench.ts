/**
 * What a program's change costs on a document with a long editing history: the text of the
 * automerge-paper trace (about 105,000 characters after 260,000 edits; quick: its first 5,000
 * edits), stored in SQLite, loaded in a `TandemServer` on loopback.
 *
 * Candidate: a program appends a word over HTTP (`POST /api/rooms/<room>/changes`), twenty
 * times one after the other, each answered once the change is stored. Peer: what a program
 * did before the document API, and what users of a bare y-websocket setup do: a Yjs client
 * connected over a WebSocket appends the same word, twenty times, each timed until a second
 * client has it (the server stores it before it relays it). Both go through the same server,
 * the same store and one network round trip per change.
 *
 * A server-side change is made on a copy of the room's document that follows it (see
 * `change-copy.ts`); copying the document for each change instead cost about 36 ms a change
 * on the full document.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as Y from 'yjs'
import { defineSuite } from '../../../bench/harness.js'
import { replayOnYText, TEXT_NAME } from '../../../bench/peers.js'
import { loadTrace } from '../../../bench/traces.js'
import { SqliteStore, TandemServer } from '../src/index.js'
import { openClient } from '../src/testing/clients.js'

const CHANGES = 20
const ROOM = 'paper'
const WORD = 'word '

export default defineSuite({
  name: 'program-changes',
  description: "a program's change over HTTP against a y-websocket client's, on a long history",
  measure: { minRuns: 5, maxRuns: 20, budgetMs: 8_000 },
  async define(s) {
    s.progress('replaying the automerge-paper trace')
    const trace = loadTrace('automerge-paper', { quick: s.quick })
    const text = replayOnYText(trace)
    const state = Y.encodeStateAsUpdate(text.doc!)
    const dir = mkdtempSync(join(tmpdir(), 'tandem-program-changes-'))
    const store = SqliteStore.open({ file: join(dir, 'paper.sqlite') })
    await store.append(ROOM, state)
    // One address makes every request here: the API's rate per address is lifted.
    const server = new TandemServer({
      store,
      rateLimits: { apiRequestsPerSecond: Number.POSITIVE_INFINITY },
    })
    const port = await server.listen(0, '127.0.0.1')
    const url = `ws://127.0.0.1:${port}`
    const writer = openClient(url, ROOM)
    const reader = openClient(url, ROOM)
    await Promise.all([writer.synced(), reader.synced()])
    s.after(async () => {
      writer.destroy()
      reader.destroy()
      await server.close()
      await store.close()
      rmSync(dir, { recursive: true, force: true })
    })
    s.note(
      `${text.length.toLocaleString('en-US')} characters after ${trace.patches.length.toLocaleString('en-US')} edits; ` +
        `${CHANGES} changes of one word per run`,
    )

    const overHttp = s.case({
      name: 'HTTP change, answered once stored',
      setup: () => null,
      async run() {
        for (let i = 0; i < CHANGES; i++) {
          const answer = await fetch(`http://127.0.0.1:${port}/api/rooms/${ROOM}/changes`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ changes: [{ from: 0, to: 0, insert: WORD }] }),
          })
          if (answer.status !== 200) throw new Error(`the change answered ${answer.status}`)
          await answer.arrayBuffer()
        }
      },
      ops: CHANGES,
      opUnit: 'change',
    })
    const overWebSocket = s.case({
      name: 'y-websocket client change, until another client has it',
      setup: () => null,
      async run() {
        for (let i = 0; i < CHANGES; i++) {
          const seen = new Promise<void>((resolve) => reader.doc.once('update', () => resolve()))
          writer.doc.getText(TEXT_NAME).insert(0, WORD)
          await seen
        }
      },
      ops: CHANGES,
      opUnit: 'change',
    })
    s.compare({
      name: 'HTTP change / y-websocket change',
      candidate: overHttp,
      peer: overWebSocket,
      perOp: true,
    })
  },
})
