/**
 * Programs proposing changes over HTTP and in-process, and people accepting or rejecting them,
 * against a real server on loopback over a real SQLite file with stock y-websocket clients
 * typing in the same room; and across instances sharing PostgreSQL and Redis.
 */
import { proposalChange, proposalsIn, proposalsMapName } from '@tandem/protocol'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { tokenAuth } from '../auth/token-authorizer.js'
import { signToken } from '../auth/tokens.js'
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
import { useTestServers } from '../testing/test-servers.js'
import { MAX_PROPOSALS_PER_ROOM } from './room-proposals.js'

const WAIT = { timeout: 10_000, interval: 20 }
const SECRET = 'proposals-test-secret-of-enough-length'
const servers = useTestServers('proposals')

const token = (sub: string, role: 'read' | 'write' = 'write') =>
  signToken({ room: '*', role, sub, exp: Math.floor(Date.now() / 1000) + 600 }, SECRET)

/** The fields the API's answers have, as these tests read them. */
interface Answer {
  readonly text: string
  readonly proposal: string
  readonly proposals: {
    id: string
    user: string
    name: string
    message: string | null
    changes: { from: number; to: number; insert: string; replaced: string }[]
  }[]
  readonly applied: { from: number; to: number; insert: string }[]
  readonly authors: { from: number; to: number; user: string | null; acceptedBy: string | null }[]
  readonly stateVector: string
  readonly error: string
}

const request = async (
  port: number,
  path: string,
  options: { role?: 'read' | 'write'; user?: string; body?: unknown } = {},
) => {
  const response = await fetch(`http://127.0.0.1:${port}/api/rooms/${path}`, {
    method: options.body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token(options.user ?? 'bot', options.role ?? 'write')}`,
    },
    body:
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body),
  })
  return { status: response.status, body: (await response.json()) as Answer }
}

/** `text` cut into its authors' runs, as `text:user` or `text:user+accepter`. */
const described = (
  text: string,
  runs: readonly { from: number; to: number; user: string | null; acceptedBy: string | null }[],
) =>
  runs.map(
    ({ from, to, user, acceptedBy }) =>
      `${text.slice(from, to)}:${user}${acceptedBy === null ? '' : `+${acceptedBy}`}`,
  )

describe('proposals on a real server', () => {
  it('keeps a proposal beside the text while people type around and inside it, and accepts it where it was meant', async () => {
    const first = await servers.start({ ...tokenAuth(SECRET), compactAfterUpdates: 3 })
    const { port, url, server } = first
    const ada = servers.client(url, 'doc', { token: token('ada') })
    await ada.synced()
    ada.text.insert(0, 'The quick brown fox.')
    await vi.waitFor(async () => {
      expect((await request(port, 'doc', { role: 'read' })).body.text).toBe('The quick brown fox.')
    }, WAIT)
    const proposed = await request(port, 'doc/changes', {
      user: 'bot',
      body: {
        propose: true,
        message: 'Slower, and more happens',
        name: 'Style bot',
        changes: [
          { from: 4, to: 9, insert: 'slow' },
          { from: { line: 0, column: 19 }, insert: ' jumps' },
        ],
      },
    })
    expect(proposed.status).toBe(200)
    expect(proposed.body).toMatchObject({ room: 'doc', proposal: expect.any(String) })
    const id = proposed.body.proposal
    // The client sees a map entry beside the text, and the text as it was.
    await vi.waitFor(() => expect(proposalsIn(ada.doc, 'text').map((p) => p.id)).toEqual([id]))
    expect(proposalsIn(ada.doc, 'text')[0]).toMatchObject({
      user: 'bot',
      name: 'Style bot',
      message: 'Slower, and more happens',
    })
    expect(ada.text.toString()).toBe('The quick brown fox.')
    // People type before it, between its changes and inside the text it replaces.
    ada.text.insert(0, 'Oh, ')
    ada.text.insert(ada.text.toString().indexOf('brown') + 5, ' and red')
    ada.text.insert(ada.text.toString().indexOf('quick') + 2, '-')
    const typed = 'Oh, The qu-ick brown and red fox.'
    expect(ada.text.toString()).toBe(typed)
    await vi.waitFor(async () => {
      expect((await request(port, 'doc', { role: 'read' })).body.text).toBe(typed)
    }, WAIT)
    const listed = await request(port, 'doc/proposals', { role: 'read' })
    expect(listed.status).toBe(200)
    expect(listed.body.proposals).toHaveLength(1)
    expect(listed.body.proposals[0]).toMatchObject({ id, user: 'bot', name: 'Style bot' })
    expect(listed.body.proposals[0]!.changes).toEqual([
      { from: 8, to: 14, insert: 'slow', replaced: 'qu-ick' },
      { from: 32, to: 32, insert: ' jumps', replaced: '' },
    ])
    // Bob accepts: the changes land where they were meant, in one change everyone sees.
    const accepted = await request(port, `doc/proposals/${id}/accept`, { user: 'bob', body: {} })
    expect(accepted.status).toBe(200)
    expect(accepted.body).toMatchObject({
      room: 'doc',
      proposal: id,
      applied: [
        { from: 8, to: 14, insert: 'slow' },
        { from: 32, to: 32, insert: ' jumps' },
      ],
    })
    const final = 'Oh, The slow brown and red fox jumps.'
    await vi.waitFor(() => expect(ada.text.toString()).toBe(final), WAIT)
    expect(proposalsIn(ada.doc, 'text')).toEqual([])
    // The program wrote it, bob accepted it; in-process and over HTTP.
    const expected = [
      'Oh, The :ada',
      'slow:bot+bob',
      ' brown and red fox:ada',
      ' jumps:bot+bob',
      '.:ada',
    ]
    expect(described(final, await server.history.authorsOf('doc'))).toEqual(expected)
    const authors = await request(port, 'doc/authors', { role: 'read' })
    expect(described(final, authors.body.authors)).toEqual(expected)
    // Handled once: a second accept or a reject finds nothing.
    for (const action of ['accept', 'reject']) {
      const again = await request(port, `doc/proposals/${id}/${action}`, { body: {} })
      expect(again.status).toBe(404)
      expect(again.body.error).toMatch(/no proposal .* accepted or rejected already/)
    }
    // Compacted and restarted, the accepter is still there.
    ada.destroy()
    await first.server.close()
    await first.store.close()
    const second = await servers.start({ ...tokenAuth(SECRET), file: first.file })
    expect((await second.store.load('doc')).updates.length).toBeLessThan(6)
    expect(described(final, await second.server.history.authorsOf('doc'))).toEqual(expected)
  })

  it('leaves no trace of a rejected proposal: text, authors, versions, diff, and the store after a restart', async () => {
    const first = await servers.start({
      ...tokenAuth(SECRET),
      versions: { manualOnly: true },
      compactAfterUpdates: 2,
    })
    const { port, url, server } = first
    const ada = servers.client(url, 'doc', { token: token('ada') })
    await ada.synced()
    ada.text.insert(0, 'Keep this as it is.')
    await vi.waitFor(async () => {
      expect((await request(port, 'doc', { role: 'read' })).body.text).toBe('Keep this as it is.')
    }, WAIT)
    const before = await server.history.saveVersion('doc', 'Before', 'ada')
    const { body } = await request(port, 'doc/changes', {
      body: { propose: true, changes: [{ from: 0, to: 4, insert: 'Drop' }] },
    })
    await vi.waitFor(() => expect(proposalsIn(ada.doc, 'text')).toHaveLength(1), WAIT)
    const rejected = await request(port, `doc/proposals/${body.proposal}/reject`, {
      user: 'ada',
      body: {},
    })
    expect(rejected.status).toBe(200)
    expect(rejected.body).toMatchObject({ room: 'doc', proposal: body.proposal })
    await vi.waitFor(() => expect(proposalsIn(ada.doc, 'text')).toEqual([]), WAIT)
    expect(ada.text.toString()).toBe('Keep this as it is.')
    expect((await request(port, 'doc/proposals', { role: 'read' })).body.proposals).toEqual([])
    const runs = await server.history.authorsOf('doc')
    expect(runs.map((run) => run.user)).toEqual(['ada'])
    const after = await server.history.saveVersion('doc', 'After', 'ada')
    expect((await server.history.openVersion('doc', after.id))?.text).toBe('Keep this as it is.')
    expect(after.authors).not.toContain('bot')
    const diff = await server.history.diff('doc', before.id, 'now')
    expect(diff?.changes).toEqual([])
    expect(JSON.stringify(diff)).not.toContain('bot')
    expect(JSON.stringify(diff)).not.toContain('Drop')
    // Once compacted, the store's bytes no longer hold the proposed text either.
    const holdsDrop = (update: Uint8Array) => Buffer.from(update).includes('Drop')
    await vi.waitFor(async () => {
      expect((await first.store.load('doc')).updates.some(holdsDrop)).toBe(false)
    }, WAIT)
    // Reloaded from the store, the document has the same text and no proposal.
    ada.destroy()
    await first.server.close()
    await first.store.close()
    const second = await servers.start({ ...tokenAuth(SECRET), file: first.file })
    const again = servers.client(second.url, 'doc', { token: token('ada') })
    await again.synced()
    expect(again.text.toString()).toBe('Keep this as it is.')
    expect(again.doc.getMap(proposalsMapName('text')).size).toBe(0)
    expect(await second.server.proposals.list('doc')).toEqual([])
    expect((await second.server.history.authorsOf('doc')).map((run) => run.user)).toEqual(['ada'])
  })

  it('refuses a read-only token, bad bodies and unknown proposals with a status and a reason', async () => {
    const { port, server } = await servers.start(tokenAuth(SECRET))
    await server.proposals.propose('doc', { user: 'ada' }, [{ from: 0, to: 0, insert: 'x' }])
    const [waiting] = await server.proposals.list('doc')
    const id = waiting!.id
    const cases: [string, unknown, number, RegExp][] = [
      ['doc/changes', { propose: true, changes: [{ from: 0, insert: 'a' }] }, 403, /write/],
      [`doc/proposals/${id}/accept`, {}, 403, /write/],
      [`doc/proposals/${id}/reject`, {}, 403, /write/],
    ]
    for (const [path, body, status, reason] of cases) {
      const answer = await request(port, path, { role: 'read', body })
      expect(answer.status, path).toBe(status)
      expect(answer.body.error, path).toMatch(reason)
    }
    const bad: [string, unknown, number, RegExp][] = [
      ['doc/changes', '{"propose": true, "changes": [', 400, /JSON/i],
      ['doc/changes', { propose: true }, 400, /"changes"/],
      ['doc/changes', { propose: true, changes: [] }, 400, /at least one change/],
      ['doc/changes', { propose: true, changes: [{ from: 5, insert: 'a' }] }, 400, /past the end/],
      [
        'doc/changes',
        { propose: true, changes: [{ from: 0 }], message: 'm'.repeat(501) },
        400,
        /message/,
      ],
      ['doc/changes', { propose: true, changes: [{ from: 0 }], name: 7 }, 400, /name/],
      ['doc/changes', { propose: true, changes: [{ from: 0 }], color: '' }, 400, /color/],
      [
        'doc/changes',
        { propose: true, changes: [{ from: { relative: { nope: 1 } } }] },
        400,
        /relative/,
      ],
      ['doc/proposals/nothing-here/accept', {}, 404, /no proposal "nothing-here"/],
      ['doc/proposals/nothing-here/reject', {}, 404, /no proposal/],
      ['doc/proposals/%22%3Cb%3E/accept', {}, 404, /no proposal/],
    ]
    for (const [path, body, status, reason] of bad) {
      const answer = await request(port, path, { body })
      expect(answer.status, `${path} ${JSON.stringify(body)}`).toBe(status)
      expect(answer.body.error, path).toMatch(reason)
    }
    // Nothing changed: the one proposal waits, the text is as it was.
    expect((await server.proposals.list('doc')).map((p) => p.id)).toEqual([id])
    expect((await request(port, 'doc', { role: 'read' })).body.text).toBe('')
  })

  it('proposes once when a request is retried with the same Idempotency-Key', async () => {
    const { port, server } = await servers.start(tokenAuth(SECRET))
    const propose = (key: string) =>
      fetch(`http://127.0.0.1:${port}/api/rooms/doc/changes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token('bot')}`, 'idempotency-key': key },
        body: JSON.stringify({ propose: true, changes: [{ from: 0, insert: 'x' }] }),
      }).then(async (response) => (await response.json()) as { proposal: string })
    const [first, retried] = await Promise.all([propose('key-1'), propose('key-1')])
    expect(retried.proposal).toBe(first.proposal)
    const other = await propose('key-2')
    expect(other.proposal).not.toBe(first.proposal)
    expect((await server.proposals.list('doc')).map((p) => p.id).sort()).toEqual(
      [first.proposal, other.proposal].sort(),
    )
  })

  it(`keeps at most ${MAX_PROPOSALS_PER_ROOM} proposals waiting in a room`, async () => {
    const { port, server } = await servers.start(tokenAuth(SECRET))
    for (let i = 0; i < MAX_PROPOSALS_PER_ROOM; i++) {
      await server.proposals.propose('full', { user: 'bot' }, [{ from: 0, to: 0, insert: `${i}` }])
    }
    const refused = await request(port, 'full/changes', {
      body: { propose: true, changes: [{ from: 0, insert: 'one more' }] },
    })
    expect(refused.status).toBe(409)
    expect(refused.body.error).toMatch(/200 proposals waiting.*accept or reject some first/)
    const [oldest] = await server.proposals.list('full')
    expect(await server.proposals.reject('full', oldest!.id, 'ada')).toBe(true)
    const taken = await request(port, 'full/changes', {
      body: { propose: true, changes: [{ from: 0, insert: 'one more' }] },
    })
    expect(taken.status).toBe(200)
  })

  it('lets a program in the process propose, and people accept and reject in the process', async () => {
    const { url, server } = await servers.start(tokenAuth(SECRET))
    const ada = servers.client(url, 'doc', { token: token('ada') })
    await ada.synced()
    ada.text.insert(0, 'one two three')
    const bot = await server.openDocument('doc', { user: 'fixer', name: 'Fixer' })
    await vi.waitFor(() => expect(bot.doc.getText('text').toString()).toBe('one two three'), WAIT)
    const first = bot.propose([{ from: 0, to: 3, insert: 'ONE' }], { message: 'Louder' })
    const second = bot.propose([{ from: 8, to: 13, insert: 'THREE' }])
    expect(() => bot.propose([{ from: 0, to: 99, insert: 'x' }])).toThrow(RangeError)
    expect(() =>
      bot.propose([
        { from: 0, to: 5, insert: 'a' },
        { from: 4, to: 6, insert: 'b' },
      ]),
    ).toThrow(RangeError)
    await bot.flushed()
    const listed = await server.proposals.list('doc')
    // Proposals made in the same millisecond are listed by id.
    const byId = <T extends { id: string }>(list: T[]) =>
      list.sort((x, y) => (x.id < y.id ? -1 : 1))
    expect(
      byId(listed.map(({ id, user, name, message }) => ({ id, user, name, message }))),
    ).toEqual(
      byId([
        { id: first, user: 'fixer', name: 'Fixer', message: 'Louder' },
        { id: second, user: 'fixer', name: 'Fixer', message: null },
      ]),
    )
    const before = await server.history.saveVersion('doc', 'Before', 'ada')
    expect(await server.proposals.accept('doc', first, 'ada')).toMatchObject({
      proposer: 'fixer',
      applied: [{ from: 0, to: 3, insert: 'ONE' }],
    })
    expect(await server.proposals.accept('doc', first, 'ada')).toBeNull()
    expect(await server.proposals.reject('doc', second, 'ada')).toBe(true)
    expect(await server.proposals.reject('doc', second, 'ada')).toBe(false)
    await vi.waitFor(() => expect(ada.text.toString()).toBe('ONE two three'), WAIT)
    expect(described('ONE two three', await server.history.authorsOf('doc'))).toEqual([
      'ONE:fixer+ada',
      ' two three:ada',
    ])
    const diff = await server.history.diff('doc', before.id, 'now')
    expect(diff?.runs.filter((run) => run.kind !== 'same')).toEqual([
      { kind: 'deleted', text: 'one', user: 'fixer', time: expect.any(Number), acceptedBy: null },
      { kind: 'inserted', text: 'ONE', user: 'fixer', time: expect.any(Number), acceptedBy: 'ada' },
    ])
    await bot.close()
  })

  it('applies a proposal once when two people accept it at the same moment', async () => {
    const { port, server } = await servers.start(tokenAuth(SECRET))
    await server.proposals.propose('doc', { user: 'bot' }, [{ from: 0, to: 0, insert: 'once' }])
    const [waiting] = await server.proposals.list('doc')
    const path = `doc/proposals/${waiting!.id}/accept`
    const answers = await Promise.all([
      request(port, path, { user: 'ada', body: {} }),
      request(port, path, { user: 'bob', body: {} }),
      server.proposals.accept('doc', waiting!.id, 'cy'),
      server.proposals.accept('doc', waiting!.id, 'dan'),
    ])
    const statuses = answers.map((answer) =>
      answer === null ? 404 : 'status' in answer ? answer.status : 200,
    )
    expect(statuses.sort()).toEqual([200, 404, 404, 404])
    expect((await request(port, 'doc', { role: 'read' })).body.text).toBe('once')
  })

  it('attributes accepted text to who wrote the proposal, not to the user it claims', async () => {
    const { url, server } = await servers.start(tokenAuth(SECRET))
    const mallory = servers.client(url, 'doc', { token: token('mallory') })
    await mallory.synced()
    mallory.text.insert(0, 'hello')
    // An entry written by mallory that names the trusted program as its author.
    const map = mallory.doc.getMap(proposalsMapName('text'))
    map.set('forged', {
      id: 'forged',
      user: 'trusted-bot',
      name: 'Trusted bot',
      color: null,
      message: null,
      at: Date.now(),
      changes: [proposalChange(mallory.text, 0, 5, 'HELLO')],
    })
    await vi.waitFor(async () => expect(await server.proposals.list('doc')).toHaveLength(1), WAIT)
    expect(await server.proposals.accept('doc', 'forged', 'ada')).toMatchObject({
      proposer: 'mallory',
    })
    await vi.waitFor(() => expect(mallory.text.toString()).toBe('HELLO'), WAIT)
    expect(described('HELLO', await server.history.authorsOf('doc'))).toEqual(['HELLO:mallory+ada'])
  })
})

const skipScaleOut = await scaleOutServices('the proposals scale-out test')
const { schema, prefix } = uniqueNames('proposals')

describe.skipIf(skipScaleOut !== null)(
  'proposals across instances over Redis and PostgreSQL',
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
        compactAfterUpdates: 2,
      })
      let open = true
      closers.push(async () => {
        if (open) await server.close()
      })
      const port = await server.listen(0, '127.0.0.1')
      const close = async () => {
        open = false
        await server.close()
      }
      return { server, store, port, url: `ws://127.0.0.1:${port}`, close }
    }

    it('is proposed on one instance, accepted on another, and its attribution survives compaction and a restart', async () => {
      const [a, b] = [await instance(), await instance()]
      const ada = openClient(a.url, 'shared', { token: token('ada') })
      const bob = openClient(b.url, 'shared', { token: token('bob') })
      closers.push(async () => {
        ada.destroy()
        bob.destroy()
      })
      await Promise.all([ada.synced(), bob.synced()])
      ada.text.insert(0, 'draft text')
      await vi.waitFor(() => expect(bob.text.toString()).toBe('draft text'), WAIT)
      const proposed = await request(a.port, 'shared/changes', {
        user: 'bot',
        body: { propose: true, changes: [{ from: 0, to: 5, insert: 'final' }] },
      })
      expect(proposed.status).toBe(200)
      await vi.waitFor(() => expect(proposalsIn(bob.doc, 'text')).toHaveLength(1), WAIT)
      await vi.waitFor(async () => {
        expect(
          (await request(b.port, 'shared/proposals', { role: 'read' })).body.proposals,
        ).toHaveLength(1)
      }, WAIT)
      const accepted = await request(b.port, `shared/proposals/${proposed.body.proposal}/accept`, {
        user: 'bob',
        body: {},
      })
      expect(accepted.status).toBe(200)
      await vi.waitFor(() => expect(ada.text.toString()).toBe('final text'), WAIT)
      const expected = ['final:bot+bob', ' text:ada']
      await vi.waitFor(async () => {
        for (const { server } of [a, b]) {
          expect(described('final text', await server.history.authorsOf('shared'))).toEqual(
            expected,
          )
        }
      }, WAIT)
      // Compacted (past two updates) and read by a fresh instance: the accepter is kept.
      await vi.waitFor(async () => {
        expect((await a.store.load('shared')).updates.length).toBeLessThan(3)
      }, WAIT)
      ada.destroy()
      bob.destroy()
      await a.close()
      await b.close()
      const c = await instance()
      expect(described('final text', await c.server.history.authorsOf('shared'))).toEqual(expected)
      expect(await c.server.proposals.list('shared')).toEqual([])
    })
  },
)
