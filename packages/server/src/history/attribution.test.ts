/**
 * Attribution through a real server on loopback over a real SQLite file: stock y-websocket
 * clients type as different users (by token, by awareness, as nobody), and the server says
 * who wrote each part, in-process and over HTTP, after compaction and after a restart; and
 * across three instances sharing PostgreSQL and Redis.
 */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { tokenAuth } from '../auth/token-authorizer.js'
import { signToken } from '../auth/tokens.js'
import { RedisRelay } from '../scale/redis-relay.js'
import { PostgresStore } from '../storage/postgres-store.js'
import { TandemServer } from '../tandem-server.js'
import { openClient, type StockClient } from '../testing/clients.js'
import {
  dropSchema,
  POSTGRES_URL,
  REDIS_URL,
  scaleOutServices,
  uniqueNames,
} from '../testing/services.js'
import { useTestServers } from '../testing/test-servers.js'

const WAIT = { timeout: 10_000, interval: 20 }
const SECRET = 'attribution-test-secret-of-enough-length'
const servers = useTestServers('attribution')

const token = (sub: string, role: 'read' | 'write' = 'write') =>
  signToken({ room: '*', role, sub, exp: Math.floor(Date.now() / 1000) + 600 }, SECRET)

/** Types `chars` at the end of the text, one update per character. */
const type = (client: StockClient, chars: string) => {
  for (const char of chars) client.text.insert(client.text.length, char)
}

/** `text` cut into its authors' runs, as `text:user`. */
const described = (text: string, runs: { from: number; to: number; user: string | null }[]) =>
  runs.map(({ from, to, user }) => `${text.slice(from, to)}:${user}`)

describe('attribution on a real server', () => {
  it('names the token user, the awareness user or "anonymous" for every run of text', async () => {
    const { server, url, port } = await servers.start({
      ...tokenAuth(SECRET),
      compactAfterUpdates: 5,
    })
    const ada = servers.client(url, 'doc', { token: token('ada') })
    await ada.synced()
    type(ada, 'ada wrote this. ')
    await vi.waitFor(async () => {
      expect(described(ada.text.toString(), await server.history.authorsOf('doc'))).toEqual([
        'ada wrote this. :ada',
      ])
    }, WAIT)
    const bob = servers.client(url, 'doc', { token: token('bob') })
    await bob.synced()
    type(bob, 'Bob too.')
    await vi.waitFor(async () => {
      expect(described(bob.text.toString(), await server.history.authorsOf('doc'))).toEqual([
        'ada wrote this. :ada',
        'Bob too.:bob',
      ])
    }, WAIT)
    // Over HTTP, behind the same tokens: a read token may ask.
    const answer = await fetch(
      `http://127.0.0.1:${port}/api/rooms/doc/authors?from=4&to=20&token=${token('carol', 'read')}`,
    )
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toMatch(/application\/json/)
    const body = (await answer.json()) as { authors: { from: number; to: number; user: string }[] }
    expect(body.authors.map(({ from, to, user }) => [from, to, user])).toEqual([
      [4, 16, 'ada'],
      [16, 20, 'bob'],
    ])
    const time = (body.authors[0] as unknown as { time: number }).time
    expect(Math.abs(time - Date.now())).toBeLessThan(2 * 60_000)
  })

  it('keeps who wrote what through compaction and a restart', async () => {
    const first = await servers.start({ compactAfterUpdates: 3 })
    const ada = servers.client(first.url, 'kept')
    ada.provider.awareness.setLocalStateField('user', { name: 'Ada', id: 'ada@example.org' })
    await ada.synced()
    // The awareness state reaches the server before the text does.
    await vi.waitFor(() => expect(first.server.openRooms).toContain('kept'), WAIT)
    await new Promise((resolve) => setTimeout(resolve, 100))
    type(ada, 'typed by ada')
    await vi.waitFor(async () => {
      expect(described(ada.text.toString(), await first.server.history.authorsOf('kept'))).toEqual([
        'typed by ada:ada@example.org',
      ])
    }, WAIT)
    // Compactions ran (three updates or more): the authors are still there after a restart.
    const stored = await first.store.load('kept')
    expect(stored.updates.length).toBeLessThan(12)
    ada.destroy()
    await first.server.close()
    await first.store.close()
    const second = await servers.start({ file: first.file })
    expect(described('typed by ada', await second.server.history.authorsOf('kept'))).toEqual([
      'typed by ada:ada@example.org',
    ])
    const nobody = servers.client(second.url, 'kept')
    await nobody.synced()
    type(nobody, '!')
    await vi.waitFor(async () => {
      expect(
        described(nobody.text.toString(), await second.server.history.authorsOf('kept')),
      ).toEqual(['typed by ada:ada@example.org', '!:anonymous'])
    }, WAIT)
  })

  it('answers bad API requests with a status and a JSON reason', async () => {
    const { port } = await servers.start(tokenAuth(SECRET))
    const api = `http://127.0.0.1:${port}/api/rooms`
    const cases: [string, number, RequestInit?][] = [
      [`${api}/doc/authors`, 401],
      [`${api}/doc/authors?token=forged`, 401],
      [`${api}/doc/authors?from=-1&token=${token('ada')}`, 400],
      [`${api}/doc/authors?to=1e3&token=${token('ada')}`, 400],
      [`${api}/%E0%A4%A/authors?token=${token('ada')}`, 400],
      [`${api}/doc/nothing?token=${token('ada')}`, 404],
      [`${api}/doc/authors?token=${token('ada')}`, 405, { method: 'POST', body: '{}' }],
    ]
    for (const [url, status, init] of cases) {
      const answer = await fetch(url, init)
      expect(answer.status, url).toBe(status)
      const body = (await answer.json()) as { error: string }
      expect(typeof body.error, url).toBe('string')
    }
  })
})

const skipScaleOut = await scaleOutServices('the attribution scale-out test')
const { schema, prefix } = uniqueNames('attribution')

describe.skipIf(skipScaleOut !== null)(
  'attribution across instances over Redis and PostgreSQL',
  () => {
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
      const server = new TandemServer({
        store,
        relay,
        ...tokenAuth(SECRET),
        compactAfterUpdates: 4,
      })
      closers.push(() => server.close())
      const port = await server.listen(0, '127.0.0.1')
      return { server, url: `ws://127.0.0.1:${port}` }
    }

    it('tells every instance who wrote what, whichever instance stored it', async () => {
      const [a, b, c] = [await instance(), await instance(), await instance()]
      const ada = openClient(a.url, 'shared', { token: token('ada') })
      const bob = openClient(b.url, 'shared', { token: token('bob') })
      closers.push(async () => {
        ada.destroy()
        bob.destroy()
      })
      await Promise.all([ada.synced(), bob.synced()])
      type(ada, 'from a. ')
      await vi.waitFor(async () => {
        expect(described(bob.text.toString(), await c.server.history.authorsOf('shared'))).toEqual([
          'from a. :ada',
        ])
      }, WAIT)
      // Instance a has its attribution in memory now; bob's text, stored by b, must reach it.
      expect(described(ada.text.toString(), await a.server.history.authorsOf('shared'))).toEqual([
        'from a. :ada',
      ])
      type(bob, 'from b.')
      await vi.waitFor(async () => {
        for (const { server } of [a, b, c]) {
          expect(described(ada.text.toString(), await server.history.authorsOf('shared'))).toEqual([
            'from a. :ada',
            'from b.:bob',
          ])
        }
      }, WAIT)
    })
  },
)
