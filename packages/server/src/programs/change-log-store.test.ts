/**
 * The log of program changes kept in the document store, against real servers on loopback:
 * a server restarted on the same SQLite file still lists and undoes a program's change, and
 * with two instances over Redis and PostgreSQL a person on one undoes what a program changed
 * through the other, once.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { RedisRelay } from '../scale/redis-relay.js'
import type { DocumentStore } from '../storage/document-store.js'
import { PostgresStore } from '../storage/postgres-store.js'
import { SqliteStore } from '../storage/sqlite-store.js'
import { TandemServer } from '../tandem-server.js'
import {
  dropSchema,
  POSTGRES_URL,
  REDIS_URL,
  scaleOutServices,
  uniqueNames,
} from '../testing/services.js'

// biome-ignore lint/suspicious/noExplicitAny: answers are read as the tests need them
type Answer = any

/** Asks the server on `port` over HTTP, without a token (the servers here check none). */
const request = async (
  port: number,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Answer }> => {
  const response = await fetch(`http://127.0.0.1:${port}/api/rooms/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, body: await response.json() }
}

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

/** A server on `store`, listening on a free port; closed after the test, store first kept. */
const serve = async (store: DocumentStore, options: { relay?: RedisRelay } = {}) => {
  const server = new TandemServer({ store, ...options })
  closers.push(() => server.close())
  const port = await server.listen(0, '127.0.0.1')
  return { server, port }
}

describe('program changes kept in a SQLite file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-change-log-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('are listed and undone by a server restarted on the same file', async () => {
    const file = join(dir, 'restart.sqlite')
    const first = SqliteStore.open({ file })
    const before = await serve(first)
    const typed = await request(before.port, 'notes/changes', {
      changes: [{ from: 0, insert: 'alpha beta gamma' }],
    })
    const trimmed = await request(before.port, 'notes/changes', {
      changes: [{ from: 5, to: 10 }],
      message: 'Drops beta',
    })
    expect([typed.status, trimmed.status]).toEqual([200, 200])
    // A program in the server process: its change is saved by the time the server has closed.
    const bot = await before.server.openDocument('outline', { user: 'outline-bot' })
    bot.doc.getText('text').insert(0, '# Outline\n')
    await bot.flushed()
    await bot.close()
    await before.server.close()
    await first.close()

    const second = SqliteStore.open({ file })
    closers.push(() => second.close())
    const after = await serve(second)
    expect(await after.server.programs.changes('notes')).toMatchObject([
      { id: trimmed.body.change, message: 'Drops beta', deleted: 5, undone: false },
      { id: typed.body.change, message: null, inserted: 16, undone: false },
    ])
    const undone = await after.server.programs.undoLast('notes', 'anonymous', 'ada')
    expect(undone?.restored).toEqual([{ at: 5, text: ' beta' }])
    expect((await request(after.port, 'notes')).body.text).toBe('alpha beta gamma')
    const listed = await request(after.port, 'notes/changes')
    expect(listed.body.changes[0]).toMatchObject({ id: trimmed.body.change, undoneBy: 'ada' })
    expect(await after.server.programs.undoLast('outline', 'outline-bot', 'ada')).toMatchObject({
      removed: [{ from: 0, text: '# Outline\n' }],
    })
    expect((await request(after.port, 'outline')).body.text).toBe('')
  })
})

const skipScaleOut = await scaleOutServices('the shared change log test')
const { schema, prefix } = uniqueNames('changelog')

describe.skipIf(skipScaleOut !== null)('program changes shared over PostgreSQL and Redis', () => {
  afterAll(() => dropSchema(schema))

  const instance = async () => {
    const store = await PostgresStore.open({ connectionString: POSTGRES_URL, schema })
    closers.push(() => store.close())
    const relay = await RedisRelay.connect({ url: REDIS_URL, prefix })
    closers.push(() => relay.close())
    return serve(store, { relay })
  }

  it('are undone by a person on another instance, once', async () => {
    const [a, b] = [await instance(), await instance()]
    await request(a.port, 'plan/changes', { changes: [{ from: 0, insert: 'one two three' }] })
    const made = await request(a.port, 'plan/changes', {
      changes: [{ from: 3, to: 7 }],
      message: 'Drops two',
    })
    expect(made.status).toBe(200)

    const undone = await request(b.port, 'plan/agents/anonymous/undo', {})
    expect(undone.status).toBe(200)
    expect(undone.body.restored).toEqual([{ at: 3, text: ' two' }])
    expect((await request(b.port, 'plan')).body.text).toBe('one two three')
    const listed = await request(b.port, 'plan/changes')
    expect(listed.body.changes.map((change: Answer) => change.id)).toContain(made.body.change)

    // Instance A, which made the change and still holds it, learns it was undone.
    const again = await request(a.port, `plan/changes/${made.body.change}/undo`, {})
    expect(again.status).toBe(409)
    expect((await a.server.programs.changes('plan'))[0]).toMatchObject({
      id: made.body.change,
      undone: true,
      undoneBy: 'anonymous',
    })

    // A stream typed through B answers once A can undo it too.
    const streamed = await fetch(`http://127.0.0.1:${b.port}/api/rooms/plan/stream`, {
      method: 'POST',
      body: ' four',
    }).then((response) => response.json() as Promise<Answer>)
    expect(streamed.typed).toBe(5)
    const [last] = await a.server.programs.changes('plan')
    expect(last).toMatchObject({ id: streamed.change, inserted: 5, undone: false })
    const removed = await a.server.programs.undo('plan', streamed.change, 'ada')
    expect(removed.removed).toEqual([{ from: 13, text: ' four' }])
  })
})
