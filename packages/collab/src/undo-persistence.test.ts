/**
 * Undo that survives a reload, a reconnect and a change of device, end to end: Tandem editors
 * connected to a real `@tandem/server` over a real SQLite file and a real PostgreSQL. A user
 * types, leaves, comes back in a new editor over a fresh document (a reload, or another
 * device), and ctrl-z undoes what they typed, putting their selections back; a peer's text is
 * never undone.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TextBuffer } from '@tandem/buffer'
import { TextEditor } from '@tandem/editor'
import {
  decodeUndoHistory,
  encodeUndoHistory,
  MessageType,
  UndoHistoryKind,
  undoHistoryRequest,
  undoHistorySave,
} from '@tandem/protocol'
import {
  type Authorize,
  AuthRefusal,
  type DocumentStore,
  PostgresStore,
  SqliteStore,
  TandemServer,
} from '@tandem/server'
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import {
  dropSchema,
  neededServices,
  POSTGRES_URL,
  uniqueNames,
} from '../../server/src/testing/services.js'
import { type CollabConnection, type ConnectOptions, connect } from './connect.js'

const WAIT = { timeout: 10_000, interval: 10 }
const dir = mkdtempSync(join(tmpdir(), 'tandem-undo-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const ADA = { name: 'Ada', color: '#dd3333', id: 'ada' }
const BOB = { name: 'Bob', color: '#3333dd', id: 'bob' }

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

type OpenStore = () => Promise<DocumentStore>

interface Running {
  readonly url: string
  readonly store: DocumentStore
  stop(): Promise<void>
}

const startServer = async (
  openStore: OpenStore,
  options: Partial<ConstructorParameters<typeof TandemServer>[0]> = {},
  port = 0,
): Promise<Running & { port: number }> => {
  const store = await openStore()
  const server = new TandemServer({ store, ...options })
  const listening = await server.listen(port)
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    await server.close()
    await store.close()
  }
  cleanups.push(stop)
  return { url: `ws://127.0.0.1:${listening}`, store, stop, port: listening }
}

interface Device {
  readonly editor: TextEditor
  readonly connection: CollabConnection
  leave(): void
}

/** A new editor over a fresh document, connected: a page (re)loaded, or another device. */
const openDevice = (url: string, options: Partial<ConnectOptions> = {}): Device => {
  const editor = new TextEditor({ buffer: new TextBuffer() })
  const connection = connect(editor, {
    url,
    room: 'notes',
    user: ADA,
    WebSocket,
    crossTab: false,
    maxBackoffMs: 100,
    throttleMs: 0,
    undoHistory: { saveDelayMs: 20 },
    ...options,
  })
  let left = false
  const leave = () => {
    if (left) return
    left = true
    connection.destroy()
    editor.destroy()
  }
  cleanups.push(leave)
  return { editor, connection, leave }
}

const ranges = (editor: TextEditor) => editor.getSelectedBufferRanges().map(String)

/** Waits until `user`'s history in the store has `steps` undo steps. */
const storedSteps = async (store: DocumentStore, user: string, steps: number) => {
  await vi.waitFor(async () => {
    const bytes = await store.loadUndoHistory!('notes', user)
    expect(bytes === null ? 0 : decodeUndoHistory(bytes).undo.length).toBe(steps)
  }, WAIT)
}

/** Waits until `device` took a saved history of `steps` undo steps. */
const restoredSteps = async (device: Device, steps: number) => {
  await vi.waitFor(() => expect(device.editor.getUndoHistoryState().undo.length).toBe(steps), WAIT)
}

const typeSteps = (editor: TextEditor) => {
  editor.insertText('hello')
  editor.insertText(' world')
  editor.setSelectedBufferRange([
    [0, 0],
    [0, 5],
  ])
  editor.insertText('HELLO')
}

const stores: [string, () => Promise<OpenStore | null>][] = [
  [
    'SQLite',
    async () => {
      const file = join(dir, `${Math.random().toString(36).slice(2)}.sqlite`)
      return async () => SqliteStore.open({ file })
    },
  ],
  [
    'PostgreSQL',
    async () => {
      if ((await neededServices('the undo history tests', { postgres: true })) !== null) {
        return null
      }
      const { schema } = uniqueNames('undo')
      cleanups.unshift(() => dropSchema(schema))
      return async () => PostgresStore.open({ connectionString: POSTGRES_URL, schema })
    },
  ],
]

describe.each(stores)('undo history kept by the server (%s)', (_name, storeOf) => {
  it('survives a reload: undo restores the text and the selections, redo goes forward again', async (context) => {
    const openStore = await storeOf()
    if (openStore === null) return context.skip()
    const { url, store } = await startServer(openStore)
    const first = openDevice(url)
    await first.connection.whenSynced
    typeSteps(first.editor)
    expect(first.editor.getText()).toBe('HELLO world')
    await storedSteps(store, 'ada', 3)
    first.leave()

    const second = openDevice(url)
    await second.connection.whenSynced
    expect(second.editor.getText()).toBe('HELLO world')
    await restoredSteps(second, 3)
    second.editor.undo()
    expect(second.editor.getText()).toBe('hello world')
    expect(ranges(second.editor)).toEqual(['[(0, 0) - (0, 5)]'])
    second.editor.undo()
    expect(second.editor.getText()).toBe('hello')
    expect(ranges(second.editor)).toEqual(['[(0, 5) - (0, 5)]'])
    second.editor.redo()
    second.editor.redo()
    expect(second.editor.getText()).toBe('HELLO world')
    expect(ranges(second.editor)).toEqual(['[(0, 5) - (0, 5)]'])
  })

  it('goes to another device of the same user, and never undoes what a peer typed inside the step', async (context) => {
    const openStore = await storeOf()
    if (openStore === null) return context.skip()
    const { url, store } = await startServer(openStore)
    const laptop = openDevice(url)
    const bob = openDevice(url, { user: BOB })
    await Promise.all([laptop.connection.whenSynced, bob.connection.whenSynced])
    laptop.editor.insertText('one three')
    await storedSteps(store, 'ada', 1)
    await vi.waitFor(() => expect(bob.editor.getText()).toBe('one three'), WAIT)
    // Bob writes inside Ada's text and rewrites part of it.
    bob.editor.setCursorBufferPosition([0, 3])
    bob.editor.insertText(' two')
    bob.editor.setSelectedBufferRange([
      [0, 8],
      [0, 13],
    ])
    bob.editor.insertText('THREE')
    await vi.waitFor(() => expect(laptop.editor.getText()).toBe('one two THREE'), WAIT)
    laptop.leave()

    const phone = openDevice(url)
    await phone.connection.whenSynced
    await restoredSteps(phone, 1)
    // What remains of Ada's text goes ("one", the space); Bob's " two" and "THREE" stay.
    phone.editor.undo()
    expect(phone.editor.getText()).toBe(' twoTHREE')
    await vi.waitFor(() => expect(bob.editor.getText()).toBe(' twoTHREE'), WAIT)
    // Bob's own history is his: undoing his rewrite brings back the word he replaced.
    bob.editor.undo()
    expect(bob.editor.getText()).toBe(' twothree')
  })

  it('survives a server restart in between, and keeps sending as the steps change', async (context) => {
    const openStore = await storeOf()
    if (openStore === null) return context.skip()
    const running = await startServer(openStore)
    const device = openDevice(running.url)
    await device.connection.whenSynced
    device.editor.insertText('abc')
    device.editor.insertText('def')
    await storedSteps(running.store, 'ada', 2)
    device.leave()
    await running.stop()

    const again = await startServer(openStore, {}, running.port)
    const reloaded = openDevice(again.url)
    await reloaded.connection.whenSynced
    await restoredSteps(reloaded, 2)
    reloaded.editor.undo()
    expect(reloaded.editor.getText()).toBe('abc')
    // The undo is a change of the history: it is saved as well (one undo step, one redo).
    await vi.waitFor(async () => {
      const bytes = await again.store.loadUndoHistory!('notes', 'ada')
      const history = decodeUndoHistory(bytes!)
      expect([history.undo.length, history.redo.length]).toEqual([1, 1])
    }, WAIT)
    reloaded.leave()
    const third = openDevice(again.url)
    await third.connection.whenSynced
    await restoredSteps(third, 1)
    third.editor.redo()
    expect(third.editor.getText()).toBe('abcdef')
  })

  it("keeps each user's history to its caps, the oldest steps dropped first", async (context) => {
    const openStore = await storeOf()
    if (openStore === null) return context.skip()
    const { url, store } = await startServer(openStore, { undoHistoryLimits: { maxSteps: 3 } })
    const device = openDevice(url, { undoHistory: { saveDelayMs: 20, maxSteps: 100 } })
    await device.connection.whenSynced
    for (const word of ['a', 'b', 'c', 'd', 'e']) device.editor.insertText(word)
    await storedSteps(store, 'ada', 3)
    device.leave()
    const next = openDevice(url)
    await next.connection.whenSynced
    await restoredSteps(next, 3)
    for (let i = 0; i < 5; i++) next.editor.undo()
    expect(next.editor.getText()).toBe('ab')

    // The client trims to its own caps before it sends, by bytes too.
    const small = openDevice(url, { user: BOB, undoHistory: { saveDelayMs: 20, maxBytes: 1500 } })
    await small.connection.whenSynced
    for (let i = 0; i < 20; i++) small.editor.insertText(`${i}`)
    await vi.waitFor(async () => {
      const bytes = await store.loadUndoHistory!('notes', 'bob')
      expect(bytes).not.toBeNull()
      expect(bytes!.length).toBeLessThanOrEqual(1500)
      const steps = decodeUndoHistory(bytes!).undo.length
      expect(steps).toBeGreaterThan(0)
      expect(steps).toBeLessThan(20)
    }, WAIT)
    // The newest steps were kept: undoing them takes off the last numbers typed.
    const kept = decodeUndoHistory((await store.loadUndoHistory!('notes', 'bob'))!).undo.length
    small.leave()
    const bobAgain = openDevice(url, { user: BOB })
    await bobAgain.connection.whenSynced
    await restoredSteps(bobAgain, kept)
    const before = bobAgain.editor.getText()
    expect(before).toContain('171819')
    bobAgain.editor.undo()
    expect(bobAgain.editor.getText()).toBe(before.replace('171819', '1718'))
  })
})

/** Sends `message` over a raw connection and resolves with what came back of type 103. */
const rawExchange = async (url: string, messages: Uint8Array[], query = '') => {
  const ws = new WebSocket(`${url}/notes${query}`)
  cleanups.push(() => ws.close())
  await new Promise((resolve, reject) => {
    ws.once('open', resolve)
    ws.once('error', reject)
  })
  const answers: { user: string; history: Uint8Array | null }[] = []
  ws.on('message', (data: Buffer) => {
    const decoder = decoding.createDecoder(new Uint8Array(data))
    if (decoding.readVarUint(decoder) !== MessageType.undoHistory) return
    expect(decoding.readVarUint(decoder)).toBe(UndoHistoryKind.answer)
    const user = decoding.readVarString(decoder)
    const history = decoding.readVarUint8Array(decoder)
    answers.push({ user, history: history.length === 0 ? null : history })
  })
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
  for (const message of messages) ws.send(message)
  return { answers, closed }
}

const garbage = (...bytes: number[]) => new Uint8Array(bytes)

describe('undo history requests to the server', () => {
  it("never serves another user their history, nor keeps a save under another's name", async () => {
    // The token names the user (a stand-in for a signed one).
    const authorize: Authorize = (request) => {
      const user = new URL(request.url ?? '/', 'http://x').searchParams.get('token')
      if (!user) throw new AuthRefusal(401, 'who are you?')
      return { role: 'write', user }
    }
    const file = join(dir, 'auth.sqlite')
    const { url, store } = await startServer(async () => SqliteStore.open({ file }), { authorize })
    // No user.id: the server keeps the history under the token's user.
    const device = openDevice(url, { user: { name: 'Ada', color: '#d33' }, token: 'ada' })
    await device.connection.whenSynced
    device.editor.insertText('secret')
    await storedSteps(store, 'ada', 1)
    // Bob asks for Ada's history by name: he gets his own (none), under his name.
    const bob = await rawExchange(url, [undoHistoryRequest('ada')], '?token=bob')
    await vi.waitFor(() => expect(bob.answers).toEqual([{ user: 'bob', history: null }]), WAIT)
    const adaAsks = await rawExchange(url, [undoHistoryRequest('bob')], '?token=ada')
    await vi.waitFor(() => expect(adaAsks.answers).toHaveLength(1), WAIT)
    expect(adaAsks.answers[0]!.user).toBe('ada')
    expect(decodeUndoHistory(adaAsks.answers[0]!.history!).undo).toHaveLength(1)
    // A save naming Ada from Bob's connection goes under Bob: Ada's stays as it was.
    const empty = encodeUndoHistory({ undo: [], redo: [] })
    await rawExchange(url, [undoHistorySave('ada', empty)], '?token=bob')
    const later = await rawExchange(url, [undoHistoryRequest('ada')], '?token=ada')
    await vi.waitFor(() => expect(later.answers).toHaveLength(1), WAIT)
    expect(decodeUndoHistory(later.answers[0]!.history!).undo).toHaveLength(1)
  })

  it('closes a connection that sends a history that does not decode, and goes on serving', async () => {
    const file = join(dir, 'garbage.sqlite')
    const { url, store } = await startServer(async () => SqliteStore.open({ file }))
    const save = (history: Uint8Array) => {
      const encoder = encoding.createEncoder()
      encoding.writeVarUint(encoder, MessageType.undoHistory)
      encoding.writeVarUint(encoder, UndoHistoryKind.save)
      encoding.writeVarString(encoder, 'eve')
      encoding.writeVarUint8Array(encoder, history)
      return encoding.toUint8Array(encoder)
    }
    for (const message of [
      garbage(MessageType.undoHistory),
      garbage(MessageType.undoHistory, 9, 0),
      garbage(MessageType.undoHistory, UndoHistoryKind.save, 3, 101, 118),
      save(garbage(1, 200, 200, 200, 1)),
      save(garbage(7, 0, 0)),
      save(garbage(1, 1, 2, 9)),
    ]) {
      const raw = await rawExchange(url, [message])
      expect(await raw.closed).toBe(1007)
    }
    // An answer sent by a client is ignored; the server still answers and keeps histories.
    const ignored = await rawExchange(url, [
      garbage(MessageType.undoHistory, UndoHistoryKind.answer, 0, 0),
      undoHistoryRequest('eve'),
    ])
    await vi.waitFor(() => expect(ignored.answers).toEqual([{ user: 'eve', history: null }]), WAIT)
    const device = openDevice(url)
    await device.connection.whenSynced
    device.editor.insertText('still here')
    await storedSteps(store, 'ada', 1)
    expect(await store.loadUndoHistory!('notes', 'eve')).toBeNull()
  })
})
