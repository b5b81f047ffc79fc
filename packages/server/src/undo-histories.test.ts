/**
 * A room's undo histories over a real SQLite store: cut to the caps, refused when they do not
 * decode, written a moment after they change, bounded per connection, and kept in memory
 * with a store that keeps none.
 */
import { encodeUndoHistory, type UndoHistory } from '@tandem/protocol'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { DocumentStore } from './storage/document-store.js'
import { SqliteStore } from './storage/sqlite-store.js'
import { RoomUndoHistories, UNDO_HISTORY_SAVE_BURST } from './undo-histories.js'

const stores: SqliteStore[] = []
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close()
})
const open = () => {
  const store = SqliteStore.open({ file: ':memory:' })
  stores.push(store)
  return store
}

const history = (steps: number): UndoHistory => ({
  undo: Array.from({ length: steps }, (_, i) => ({
    ids: new Uint8Array([1, i]),
    before: null,
    after: `{"n":${i}}`,
  })),
  redo: [],
})

describe('RoomUndoHistories', () => {
  it('keeps a history cut to the caps, in memory at once and in the store after a moment', async () => {
    const store = open()
    const trimmed: number[] = []
    const histories = new RoomUndoHistories(
      'r',
      store,
      { maxSteps: 2 },
      { undoHistoryTrimmed: (_room, dropped) => trimmed.push(dropped) },
    )
    expect(histories.save('ada', encodeUndoHistory(history(5)))).toBe(true)
    expect(trimmed).toEqual([3])
    const kept = encodeUndoHistory({ undo: history(5).undo.slice(3), redo: [] })
    expect(await histories.lookup('ada')).toEqual(kept)
    expect(await store.loadUndoHistory('r', 'ada')).toBeNull()
    await vi.waitFor(async () => expect(await store.loadUndoHistory('r', 'ada')).toEqual(kept), {
      timeout: 5_000,
    })
    // Emptied: forgotten, in the store too.
    histories.save('ada', encodeUndoHistory(history(0)))
    await histories.close()
    expect(await store.loadUndoHistory('r', 'ada')).toBeNull()
    expect(await new RoomUndoHistories('r', store).lookup('ada')).toBeNull()
  })

  it('throws on a history that does not decode, keeping the one it had', async () => {
    const histories = new RoomUndoHistories('r', open())
    const good = encodeUndoHistory(history(1))
    histories.save('ada', good)
    expect(() => histories.save('ada', new Uint8Array([1, 5]))).toThrow()
    expect(await histories.lookup('ada')).toEqual(good)
    await histories.close()
  })

  it('keeps a burst of saves per connection, then at most a few a second', async () => {
    const histories = new RoomUndoHistories('r', open())
    const connection = {}
    let kept = 0
    for (let i = 0; i < UNDO_HISTORY_SAVE_BURST + 20; i++) {
      if (histories.save(`user-${i}`, encodeUndoHistory(history(1)), connection)) kept++
    }
    expect(kept).toBeGreaterThanOrEqual(UNDO_HISTORY_SAVE_BURST)
    expect(kept).toBeLessThan(UNDO_HISTORY_SAVE_BURST + 5)
    // One user's history waiting to be written may still change.
    expect(histories.save('user-0', encodeUndoHistory(history(2)), connection)).toBe(true)
    await histories.close()
  })

  it('with a store that keeps no histories, keeps them in memory while the room is open', async () => {
    const inner = open()
    const store: DocumentStore = {
      load: (room) => inner.load(room),
      append: (room, update, author) => inner.append(room, update, author),
      compact: (room) => inner.compact(room),
      loadAttribution: (room) => inner.loadAttribution(room),
      saveVersion: (room, version) => inner.saveVersion(room, version),
      listVersions: (room) => inner.listVersions(room),
      loadVersion: (room, id) => inner.loadVersion(room, id),
      deleteVersions: (room, ids) => inner.deleteVersions(room, ids),
      saveSession: (room, user, session) => inner.saveSession(room, user, session),
      loadSession: (room, user) => inner.loadSession(room, user),
      setMeta: (room, key, value) => inner.setMeta(room, key, value),
      getMeta: (room, key) => inner.getMeta(room, key),
      listRooms: () => inner.listRooms(),
      close: () => Promise.resolve(),
    }
    const histories = new RoomUndoHistories('r', store)
    const bytes = encodeUndoHistory(history(3))
    histories.save('ada', bytes)
    await histories.flush()
    expect(await histories.lookup('ada')).toEqual(bytes)
    expect(await inner.loadUndoHistory('r', 'ada')).toBeNull()
    await histories.close()
  })
})
