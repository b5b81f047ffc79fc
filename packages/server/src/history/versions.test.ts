/**
 * Versions through a real server on loopback over a real SQLite file (and three instances
 * over PostgreSQL and Redis): made after a pause, saved by name over HTTP behind tokens,
 * opened, compared with who changed what, and restored while others type.
 */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
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
const SECRET = 'versions-test-secret-of-enough-length'
const servers = useTestServers('versions')

const token = (sub: string, role: 'read' | 'write' = 'write') =>
  signToken({ room: '*', role, sub, exp: Math.floor(Date.now() / 1000) + 600 }, SECRET)

const api = (port: number, path: string, who: string, role: 'read' | 'write', init?: RequestInit) =>
  fetch(`http://127.0.0.1:${port}/api/rooms/${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token(who, role)}`, ...(init?.headers ?? {}) },
  })

/** Where a client's caret is, as a relative position (what its awareness would carry). */
const caretAt = (client: StockClient, offset: number) =>
  Y.createRelativePositionFromTypeIndex(client.text, offset, -1)

const offsetOf = (client: StockClient, position: Y.RelativePosition) =>
  Y.createAbsolutePositionFromRelativePosition(position, client.doc)?.index ?? null

describe('versions on a real server', () => {
  it('makes one after a pause and at an interval while typing goes on', async () => {
    const { server, url } = await servers.start({
      versions: { pauseMs: 150, maxIntervalMs: 600 },
    })
    const ada = servers.client(url, 'auto')
    await ada.synced()
    ada.text.insert(0, 'first words')
    await vi.waitFor(async () => {
      expect(await server.history.versions('auto')).toHaveLength(1)
    }, WAIT)
    // Typing without a pause as long as the pause: versions still come, one per interval.
    const until = Date.now() + 1_500
    while (Date.now() < until) {
      ada.text.insert(ada.text.length, '.')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const during = await server.history.versions('auto')
    expect(during.length).toBeGreaterThanOrEqual(3)
    expect(during.every((v) => v.kind === 'auto' && v.name === null)).toBe(true)
    const opened = await server.history.openVersion('auto', during[0]!.id)
    expect(opened?.text).toBe('first words')
    expect(opened?.authors).toEqual(['anonymous'])
  })

  it('saves, lists, opens, diffs and restores over HTTP, behind the tokens', async () => {
    const { port, url } = await servers.start({
      ...tokenAuth(SECRET),
      versions: { manualOnly: true },
    })
    const ada = servers.client(url, 'doc', { token: token('ada') })
    const bob = servers.client(url, 'doc', { token: token('bob') })
    await Promise.all([ada.synced(), bob.synced()])
    ada.text.insert(0, 'The plan: ship on Monday.')
    await vi.waitFor(() => expect(bob.text.toString()).toBe('The plan: ship on Monday.'), WAIT)
    // A read token may look but not save.
    const refused = await api(port, 'doc/versions', 'carol', 'read', {
      method: 'POST',
      body: JSON.stringify({ name: 'nope' }),
    })
    expect(refused.status).toBe(403)
    const saved = await api(port, 'doc/versions', 'ada', 'write', {
      method: 'POST',
      body: JSON.stringify({ name: 'First plan' }),
    })
    expect(saved.status).toBe(200)
    const { version } = (await saved.json()) as { version: { id: string; name: string } }
    expect(version.name).toBe('First plan')
    // Bob rewrites the day.
    bob.text.delete(18, 6)
    bob.text.insert(18, 'Friday')
    await vi.waitFor(() => expect(ada.text.toString()).toBe('The plan: ship on Friday.'), WAIT)
    const list = (await (await api(port, 'doc/versions', 'carol', 'read')).json()) as {
      versions: { id: string; authors: string[] }[]
    }
    expect(list.versions.map((v) => v.id)).toEqual([version.id])
    expect(list.versions[0]!.authors).toEqual(['ada'])
    const opened = (await (
      await api(port, `doc/versions/${version.id}`, 'carol', 'read')
    ).json()) as {
      version: { text: string }
    }
    expect(opened.version.text).toBe('The plan: ship on Monday.')
    await vi.waitFor(async () => {
      const diff = (await (
        await api(port, `doc/diff?from=${version.id}&to=now`, 'carol', 'read')
      ).json()) as { runs: { kind: string; text: string; user: string | null }[]; changes: unknown }
      expect(diff.runs.map(({ kind, text, user }) => [kind, text, user])).toEqual([
        ['same', 'The plan: ship on ', null],
        ['deleted', 'Monday', 'bob'],
        ['inserted', 'Friday', 'bob'],
        ['same', '.', null],
      ])
      expect(diff.changes).toEqual([{ from: 18, to: 24, insert: 'Friday' }])
    }, WAIT)
    // A read token cannot restore; a write token can, while both keep typing elsewhere.
    expect(
      (await api(port, `doc/versions/${version.id}/restore`, 'carol', 'read', { method: 'POST' }))
        .status,
    ).toBe(403)
    const adaCaret = caretAt(ada, 4) // before "plan"
    const bobCaret = caretAt(bob, 25) // at the end
    ada.text.insert(0, '# ')
    bob.text.insert(bob.text.length, ' Agreed.')
    const restored = await api(port, `doc/versions/${version.id}/restore`, 'ada', 'write', {
      method: 'POST',
    })
    expect(restored.status).toBe(200)
    const expected = '# The plan: ship on Monday. Agreed.'
    await vi.waitFor(() => {
      expect(ada.text.toString()).toBe(expected)
      expect(bob.text.toString()).toBe(expected)
    }, WAIT)
    // Both carets stayed on their text: restoring did not rewrite what both versions have.
    expect(offsetOf(ada, adaCaret)).toBe(expected.indexOf('plan') - 0)
    expect(offsetOf(bob, bobCaret)).toBe(expected.indexOf(' Agreed.'))
    const afterRestore = (await (
      await api(port, `doc/authors?from=19&to=25`, 'carol', 'read')
    ).json()) as { authors: { user: string }[] }
    expect(afterRestore.authors.map((a) => a.user)).toEqual(['ada'])
    // Unknown versions and bad ids.
    expect((await api(port, 'doc/versions/999999', 'carol', 'read')).status).toBe(404)
    expect((await api(port, 'doc/diff?from=abc&to=now', 'carol', 'read')).status).toBe(400)
    expect(
      (await api(port, 'doc/versions', 'ada', 'write', { method: 'POST', body: '{"name":""}' }))
        .status,
    ).toBe(400)
    expect(
      (await api(port, 'doc/versions', 'ada', 'write', { method: 'POST', body: 'nonsense' }))
        .status,
    ).toBe(400)
  })

  it('keeps versions through a restart, and keeps the changes not yet in one when a room closes', async () => {
    const first = await servers.start({ versions: { pauseMs: 60_000 }, idleUnloadMs: 50 })
    const ada = servers.client(first.url, 'kept')
    await ada.synced()
    ada.text.insert(0, 'before the restart')
    await vi.waitFor(
      async () => expect((await first.store.load('kept')).updates.length).toBeGreaterThan(0),
      WAIT,
    )
    ada.destroy()
    // The room unloads after its idle time: what changed since the last version is kept in one.
    await vi.waitFor(() => expect(first.server.openRooms).not.toContain('kept'), WAIT)
    await first.server.close()
    await first.store.close()
    const second = await servers.start({ file: first.file })
    const versions = await second.server.history.versions('kept')
    expect(versions).toHaveLength(1)
    expect((await second.server.history.openVersion('kept', versions[0]!.id))?.text).toBe(
      'before the restart',
    )
  })
})

const skipScaleOut = await scaleOutServices('the versions scale-out test')
const { schema, prefix } = uniqueNames('versions')

describe.skipIf(skipScaleOut !== null)(
  'versions across instances over Redis and PostgreSQL',
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
      const server = new TandemServer({ store, relay, versions: { manualOnly: true } })
      closers.push(() => server.close())
      const port = await server.listen(0, '127.0.0.1')
      return { server, url: `ws://127.0.0.1:${port}` }
    }

    it('saves on one instance, restores on another while people type on a third', async () => {
      const [a, b, c] = [await instance(), await instance(), await instance()]
      const ada = openClient(a.url, 'shared')
      const cy = openClient(c.url, 'shared')
      closers.push(async () => {
        ada.destroy()
        cy.destroy()
      })
      await Promise.all([ada.synced(), cy.synced()])
      ada.text.insert(0, 'one two three')
      await vi.waitFor(() => expect(cy.text.toString()).toBe('one two three'), WAIT)
      await vi.waitFor(async () => {
        const text = await (async () => {
          const saved = await a.server.history.saveVersion('shared', 'v1', 'ada')
          return (await c.server.history.openVersion('shared', saved.id))?.text
        })()
        expect(text).toBe('one two three')
      }, WAIT)
      const [saved] = (await b.server.history.versions('shared')).slice(-1)
      cy.text.delete(4, 4)
      await vi.waitFor(() => expect(ada.text.toString()).toBe('one three'), WAIT)
      cy.text.insert(cy.text.length, '!')
      await b.server.history.restoreVersion('shared', saved!.id, 'bob')
      await vi.waitFor(() => {
        expect(ada.text.toString()).toBe('one two three!')
        expect(cy.text.toString()).toBe('one two three!')
      }, WAIT)
    })
  },
)
