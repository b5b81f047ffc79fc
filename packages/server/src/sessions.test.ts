/**
 * Sessions kept by a real server over a real SQLite file: stock y-websocket clients publish
 * their selections in awareness, and a raw connection asks for a user's session as a
 * returning Tandem client does.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import * as Y from 'yjs'
import { MessageType } from './protocol.js'
import { sessionFromState } from './sessions.js'
import { SqliteStore } from './storage/sqlite-store.js'
import { type Authorize, AuthRefusal, TandemServer } from './tandem-server.js'
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

describe('sessionFromState', () => {
  it('takes selections, else the cursor, and nothing else', () => {
    const s = { anchor: { a: 1 }, head: { h: 2 } }
    expect(sessionFromState({ selections: [s, s] })).toBe(JSON.stringify({ selections: [s, s] }))
    expect(sessionFromState({ cursor: s, name: 'x' })).toBe(JSON.stringify({ selections: [s] }))
    expect(sessionFromState({ cursor: null })).toBeNull()
    expect(sessionFromState({ selections: [] })).toBeNull()
    expect(sessionFromState({ selections: ['x'.repeat(2 ** 21)] })).toBeNull()
  })
})
