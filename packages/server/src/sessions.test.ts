/**
 * Sessions kept by a real server over a real SQLite file: stock y-websocket clients publish
 * their selections in awareness, and a raw connection asks for a user's session as a
 * returning Tandem client does.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MessageType } from '@tandem/protocol'
import Database from 'better-sqlite3'
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import * as Y from 'yjs'
import { type Authorize, AuthRefusal } from './server-options.js'
import {
  MAX_CACHED_SESSIONS,
  RoomSessions,
  SESSION_WRITE_BURST,
  SESSION_WRITES_PER_SECOND,
} from './sessions.js'
import { SqliteStore } from './storage/sqlite-store.js'
import { TandemServer } from './tandem-server.js'
import { openClient, type StockClient } from './testing/clients.js'

const WAIT = { timeout: 10_000, interval: 10 }
const dir = mkdtempSync(join(tmpdir(), 'tandem-sessions-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const running: { server: TandemServer; store: SqliteStore }[] = []
const clients: StockClient[] = []

const start = async (file: string, authorize?: Authorize) => {
  const store = SqliteStore.open({ file })
  const server = new TandemServer({ store, authorize })
  const port = await server.listen(0)
  const entry = { server, store }
  running.push(entry)
  return { ...entry, url: `ws://127.0.0.1:${port}` }
}

const stop = async (entry: { server: TandemServer; store: SqliteStore }) => {
  running.splice(running.indexOf(entry), 1)
  await entry.server.close()
  await entry.store.close()
}

afterEach(async () => {
  for (const c of clients.splice(0)) c.destroy()
  for (const entry of running.splice(0)) {
    await entry.server.close()
    await entry.store.close()
  }
})

const client = (url: string, room: string, params?: Record<string, string>) => {
  const c = openClient(url, room, params)
  clients.push(c)
  return c
}

/** Publishes a selection of `text` from `from` to `to` as `user`, the way editors do. */
const select = (c: StockClient, user: Record<string, string>, from: number, to: number) => {
  const position = (index: number, assoc: number) =>
    Y.relativePositionToJSON(Y.createRelativePositionFromTypeIndex(c.text, index, assoc))
  c.provider.awareness.setLocalState({
    user,
    cursor: { anchor: position(from, 0), head: position(to, -1) },
  })
}

/** Asks the server for `user`'s session in `room` over a raw connection, as a client does. */
const askSession = async (
  url: string,
  room: string,
  user: string,
  query = '',
): Promise<{ user: string; session: string }> => {
  const ws = new WebSocket(`${url}/${encodeURIComponent(room)}${query}`)
  try {
    await new Promise((resolve, reject) => {
      ws.once('open', resolve)
      ws.once('error', reject)
    })
    const answer = new Promise<{ user: string; session: string }>((resolve) => {
      ws.on('message', (data: Buffer) => {
        const decoder = decoding.createDecoder(new Uint8Array(data))
        if (decoding.readVarUint(decoder) !== MessageType.session) return
        resolve({ user: decoding.readVarString(decoder), session: decoding.readVarString(decoder) })
      })
    })
    const encoder = encoding.createEncoder()
    encoding.writeVarUint(encoder, MessageType.session)
    encoding.writeVarString(encoder, user)
    ws.send(encoding.toUint8Array(encoder))
    return await answer
  } finally {
    ws.close()
  }
}

/** The text a stored session's first selection covers in `doc`. */
const coveredText = (doc: Y.Doc, session: string): string => {
  const { selections } = JSON.parse(session) as {
    selections: { anchor: unknown; head: unknown }[]
  }
  const at = (json: unknown) =>
    Y.createAbsolutePositionFromRelativePosition(Y.createRelativePositionFromJSON(json), doc)!.index
  const [first] = selections
  return doc.getText('text').toString().slice(at(first!.anchor), at(first!.head))
}

describe('sessions', () => {
  it('keeps the last selection of a user who left, on the same text after others edit', async () => {
    const file = join(dir, 'left.sqlite')
    const first = await start(file)
    const ada = client(first.url, 'notes')
    const bob = client(first.url, 'notes')
    await Promise.all([ada.synced(), bob.synced()])
    ada.text.insert(0, 'one two three')
    select(ada, { name: 'Ada', id: 'ada' }, 4, 7)
    await vi.waitFor(() => expect(bob.provider.awareness.getStates().size).toBe(2), WAIT)
    ada.destroy()
    bob.text.insert(0, 'zero ')
    bob.text.insert(bob.text.length, ' four')
    bob.text.delete(5, 3)
    await vi.waitFor(async () => {
      const answer = await askSession(first.url, 'notes', 'ada')
      expect(answer.user).toBe('ada')
      expect(coveredText(bob.doc, answer.session)).toBe('two')
    }, WAIT)
    // On disk: a new server on the same file answers the same.
    const text = bob.text.toString()
    bob.destroy()
    await stop(first)
    const second = await start(file)
    const answer = await askSession(second.url, 'notes', 'ada')
    const reader = client(second.url, 'notes')
    await reader.synced()
    expect(reader.text.toString()).toBe(text)
    expect(coveredText(reader.doc, answer.session)).toBe('two')
  })

  it('keeps sessions of authenticated users under their id, not under another claimed one', async () => {
    const authorize: Authorize = (request) => {
      const user = new URL(request.url ?? '/', 'http://x').searchParams.get('user')
      if (!user) throw new AuthRefusal(401, 'who are you?')
      return { role: 'write', user }
    }
    const { url, store } = await start(join(dir, 'auth.sqlite'), authorize)
    const ada = client(url, 'r', { user: 'ada' })
    await ada.synced()
    ada.text.insert(0, 'abcdef')
    select(ada, { name: 'Ada' }, 1, 3)
    await vi.waitFor(async () => {
      // Whatever id she asks for, Ada gets her own session.
      const mine = await askSession(url, 'r', 'bob', '?user=ada')
      expect(mine.user).toBe('ada')
      expect(coveredText(ada.doc, mine.session)).toBe('bc')
    }, WAIT)
    // A state claiming to be Bob on Ada's connection (another tab relayed) is nobody's session.
    select(ada, { name: 'Bob', id: 'bob' }, 4, 6)
    const watcher = client(url, 'r', { user: 'eve' })
    await vi.waitFor(
      () => expect(watcher.provider.awareness.getStates().get(ada.doc.clientID)).toBeDefined(),
      WAIT,
    )
    const mine = await askSession(url, 'r', '', '?user=ada')
    expect(coveredText(ada.doc, mine.session)).toBe('bc')
    expect(await askSession(url, 'r', 'ada', '?user=bob')).toEqual({ user: 'bob', session: '' })
    ada.destroy()
    watcher.destroy()
    await vi.waitFor(async () => expect(await store.loadSession('r', 'ada')).not.toBeNull(), WAIT)
    expect(await store.loadSession('r', 'bob')).toBeNull()
  })

  it('answers an empty session when the connection names no user, and keeps none for it', async () => {
    const { url, store } = await start(join(dir, 'anonymous.sqlite'))
    const anonymous = client(url, 'r')
    await anonymous.synced()
    anonymous.text.insert(0, 'xyz')
    select(anonymous, { name: 'Nobody' }, 0, 1)
    expect(await askSession(url, 'r', '')).toEqual({ user: '', session: '' })
    expect(await askSession(url, 'r', 'nobody')).toEqual({ user: 'nobody', session: '' })
    anonymous.destroy()
    await vi.waitFor(async () => expect(await store.listRooms()).toEqual(['r']), WAIT)
    expect(await store.loadSession('r', 'Nobody')).toBeNull()
  })
})

describe('session writes', () => {
  it('are rate-limited per connection: one claiming a new user id in every update gets a burst kept', async () => {
    const file = join(dir, 'flood.sqlite')
    const { url, server, store } = await start(file)
    const bob = client(url, 'flooded')
    const flood = client(url, 'flooded')
    await Promise.all([bob.synced(), flood.synced()])
    bob.text.insert(0, 'some text to select in')
    await vi.waitFor(() => expect(flood.text.length).toBeGreaterThan(0), WAIT)
    const started = Date.now()
    // 400 awareness updates, each claiming another user: 400 sessions without the limit.
    for (let i = 0; i < 400; i++) select(flood, { name: 'x', id: `user-${i}` }, 0, 1)
    select(bob, { name: 'Bob', id: 'bob' }, 5, 9)
    await vi.waitFor(
      () => expect(server.metrics.sessionWritesDropped.value()).toBeGreaterThan(0),
      WAIT,
    )
    flood.destroy()
    bob.destroy()
    // Everything kept is written once the connections have left.
    await vi.waitFor(
      async () => expect(await store.loadSession('flooded', 'bob')).not.toBeNull(),
      WAIT,
    )
    await server.close()
    const seconds = (Date.now() - started) / 1000
    const db = new Database(file, { readonly: true })
    const { count } = db
      .prepare("SELECT count(*) AS count FROM sessions WHERE room = 'flooded' AND user_id != 'bob'")
      .get() as { count: number }
    db.close()
    // The burst, and what the rate refilled while it ran.
    expect(count).toBeGreaterThan(0)
    expect(count).toBeLessThanOrEqual(
      SESSION_WRITE_BURST + Math.ceil(seconds * SESSION_WRITES_PER_SECOND),
    )
    expect(count).toBeLessThan(400)
  })
})

describe('RoomSessions', () => {
  it('keeps at most MAX_CACHED_SESSIONS in memory once they are written, and still finds the rest', async () => {
    const store = SqliteStore.open({ file: ':memory:' })
    const sessions = new RoomSessions('r', store)
    const count = MAX_CACHED_SESSIONS + 500
    // Each from a connection of its own, so that no write rate applies.
    for (let i = 0; i < count; i++) expect(sessions.record(`u${i}`, `{"i":${i}}`, {})).toBe(true)
    // Nothing is written yet: everything stays.
    expect(sessions.cached).toBe(count)
    await sessions.flush()
    sessions.record('late', '{}', {})
    expect(sessions.cached).toBeLessThanOrEqual(MAX_CACHED_SESSIONS)
    expect(await sessions.lookup('u0')).toBe('{"i":0}')
    expect(await sessions.lookup(`u${count - 1}`)).toBe(`{"i":${count - 1}}`)
    await sessions.close()
    await store.close()
  })

  it('lets one connection cause its burst of writes, then drops what goes over, reported once', async () => {
    const store = SqliteStore.open({ file: ':memory:' })
    const drops: boolean[] = []
    const sessions = new RoomSessions('r', store, {
      sessionWritesDropped: (_room, _by, first) => drops.push(first),
    })
    const connection = {}
    const kept = Array.from({ length: SESSION_WRITE_BURST + 10 }, (_, i) =>
      sessions.record(`u${i}`, '{}', connection),
    )
    expect(kept.filter((taken) => taken).length).toBeGreaterThanOrEqual(SESSION_WRITE_BURST)
    expect(kept.filter((taken) => !taken).length).toBeGreaterThan(0)
    expect(drops[0]).toBe(true)
    expect(drops.slice(1).every((first) => !first)).toBe(true)
    // A session already waiting to be written may change for free; another connection has its own.
    expect(sessions.record('u0', '{"moved":1}', connection)).toBe(true)
    expect(sessions.record('other', '{}', {})).toBe(true)
    await sessions.close()
    await store.close()
  })
})
