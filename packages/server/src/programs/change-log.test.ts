/**
 * Program changes people can overrule, against a real server on loopback over a real SQLite
 * file, with stock y-websocket clients typing in the same room: the log of program changes,
 * their undo as a person's forward change, and the presence of programs that work over HTTP.
 */
import { describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import { tokenAuth } from '../auth/token-authorizer.js'
import { signToken } from '../auth/tokens.js'
import type { DocumentStore } from '../storage/document-store.js'
import { PostgresStore } from '../storage/postgres-store.js'
import { SqliteStore } from '../storage/sqlite-store.js'
import { TandemServer } from '../tandem-server.js'
import type { openClient } from '../testing/clients.js'
import { dropSchema, neededServices, POSTGRES_URL, uniqueNames } from '../testing/services.js'
import { useTestServers } from '../testing/test-servers.js'
import { PROGRAM_CHANGE_GROUPING_MS, ProgramChangeError } from './server-programs.js'

const WAIT = { timeout: 10_000, interval: 20 }
const SECRET = 'change-log-test-secret-long-enough'
const servers = useTestServers('change-log')

const token = (sub: string, role: 'read' | 'write' = 'write') =>
  signToken({ room: '*', role, sub, exp: Math.floor(Date.now() / 1000) + 600 }, SECRET)

// biome-ignore lint/suspicious/noExplicitAny: answers are read as the tests need them
type Answer = any

const request = async (
  port: number,
  path: string,
  options: { user?: string; body?: unknown; method?: string; role?: 'read' | 'write' } = {},
): Promise<{ status: number; body: Answer }> => {
  const response = await fetch(`http://127.0.0.1:${port}/api/rooms/${path}`, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: { authorization: `Bearer ${token(options.user ?? 'bot', options.role)}` },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  })
  return { status: response.status, body: await response.json() }
}

/** The offsets of the program `user`'s selection as `client` sees it, or null when not shown. */
const shownSelection = (client: ReturnType<typeof openClient>, user: string) => {
  for (const state of client.provider.awareness.getStates().values()) {
    if (state.user?.id !== user) continue
    const at = (json: unknown) =>
      json === null || json === undefined
        ? null
        : Y.createAbsolutePositionFromRelativePosition(
            Y.createRelativePositionFromJSON(json),
            client.doc,
          )?.index
    return {
      agent: state.user.agent,
      anchor: at(state.cursor?.anchor),
      head: at(state.cursor?.head),
      selections: state.selections?.length ?? 0,
    }
  }
  return null
}

describe('program changes over HTTP', () => {
  it('shows the selection a change leaves and lists its message', async () => {
    const { port, url } = await servers.start(tokenAuth(SECRET))
    const ada = servers.client(url, 'doc', { token: token('ada') })
    await ada.synced()
    const changed = await request(port, 'doc/changes', {
      user: 'fixer-bot',
      body: {
        changes: [{ from: 0, insert: 'Hello brave world' }],
        selection: { from: 6, to: { line: 0, column: 11 } },
        message: 'Greets the world',
      },
    })
    expect(changed.status).toBe(200)
    expect(changed.body.change).toMatch(/^[0-9a-f-]{36}$/)
    await vi.waitFor(() => expect(ada.text.toString()).toBe('Hello brave world'), WAIT)
    await vi.waitFor(
      () =>
        expect(shownSelection(ada, 'fixer-bot')).toEqual({
          agent: true,
          anchor: 6,
          head: 11,
          selections: 1,
        }),
      WAIT,
    )
    // People's typing before it moves the program's selection with the text.
    ada.text.insert(0, '>> ')
    await vi.waitFor(() => expect(shownSelection(ada, 'fixer-bot')?.anchor).toBe(9), WAIT)
    const listed = await request(port, 'doc/changes', { role: 'read' })
    expect(listed.body.changes).toMatchObject([
      {
        id: changed.body.change,
        user: 'fixer-bot',
        message: 'Greets the world',
        undone: false,
        inserted: 17,
        deleted: 0,
      },
    ])
    // A selection outside the text, or a long message, refuses the whole change.
    const outside = await request(port, 'doc/changes', {
      body: { changes: [{ from: 0, insert: 'x' }], selection: { from: 999 } },
    })
    expect(outside.status).toBe(400)
    expect(outside.body.error).toMatch(/^selection: /)
    const long = await request(port, 'doc/changes', {
      body: { changes: [{ from: 0, insert: 'x' }], message: 'm'.repeat(501) },
    })
    expect(long.status).toBe(400)
    expect((await request(port, 'doc')).body.text).toBe('>> Hello brave world')
  })

  it('shows a program by the name and colour a change gives, and refuses odd ones', async () => {
    const { port, url } = await servers.start(tokenAuth(SECRET))
    const ada = servers.client(url, 'doc', { token: token('ada') })
    await ada.synced()
    const changed = await request(port, 'doc/changes', {
      user: 'fixer-bot',
      body: { changes: [{ from: 0, insert: 'Hi' }], name: 'Fixer', color: '#7c3aed' },
    })
    expect(changed.status).toBe(200)
    const userOf = () =>
      [...ada.provider.awareness.getStates().values()].find((s) => s.user?.id === 'fixer-bot')?.user
    await vi.waitFor(
      () =>
        expect(userOf()).toEqual({ name: 'Fixer', color: '#7c3aed', id: 'fixer-bot', agent: true }),
      WAIT,
    )
    for (const look of [
      { name: '' },
      { name: 'n'.repeat(101) },
      { color: 'url(javascript:alert(1))' },
      { color: 7 },
    ]) {
      const refused = await request(port, 'doc/changes', {
        user: 'fixer-bot',
        body: { changes: [{ from: 0, insert: 'x' }], ...look },
      })
      expect(refused.status, JSON.stringify(look)).toBe(400)
    }
    expect((await request(port, 'doc')).body.text).toBe('Hi')
  })

  it("undoes a program's change and keeps what people typed inside and around it", async () => {
    const { port, url } = await servers.start(tokenAuth(SECRET))
    const ada = servers.client(url, 'doc', { token: token('ada') })
    await ada.synced()
    ada.text.insert(0, 'hello world')
    await vi.waitFor(async () => expect((await request(port, 'doc')).body.length).toBe(11), WAIT)
    const { body } = await request(port, 'doc/changes', {
      user: 'writer-bot',
      body: { changes: [{ from: 5, insert: ' big' }] },
    })
    await vi.waitFor(() => expect(ada.text.toString()).toBe('hello big world'), WAIT)
    // Ada types inside the program's text, right before it and right after it.
    ada.text.insert(8, 'X') // hello biXg world
    ada.text.insert(5, '[') // hello[ biXg world
    ada.text.insert(11, ']') // hello[ biXg] world
    expect(ada.text.toString()).toBe('hello[ biXg] world')
    await vi.waitFor(
      async () => expect((await request(port, 'doc')).body.text).toBe('hello[ biXg] world'),
      WAIT,
    )
    const undone = await request(port, `doc/changes/${body.change}/undo`, {
      user: 'ada',
      body: {},
    })
    expect(undone.status).toBe(200)
    expect(undone.body.removed).toEqual([
      { from: 6, text: ' bi' },
      { from: 10, text: 'g' },
    ])
    await vi.waitFor(() => expect(ada.text.toString()).toBe('hello[X] world'), WAIT)
    // Undone once: again is a conflict; an unknown change is not found.
    const again = await request(port, `doc/changes/${body.change}/undo`, { user: 'ada', body: {} })
    expect(again.status).toBe(409)
    const unknown = await request(port, 'doc/changes/0000/undo', { user: 'ada', body: {} })
    expect(unknown.status).toBe(404)
    const listed = await request(port, 'doc/changes')
    expect(listed.body.changes[0]).toMatchObject({ undone: true, undoneBy: 'ada' })
    // The undo is Ada's change, and a read token may not undo.
    const authors = await request(port, 'doc/authors')
    expect(authors.status).toBe(200)
    const reader = await request(port, `doc/changes/${body.change}/undo`, {
      role: 'read',
      body: {},
    })
    expect(reader.status).toBe(403)
  })

  it('puts deleted text back where it was after others edited around it', async () => {
    const { port, url } = await servers.start(tokenAuth(SECRET))
    const ada = servers.client(url, 'doc', { token: token('ada') })
    await ada.synced()
    ada.text.insert(0, 'one two three four')
    await vi.waitFor(async () => expect((await request(port, 'doc')).body.length).toBe(18), WAIT)
    await request(port, 'doc/changes', {
      user: 'trim-bot',
      body: {
        changes: [
          { from: 4, to: 8 },
          { from: 14, to: 18, insert: 'FOUR' },
        ],
        message: 'Trims',
      },
    })
    await vi.waitFor(() => expect(ada.text.toString()).toBe('one three FOUR'), WAIT)
    ada.text.insert(0, 'zero ') // zero one three FOUR
    ada.text.insert(14, '!') // zero one three! FOUR
    ada.text.delete(5, 3) // zero  three! FOUR
    await vi.waitFor(
      async () => expect((await request(port, 'doc')).body.text).toBe('zero  three! FOUR'),
      WAIT,
    )
    // The last change of the program that nobody undid, by its user.
    const undone = await request(port, 'doc/agents/trim-bot/undo', { user: 'ada', body: {} })
    expect(undone.status).toBe(200)
    expect(undone.body.restored.map((r: { text: string }) => r.text)).toEqual(['two ', 'four'])
    await vi.waitFor(() => expect(ada.text.toString()).toBe('zero  two three! four'), WAIT)
    const none = await request(port, 'doc/agents/trim-bot/undo', { user: 'ada', body: {} })
    expect(none.status).toBe(404)
  })

  it("logs and undoes a stream as one change, and shows the stream's caret while it types", async () => {
    const { port, url, server } = await servers.start(tokenAuth(SECRET))
    const ada = servers.client(url, 'doc', { token: token('ada') })
    await ada.synced()
    ada.text.insert(0, 'Answer: ')
    await vi.waitFor(async () => expect((await request(port, 'doc')).body.length).toBe(8), WAIT)
    // The body's pieces, sent one at a time as the test says.
    let controller!: ReadableStreamDefaultController<Uint8Array>
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c
      },
    })
    const next = (piece: string | null) =>
      piece === null ? controller.close() : controller.enqueue(new TextEncoder().encode(piece))
    const streamed = fetch(`http://127.0.0.1:${port}/api/rooms/doc/stream?message=Answers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token('model')}` },
      body,
      duplex: 'half',
    } as RequestInit)
    next('forty')
    await vi.waitFor(() => expect(shownSelection(ada, 'model')?.head).toBe(13), WAIT)
    next(' two')
    await vi.waitFor(() => expect(shownSelection(ada, 'model')?.head).toBe(17), WAIT)
    next(null)
    const answer = await (await streamed).json()
    expect(answer.change).toMatch(/^[0-9a-f-]{36}$/)
    expect(await server.programs.changes('doc')).toMatchObject([
      { id: answer.change, user: 'model', message: 'Answers', inserted: 9 },
    ])
    await vi.waitFor(() => expect(ada.text.toString()).toBe('Answer: forty two'), WAIT)
    ada.text.insert(14, '-')
    await vi.waitFor(
      async () => expect((await request(port, 'doc')).body.text).toBe('Answer: forty -two'),
      WAIT,
    )
    await server.programs.undo('doc', answer.change, 'ada')
    await vi.waitFor(() => expect(ada.text.toString()).toBe('Answer: -'), WAIT)
    await expect(server.programs.undo('doc', answer.change, 'ada')).rejects.toBeInstanceOf(
      ProgramChangeError,
    )
  })

  it("takes a program's presence away after a while without requests, at most so many per room", async () => {
    const { port, url } = await servers.start({
      ...tokenAuth(SECRET),
      programs: { presenceTtlMs: 400, maxPresencesPerRoom: 2 },
    })
    const ada = servers.client(url, 'doc', { token: token('ada') })
    await ada.synced()
    for (const user of ['bot-1', 'bot-2', 'bot-3']) {
      const { status } = await request(port, 'doc/changes', {
        user,
        body: { changes: [{ from: 0, insert: `${user} ` }], selection: { from: 0 } },
      })
      expect(status).toBe(200)
    }
    // The one seen longest ago made way.
    await vi.waitFor(() => {
      expect(shownSelection(ada, 'bot-3')).not.toBeNull()
      expect(shownSelection(ada, 'bot-2')).not.toBeNull()
      expect(shownSelection(ada, 'bot-1')).toBeNull()
    }, WAIT)
    await vi.waitFor(() => {
      expect(shownSelection(ada, 'bot-2')).toBeNull()
      expect(shownSelection(ada, 'bot-3')).toBeNull()
    }, WAIT)
  })

  it('shows so many programs in all rooms at most, each holding its room, the oldest making way', async () => {
    const { server, port } = await servers.start({
      ...tokenAuth(SECRET),
      programs: { maxPresences: 3 },
      idleUnloadMs: 10,
    })
    for (let i = 0; i < 6; i++) {
      const { status } = await request(port, `room-${i}/changes`, {
        user: 'bot',
        body: { changes: [{ from: 0, insert: 'x' }] },
      })
      expect(status).toBe(200)
    }
    // Only the rooms of the three programs shown last stay loaded.
    await vi.waitFor(
      () => expect(server.openRooms.sort()).toEqual(['room-3', 'room-4', 'room-5']),
      WAIT,
    )
  })
})

describe('program changes in the server process', () => {
  it("logs a direct connection's updates as a program's, and undoes them as a person's change", async () => {
    const { server, url } = await servers.start()
    const ada = servers.client(url, 'notes')
    await ada.synced()
    ada.text.insert(0, 'keep this, drop that')
    await vi.waitFor(
      async () => expect((await server.history.authorsOf('notes')).at(-1)?.to).toBe(20),
      WAIT,
    )
    const bot = await server.openDocument('notes', { user: 'edit-bot' })
    const text = bot.doc.getText('text')
    bot.doc.transact(() => {
      text.delete(10, 10)
      text.insert(10, ' and more')
    })
    await bot.flushed()
    await vi.waitFor(() => expect(ada.text.toString()).toBe('keep this, and more'), WAIT)
    // A person's direct connection (agent: false) is not a program.
    const person = await server.openDocument('notes', { user: 'eve', agent: false })
    person.doc.getText('text').insert(0, '# ')
    await person.flushed()
    await vi.waitFor(() => expect(ada.text.toString()).toBe('# keep this, and more'), WAIT)
    const [change] = await server.programs.changes('notes')
    expect(await server.programs.changes('notes')).toHaveLength(1)
    expect(change).toMatchObject({ user: 'edit-bot', inserted: 9, deleted: 10 })
    ada.text.insert(0, 'Please ')
    await vi.waitFor(() => expect(text.toString()).toBe('Please # keep this, and more'), WAIT)
    const undone = await server.programs.undoLast('notes', 'edit-bot', 'ada')
    expect(undone?.restored).toEqual([{ at: 19, text: ' drop that' }])
    await vi.waitFor(() => expect(ada.text.toString()).toBe('Please # keep this, drop that'), WAIT)
    expect(await server.programs.undoLast('notes', 'edit-bot', 'ada')).toBeNull()
    await bot.close()
    await person.close()
  })

  it('keeps text a program deleted before the room had stored it', async () => {
    const { server } = await servers.start()
    const person = await server.openDocument('quick', { user: 'eve', agent: false })
    person.doc.getText('text').insert(0, 'abc')
    await person.flushed()
    const bot = await server.openDocument('quick', { user: 'quick-bot' })
    const text = bot.doc.getText('text')
    // Two transactions at once, neither stored yet when the second deletes Eve's "b".
    text.insert(3, 'd')
    text.delete(1, 1)
    await bot.flushed()
    const [change] = await server.programs.changes('quick')
    expect(await server.programs.changes('quick')).toHaveLength(1)
    expect(change).toMatchObject({ inserted: 1, deleted: 1 })
    await server.programs.undo('quick', change!.id, 'ada')
    await vi.waitFor(() => expect(text.toString()).toBe('abc'), WAIT)
    await bot.close()
    await person.close()
  })

  it("logs a proposal once accepted, as its program's change a person may undo", async () => {
    const { server } = await servers.start()
    const person = await server.openDocument('review', { user: 'eve', agent: false })
    person.doc.getText('text').insert(0, 'teh plan')
    await person.flushed()
    const bot = await server.openDocument('review', { user: 'spell-bot' })
    const id = bot.propose([{ from: 0, to: 3, insert: 'the' }], { message: 'Fix "teh"' })
    await bot.flushed()
    // Proposing changes no text: nothing of the program's is logged yet.
    expect(await server.programs.changes('review')).toEqual([])
    expect(await server.proposals.accept('review', id, 'eve')).not.toBeNull()
    const [accepted] = await server.programs.changes('review')
    expect(accepted).toMatchObject({
      user: 'spell-bot',
      message: 'Fix "teh"',
      inserted: 3,
      deleted: 3,
    })
    await server.programs.undoLast('review', 'spell-bot', 'eve')
    const text = person.doc.getText('text')
    await vi.waitFor(() => expect(text.toString()).toBe('teh plan'), WAIT)
    await bot.close()
    await person.close()
  })

  it("groups a direct connection's transactions that come close together into one change", async () => {
    const { server } = await servers.start()
    const person = await server.openDocument('burst', { user: 'eve', agent: false })
    person.doc.getText('text').insert(0, 'Title\n')
    await person.flushed()
    const bot = await server.openDocument('burst', { user: 'typing-bot' })
    const text = bot.doc.getText('text')
    // A burst typed a character at a time, with a slip taken back and a word of Eve's deleted.
    for (const char of 'first lien') text.insert(text.length, char)
    text.delete(text.length - 2, 2)
    text.insert(text.length, 'ne\n')
    text.delete(0, 6)
    await bot.flushed()
    expect(await server.programs.changes('burst')).toHaveLength(1)
    expect((await server.programs.changes('burst'))[0]).toMatchObject({ inserted: 13, deleted: 6 })
    // After a pause, the next burst is a change of its own.
    await new Promise((resolve) => setTimeout(resolve, PROGRAM_CHANGE_GROUPING_MS + 100))
    for (const char of 'second') text.insert(text.length, char)
    await bot.flushed()
    expect(await server.programs.changes('burst')).toHaveLength(2)
    // Undoing the program's last change takes the second burst back; then the first, whose
    // own slip is not put back, only Eve's title.
    await server.programs.undoLast('burst', 'typing-bot', 'ada')
    await vi.waitFor(() => expect(text.toString()).toBe('first line\n'), WAIT)
    await server.programs.undoLast('burst', 'typing-bot', 'ada')
    await vi.waitFor(() => expect(text.toString()).toBe('Title\n'), WAIT)
    await bot.close()
    await person.close()
  })
})

/**
 * A change that deletes text, undone after its room was unloaded and loaded again from
 * `store`: the deleted text's place is found in the document as the store gives it back.
 */
const undoAfterReload = async (store: DocumentStore) => {
  // A program's presence holds its room: here it goes soon, and the room with it.
  const server = new TandemServer({ store, idleUnloadMs: 20, programs: { presenceTtlMs: 20 } })
  try {
    const port = await server.listen(0, '127.0.0.1')
    const post = (body: unknown) =>
      fetch(`http://127.0.0.1:${port}/api/rooms/reloaded/changes`, {
        method: 'POST',
        body: JSON.stringify(body),
      }).then((response) => response.json() as Promise<Answer>)
    await post({ changes: [{ from: 0, insert: 'alpha beta gamma' }] })
    const { change } = await post({ changes: [{ from: 5, to: 10 }], message: 'Drops beta' })
    await post({ changes: [{ from: 0, insert: '> ' }] })
    await vi.waitFor(() => expect(server.openRooms).toEqual([]), WAIT)
    const undone = await server.programs.undo('reloaded', change, 'ada')
    expect(undone.restored).toEqual([{ at: 7, text: ' beta' }])
    const answer = await fetch(`http://127.0.0.1:${port}/api/rooms/reloaded`)
    expect(((await answer.json()) as Answer).text).toBe('> alpha beta gamma')
  } finally {
    await server.close()
    await store.close()
  }
}

const unavailable = await neededServices('the PostgreSQL undo test', { postgres: true })

describe('undo after the room was unloaded', () => {
  it('finds where deleted text was, on SQLite', async () => {
    await undoAfterReload(SqliteStore.open({ file: ':memory:' }))
  })

  it.skipIf(unavailable !== null)('finds where deleted text was, on PostgreSQL', async () => {
    const { schema } = uniqueNames('undo')
    try {
      await undoAfterReload(await PostgresStore.open({ connectionString: POSTGRES_URL, schema }))
    } finally {
      await dropSchema(schema)
    }
  })
})
