/**
 * Sessions end to end: Tandem editors connected to a real `@tandem/server` over a real SQLite
 * file. A user leaves, others edit around (and inside) their selections, the user comes back
 * in a new editor and finds their selections on the same text.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TextBuffer } from '@tandem/buffer'
import { TextEditor } from '@tandem/editor'
import { type Authorize, SqliteStore, TandemServer } from '@tandem/server'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { type CollabConnection, type ConnectOptions, connect } from './connect.js'
import { restoreSession } from './session.js'

const WAIT = { timeout: 10_000, interval: 10 }
const dir = mkdtempSync(join(tmpdir(), 'tandem-session-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const ADA = { name: 'Ada', color: '#dd3333', id: 'ada' }
const BOB = { name: 'Bob', color: '#3333dd', id: 'bob' }

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A Tandem server on a free port over the SQLite `file`; `stop` closes it. */
const startServer = async (file: string, authorize?: Authorize) => {
  const store = SqliteStore.open({ file })
  const server = new TandemServer({ store, authorize })
  const port = await server.listen(0)
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    await server.close()
    await store.close()
  }
  cleanups.push(stop)
  return { url: `ws://127.0.0.1:${port}`, stop }
}

interface Peer {
  readonly editor: TextEditor
  readonly connection: CollabConnection
  leave(): void
}

const openPeer = (url: string, options: Partial<ConnectOptions>): Peer => {
  const editor = new TextEditor({ buffer: new TextBuffer() })
  const connection = connect(editor, {
    url,
    room: 'notes',
    user: ADA,
    WebSocket,
    crossTab: false,
    maxBackoffMs: 200,
    throttleMs: 0,
    ...options,
  })
  const leave = () => {
    connection.destroy()
    editor.destroy()
  }
  cleanups.push(leave)
  return { editor, connection, leave }
}

const selectedTexts = (editor: TextEditor) => editor.getSelections().map((s) => s.getText())

/** Resolves with the ranges `peer` restored (as strings), or rejects after the wait. */
const restored = (peer: Peer) =>
  new Promise<string[]>((resolve) => {
    peer.connection.onDidRestoreSession((ranges) => resolve(ranges.map(String)))
  })

describe('sessions with @tandem/server', () => {
  it('brings a returning user back to the same text after others edited around it', async () => {
    const { url } = await startServer(join(dir, 'around.sqlite'))
    const ada = openPeer(url, { user: ADA })
    const bob = openPeer(url, { user: BOB })
    await Promise.all([ada.connection.whenSynced, bob.connection.whenSynced])
    ada.editor.setText('alpha beta\ngamma delta\nepsilon')
    // Two selections: "beta" forwards, "delta" backwards (the primary one, added last).
    ada.editor.setSelectedBufferRange([
      [0, 6],
      [0, 10],
    ])
    ada.editor.addSelectionForBufferRange(
      [
        [1, 6],
        [1, 11],
      ],
      { reversed: true },
    )
    await vi.waitFor(() => expect(bob.connection.getRemoteCursors()).toHaveLength(1), WAIT)
    await vi.waitFor(
      () => expect(bob.connection.getRemoteCursors()[0]?.selections).toHaveLength(2),
      WAIT,
    )
    ada.leave()
    await vi.waitFor(() => expect(bob.connection.getRemoteCursors()).toHaveLength(0), WAIT)

    // Bob edits before, between, after and inside Ada's old selections.
    bob.editor.getBuffer().setTextInRange(
      [
        [0, 0],
        [0, 0],
      ],
      'new line\n',
    )
    bob.editor.getBuffer().setTextInRange(
      [
        [1, 0],
        [1, 5],
      ],
      'ALPHA!!',
    )
    bob.editor.getBuffer().setTextInRange(
      [
        [2, 0],
        [2, 0],
      ],
      '>> ',
    )
    bob.editor.getBuffer().setTextInRange(
      [
        [3, 0],
        [3, 7],
      ],
      'E',
    )
    bob.editor.getBuffer().setTextInRange(
      [
        [2, 10],
        [2, 11],
      ],
      'L',
    )
    expect(bob.editor.getText()).toBe('new line\nALPHA!! beta\n>> gamma dLlta\nE')

    const back = openPeer(url, { user: ADA })
    const ranges = await restored(back)
    expect(selectedTexts(back.editor)).toEqual(['beta', 'dLlta'])
    expect(back.editor.getLastSelection().isReversed()).toBe(true)
    expect(back.editor.getSelections()[0]!.isReversed()).toBe(false)
    expect(ranges).toEqual(back.editor.getSelectedBufferRanges().map(String))
  })

  it('keeps sessions on disk: the user returns to a restarted server', async () => {
    const file = join(dir, 'restart.sqlite')
    const first = await startServer(file)
    const ada = openPeer(first.url, { user: ADA })
    await ada.connection.whenSynced
    ada.editor.setText('one two three')
    ada.editor.setSelectedBufferRange([
      [0, 4],
      [0, 7],
    ])
    // Wait until the server has Ada's selection, then everyone leaves and the server stops.
    const watcher = openPeer(first.url, { user: BOB })
    await vi.waitFor(
      () => expect(watcher.connection.getRemoteCursors()[0]?.selections).toHaveLength(1),
      WAIT,
    )
    ada.leave()
    watcher.leave()
    await first.stop()

    const second = await startServer(file)
    const bob = openPeer(second.url, { user: BOB })
    await bob.connection.whenSynced
    bob.editor.getBuffer().setTextInRange(
      [
        [0, 0],
        [0, 3],
      ],
      'zero and one,',
    )
    const back = openPeer(second.url, { user: ADA })
    await restored(back)
    expect(back.editor.getText()).toBe('zero and one, two three')
    expect(selectedTexts(back.editor)).toEqual(['two'])
  })

  it('does not ask without a user id, nor when told not to', async () => {
    const { url } = await startServer(join(dir, 'opt-out.sqlite'))
    const ada = openPeer(url, { user: ADA })
    await ada.connection.whenSynced
    ada.editor.setText('abc')
    ada.editor.setSelectedBufferRange([
      [0, 1],
      [0, 2],
    ])
    const bob = openPeer(url, { user: BOB })
    await vi.waitFor(() => expect(bob.connection.getRemoteCursors()).toHaveLength(1), WAIT)
    ada.leave()
    const restoredAny: unknown[] = []
    const anonymous = openPeer(url, { user: { name: 'Ada', color: '#dd3333' } })
    anonymous.connection.onDidRestoreSession((ranges) => restoredAny.push(ranges))
    await anonymous.connection.whenSynced
    // The anonymous peer's caret is kept as nobody's session: Ada still finds hers.
    const asking = openPeer(url, { user: ADA })
    await restored(asking)
    expect(selectedTexts(asking.editor)).toEqual(['b'])
    asking.leave()
    const optedOut = openPeer(url, { user: ADA, restoreSession: false })
    optedOut.connection.onDidRestoreSession((ranges) => restoredAny.push(ranges))
    await optedOut.connection.whenSynced
    // A later Ada who asks is answered after the server handled the others' first messages.
    await restored(openPeer(url, { user: ADA }))
    expect(restoredAny).toEqual([])
    expect(optedOut.editor.getCursorBufferPosition().toString()).toBe('(0, 0)')
  })
})

describe('restoreSession', () => {
  it('leaves the editor alone for a session it cannot use', () => {
    const editor = new TextEditor({ buffer: new TextBuffer({ text: 'abc' }) })
    editor.setCursorBufferPosition([0, 2])
    expect(restoreSession(editor, 'not json')).toBeNull()
    expect(restoreSession(editor, '42')).toBeNull()
    expect(restoreSession(editor, '{"selections":[{"anchor":1,"head":2}]}')).toBeNull()
    const foreign = {
      type: { client: 1, clock: 0 },
      tname: null,
      item: { client: 999, clock: 5 },
      assoc: 0,
    }
    expect(
      restoreSession(editor, JSON.stringify({ selections: [{ anchor: foreign, head: foreign }] })),
    ).toBeNull()
    expect(editor.getCursorBufferPosition().toString()).toBe('(0, 2)')
    editor.destroy()
  })
})
