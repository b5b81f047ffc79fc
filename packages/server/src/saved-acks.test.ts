/**
 * Saved acknowledgements, against what the store holds: a connection that asked is told what
 * is stored only once its store write is done, with the deletions it sent; one saved message
 * covers many updates under load; stock clients that never ask are never sent one and still
 * sync; bad requests harm nothing. Rooms over a real SQLite store under a `HeldStore`, and a
 * real server on loopback for the clients.
 */
import { MessageType, readSavedMessage, type SavedState, savedRequest } from '@tandem/protocol'
import * as decoding from 'lib0/decoding'
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import { updateMessage } from './protocol.js'
import { Room } from './room.js'
import { SqliteStore } from './storage/sqlite-store.js'
import { HeldStore } from './testing/held-store.js'
import { askForDocument, rawConnection, updateOf } from './testing/raw-connection.js'
import { type RecordingPeer, recordingPeer } from './testing/recording-peer.js'
import { useTestServers } from './testing/test-servers.js'

const WAIT = { timeout: 5_000, interval: 5 }

const opened: { room: Room; store: HeldStore }[] = []
afterEach(async () => {
  for (const { room, store } of opened.splice(0)) {
    store.release()
    await room.close()
    await store.close()
  }
})

const openRoom = async () => {
  const store = new HeldStore(SqliteStore.open({ file: ':memory:' }))
  const room = await Room.load('r', store)
  opened.push({ room, store })
  return { room, store }
}

/** The saved messages among `messages`, read. */
const savedIn = (messages: readonly Uint8Array[]): SavedState[] =>
  messages.flatMap((message) => {
    const decoder = decoding.createDecoder(message)
    if (decoding.readVarUint(decoder) !== MessageType.saved) return []
    return [readSavedMessage(decoder)]
  })

const lastSaved = (peer: RecordingPeer): SavedState | undefined => savedIn(peer.received).at(-1)

/** A writer's document whose every edit is one update. */
const typist = (clientID: number) => {
  const doc = new Y.Doc()
  doc.clientID = clientID
  const updates: Uint8Array[] = []
  doc.on('update', (update: Uint8Array) => updates.push(update))
  const text = doc.getText('text')
  return {
    doc,
    text,
    /** Types `chars` at the end; returns the update. */
    type(chars: string): Uint8Array {
      text.insert(text.length, chars)
      return updates.at(-1)!
    },
    /** Deletes `length` characters at `index`; returns the update. */
    delete(index: number, length: number): Uint8Array {
      text.delete(index, length)
      return updates.at(-1)!
    },
  }
}

describe('Room: saved messages', () => {
  it('tells a connection that asks what is stored, at once', async () => {
    const { room } = await openRoom()
    const writer = recordingPeer()
    room.join(writer)
    expect(savedIn(writer.received)).toEqual([])
    room.receive(writer, savedRequest())
    expect(savedIn(writer.received)).toEqual([{ stateVector: new Map(), deletions: new Map() }])
  })

  it('covers an update only once the store has written it', async () => {
    const { room, store } = await openRoom()
    const writer = recordingPeer()
    room.join(writer)
    room.receive(writer, savedRequest())
    const ada = typist(7)
    store.hold()
    room.receive(writer, updateMessage(ada.type('hello')))
    await store.waitForParked(1)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(lastSaved(writer)?.stateVector.get(7) ?? 0).toBe(0)
    store.release()
    await vi.waitFor(() => expect(lastSaved(writer)?.stateVector.get(7)).toBe(5), WAIT)
  })

  it('echoes the deletions of the connection, once stored, and tells no one else', async () => {
    const { room, store } = await openRoom()
    const writer = recordingPeer()
    const other = recordingPeer()
    room.join(writer)
    room.join(other)
    room.receive(writer, savedRequest())
    room.receive(other, savedRequest())
    const ada = typist(7)
    room.receive(writer, updateMessage(ada.type('hello world')))
    await room.flushed()
    const before = other.received.length
    store.hold()
    room.receive(writer, updateMessage(ada.delete(0, 6)))
    await store.waitForParked(1)
    expect(lastSaved(writer)?.deletions).toEqual(new Map())
    store.release()
    await vi.waitFor(
      () => expect(lastSaved(writer)?.deletions).toEqual(new Map([[7, [{ clock: 0, length: 6 }]]])),
      WAIT,
    )
    expect(savedIn(other.received.slice(before))).toEqual([])
  })

  it('acknowledges an update the store already held (a reconnecting client resending)', async () => {
    const { room } = await openRoom()
    const writer = recordingPeer()
    room.join(writer)
    const ada = typist(7)
    ada.type('hello world')
    const deletion = ada.delete(0, 6)
    room.receive(writer, updateMessage(Y.encodeStateAsUpdate(ada.doc)))
    await room.flushed()
    const again = recordingPeer('read')
    room.join(again)
    room.receive(again, savedRequest())
    room.receive(again, updateMessage(deletion))
    expect(lastSaved(again)).toEqual({
      stateVector: new Map([[7, 11]]),
      deletions: new Map([[7, [{ clock: 0, length: 6 }]]]),
    })
  })

  it('sends one saved message for many updates stored together', async () => {
    const { room, store } = await openRoom()
    const writer = recordingPeer()
    room.join(writer)
    room.receive(writer, savedRequest())
    const ada = typist(7)
    store.hold()
    for (let i = 0; i < 50; i++) {
      room.receive(writer, updateMessage(ada.type('x')))
      // Each in its own batch: the appends are on their way one after another.
      await new Promise((resolve) => setImmediate(resolve))
    }
    await store.waitForParked(8)
    store.release()
    await vi.waitFor(() => expect(lastSaved(writer)?.stateVector.get(7)).toBe(50), WAIT)
    // One at asking, one when the first batch landed (none before for a second), one at the end.
    expect(savedIn(writer.received).length).toBeLessThanOrEqual(3)
  })

  it('ignores whatever a saved request carries, and what a read-only peer could not store', async () => {
    const { room } = await openRoom()
    const viewer = recordingPeer('read')
    room.join(viewer)
    room.receive(viewer, Uint8Array.of(MessageType.saved, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f))
    expect(viewer.closes).toEqual([])
    room.receive(viewer, updateMessage(typist(9).type('no')))
    await room.flushed()
    expect(savedIn(viewer.received).every((saved) => !saved.stateVector.has(9))).toBe(true)
  })
})

describe('TandemServer: saved messages on the wire', () => {
  const servers = useTestServers('saved')

  it('are sent only to connections that ask; stock clients sync as before', async () => {
    const { url } = await servers.start()
    const asking = servers.client(url, 'notes')
    const stock = servers.client(url, 'notes')
    // A stock y-websocket client that asks: it logs the messages it does not know, and goes on.
    asking.provider.on('status', ({ status }: { status: string }) => {
      if (status === 'connected') asking.provider.ws?.send(savedRequest())
    })
    const seen = { asking: 0, stock: 0 }
    // y-websocket has its socket hand over messages as ArrayBuffers.
    const count = (
      who: 'asking' | 'stock',
      ws: { on(e: 'message', f: (d: ArrayBuffer) => void): void },
    ) =>
      ws.on('message', (data: ArrayBuffer) => {
        if (new Uint8Array(data)[0] === MessageType.saved) seen[who]++
      })
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      await vi.waitFor(() => expect(asking.provider.ws && stock.provider.ws).toBeTruthy(), WAIT)
      count('asking', asking.provider.ws as never)
      count('stock', stock.provider.ws as never)
      await Promise.all([asking.synced(), stock.synced()])
      asking.text.insert(0, 'from the asking client ')
      stock.text.insert(0, 'from the stock client ')
      await vi.waitFor(() => expect(asking.text.toString()).toBe(stock.text.toString()), WAIT)
      await vi.waitFor(() => expect(asking.text.length).toBe(45), WAIT)
      await vi.waitFor(() => expect(seen.asking).toBeGreaterThan(0), WAIT)
      expect(seen.stock).toBe(0)
    } finally {
      error.mockRestore()
    }
  })

  it('survives bad saved requests and bad messages around them', async () => {
    const { url } = await servers.start()
    const raw = await rawConnection(`${url}/notes`)
    for (const junk of [
      Uint8Array.of(MessageType.saved),
      Uint8Array.of(MessageType.saved, 0x80),
      Uint8Array.of(MessageType.saved, ...new Array(64).fill(0xff)),
    ]) {
      raw.send(junk)
    }
    raw.send(updateOf(typist(3).type('still here')))
    raw.send(askForDocument())
    await vi.waitFor(
      () => expect(savedIn(raw.received).some((s) => s.stateVector.get(3) === 10)).toBe(true),
      WAIT,
    )
    const other = servers.client(url, 'notes')
    await other.synced()
    expect(other.text.toString()).toBe('still here')
  })
})
