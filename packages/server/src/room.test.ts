/**
 * `Room` on its own over a real SQLite file: what it promises about storage when it closes.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MessageType } from '@tandem/protocol'
import * as encoding from 'lib0/encoding'
import { afterAll, describe, expect, it } from 'vitest'
import * as awarenessProtocol from 'y-protocols/awareness'
import * as Y from 'yjs'
import { updateMessage } from './protocol.js'
import { CloseCode, MAX_AWARENESS_CLIENTS_PER_CONNECTION, Room } from './room.js'
import { SqliteStore } from './storage/sqlite-store.js'
import { recordingPeer } from './testing/recording-peer.js'

const dir = mkdtempSync(join(tmpdir(), 'tandem-room-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const peer = () => recordingPeer()

describe('Room', () => {
  it('stores every update it received when it closes, even those still queued', async () => {
    const store = SqliteStore.open({ file: join(dir, 'close.sqlite') })
    const room = await Room.load('r', store)
    const writer = peer()
    room.join(writer)
    const source = new Y.Doc()
    const updates: Uint8Array[] = []
    source.on('update', (update: Uint8Array) => updates.push(update))
    for (let i = 0; i < 200; i++) source.getText('text').insert(i, String(i % 10))
    for (const update of updates) room.receive(writer, updateMessage(update))
    // Close at once: the appends are still queued behind each other.
    await room.close()
    const stored = await store.load('r')
    const copy = new Y.Doc()
    for (const update of stored.updates) Y.applyUpdate(copy, update)
    expect(copy.getText('text').toString()).toBe(source.getText('text').toString())
    // Updates that arrived together are stored merged, one per sender and write.
    expect(stored.size.updates).toBeGreaterThan(0)
    expect(stored.size.updates).toBeLessThan(200)
    await store.close()
  })

  it('compacts a long log after loading, once the first answers are out', async () => {
    const store = SqliteStore.open({ file: join(dir, 'compact.sqlite') })
    const source = new Y.Doc()
    const updates: Uint8Array[] = []
    source.on('update', (update: Uint8Array) => updates.push(update))
    for (let i = 0; i < 60; i++) source.getText('text').insert(i, String(i % 10))
    for (const update of updates) await store.append('long', update)
    let compacted: (updates: number) => void = () => {}
    const done = new Promise<number>((resolve) => {
      compacted = resolve
    })
    const room = await Room.load('long', store, {
      compactAfterUpdates: 10,
      events: { compacted: (_, size) => compacted(size.updates) },
    })
    // Shortly after loading, the log is still whole: compaction waits for the answers.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect((await store.load('long')).size.updates).toBe(60)
    expect(await done).toBe(1)
    const copy = new Y.Doc()
    for (const update of (await store.load('long')).updates) Y.applyUpdate(copy, update)
    expect(copy.getText('text').toString()).toBe(source.getText('text').toString())
    await room.close()
    await store.close()
  })

  it('does not compact a room that closed before its compaction was due', async () => {
    const store = SqliteStore.open({ file: join(dir, 'closed.sqlite') })
    const source = new Y.Doc()
    const updates: Uint8Array[] = []
    source.on('update', (update: Uint8Array) => updates.push(update))
    for (let i = 0; i < 30; i++) source.getText('text').insert(i, 'x')
    for (const update of updates) await store.append('gone', update)
    let compactions = 0
    const room = await Room.load('gone', store, {
      compactAfterUpdates: 10,
      events: { compacted: () => compactions++ },
    })
    await room.close()
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(compactions).toBe(0)
    expect((await store.load('gone')).size.updates).toBe(30)
    await store.close()
  })
})

describe('Room awareness', () => {
  /** An awareness update from `count` new clients, each with a small state. */
  const awarenessOf = (count: number, firstId: number) => {
    const doc = new Y.Doc()
    const awareness = new awarenessProtocol.Awareness(doc)
    const ids: number[] = []
    for (let i = 0; i < count; i++) {
      const id = firstId + i
      awareness.states.set(id, { user: { name: `tab ${i}` } })
      awareness.meta.set(id, { clock: 1, lastUpdated: Date.now() })
      ids.push(id)
    }
    const update = awarenessProtocol.encodeAwarenessUpdate(awareness, ids)
    awareness.destroy()
    const encoder = encoding.createEncoder()
    encoding.writeVarUint(encoder, MessageType.awareness)
    encoding.writeVarUint8Array(encoder, update)
    return encoding.toUint8Array(encoder)
  }

  it('closes a connection that speaks for too many awareness clients, and drops their states', async () => {
    const store = SqliteStore.open({ file: join(dir, 'awareness.sqlite') })
    const room = await Room.load('r', store)
    const greedy = peer()
    room.join(greedy)
    room.receive(greedy, awarenessOf(MAX_AWARENESS_CLIENTS_PER_CONNECTION, 1000))
    expect(greedy.closes).toEqual([])
    expect(room.awareness.getStates().size).toBe(MAX_AWARENESS_CLIENTS_PER_CONNECTION)
    // Adding one more client closes it, and its states go at once.
    room.receive(greedy, awarenessOf(1, 9000))
    expect(greedy.closes).toEqual([CloseCode.policy])
    expect(room.awareness.getStates().size).toBe(0)
    // One update naming too many at once is refused before anything of it is applied.
    const greedier = peer()
    room.join(greedier)
    room.receive(greedier, awarenessOf(MAX_AWARENESS_CLIENTS_PER_CONNECTION + 1, 5000))
    expect(greedier.closes).toEqual([CloseCode.policy])
    expect(room.awareness.getStates().size).toBe(0)
    await room.close()
    await store.close()
  })
})
