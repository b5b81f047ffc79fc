/**
 * Following a peer, between editors connected to a real `@tandem/server` on loopback (over
 * SQLite): one peer's rows in sight and caret travel as awareness fields, and the follower's
 * rows (a window of rows standing in for a view, see testing/rows-viewport.ts) go where they
 * are. Only the follower's own edits, selections and scrolling stop following, or the
 * followed peer leaving.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TextBuffer } from '@tandem/buffer'
import { TextEditor } from '@tandem/editor'
import { SqliteStore, TandemServer } from '@tandem/server'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { type CollabConnection, connect } from './connect.js'
import type { FollowingChangeEvent } from './following.js'
import { SelectionPublisher } from './selection-publisher.js'
import { RowsViewport } from './testing/rows-viewport.js'

const WAIT = { timeout: 10_000, interval: 10 }
const ROWS = 500
const TEXT = Array.from({ length: ROWS }, (_, row) => `line ${row}`).join('\n')

let dir: string
let store: SqliteStore
let server: TandemServer
let url: string
let roomCount = 0
const cleanups: (() => unknown)[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-following-'))
  store = SqliteStore.open({ file: join(dir, 'following.sqlite') })
  server = new TandemServer({ store })
  url = `ws://127.0.0.1:${await server.listen(0, '127.0.0.1')}`
})
afterAll(async () => {
  await server.close()
  await store.close()
  rmSync(dir, { recursive: true, force: true })
})
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

interface Peer {
  readonly editor: TextEditor
  readonly connection: CollabConnection
  readonly viewport: RowsViewport
  readonly clientId: number
  readonly changes: FollowingChangeEvent[]
}

/** An editor showing 20 rows, connected to `room`, synced. */
const openPeer = async (room: string, name: string, throttleMs = 0): Promise<Peer> => {
  const editor = new TextEditor({ buffer: new TextBuffer() })
  const connection = connect(editor, {
    url,
    room,
    user: { name, color: '#dd3333', id: name.toLowerCase() },
    WebSocket,
    crossTab: false,
    throttleMs,
  })
  const viewport = new RowsViewport(editor, 20)
  const attached = connection.attachViewport(viewport)
  const changes: FollowingChangeEvent[] = []
  connection.onDidChangeFollowing((event) => changes.push(event))
  cleanups.push(() => {
    attached.dispose()
    viewport.dispose()
    connection.destroy()
    editor.destroy()
  })
  await connection.whenSynced
  return { editor, connection, viewport, clientId: connection.awareness.clientID, changes }
}

/** Ada with the text and Bob, both in a new room, each seeing the other. */
const openPair = async (): Promise<{ ada: Peer; bob: Peer }> => {
  const room = `following-${++roomCount}`
  const ada = await openPeer(room, 'Ada')
  ada.editor.setText(TEXT)
  const bob = await openPeer(room, 'Bob')
  await vi.waitFor(() => {
    expect(bob.editor.getLineCount()).toBe(ROWS)
    expect(bob.connection.awareness.getStates().has(ada.clientId)).toBe(true)
    expect(ada.connection.awareness.getStates().has(bob.clientId)).toBe(true)
  }, WAIT)
  return { ada, bob }
}

/** Ada scrolls to `top` and puts her caret on row `caretRow`. */
const adaGoesTo = (ada: Peer, top: number, caretRow: number) => {
  ada.viewport.scrollByUser(top)
  ada.editor.setCursorBufferPosition([caretRow, 2])
}

describe('following a peer', () => {
  it("keeps the followed peer's rows and caret in sight as they scroll and move", async () => {
    const { ada, bob } = await openPair()
    const followers: (readonly number[])[] = []
    ada.connection.onDidChangeFollowers((ids) => followers.push(ids))

    bob.connection.follow(ada.clientId)
    expect(bob.connection.following).toBe(ada.clientId)
    expect(bob.changes).toEqual([{ following: ada.clientId, previous: null, reason: null }])
    await vi.waitFor(() => expect(ada.connection.followers()).toEqual([bob.clientId]), WAIT)
    expect(followers).toEqual([[bob.clientId]])

    adaGoesTo(ada, 300, 310)
    await vi.waitFor(() => expect(bob.viewport.rows()).toEqual([300, 319]), WAIT)
    // Her caret leaves her rows (a move, no scroll of hers): Bob's rows follow the caret.
    ada.editor.setCursorBufferPosition([340, 0])
    await vi.waitFor(() => expect(bob.viewport.rows()).toEqual([321, 340]), WAIT)
    adaGoesTo(ada, 40, 45)
    await vi.waitFor(() => expect(bob.viewport.rows()).toEqual([40, 59]), WAIT)
    // She scrolls away from her caret: she looks at her rows, and so does Bob.
    ada.viewport.scrollByUser(150)
    await vi.waitFor(() => expect(bob.viewport.rows()).toEqual([150, 169]), WAIT)
    expect(bob.connection.following).toBe(ada.clientId)
    expect(bob.changes).toHaveLength(1)
  })

  it("goes on through remote edits, which move the followed peer's rows", async () => {
    const { ada, bob } = await openPair()
    bob.connection.follow(ada.clientId)
    adaGoesTo(ada, 200, 205)
    await vi.waitFor(() => expect(bob.viewport.rows()).toEqual([200, 219]), WAIT)

    // Ada types at her caret, and Bob's caret, far above, moves with the text she adds.
    bob.editor.setCursorBufferPosition([1, 0])
    bob.connection.follow(ada.clientId) // moving his caret stopped it; follow again
    ada.editor.insertText('typed ')
    ada.editor.setCursorBufferPosition([0, 0])
    ada.editor.insertText('a\nb\nc\n')
    await vi.waitFor(() => expect(bob.editor.lineTextForBufferRow(0)).toBe('a'), WAIT)
    expect(bob.editor.getCursorBufferPosition().toString()).toBe('(4, 0)')
    // Her caret is now at the top: Bob's rows go there, and he still follows her.
    await vi.waitFor(() => expect(bob.viewport.rows()[0]).toBe(0), WAIT)
    expect(bob.connection.following).toBe(ada.clientId)
    expect(bob.changes.map((change) => change.reason)).toEqual([null, 'selection', null])
  })

  it('stops at a local edit, a local selection change or a local scroll, with why', async () => {
    const { ada, bob } = await openPair()
    const stops = async (act: () => void) => {
      bob.connection.follow(ada.clientId)
      await vi.waitFor(() => expect(ada.connection.followers()).toEqual([bob.clientId]), WAIT)
      act()
      expect(bob.connection.following).toBeNull()
      await vi.waitFor(() => expect(ada.connection.followers()).toEqual([]), WAIT)
      return bob.changes.at(-1)
    }
    expect(await stops(() => bob.editor.insertText('x'))).toEqual({
      following: null,
      previous: ada.clientId,
      reason: 'edit',
    })
    expect((await stops(() => bob.editor.moveDown()))?.reason).toBe('selection')
    expect((await stops(() => bob.editor.addCursorAtBufferPosition([9, 0])))?.reason).toBe(
      'selection',
    )
    expect((await stops(() => bob.viewport.scrollByUser(120)))?.reason).toBe('scroll')
    expect((await stops(() => bob.connection.unfollow()))?.reason).toBe('unfollow')
    expect((await stops(() => bob.editor.undo()))?.reason).toBe('edit')
  })

  it("goes on when soft wrap moves the follower's selection on screen only", async () => {
    const { ada, bob } = await openPair()
    bob.editor.setCursorBufferPosition([450, 6])
    bob.connection.follow(ada.clientId)
    let screenMoves = 0
    bob.editor.onDidChangeSelectionRange(() => screenMoves++)
    bob.editor.setEditorWidthInChars(4)
    bob.editor.setSoftWrapped(true)
    expect(screenMoves).toBeGreaterThan(0)
    expect(bob.connection.following).toBe(ada.clientId)
  })

  it('stops with a notice when the followed peer leaves', async () => {
    const { ada, bob } = await openPair()
    bob.connection.follow(ada.clientId)
    ada.connection.destroy()
    await vi.waitFor(() => expect(bob.connection.following).toBeNull(), WAIT)
    expect(bob.changes.at(-1)).toEqual({
      following: null,
      previous: ada.clientId,
      reason: 'peer-left',
    })
  })

  it('moves from one followed peer to another, and lists several followers', async () => {
    const { ada, bob } = await openPair()
    const cleo = await openPeer(`following-${roomCount}`, 'Cleo')
    await vi.waitFor(() => {
      expect(bob.connection.awareness.getStates().has(cleo.clientId)).toBe(true)
      expect(cleo.connection.awareness.getStates().has(ada.clientId)).toBe(true)
    }, WAIT)
    bob.connection.follow(ada.clientId)
    cleo.connection.follow(ada.clientId)
    const both = [bob.clientId, cleo.clientId].sort((a, b) => a - b)
    await vi.waitFor(() => expect(ada.connection.followers()).toEqual(both), WAIT)
    bob.connection.follow(cleo.clientId)
    expect(bob.changes.at(-1)).toEqual({
      following: cleo.clientId,
      previous: ada.clientId,
      reason: null,
    })
    await vi.waitFor(() => {
      expect(ada.connection.followers()).toEqual([cleo.clientId])
      expect(cleo.connection.followers()).toEqual([bob.clientId])
    }, WAIT)
  })

  it('follows the caret alone of a peer without a viewport, and ignores a malformed one', async () => {
    const { ada, bob } = await openPair()
    ada.editor.setCursorBufferPosition([250, 0])
    // Her rows follow her caret and are published; then a malformed viewport replaces them.
    expect(ada.viewport.rows()).toEqual([231, 250])
    await new Promise((resolve) => setTimeout(resolve, 50))
    ada.connection.awareness.setLocalStateField('viewport', { start: 'top', end: 3 })
    await vi.waitFor(
      () =>
        expect(bob.connection.awareness.getStates().get(ada.clientId)?.viewport?.start).toBe('top'),
      WAIT,
    )
    bob.connection.follow(ada.clientId)
    expect(bob.viewport.rows()).toEqual([231, 250])
    expect(bob.connection.following).toBe(ada.clientId)
  })

  it("follows a program's caret: one opened in the server process, marked as an agent", async () => {
    const room = `following-${++roomCount}`
    const bot = await server.openDocument(room, { user: 'outline-bot', name: 'Outline bot' })
    const botEditor = new TextEditor({ buffer: new TextBuffer({ doc: bot.doc }) })
    const publisher = new SelectionPublisher(
      botEditor,
      bot.awareness,
      { name: 'Outline bot', color: '#1a7f7a', id: 'outline-bot', agent: true },
      { throttleMs: 0 },
    )
    cleanups.push(async () => {
      publisher.dispose()
      botEditor.destroy()
      await bot.close()
    })
    botEditor.setText(TEXT)
    const bob = await openPeer(room, 'Bob')
    await vi.waitFor(() => {
      expect(bob.editor.getLineCount()).toBe(ROWS)
      const [cursor] = bob.connection.getRemoteCursors()
      expect(cursor?.user).toMatchObject({ name: 'Outline bot', agent: true })
    }, WAIT)

    bob.connection.follow(bot.doc.clientID)
    expect(bob.connection.following).toBe(bot.doc.clientID)
    // The program publishes no rows in sight: its caret alone leads, as it types far below.
    botEditor.setCursorBufferPosition([400, 0])
    botEditor.insertText('summary: ')
    await vi.waitFor(() => {
      expect(bob.editor.lineTextForBufferRow(400)).toBe('summary: line 400')
      const [top, bottom] = bob.viewport.rows()
      expect(top! <= 400 && 400 <= bottom!).toBe(true)
    }, WAIT)
    expect(bob.connection.following).toBe(bot.doc.clientID)
    // Closing the program removes its presence, which ends following with that reason.
    await bot.close()
    await vi.waitFor(() => expect(bob.connection.following).toBeNull(), WAIT)
    expect(bob.changes.at(-1)?.reason).toBe('peer-left')
  })

  it('refuses to follow itself, an unknown client or a non-integer', async () => {
    const { bob } = await openPair()
    expect(() => bob.connection.follow(bob.clientId)).toThrow(RangeError)
    expect(() => bob.connection.follow(123_456)).toThrow(/no peer with client id 123456/)
    expect(() => bob.connection.follow('1' as unknown as number)).toThrow(TypeError)
    expect(() => bob.connection.follow(1.5)).toThrow(TypeError)
    expect(bob.connection.following).toBeNull()
    expect(bob.changes).toEqual([])
  })

  it('publishes the rows in sight once per throttle period, and clears them when detached', async () => {
    const room = `following-${++roomCount}`
    const ada = await openPeer(room, 'Ada', 30)
    ada.editor.setText(TEXT)
    const published: unknown[] = []
    ada.connection.awareness.on('change', () =>
      published.push(ada.connection.awareness.getLocalState()?.viewport),
    )
    for (let top = 10; top <= 100; top += 10) ada.viewport.scrollByUser(top)
    await vi.waitFor(() => expect(published.length).toBeGreaterThan(0), WAIT)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(published).toHaveLength(1)
    const { start, end } = ada.viewport.getVisibleBufferRange()
    const buffer = ada.editor.getBuffer()
    expect(published[0]).toEqual({
      start: JSON.parse(JSON.stringify(buffer.relativePositionForPosition(start, 0))),
      end: JSON.parse(JSON.stringify(buffer.relativePositionForPosition(end, -1))),
    })
    // Typing in sight changes neither end: nothing is sent.
    ada.editor.setCursorBufferPosition([105, 0])
    ada.editor.insertText('typing')
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(published.filter((viewport) => viewport !== published[0])).toEqual([])

    const other = ada.connection.attachViewport(new RowsViewport(ada.editor, 5))
    other.dispose()
    expect(ada.connection.awareness.getLocalState()?.viewport).toBeNull()
  })
})
