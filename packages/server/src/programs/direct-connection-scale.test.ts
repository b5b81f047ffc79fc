/**
 * A program's direct connection on one server instance while people are on another, over
 * PostgreSQL and Redis: the room is loaded on the program's instance for it, the program sees
 * what people typed there, its changes and its presence cross to them, and what it typed is
 * in the shared store.
 */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import { RedisRelay } from '../scale/redis-relay.js'
import { PostgresStore } from '../storage/postgres-store.js'
import { TandemServer } from '../tandem-server.js'
import { openClient } from '../testing/clients.js'
import {
  dropSchema,
  POSTGRES_URL,
  REDIS_URL,
  scaleOutServices,
  uniqueNames,
} from '../testing/services.js'

const WAIT = { timeout: 10_000, interval: 20 }
const skipScaleOut = await scaleOutServices('the openDocument scale-out test')
const { schema, prefix } = uniqueNames('direct')

describe.skipIf(skipScaleOut !== null)('server.openDocument over PostgreSQL and Redis', () => {
  const closers: (() => Promise<void>)[] = []
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close()
  })
  afterAll(() => dropSchema(schema))

  const instance = async () => {
    const store = await PostgresStore.open({ connectionString: POSTGRES_URL, schema })
    closers.push(() => store.close())
    const relay = await RedisRelay.connect({ url: REDIS_URL, prefix })
    closers.push(() => relay.close())
    const server = new TandemServer({ store, relay })
    closers.push(() => server.close())
    const port = await server.listen(0, '127.0.0.1')
    return { server, url: `ws://127.0.0.1:${port}` }
  }

  it('works on an instance where nobody else has the room open', async () => {
    const [a, b] = [await instance(), await instance()]
    const ada = openClient(b.url, 'plan')
    closers.push(async () => ada.destroy())
    await ada.synced()
    ada.text.insert(0, 'step one\n')
    await vi.waitFor(async () => {
      expect((await b.server.history.authorsOf('plan')).at(-1)?.to).toBe(9)
    }, WAIT)

    const bot = await a.server.openDocument('plan', { user: 'plan-bot', name: 'Plan bot' })
    closers.push(() => bot.close())
    await bot.whenSynced
    const text = bot.doc.getText('text')
    expect(text.toString()).toBe('step one\n')
    // People on the other instance see the program, with its mark, and what it types.
    await vi.waitFor(() => {
      const users = [...ada.provider.awareness.getStates().values()].map((state) => state.user)
      expect(users).toContainEqual(expect.objectContaining({ name: 'Plan bot', agent: true }))
    }, WAIT)
    text.insert(text.length, 'step two\n')
    await bot.flushed()
    await vi.waitFor(() => expect(ada.text.toString()).toBe('step one\nstep two\n'), WAIT)
    // And the program sees what they type next.
    ada.text.insert(0, '# Plan\n')
    await vi.waitFor(() => expect(text.toString().startsWith('# Plan\n')).toBe(true), WAIT)

    await bot.close()
    await vi.waitFor(() => {
      const users = [...ada.provider.awareness.getStates().values()].map((state) => state.user)
      expect(users.some((user) => (user as { agent?: boolean } | undefined)?.agent)).toBe(false)
    }, WAIT)
    // What the program typed is in the shared store, attributed to it.
    await vi.waitFor(async () => {
      const stored = await PostgresStore.open({ connectionString: POSTGRES_URL, schema })
      try {
        const doc = new Y.Doc()
        for (const update of (await stored.load('plan')).updates) Y.applyUpdate(doc, update)
        expect(doc.getText('text').toString()).toBe('# Plan\nstep one\nstep two\n')
      } finally {
        await stored.close()
      }
    }, WAIT)
    const authors = await b.server.history.authorsOf('plan')
    expect(authors.map((run) => run.user)).toEqual(['anonymous', 'plan-bot'])
  })
})
