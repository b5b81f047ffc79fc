/**
 * The behaviour every `DocumentStore` must have, as a test suite each implementation runs
 * against its real backend.
 */
import { afterEach, describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import type { Attribution } from '../history/attribution.js'
import { authorsOfText } from '../history/text-authors.js'
import { type DocumentStore, MAX_PROGRAM_CHANGES_PER_ROOM } from '../storage/document-store.js'

/**
 * How the contract opens a store: `fresh` empties the backend first; without it, reopens.
 * `maxSessionsPerRoom`, when given, is the store's cap on sessions kept per room.
 */
export type OpenStore = (options: {
  fresh: boolean
  maxSessionsPerRoom?: number
}) => Promise<DocumentStore>

/** The text of a room rebuilt from `updates`. */
const textOf = (updates: readonly Uint8Array[]): string => {
  const doc = new Y.Doc()
  for (const update of updates) Y.applyUpdate(doc, update)
  return doc.getText('text').toString()
}

/** A writer: a document whose every edit gives one update, as a client's keystrokes do. */
const writer = () => {
  const doc = new Y.Doc()
  const updates: Uint8Array[] = []
  doc.on('update', (update: Uint8Array) => updates.push(update))
  const text = doc.getText('text')
  return {
    type(at: number, chars: string): Uint8Array[] {
      const start = updates.length
      for (const [i, char] of [...chars].entries()) text.insert(at + i, char)
      return updates.slice(start)
    },
    text: () => text.toString(),
  }
}

/**
 * Declares the contract's tests for one implementation.
 *
 * @example describeDocumentStore('SqliteStore', ({ fresh }) => openSqlite(fresh))
 */
export const describeDocumentStore = (name: string, open: OpenStore): void => {
  describe(`${name}: the DocumentStore contract`, () => {
    const opened: DocumentStore[] = []
    const openStore = async (fresh: boolean, maxSessionsPerRoom?: number) => {
      const store = await open({ fresh, maxSessionsPerRoom })
      opened.push(store)
      return store
    }
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close().catch(() => {})
    })

    it('has nothing for a room never written', async () => {
      const store = await openStore(true)
      expect(await store.load('nobody')).toEqual({ updates: [], size: { updates: 0, bytes: 0 } })
      expect(await store.listRooms()).toEqual([])
    })

    it('gives back appended updates in order, per room, with the log size', async () => {
      const store = await openStore(true)
      const a = writer()
      const updates = a.type(0, 'hello')
      let size = { updates: 0, bytes: 0 }
      for (const update of updates) size = await store.append('a', update)
      expect(size).toEqual({
        updates: 5,
        bytes: updates.reduce((sum, update) => sum + update.length, 0),
      })
      await store.append('b', writer().type(0, 'other')[0]!)
      const loaded = await store.load('a')
      expect(loaded.updates.map((u) => [...u])).toEqual(updates.map((u) => [...u]))
      expect(loaded.size).toEqual(size)
      expect(textOf(loaded.updates)).toBe('hello')
      expect(await store.listRooms()).toEqual(['a', 'b'])
    })

    it('keeps every update through a reopen', async () => {
      const store = await openStore(true)
      const a = writer()
      for (const update of a.type(0, 'durable')) await store.append('room/with spaces', update)
      await store.close()
      const again = await openStore(false)
      expect(textOf((await again.load('room/with spaces')).updates)).toBe('durable')
    })

    it('takes concurrent appends to one room without losing any', async () => {
      const store = await openStore(true)
      const writers = Array.from({ length: 4 }, () => writer())
      const all = writers.flatMap((w, i) => w.type(0, `w${i}-abcdefghij`))
      await Promise.all(all.map((update) => store.append('busy', update)))
      const loaded = await store.load('busy')
      expect(loaded.size.updates).toBe(all.length)
      const expected = new Y.Doc()
      for (const update of all) Y.applyUpdate(expected, update)
      expect(textOf(loaded.updates)).toBe(expected.getText('text').toString())
    })

    it('compacts the log into one update with the same document, keeping later appends', async () => {
      const store = await openStore(true)
      const a = writer()
      for (const update of a.type(0, 'compact me')) await store.append('c', update)
      const late = a.type(10, '!')
      const [compacted] = await Promise.all([
        store.compact('c'),
        ...late.map((update) => store.append('c', update)),
      ])
      expect(compacted.updates).toBeLessThanOrEqual(1 + late.length)
      const loaded = await store.load('c')
      expect(textOf(loaded.updates)).toBe('compact me!')
      const final = await store.compact('c')
      expect(final.updates).toBe(1)
      expect(final.bytes).toBe((await store.load('c')).updates[0]!.length)
      const reopened = await (async () => {
        await store.close()
        return openStore(false)
      })()
      const after = await reopened.load('c')
      expect(after.updates).toHaveLength(1)
      expect(textOf(after.updates)).toBe('compact me!')
      expect(await reopened.compact('nothing here')).toEqual({ updates: 0, bytes: 0 })
    })

    it('compacts a long history of two writers, deletions included, into the same text', async () => {
      const store = await openStore(true)
      const docs = [new Y.Doc(), new Y.Doc()]
      const log: Uint8Array[] = []
      for (const doc of docs) {
        doc.on('update', (update: Uint8Array, origin: unknown) => {
          if (origin === 'peer') return
          log.push(update)
          for (const other of docs) if (other !== doc) Y.applyUpdate(other, update, 'peer')
        })
      }
      let seed = 7
      const random = (below: number) => {
        seed = (seed * 48271) % 2147483647
        return seed % below
      }
      for (let i = 0; i < 3_000; i++) {
        const text = docs[i % 2]!.getText('text')
        if (text.length > 20 && random(4) === 0) text.delete(random(text.length - 1), 1)
        else text.insert(random(text.length + 1), 'tandem'[i % 6]!)
      }
      for (let i = 0; i < log.length; i += 500) {
        await Promise.all(log.slice(i, i + 500).map((update) => store.append('long', update)))
      }
      const compacted = await store.compact('long')
      expect(compacted.updates).toBe(1)
      const loaded = await store.load('long')
      expect(loaded.updates).toHaveLength(1)
      expect(textOf(loaded.updates)).toBe(docs[0]!.getText('text').toString())
      expect(textOf(loaded.updates)).toBe(textOf(log))
    })

    it('keeps who sent each update and who accepted it, through compaction and a reopen', async () => {
      let store = await openStore(true)
      const ada = writer()
      const bob = writer()
      const bot = writer()
      const doc = new Y.Doc()
      const time = Date.UTC(2026, 10, 27, 10, 30)
      const append = async (updates: Uint8Array[], user: string, acceptedBy?: string) => {
        for (const update of updates) {
          Y.applyUpdate(doc, update)
          await store.append('notes', update, { user, time, acceptedBy })
        }
      }
      await append(ada.type(0, 'aaaa'), 'ada')
      await append(bob.type(0, 'BBB'), 'bob')
      // A program's proposal bob accepted.
      await append(bot.type(0, 'P'), 'bot', 'bob')
      // An update stored without an author (as from an older server) has none.
      const anonymous = writer().type(0, 'z')
      for (const update of anonymous) {
        Y.applyUpdate(doc, update)
        await store.append('notes', update)
      }
      const text = doc.getText('text')
      const authorsIn = (attribution: Attribution) =>
        authorsOfText(text, attribution, 0, text.length).map(
          ({ from, to, user, acceptedBy }) =>
            `${text.toString().slice(from, to)}:${user}${acceptedBy === null ? '' : `+${acceptedBy}`}`,
        )
      const expected = authorsIn(await store.loadAttribution('notes'))
      expect(expected.sort()).toEqual(['BBB:bob', 'P:bot+bob', 'aaaa:ada', 'z:null'])
      await store.compact('notes')
      expect(authorsIn(await store.loadAttribution('notes')).sort()).toEqual(expected)
      // After the compaction, new appends are attributed beside the compacted ones.
      await append(ada.type(4, 'cc'), 'ada')
      store = await openStore(false)
      const after = authorsIn(await store.loadAttribution('notes')).join(' ')
      expect(after).toContain('aaaacc:ada')
      expect(after).toContain('BBB:bob')
      expect(after).toContain('P:bot+bob')
      expect((await store.loadAttribution('other')).runCount).toBe(0)
    })

    it('refuses an unusable author with a TypeError and stores nothing', async () => {
      const store = await openStore(true)
      const update = writer().type(0, 'x')[0]!
      for (const author of [
        { user: '', time: 0 },
        { user: 'nul\0', time: 0 },
        { user: 'x'.repeat(2000), time: 0 },
        { user: 'ada', time: -1 },
        { user: 'ada', time: 1.5 },
        { user: 'ada', time: 0, acceptedBy: '' },
        { user: 'ada', time: 0, acceptedBy: 'nul\0' },
      ]) {
        await expect(store.append('r', update, author), JSON.stringify(author)).rejects.toThrow(
          TypeError,
        )
      }
      expect((await store.load('r')).updates).toEqual([])
    })

    it('keeps versions per room, lists them oldest first and deletes them by id', async () => {
      let store = await openStore(true)
      const a = writer()
      const doc = new Y.Doc()
      for (const update of a.type(0, 'first')) Y.applyUpdate(doc, update)
      const state = Y.encodeStateAsUpdate(doc)
      const first = await store.saveVersion('r', {
        kind: 'auto',
        name: null,
        time: 1_000,
        authors: ['ada'],
        length: 5,
        state,
      })
      const second = await store.saveVersion('r', {
        kind: 'named',
        name: 'Draft \u6587',
        time: 2_000,
        authors: ['ada', 'bob'],
        length: 5,
        state,
      })
      await store.saveVersion('other', { ...second, name: 'elsewhere', state })
      expect(first).toMatchObject({ kind: 'auto', name: null, time: 1_000, bytes: state.length })
      expect(first.id).not.toBe(second.id)
      store = await openStore(false)
      const listed = await store.listVersions('r')
      expect(listed).toEqual([first, second])
      const loaded = await store.loadVersion('r', second.id)
      expect(loaded).toMatchObject({ ...second })
      expect(textOf([loaded!.state])).toBe('first')
      expect(await store.loadVersion('other', first.id)).toBeNull()
      expect(await store.loadVersion('r', 'nonsense')).toBeNull()
      expect(await store.loadVersion('r', '99999999')).toBeNull()
      await store.deleteVersions('r', [first.id, 'nonsense', '12345678'])
      expect((await store.listVersions('r')).map((v) => v.id)).toEqual([second.id])
      expect(await store.listVersions('never')).toEqual([])
    })

    it('refuses a version it cannot keep with a TypeError', async () => {
      const store = await openStore(true)
      const good = {
        kind: 'named' as const,
        name: 'ok',
        time: 0,
        authors: ['ada'],
        length: 0,
        state: new Uint8Array([0, 0]),
      }
      for (const bad of [
        { ...good, kind: 'other' },
        { ...good, name: '' },
        { ...good, name: '   ' },
        { ...good, name: 'x'.repeat(201) },
        { ...good, name: 'a\u0000b' },
        { ...good, kind: 'auto', name: 'named' },
        { ...good, time: -5 },
        { ...good, authors: ['ok', ''] },
        { ...good, length: 1.5 },
        { ...good, state: 'text' },
      ]) {
        await expect(store.saveVersion('r', bad as never), JSON.stringify(bad)).rejects.toThrow(
          TypeError,
        )
      }
      expect(await store.listVersions('r')).toEqual([])
    })

    it('keeps one session per user and room, and metadata', async () => {
      const store = await openStore(true)
      expect(await store.loadSession('r', 'ada')).toBeNull()
      await store.saveSession('r', 'ada', '{"v":1}')
      await store.saveSession('r', 'ada', '{"v":2}')
      await store.saveSession('s', 'ada', '{"v":3}')
      expect(await store.loadSession('r', 'ada')).toBe('{"v":2}')
      expect(await store.loadSession('s', 'ada')).toBe('{"v":3}')
      expect(await store.loadSession('r', 'bob')).toBeNull()
      await store.setMeta('r', 'title', 'Notes')
      expect(await store.getMeta('r', 'title')).toBe('Notes')
      await store.setMeta('r', 'title', null)
      expect(await store.getMeta('r', 'title')).toBeNull()
    })

    it('keeps at most its cap of sessions per room, dropping the least recently saved', async () => {
      const store = await openStore(true, 3)
      // Apart in time, so that "least recently" is never a tie.
      const save = async (room: string, user: string, session: string) => {
        await store.saveSession(room, user, session)
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
      for (const user of ['a', 'b', 'c']) await save('r', user, `{"${user}":1}`)
      await save('r', 'a', '{"a":2}')
      await save('r', 'd', '{"d":1}')
      expect(await store.loadSession('r', 'b')).toBeNull()
      expect(await store.loadSession('r', 'a')).toBe('{"a":2}')
      expect(await store.loadSession('r', 'c')).toBe('{"c":1}')
      expect(await store.loadSession('r', 'd')).toBe('{"d":1}')
      // Updating a kept session drops nothing; each room has its own cap.
      await save('r', 'c', '{"c":2}')
      for (const user of ['a', 'b', 'c', 'd']) await save('s', user, '{}')
      expect(await store.loadSession('r', 'a')).toBe('{"a":2}')
      expect(await store.loadSession('s', 'a')).toBeNull()
      expect(await store.loadSession('s', 'd')).toBe('{}')
      await save('r', 'e', '{"e":1}')
      expect(await store.loadSession('r', 'a')).toBeNull()
      expect(await store.loadSession('r', 'c')).toBe('{"c":2}')
    })

    it('keeps one undo history per user and room, capped per room as sessions are', async () => {
      const store = await openStore(true, 2)
      if (store.saveUndoHistory === undefined || store.loadUndoHistory === undefined) {
        throw new Error('the store keeps no undo histories')
      }
      const bytes = (n: number) => new Uint8Array([1, n, 0, 255, n])
      expect(await store.loadUndoHistory('r', 'ada')).toBeNull()
      await store.saveUndoHistory('r', 'ada', bytes(1))
      await store.saveUndoHistory('r', 'ada', bytes(2))
      await store.saveUndoHistory('s', 'ada', bytes(3))
      expect(await store.loadUndoHistory('r', 'ada')).toEqual(bytes(2))
      expect(await store.loadUndoHistory('s', 'ada')).toEqual(bytes(3))
      expect(await store.loadUndoHistory('r', 'bob')).toBeNull()
      const big = new Uint8Array(300_000).map((_, i) => i & 0xff)
      await new Promise((resolve) => setTimeout(resolve, 5))
      await store.saveUndoHistory('r', 'bob', big)
      expect(await store.loadUndoHistory('r', 'bob')).toEqual(big)
      await new Promise((resolve) => setTimeout(resolve, 5))
      await store.saveUndoHistory('r', 'cy', bytes(4))
      expect(await store.loadUndoHistory('r', 'ada')).toBeNull()
      expect(await store.loadUndoHistory('r', 'cy')).toEqual(bytes(4))
      await store.saveUndoHistory('r', 'cy', null)
      expect(await store.loadUndoHistory('r', 'cy')).toBeNull()
      expect(await store.loadUndoHistory('r', 'bob')).toEqual(big)
    })

    it('keeps the last program changes of each room, replacing one saved again in its place', async () => {
      const store = await openStore(true)
      if (store.saveProgramChange === undefined || store.loadProgramChanges === undefined) {
        throw new Error('the store keeps no program changes')
      }
      const bytes = (n: number) => new Uint8Array([2, n & 0xff, 0, 255, n >> 8])
      expect(await store.loadProgramChanges('r', 10)).toEqual([])
      await store.saveProgramChange('r', 'a', bytes(1))
      await store.saveProgramChange('r', 'b', bytes(2))
      await store.saveProgramChange('s', 'a', bytes(3))
      await store.saveProgramChange('r', 'a', bytes(4))
      expect(await store.loadProgramChanges('r', 10)).toEqual([
        { id: 'a', change: bytes(4) },
        { id: 'b', change: bytes(2) },
      ])
      expect(await store.loadProgramChanges('r', 1)).toEqual([{ id: 'b', change: bytes(2) }])
      expect(await store.loadProgramChanges('s', 10)).toEqual([{ id: 'a', change: bytes(3) }])
      for (let n = 0; n < MAX_PROGRAM_CHANGES_PER_ROOM; n++) {
        await store.saveProgramChange('r', `c${n}`, bytes(n + 10))
      }
      const kept = await store.loadProgramChanges('r', 1_000)
      expect(kept).toHaveLength(MAX_PROGRAM_CHANGES_PER_ROOM)
      expect(kept[0]).toEqual({ id: 'c0', change: bytes(10) })
      expect(kept.at(-1)?.id).toBe(`c${MAX_PROGRAM_CHANGES_PER_ROOM - 1}`)
      expect(await store.loadProgramChanges('s', 10)).toHaveLength(1)
      await expect(store.saveProgramChange('r', '', bytes(1))).rejects.toThrow(TypeError)
      await expect(store.loadProgramChanges('r', 0)).rejects.toThrow(RangeError)
    })

    it('refuses bad room names with a TypeError', async () => {
      const store = await openStore(true)
      await expect(store.load('')).rejects.toThrow(TypeError)
      await expect(store.append('x'.repeat(600), new Uint8Array([0, 0]))).rejects.toThrow(TypeError)
      await expect(store.load('half \ud800 a pair')).rejects.toThrow(TypeError)
    })

    it('refuses room names with control characters (C0, DEL, C1) on every call, with a TypeError', async () => {
      const store = await openStore(true)
      const update = writer().type(0, 'x')[0]!
      const reason = /a room name cannot contain control characters/
      for (const room of [
        'a\0b',
        'line\nbreak',
        'tab\t',
        'bell\u0007',
        'del\u007f',
        'c1\u0085',
        'c1\u009f',
      ]) {
        await expect(store.load(room), JSON.stringify(room)).rejects.toThrow(TypeError)
        await expect(store.append(room, update), JSON.stringify(room)).rejects.toThrow(reason)
        await expect(store.compact(room)).rejects.toThrow(reason)
        await expect(store.saveSession(room, 'ada', '{}')).rejects.toThrow(reason)
        await expect(store.loadSession(room, 'ada')).rejects.toThrow(reason)
        await expect(store.setMeta(room, 'title', 'x')).rejects.toThrow(reason)
        await expect(store.getMeta(room, 'title')).rejects.toThrow(reason)
      }
      // Printable text beyond ASCII is fine, the no-break space after C1 included.
      await store.append('caf\u00e9 \u00a0 \u6587\u66f8 \ud83d\ude00', update)
      expect(await store.listRooms()).toEqual(['caf\u00e9 \u00a0 \u6587\u66f8 \ud83d\ude00'])
    })
  })
}
