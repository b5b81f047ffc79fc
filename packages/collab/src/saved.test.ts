/**
 * `connection.saved` against a real `@tandem/server` on loopback over a real SQLite store,
 * whose appends the tests hold: what is typed stays unsaved for as long as the store has not
 * written it, deletions included, and offline; the same over PostgreSQL with two instances
 * sharing rooms through Redis; a malformed saved message changes nothing; a server that sends
 * no saved messages never makes edits look saved.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TextBuffer } from '@tandem/buffer'
import { TextEditor } from '@tandem/editor'
import { MessageType, savedMessage } from '@tandem/protocol'
import { PostgresStore, RedisRelay, SqliteStore, TandemServer } from '@tandem/server'
import * as encoding from 'lib0/encoding'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import * as syncProtocol from 'y-protocols/sync'
import * as Y from 'yjs'
import { HeldStore } from '../../server/src/testing/held-store.js'
import {
  dropSchema,
  POSTGRES_URL,
  REDIS_URL,
  scaleOutServices,
  uniqueNames,
} from '../../server/src/testing/services.js'
import { type CollabConnection, type ConnectOptions, connect } from './connect.js'
import { YWebsocketServer } from './testing/y-websocket-server.js'
import type { SavedStatus } from './unsaved-updates.js'

const WAIT = { timeout: 10_000, interval: 10 }
const dir = mkdtempSync(join(tmpdir(), 'tandem-saved-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

let files = 0

/** A Tandem server over a SQLite file under a `HeldStore`. */
const startServer = async () => {
  const sqlite = SqliteStore.open({ file: join(dir, `saved-${++files}.sqlite`) })
  const store = new HeldStore(sqlite)
  const server = new TandemServer({ store })
  const port = await server.listen(0, '127.0.0.1')
  cleanups.push(async () => {
    store.release()
    await server.close()
    await store.close()
  })
  return { store, url: `ws://127.0.0.1:${port}` }
}

interface Writer {
  readonly editor: TextEditor
  readonly connection: CollabConnection
  /** Every state `onDidChangeSaved` told. */
  readonly told: SavedStatus[]
}

const openWriter = (url: string, options: Partial<ConnectOptions> = {}): Writer => {
  const editor = new TextEditor({ buffer: new TextBuffer() })
  const connection = connect(editor, {
    url,
    room: 'notes',
    user: { name: 'Ada', color: '#dd3333' },
    WebSocket,
    crossTab: false,
    maxBackoffMs: 100,
    throttleMs: 0,
    ...options,
  })
  const told: SavedStatus[] = []
  connection.onDidChangeSaved((state) => told.push(state))
  cleanups.push(() => {
    connection.destroy()
    editor.destroy()
  })
  return { editor, connection, told }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const savedState = ({ connection }: Writer) => ({
  saved: connection.saved,
  unsavedUpdates: connection.unsavedUpdates,
})

describe('connection.saved', () => {
  it('turns true only once the store has written what was typed', async () => {
    const { store, url } = await startServer()
    const ada = openWriter(url)
    await ada.connection.whenSynced
    expect(savedState(ada)).toEqual({ saved: true, unsavedUpdates: 0 })

    store.hold()
    ada.editor.insertText('hello')
    ada.editor.insertText(' world')
    expect(savedState(ada)).toEqual({ saved: false, unsavedUpdates: 2 })
    await store.waitForParked(1)
    // Sent, received, and on its way to disk: still not saved.
    await pause(300)
    expect(savedState(ada)).toEqual({ saved: false, unsavedUpdates: 2 })
    expect(ada.told.at(-1)).toEqual({ saved: false, unsavedUpdates: 2 })

    store.release()
    await vi.waitFor(() => expect(ada.connection.saved).toBe(true), WAIT)
    expect(ada.connection.unsavedUpdates).toBe(0)
    expect(ada.told.at(-1)).toEqual({ saved: true, unsavedUpdates: 0 })
    const stored = new Y.Doc()
    for (const update of (await store.load('notes')).updates) Y.applyUpdate(stored, update)
    expect(stored.getText('text').toString()).toBe('hello world')
  })

  it('keeps a deletion unsaved until it is stored, though it adds no item', async () => {
    const { store, url } = await startServer()
    const ada = openWriter(url)
    await ada.connection.whenSynced
    ada.editor.insertText('keep this, drop this')
    await vi.waitFor(() => expect(ada.connection.saved).toBe(true), WAIT)

    store.hold()
    ada.editor.setSelectedBufferRange([
      [0, 9],
      [0, 20],
    ])
    ada.editor.delete()
    expect(ada.editor.getText()).toBe('keep this')
    expect(savedState(ada)).toEqual({ saved: false, unsavedUpdates: 1 })
    await store.waitForParked(1)
    // Connecting again brings a saved message at once, whose state vector covers every item
    // this client made: it must not count as covering the deletion.
    ada.connection.disconnect()
    ada.connection.reconnect()
    await vi.waitFor(() => expect(ada.connection.status).toBe('synced'), WAIT)
    await store.waitForParked(2)
    await pause(300)
    expect(savedState(ada)).toEqual({ saved: false, unsavedUpdates: 1 })
    store.release()
    await vi.waitFor(() => expect(ada.connection.saved).toBe(true), WAIT)
  })

  it('counts every update of a long burst, and saves them all once stored', async () => {
    const { store, url } = await startServer()
    const ada = openWriter(url)
    await ada.connection.whenSynced
    store.hold()
    for (let i = 0; i < 600; i++) ada.editor.insertText(i % 10 === 9 ? '\n' : 'x')
    expect(savedState(ada)).toEqual({ saved: false, unsavedUpdates: 600 })
    await store.waitForParked(1)
    await pause(200)
    expect(ada.connection.saved).toBe(false)
    store.release()
    await vi.waitFor(
      () => expect(savedState(ada)).toEqual({ saved: true, unsavedUpdates: 0 }),
      WAIT,
    )
  })

  it('is false for edits made offline, and true once a server has stored them', async () => {
    const { store, url } = await startServer()
    const ada = openWriter(url)
    await ada.connection.whenSynced
    ada.connection.disconnect()
    ada.editor.insertText('typed offline')
    ada.editor.backspace()
    await pause(200)
    expect(savedState(ada)).toEqual({ saved: false, unsavedUpdates: 2 })

    store.hold()
    ada.connection.reconnect()
    await ada.connection.whenSynced
    await vi.waitFor(() => expect(ada.connection.status).toBe('synced'), WAIT)
    await store.waitForParked(1)
    await pause(200)
    expect(ada.connection.saved).toBe(false)
    store.release()
    await vi.waitFor(
      () => expect(savedState(ada)).toEqual({ saved: true, unsavedUpdates: 0 }),
      WAIT,
    )
  })

  it('counts what another peer typed as nobody here’s to save', async () => {
    const { url } = await startServer()
    const ada = openWriter(url)
    const bob = openWriter(url)
    await Promise.all([ada.connection.whenSynced, bob.connection.whenSynced])
    ada.editor.insertText('from Ada')
    await vi.waitFor(() => expect(bob.editor.getText()).toBe('from Ada'), WAIT)
    expect(bob.connection.unsavedUpdates).toBe(0)
    await vi.waitFor(() => expect(ada.connection.saved).toBe(true), WAIT)
  })

  it('never turns true against a server that sends no saved messages', async () => {
    const stock = await YWebsocketServer.start()
    cleanups.push(() => stock.stop())
    const ada = openWriter(stock.url)
    await ada.connection.whenSynced
    ada.editor.insertText('the stock server relays this')
    const bob = openWriter(stock.url)
    await vi.waitFor(() => expect(bob.editor.getText()).toBe('the stock server relays this'), WAIT)
    expect(savedState(ada)).toEqual({ saved: false, unsavedUpdates: 1 })
  })
})

describe('a malformed saved message', () => {
  it('changes nothing, and a good one after it is taken', async () => {
    // A server that syncs by hand, and sends a saved message when the test says.
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' })
    cleanups.push(() => new Promise((resolve) => wss.close(resolve)))
    await new Promise((resolve) => wss.once('listening', resolve))
    const sockets: WebSocket[] = []
    const serverDoc = new Y.Doc()
    wss.on('connection', (ws) => {
      sockets.push(ws)
      ws.on('message', (data: Buffer) => {
        const bytes = new Uint8Array(data)
        if (bytes[0] !== MessageType.sync) return
        const reply = encoding.createEncoder()
        encoding.writeVarUint(reply, MessageType.sync)
        const decoder = { arr: bytes, pos: 1 }
        syncProtocol.readSyncMessage(decoder, reply, serverDoc, null)
        if (encoding.length(reply) > 1) ws.send(encoding.toUint8Array(reply))
      })
      const step1 = encoding.createEncoder()
      encoding.writeVarUint(step1, MessageType.sync)
      syncProtocol.writeSyncStep1(step1, serverDoc)
      ws.send(encoding.toUint8Array(step1))
    })
    const { port } = wss.address() as { port: number }
    const ada = openWriter(`ws://127.0.0.1:${port}`)
    await ada.connection.whenSynced
    ada.editor.insertText('abc')
    await vi.waitFor(() => expect(serverDoc.getText('text').toString()).toBe('abc'), WAIT)

    const everything = Y.encodeStateVector(serverDoc)
    for (const junk of [
      [MessageType.saved],
      [MessageType.saved, 0x80],
      [MessageType.saved, 3, 1, 0xff, 0xff],
      [MessageType.saved, 200, 1, 2],
      // A good state vector, deletions cut short.
      [...savedMessage(everything).subarray(0, -1), 1, 5],
    ]) {
      sockets[0]!.send(Uint8Array.from(junk))
    }
    await pause(200)
    expect(savedState(ada)).toEqual({ saved: false, unsavedUpdates: 1 })
    expect(ada.connection.status).toBe('synced')

    sockets[0]!.send(savedMessage(everything))
    await vi.waitFor(() => expect(ada.connection.saved).toBe(true), WAIT)
  })
})

const skipScaleOut = await scaleOutServices('the saved scale-out tests')

describe.skipIf(skipScaleOut !== null)('connection.saved over PostgreSQL and Redis', () => {
  const { schema, prefix } = uniqueNames('saved')
  afterAll(() => dropSchema(schema))

  /** One server instance: its own store (appends held on demand) and relay. */
  const instance = async () => {
    const store = new HeldStore(
      await PostgresStore.open({ connectionString: POSTGRES_URL, schema }),
    )
    const relay = await RedisRelay.connect({ url: REDIS_URL, prefix })
    const server = new TandemServer({ store, relay })
    const port = await server.listen(0, '127.0.0.1')
    cleanups.push(async () => {
      store.release()
      await server.close()
      await relay.close()
      await store.close()
    })
    return { store, url: `ws://127.0.0.1:${port}` }
  }

  it('tells each writer when its own instance has stored its edits', async () => {
    const a = await instance()
    const b = await instance()
    const ada = openWriter(a.url)
    const bob = openWriter(b.url, { user: { name: 'Bob', color: '#3333dd' } })
    await Promise.all([ada.connection.whenSynced, bob.connection.whenSynced])

    a.store.hold()
    ada.editor.insertText('Ada, held ')
    await a.store.waitForParked(1)
    bob.editor.insertText('Bob, stored ')
    await vi.waitFor(() => expect(bob.connection.saved).toBe(true), WAIT)
    await vi.waitFor(() => expect(ada.editor.getText()).toContain('Bob, stored '), WAIT)
    await pause(200)
    expect(savedState(ada)).toEqual({ saved: false, unsavedUpdates: 1 })
    expect(bob.editor.getText()).not.toContain('Ada')

    a.store.release()
    await vi.waitFor(() => expect(ada.connection.saved).toBe(true), WAIT)
    await vi.waitFor(() => expect(bob.editor.getText()).toBe(ada.editor.getText()), WAIT)
    const stored = new Y.Doc()
    for (const update of (await b.store.load('notes')).updates) Y.applyUpdate(stored, update)
    expect(stored.getText('text').toString()).toBe(ada.editor.getText())
  })
})
