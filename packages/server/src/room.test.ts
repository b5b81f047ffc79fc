/**
 * `Room` on its own over a real SQLite file: what it promises about storage when it closes.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { updateMessage } from './protocol.js'
import { type Peer, Room } from './room.js'
import { SqliteStore } from './storage/sqlite-store.js'

const dir = mkdtempSync(join(tmpdir(), 'tandem-room-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A connection that keeps what it is sent. */
const peer = (): Peer & { received: Uint8Array[] } => {
  const received: Uint8Array[] = []
  return {
    role: 'write',
    awarenessClients: new Set(),
    received,
    send: (m) => received.push(m),
    close() {},
  }
}

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
    expect(stored.size.updates).toBe(200)
    await store.close()
  })
})
