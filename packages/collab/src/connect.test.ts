/**
 * `connect` against real servers on loopback: the stock y-websocket server as its own process
 * for syncing, and small token-checking servers for refusals.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TextBuffer } from '@tandem/buffer'
import { TextEditor } from '@tandem/editor'
import { SqliteStore, signToken, TandemServer, tokenAuth } from '@tandem/server'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import * as Y from 'yjs'
import { AuthError } from './auth-failure.js'
import {
  type CollabConnection,
  type ConnectionStatus,
  type ConnectOptions,
  connect,
} from './connect.js'
import { type GateMode, GateServer } from './testing/gate-server.js'
import { YWebsocketServer } from './testing/y-websocket-server.js'

const WAIT = { timeout: 10_000, interval: 10 }

let server: YWebsocketServer
let roomCount = 0
const cleanups: (() => unknown)[] = []

beforeAll(async () => {
  server = await YWebsocketServer.start()
})
afterAll(async () => {
  await server.stop()
})
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  if (!server.running) await server.start()
})

/** A room nobody else in this file uses. */
const newRoom = () => `room-${process.pid}-${++roomCount}`

const ADA = { name: 'Ada', color: '#dd3333', id: 'ada' }
const BOB = { name: 'Bob', color: '#3333dd', id: 'bob' }

interface Peer {
  readonly editor: TextEditor
  readonly connection: CollabConnection
  readonly statuses: ConnectionStatus[]
}

/** An editor on a new document, connected to `url` (the y-websocket server unless given). */
const openPeer = (room: string, options: Partial<ConnectOptions> = {}): Peer => {
  const editor = new TextEditor({ buffer: new TextBuffer() })
  const connection = connect(editor, {
    url: server.url,
    room,
    user: ADA,
    WebSocket,
    crossTab: false,
    maxBackoffMs: 200,
    throttleMs: 0,
    ...options,
  })
  const statuses: ConnectionStatus[] = [connection.status]
  connection.onDidChangeStatus((status) => statuses.push(status))
  cleanups.push(() => {
    connection.destroy()
    editor.destroy()
  })
  return { editor, connection, statuses }
}

/** How `viewer` shows `peer`'s selections, as range strings. */
const shownRanges = (viewer: Peer, peer: Peer) =>
  viewer.connection
    .getRemoteCursors()
    .find((cursor) => cursor.clientId === peer.connection.doc.clientID)
    ?.selections.map((selection) => selection.range.toString()) ?? []

const localRanges = (peer: Peer) =>
  peer.editor.getSelectedBufferRanges().map((range) => range.toString())

describe('connect to a y-websocket server', () => {
  it('syncs two editors through the server, with each one showing the other caret', async () => {
    const room = newRoom()
    const ada = openPeer(room)
    const bob = openPeer(room, { user: BOB })
    await Promise.all([ada.connection.whenSynced, bob.connection.whenSynced])
    expect(ada.statuses).toEqual(['connecting', 'connected', 'synced'])
    expect(ada.connection.status).toBe('synced')

    ada.editor.insertText('hello from Ada\n')
    await vi.waitFor(() => expect(bob.editor.getText()).toBe('hello from Ada\n'), WAIT)
    bob.editor.setCursorBufferPosition([0, 6])
    bob.editor.insertText('there ')
    bob.editor.selectToEndOfWord()
    await vi.waitFor(() => expect(ada.editor.getText()).toBe('hello there from Ada\n'), WAIT)

    await vi.waitFor(() => expect(shownRanges(ada, bob)).toEqual(localRanges(bob)), WAIT)
    await vi.waitFor(() => expect(shownRanges(bob, ada)).toEqual(localRanges(ada)), WAIT)
    const [shownBob] = ada.connection.getRemoteCursors()
    expect(shownBob?.user).toEqual(BOB)
    expect(shownBob?.ownTab).toBe(false)
  })

  it('gives a peer joining later the whole document', async () => {
    const room = newRoom()
    const first = openPeer(room)
    const witness = openPeer(room, { user: BOB })
    await Promise.all([first.connection.whenSynced, witness.connection.whenSynced])
    first.editor.insertText('line one\nline two\n')
    first.editor.setCursorBufferPosition([1, 4])
    // Once another peer has the text, the server has it.
    await vi.waitFor(() => expect(witness.editor.getText()).toBe('line one\nline two\n'), WAIT)
    const late = openPeer(room, { user: { name: 'Cy', color: '#33aa33' } })
    await late.connection.whenSynced
    expect(late.editor.getText()).toBe('line one\nline two\n')
    await vi.waitFor(() => expect(shownRanges(late, first)).toEqual(['[(1, 4) - (1, 4)]']), WAIT)
  })

  it('removes a peer that disconnects and shows its carets again when it comes back', async () => {
    const room = newRoom()
    const ada = openPeer(room)
    const bob = openPeer(room, { user: BOB })
    await Promise.all([ada.connection.whenSynced, bob.connection.whenSynced])
    ada.editor.insertText('one two three four')
    await vi.waitFor(() => expect(bob.editor.getText()).toBe('one two three four'), WAIT)
    bob.editor.setSelectedBufferRange([
      [0, 4],
      [0, 7],
    ])
    await vi.waitFor(() => expect(shownRanges(ada, bob)).toEqual(['[(0, 4) - (0, 7)]']), WAIT)

    bob.connection.disconnect()
    expect(bob.connection.status).toBe('offline')
    await vi.waitFor(() => expect(ada.connection.getRemoteCursors()).toEqual([]), WAIT)
    // Both edit while apart: Bob's selection must follow its words through Ada's edit.
    ada.editor.setCursorBufferPosition([0, 0])
    ada.editor.insertText('zero ')
    bob.editor.setCursorBufferPosition([0, 18])
    bob.editor.insertText(' five')
    bob.editor.setSelectedBufferRange([
      [0, 8],
      [0, 13],
    ])

    bob.connection.reconnect()
    await vi.waitFor(() => expect(bob.connection.status).toBe('synced'), WAIT)
    const merged = 'zero one two three four five'
    await vi.waitFor(() => expect(ada.editor.getText()).toBe(merged), WAIT)
    expect(bob.editor.getText()).toBe(merged)
    expect(bob.editor.getSelectedText()).toBe('three')
    await vi.waitFor(() => expect(shownRanges(ada, bob)).toEqual(localRanges(bob)), WAIT)
    expect(
      ada.editor.getTextInBufferRange(ada.connection.getRemoteCursors()[0]!.selections[0]!.range),
    ).toBe('three')
  })

  it('shows a peer that comes back unchanged at once, not at its next awareness renewal', async () => {
    const room = newRoom()
    const ada = openPeer(room)
    const bob = openPeer(room, { user: BOB })
    await Promise.all([ada.connection.whenSynced, bob.connection.whenSynced])
    ada.editor.insertText('steady text')
    await vi.waitFor(() => expect(bob.editor.getText()).toBe('steady text'), WAIT)
    bob.editor.setCursorBufferPosition([0, 7])
    await vi.waitFor(() => expect(shownRanges(ada, bob)).toEqual(['[(0, 7) - (0, 7)]']), WAIT)
    bob.connection.disconnect()
    await vi.waitFor(() => expect(ada.connection.getRemoteCursors()).toEqual([]), WAIT)
    // Bob changes nothing while away; his state must still count as news when he returns.
    bob.connection.reconnect()
    await vi.waitFor(() => expect(shownRanges(ada, bob)).toEqual(['[(0, 7) - (0, 7)]']), {
      timeout: 3_000,
      interval: 10,
    })
  })

  it('goes offline when the server dies, keeps editing, and syncs it all once the server is back', async () => {
    const room = newRoom()
    const ada = openPeer(room)
    const bob = openPeer(room, { user: BOB })
    await Promise.all([ada.connection.whenSynced, bob.connection.whenSynced])
    ada.editor.insertText('before the crash\n')
    await vi.waitFor(() => expect(bob.editor.getText()).toBe('before the crash\n'), WAIT)

    await server.stop()
    await vi.waitFor(() => expect(ada.connection.status).toBe('offline'), WAIT)
    await vi.waitFor(() => expect(bob.connection.status).toBe('offline'), WAIT)
    ada.editor.insertText('ada offline\n')
    bob.editor.setCursorBufferPosition([0, 0])
    bob.editor.insertText('bob offline\n')

    // The new server process starts empty: the peers give it the document back.
    await server.start()
    await vi.waitFor(() => expect(ada.connection.status).toBe('synced'), WAIT)
    await vi.waitFor(() => expect(ada.editor.getText()).toBe(bob.editor.getText()), WAIT)
    expect(ada.editor.getText()).toBe('bob offline\nbefore the crash\nada offline\n')
    // After the last time it went offline, only attempts to connect (a retry may begin while
    // the server is still starting), then connected and synced.
    const sinceOffline = ada.statuses.slice(ada.statuses.lastIndexOf('offline'))
    expect(sinceOffline[0]).toBe('offline')
    expect(sinceOffline.filter((status) => status !== 'connecting')).toEqual([
      'offline',
      'connected',
      'synced',
    ])
    await vi.waitFor(() => expect(shownRanges(ada, bob)).toEqual(localRanges(bob)), WAIT)
  })

  it("undoes only this peer's changes, restoring its selections, while others' stay", async () => {
    const room = newRoom()
    const ada = openPeer(room)
    const bob = openPeer(room, { user: BOB })
    await Promise.all([ada.connection.whenSynced, bob.connection.whenSynced])
    ada.editor.insertText('alpha\n')
    await vi.waitFor(() => expect(bob.editor.getText()).toBe('alpha\n'), WAIT)
    bob.editor.setCursorBufferPosition([1, 0])
    bob.editor.insertText('bravo')
    await vi.waitFor(() => expect(ada.editor.getText()).toBe('alpha\nbravo'), WAIT)
    ada.editor.setSelectedBufferRange([
      [0, 0],
      [0, 5],
    ])
    ada.editor.insertText('ALPHA')
    await vi.waitFor(() => expect(bob.editor.getText()).toBe('ALPHA\nbravo'), WAIT)

    ada.editor.undo()
    expect(ada.editor.getText()).toBe('alpha\nbravo')
    expect(ada.editor.getSelectedBufferRange().toString()).toBe('[(0, 0) - (0, 5)]')
    await vi.waitFor(() => expect(bob.editor.getText()).toBe('alpha\nbravo'), WAIT)
    ada.editor.undo()
    expect(ada.editor.getText()).toBe('bravo')
    await vi.waitFor(() => expect(bob.editor.getText()).toBe('bravo'), WAIT)
    // Bob's own history is untouched by Ada's undo, and Ada's caret follows on Bob's side.
    bob.editor.undo()
    await vi.waitFor(() => expect(ada.editor.getText()).toBe(''), WAIT)
    await vi.waitFor(() => expect(shownRanges(bob, ada)).toEqual(localRanges(ada)), WAIT)
  })

  it("syncs a bare Y.Doc and publishes the user's name", async () => {
    const room = newRoom()
    const doc = new Y.Doc()
    const bare = connect(doc, { url: server.url, room, user: BOB, WebSocket, crossTab: false })
    cleanups.push(() => bare.destroy())
    const ada = openPeer(room)
    await Promise.all([bare.whenSynced, ada.connection.whenSynced])
    doc.getText('text').insert(0, 'typed elsewhere')
    await vi.waitFor(() => expect(ada.editor.getText()).toBe('typed elsewhere'), WAIT)
    expect(bare.editor).toBeNull()
    expect(bare.getRemoteCursors()).toEqual([])
    expect(bare.awareness.getLocalState()?.user).toEqual(BOB)
  })

  it('clears this user from the other peers at once when destroyed', async () => {
    const room = newRoom()
    const ada = openPeer(room)
    const bob = openPeer(room, { user: BOB })
    await Promise.all([ada.connection.whenSynced, bob.connection.whenSynced])
    await vi.waitFor(() => expect(ada.connection.getRemoteCursors()).toHaveLength(1), WAIT)
    bob.connection.destroy()
    await vi.waitFor(() => expect(ada.connection.getRemoteCursors()).toEqual([]), WAIT)
    expect(bob.connection.status).toBe('offline')
    expect(() => bob.connection.reconnect()).toThrow(/destroyed/)
  })

  it('syncs tabs of one browser over BroadcastChannel while the server is down', async () => {
    const room = newRoom()
    await server.stop()
    const tabOne = openPeer(room, { crossTab: true })
    const tabTwo = openPeer(room, { crossTab: true })
    tabOne.editor.insertText('written with no server')
    await vi.waitFor(() => expect(tabTwo.editor.getText()).toBe('written with no server'), WAIT)
    await vi.waitFor(() => expect(shownRanges(tabTwo, tabOne)).toEqual(localRanges(tabOne)), WAIT)
    // The same user in two tabs: shown as its own other tab.
    expect(tabTwo.connection.getRemoteCursors()[0]?.ownTab).toBe(true)
    await vi.waitFor(() => expect(tabOne.connection.status).toBe('offline'), WAIT)
  })
})

describe('refusals', () => {
  const gates: GateServer[] = []
  afterEach(async () => {
    for (const gate of gates.splice(0)) await gate.close()
  })
  const openGate = async (mode: GateMode) => {
    const gate = await GateServer.start(mode)
    gates.push(gate)
    return gate
  }

  it('reports an upgrade refused with 401 and its reason, and stops trying', async () => {
    const gate = await openGate({ kind: 'refuse-upgrade', status: 401, reason: 'token expired' })
    const peer = openPeer('notes', { url: gate.url, token: 'stale' })
    const failures: unknown[] = []
    peer.connection.onDidFailAuth((failure) => failures.push(failure))
    const error = await peer.connection.whenSynced.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AuthError)
    expect((error as AuthError).failure).toEqual({ reason: 'token expired', status: 401 })
    expect(failures).toEqual([{ reason: 'token expired', status: 401 }])
    expect(peer.connection.authFailure?.reason).toBe('token expired')
    expect(peer.connection.status).toBe('offline')
    const attempts = gate.upgrades
    // Well past several backoff periods (200 ms at most here): no new attempt.
    await new Promise((resolve) => setTimeout(resolve, 800))
    expect(gate.upgrades).toBe(attempts)
    expect(attempts).toBeLessThanOrEqual(2)
  })

  it('connects again after a refusal with a new token', async () => {
    const gate = await openGate({ kind: 'refuse-upgrade', status: 403, reason: 'wrong room' })
    const peer = openPeer('notes', { url: gate.url, token: 'for another room' })
    await peer.connection.whenSynced.catch(() => {})
    expect(peer.connection.authFailure?.status).toBe(403)
    const before = gate.upgrades
    peer.connection.setToken('for this room')
    peer.connection.reconnect()
    expect(peer.connection.authFailure).toBeNull()
    await vi.waitFor(() => expect(gate.upgrades).toBeGreaterThan(before), WAIT)
    expect(peer.connection.provider.url).toContain('token=for%20this%20room')
  })

  it('reports a socket closed with an auth close code and its reason', async () => {
    const gate = await openGate({
      kind: 'close-after-open',
      code: 4403,
      reason: 'read access revoked',
    })
    const peer = openPeer('notes', { url: gate.url, token: 't' })
    const error = await peer.connection.whenSynced.catch((e: unknown) => e)
    expect((error as AuthError).failure).toEqual({ reason: 'read access revoked', closeCode: 4403 })
    const attempts = gate.upgrades
    await new Promise((resolve) => setTimeout(resolve, 800))
    expect(gate.upgrades).toBe(attempts)
  })

  it('keeps retrying a server that closes for other reasons', async () => {
    const gate = await openGate({ kind: 'close-after-open', code: 1011, reason: 'overloaded' })
    const peer = openPeer('notes', { url: gate.url })
    await vi.waitFor(() => expect(gate.upgrades).toBeGreaterThanOrEqual(3), WAIT)
    expect(peer.connection.authFailure).toBeNull()
  })

  it('tells a read-only client its edits were refused, and keeps its connection', async () => {
    const gate = await openGate({
      kind: 'read-only',
      text: 'shared text',
      reason: 'read-only access',
    })
    const peer = openPeer('notes', { url: gate.url })
    await peer.connection.whenSynced
    expect(peer.editor.getText()).toBe('shared text')
    const denied: string[] = []
    peer.connection.onDidDenyUpdate((reason) => denied.push(reason))
    peer.editor.insertText('mine ')
    await vi.waitFor(() => expect(denied).toEqual(['read-only access']), WAIT)
    expect(gate.deniedWrites).toBe(1)
    expect(gate.doc.getText('text').toString()).toBe('shared text')
    expect(peer.connection.status).toBe('synced')
  })
})

describe('renewing a token with @tandem/server', () => {
  const secret = 'the secret of the renewal tests in collab, long'
  /** A Tandem server checking tokens, over a SQLite file of its own, stopped after the test. */
  const startTandem = async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tandem-renewal-'))
    const store = SqliteStore.open({ file: join(dir, 'renewal.sqlite') })
    const tandem = new TandemServer({ store, ...tokenAuth(secret) })
    const port = await tandem.listen(0, '127.0.0.1')
    cleanups.push(async () => {
      await tandem.close()
      await store.close()
      rmSync(dir, { recursive: true, force: true })
    })
    return `ws://127.0.0.1:${port}`
  }
  /** A token for `notes`, expiring `seconds` from now. */
  const token = (seconds: number, sub = 'ada') =>
    signToken({ room: 'notes', role: 'write', sub, exp: Date.now() / 1000 + seconds }, secret)
  /** Waits (at most 15 s) until the clock is past `ms` since the epoch. */
  const waitPast = (ms: number) =>
    vi.waitFor(() => expect(Date.now()).toBeGreaterThan(ms), { timeout: 15_000, interval: 50 })

  it('stays connected past the first expiry once it renewed, and reconnects with the fresh token', async () => {
    const url = await startTandem()
    const ada = openPeer('notes', { url, token: token(1.5) })
    const bob = openPeer('notes', { url, token: token(600, 'bob'), user: BOB })
    await Promise.all([ada.connection.whenSynced, bob.connection.whenSynced])
    const failures: unknown[] = []
    ada.connection.onDidFailAuth((failure) => failures.push(failure))
    const fresh = token(600)
    ada.connection.renewToken(fresh)
    await waitPast(Date.now() + 2_000)
    ada.editor.insertText('after the first expiry')
    await vi.waitFor(() => expect(bob.editor.getText()).toBe('after the first expiry'), WAIT)
    expect(failures).toEqual([])
    expect(ada.statuses).not.toContain('offline')
    // A later connection opens with the fresh token (the first one would be refused now).
    ada.connection.disconnect()
    ada.connection.reconnect()
    await vi.waitFor(() => expect(ada.connection.status).toBe('synced'), WAIT)
    expect(ada.connection.provider.url).toContain(`token=${fresh}`)
    expect(failures).toEqual([])
  })

  it('hands a token renewed while connecting over once the socket opens', async () => {
    const url = await startTandem()
    const ada = openPeer('notes', { url, token: token(1.5), autoConnect: false })
    ada.connection.reconnect()
    expect(ada.connection.status).toBe('connecting')
    ada.connection.renewToken(token(600))
    await ada.connection.whenSynced
    await waitPast(Date.now() + 2_000)
    expect(ada.connection.status).toBe('synced')
    expect(ada.connection.authFailure).toBeNull()
  })

  it('is closed with 4401 "token expired" without a renewal, and reports it', async () => {
    const url = await startTandem()
    const ada = openPeer('notes', { url, token: token(1) })
    await ada.connection.whenSynced
    const failure = await new Promise((resolve) => ada.connection.onDidFailAuth(resolve))
    expect(failure).toEqual({ reason: 'token expired', closeCode: 4401 })
    expect(ada.connection.status).toBe('offline')
  })

  it("reports a renewal the server refuses: another user's token", async () => {
    const url = await startTandem()
    const ada = openPeer('notes', { url, token: token(600) })
    await ada.connection.whenSynced
    const failure = new Promise((resolve) => ada.connection.onDidFailAuth(resolve))
    ada.connection.renewToken(token(600, 'mallory'))
    expect(await failure).toEqual({ reason: 'the token is for another user', closeCode: 4403 })
  })
})

describe('connect options', () => {
  const editor = () => {
    const e = new TextEditor({ buffer: new TextBuffer() })
    cleanups.push(() => e.destroy())
    return e
  }
  const base = { url: 'ws://127.0.0.1:1', room: 'r', user: ADA, WebSocket, autoConnect: false }

  it('rejects bad input with clear errors', () => {
    expect(() => connect(editor(), { ...base, url: 'http://x' })).toThrow(/ws:\/\/ or wss:\/\//)
    expect(() => connect(editor(), { ...base, room: '' })).toThrow(/room/)
    expect(() => connect(editor(), { ...base, user: {} as never })).toThrow(/user/)
    expect(() => connect(editor(), { ...base, token: 5 as never })).toThrow(/token/)
    expect(() => connect(editor(), { ...base, offline: true })).toThrow(/IndexedDB/)
    expect(() => connect(editor(), { ...base, maxBackoffMs: -1 })).toThrow(/maxBackoffMs/)
    expect(() => connect(editor(), { ...base, WebSocket: undefined })).toThrow(/no WebSocket/)
    const connection = connect(editor(), base)
    cleanups.push(() => connection.destroy())
    expect(() => connection.renewToken('')).toThrow(TypeError)
    expect(() => connection.renewToken(5 as never)).toThrow(/renewToken/)
  })

  it('renews the token of later attempts while offline', () => {
    const connection = connect(editor(), { ...base, token: 'old' })
    cleanups.push(() => connection.destroy())
    connection.renewToken('new')
    expect(connection.provider.url).toBe('ws://127.0.0.1:1/r?token=new')
  })

  it('waits for reconnect() without autoConnect, and names the room in the URL path', () => {
    const connection = connect(editor(), { ...base, room: 'a b/c', token: 'x' })
    cleanups.push(() => connection.destroy())
    expect(connection.status).toBe('offline')
    expect(connection.provider.ws).toBeNull()
    expect(connection.provider.url).toBe('ws://127.0.0.1:1/a%20b%2Fc?token=x')
  })

  it('rejects whenSynced when destroyed before syncing', async () => {
    const connection = connect(editor(), base)
    connection.destroy()
    await expect(connection.whenSynced).rejects.toThrow(/destroyed before it synced/)
  })
})
