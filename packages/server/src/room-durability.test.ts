/**
 * What a `Room` sends, against what its store holds: with appends held in the store, nothing
 * the store does not have yet reaches a connection, in relays or in answers to sync requests;
 * updates Yjs holds pending are never sent; a listener that throws is not a storage failure.
 * A real SQLite store under a `HeldStore`, and recording peers.
 */

import { MessageType } from '@tandem/protocol'
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as syncProtocol from 'y-protocols/sync'
import * as Y from 'yjs'
import { updateMessage } from './protocol.js'
import { CloseCode, Room, type RoomEvents, type RoomOptions } from './room.js'
import { type Relay, RelayKind } from './scale/relay.js'
import { SqliteStore } from './storage/sqlite-store.js'
import { HeldStore } from './testing/held-store.js'
import { type RecordingPeer, recordingPeer } from './testing/recording-peer.js'

const WAIT = { timeout: 5_000, interval: 5 }

const opened: { room: Room; store: HeldStore }[] = []
afterEach(async () => {
  for (const { room, store } of opened.splice(0)) {
    store.release()
    await room.close()
    await store.close()
  }
})

const openRoom = async (options: RoomOptions = {}) => {
  const store = new HeldStore(SqliteStore.open({ file: ':memory:' }))
  const room = await Room.load('r', store, options)
  opened.push({ room, store })
  return { room, store }
}

/** A writer's document: every edit is one update, kept in order. */
const typist = (clientID: number) => {
  const doc = new Y.Doc()
  doc.clientID = clientID
  const updates: Uint8Array[] = []
  doc.on('update', (update: Uint8Array) => updates.push(update))
  const text = doc.getText('text')
  return {
    doc,
    /** Types `chars` at the end; returns the update. */
    type(chars: string): Uint8Array {
      text.insert(text.length, chars)
      return updates.at(-1)!
    },
  }
}

/** Sync step 1 of an empty document: "send me everything". */
const askForAll = (): Uint8Array => {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, MessageType.sync)
  syncProtocol.writeSyncStep1(encoder, new Y.Doc())
  return encoding.toUint8Array(encoder)
}

/** The document a peer has from what it was sent (sync step 2 answers and updates). */
const docOf = (peer: RecordingPeer): Y.Doc => {
  const doc = new Y.Doc()
  for (const message of peer.received) {
    const decoder = decoding.createDecoder(message)
    if (decoding.readVarUint(decoder) !== MessageType.sync) continue
    const kind = decoding.readVarUint(decoder)
    if (kind === syncProtocol.messageYjsSyncStep1) continue
    Y.applyUpdate(doc, decoding.readVarUint8Array(decoder))
  }
  return doc
}

const textOf = (peer: RecordingPeer): string => docOf(peer).getText('text').toString()

/** The text the store holds for room `r`. */
const storedText = async (store: HeldStore): Promise<string> => {
  const doc = new Y.Doc()
  for (const update of (await store.load('r')).updates) Y.applyUpdate(doc, update)
  return doc.getText('text').toString()
}

/** Whether `peer` was ever sent anything Yjs could not integrate (a pending struct or deletion). */
const gotPending = (peer: RecordingPeer): boolean => {
  const doc = docOf(peer)
  return doc.store.pendingStructs !== null || doc.store.pendingDs !== null
}

describe('Room: nothing leaves before the store has it', () => {
  it('answers a sync request with what is stored, not with an update whose append is held', async () => {
    const { room, store } = await openRoom()
    const writer = recordingPeer()
    const viewer = recordingPeer('read')
    room.join(writer)
    const ada = typist(1)
    store.hold()
    room.receive(writer, updateMessage(ada.type('held back')))
    await store.waitForParked(1)
    room.join(viewer)
    room.receive(viewer, askForAll())
    expect(viewer.received.length).toBeGreaterThan(1)
    expect(textOf(viewer)).toBe('')
    store.release()
    await vi.waitFor(() => expect(textOf(viewer)).toBe('held back'), WAIT)
  })

  it('leaves out a later update while only the earlier one is stored (the crash window)', async () => {
    const { room, store } = await openRoom()
    const writer = recordingPeer()
    room.join(writer)
    const ada = typist(1)
    store.hold()
    room.receive(writer, updateMessage(ada.type('one ')))
    await store.waitForParked(1)
    const early = recordingPeer('read')
    room.join(early)
    room.receive(early, askForAll())
    room.receive(writer, updateMessage(ada.type('two')))
    // The first append goes through; the second waits in the store.
    await store.waitForParked(2)
    store.release(1)
    await vi.waitFor(() => expect(textOf(early)).toBe('one '), WAIT)
    expect(store.parkedCount).toBe(1)
    const late = recordingPeer('read')
    room.join(late)
    room.receive(late, askForAll())
    expect(await storedText(store)).toBe('one ')
    expect(textOf(late)).toBe('one ')
    store.release()
    await vi.waitFor(() => expect(textOf(early)).toBe('one two'), WAIT)
    await vi.waitFor(() => expect(textOf(late)).toBe('one two'), WAIT)
    expect(await storedText(store)).toBe('one two')
  })

  it('never sends updates Yjs holds pending, and sends them once their base arrives', async () => {
    const { room, store } = await openRoom()
    const writer = recordingPeer()
    const watcher = recordingPeer('read')
    room.join(writer)
    room.join(watcher)
    const ada = typist(1)
    const base = ada.type('base ')
    const onTop = ada.type('on top')
    // The second update arrives first: it builds on items the room has never seen.
    room.receive(writer, updateMessage(onTop))
    await room.flushed()
    expect(room.doc.store.pendingStructs).not.toBeNull()
    const newcomer = recordingPeer('read')
    room.join(newcomer)
    room.receive(newcomer, askForAll())
    expect(gotPending(newcomer)).toBe(false)
    expect(gotPending(watcher)).toBe(false)
    expect(textOf(newcomer)).toBe('')
    room.receive(writer, updateMessage(base))
    await room.flushed()
    expect(textOf(watcher)).toBe('base on top')
    const later = recordingPeer('read')
    room.join(later)
    room.receive(later, askForAll())
    expect(textOf(later)).toBe('base on top')
    expect(await storedText(store)).toBe('base on top')
  })

  it('stores nothing for an update the document already holds', async () => {
    const { room, store } = await openRoom()
    const writer = recordingPeer()
    room.join(writer)
    const ada = typist(1)
    const update = ada.type('once')
    room.receive(writer, updateMessage(update))
    await room.flushed()
    room.receive(writer, updateMessage(update))
    room.receive(writer, updateMessage(Y.encodeStateAsUpdate(ada.doc)))
    await room.flushed()
    expect((await store.load('r')).size.updates).toBe(1)
  })
})

describe('Room: read-only connections', () => {
  it('refuses what would change the document, and reports every update, held or not', async () => {
    const reports: boolean[] = []
    const { room } = await openRoom({
      events: { readOnlyUpdate: (_room, _peer, refused) => reports.push(refused) },
    })
    const writer = recordingPeer()
    const reader = recordingPeer('read')
    room.join(writer)
    room.join(reader)
    const ada = typist(1)
    room.receive(writer, updateMessage(ada.type('shared')))
    await room.flushed()
    const seen = Y.encodeStateAsUpdate(ada.doc)
    room.receive(reader, updateMessage(seen))
    room.receive(reader, updateMessage(seen))
    room.receive(reader, updateMessage(typist(2).type('forged')))
    expect(reports).toEqual([false, false, true])
    const denied = reader.received.filter((m) => m[0] === MessageType.auth)
    expect(denied).toHaveLength(1)
    await room.flushed()
    expect(room.doc.getText('text').toString()).toBe('shared')
  })
})

describe('Room: storage failure and listener failure are different things', () => {
  it('goes on storing and relaying when a listener of stored updates throws', async () => {
    const failures: unknown[] = []
    const storageFailures: unknown[] = []
    const events: RoomEvents = {
      stored: () => {
        throw new Error('a metrics listener broke')
      },
      listenerFailed: (_room, error) => failures.push(error),
      storageFailed: (_room, error) => storageFailures.push(error),
    }
    const { room, store } = await openRoom({ events })
    const [writer, reader] = [recordingPeer(), recordingPeer('read')]
    room.join(writer)
    room.join(reader)
    const ada = typist(1)
    room.receive(writer, updateMessage(ada.type('first ')))
    await room.flushed()
    room.receive(writer, updateMessage(ada.type('second')))
    await room.flushed()
    expect(textOf(reader)).toBe('first second')
    expect(await storedText(store)).toBe('first second')
    expect(failures.length).toBeGreaterThan(0)
    expect(storageFailures).toEqual([])
    expect(reader.closes).toEqual([])
  })

  it('goes on when publishing to other instances throws', async () => {
    const relay: Relay = {
      instance: 'here',
      description: 'a relay that cannot publish',
      subscribe: async () => ({ unsubscribe() {} }),
      publish: (_room, kind) => {
        if (kind === RelayKind.update) throw new Error('publish failed')
      },
      close: async () => {},
    }
    const failures: unknown[] = []
    const { room, store } = await openRoom({
      relay,
      events: { listenerFailed: (_room, error) => failures.push(error) },
    })
    const [writer, reader] = [recordingPeer(), recordingPeer('read')]
    room.join(writer)
    room.join(reader)
    const ada = typist(1)
    for (const chars of ['a', 'b', 'c']) {
      room.receive(writer, updateMessage(ada.type(chars)))
      await room.flushed()
    }
    expect(textOf(reader)).toBe('abc')
    expect(await storedText(store)).toBe('abc')
    expect(failures).toHaveLength(3)
    expect(writer.closes).toEqual([])
  })

  it('closes every connection with 1011 when an append fails, and relays nothing of it', async () => {
    const inner = SqliteStore.open({ file: ':memory:' })
    const failing = Object.assign(Object.create(inner) as SqliteStore, {
      append: async () => {
        throw new Error('disk full')
      },
    })
    const storageFailures: unknown[] = []
    const room = await Room.load('r', failing, {
      events: { storageFailed: (_room, error) => storageFailures.push(error) },
    })
    const [writer, reader] = [recordingPeer(), recordingPeer('read')]
    room.join(writer)
    room.join(reader)
    room.receive(writer, updateMessage(typist(1).type('lost?')))
    await room.flushed()
    expect(storageFailures).toHaveLength(1)
    expect(writer.closes).toEqual([CloseCode.storageFailed])
    expect(reader.closes).toEqual([CloseCode.storageFailed])
    expect(textOf(reader)).toBe('')
    await room.close()
    await inner.close()
  })

  it('counts a store that does not keep up as failed, once too much waits for it', async () => {
    const storageFailures: unknown[] = []
    const { room, store } = await openRoom({
      maxUnstoredBytes: 100_000,
      events: { storageFailed: (_room, error) => storageFailures.push(error) },
    })
    const [writer, reader] = [recordingPeer(), recordingPeer('read')]
    room.join(writer)
    room.join(reader)
    store.hold()
    const ada = typist(1)
    for (let i = 0; i < 20; i++) room.receive(writer, updateMessage(ada.type('x'.repeat(10_000))))
    expect(storageFailures.map(String)).toEqual([
      expect.stringMatching(
        /^StorageError: the store is not keeping up: \d+ bytes of room "r" wait for it \(limit 100000\)$/,
      ),
    ])
    expect(writer.closes).toEqual([CloseCode.storageFailed])
    expect(reader.closes).toEqual([CloseCode.storageFailed])
  })
})
