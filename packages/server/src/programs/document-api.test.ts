/**
 * Programs reading and changing a room over HTTP, against a real server on loopback over a
 * real SQLite file, with stock y-websocket clients typing in the same room.
 */
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import { tokenAuth } from '../auth/token-authorizer.js'
import { signToken } from '../auth/tokens.js'
import { SqliteStore } from '../storage/sqlite-store.js'
import { TandemServer } from '../tandem-server.js'
import { openClient } from '../testing/clients.js'
import { HeldStore } from '../testing/held-store.js'
import { useTestServers } from '../testing/test-servers.js'

const WAIT = { timeout: 10_000, interval: 20 }
const SECRET = 'document-api-test-secret-long-enough'
const servers = useTestServers('document-api')

const token = (sub: string, role: 'read' | 'write' = 'write') =>
  signToken({ room: '*', role, sub, exp: Math.floor(Date.now() / 1000) + 600 }, SECRET)

/** The fields the API's answers have, as these tests read them. */
interface Answer {
  readonly text: string
  readonly length: number
  readonly stateVector: string
  readonly anchors: Record<string, unknown>
  readonly applied: unknown
  readonly error: string
}

const request = async (
  port: number,
  path: string,
  options: {
    role?: 'read' | 'write'
    user?: string
    body?: unknown
    headers?: Record<string, string>
  } = {},
) => {
  const response = await fetch(`http://127.0.0.1:${port}/api/rooms/${path}`, {
    method: options.body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token(options.user ?? 'bot', options.role ?? 'write')}`,
      ...(options.headers ?? {}),
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

describe('the document API', () => {
  it('reads the text and applies changes by offset, stored and seen by everyone', async () => {
    const { port, url, server } = await servers.start(tokenAuth(SECRET))
    const ada = servers.client(url, 'doc', { token: token('ada') })
    await ada.synced()
    ada.text.insert(0, 'hello world')
    await vi.waitFor(async () => {
      expect((await request(port, 'doc', { role: 'read' })).body.text).toBe('hello world')
    }, WAIT)
    const read = await request(port, 'doc', { role: 'read' })
    expect(read.status).toBe(200)
    expect(read.body).toMatchObject({ room: 'doc', text: 'hello world', length: 11 })
    expect(Y.decodeStateVector(Buffer.from(read.body.stateVector, 'base64')).size).toBe(1)
    // Offsets in the text before the change, in any order, as CodeMirror's change specs.
    const changed = await request(port, 'doc/changes?text=1', {
      user: 'formatter',
      body: {
        changes: [
          { from: 6, to: 11, insert: 'there' },
          { from: 0, to: 1, insert: 'H' },
        ],
      },
    })
    expect(changed.status).toBe(200)
    expect(changed.body.text).toBe('Hello there')
    expect(changed.body.applied).toEqual([
      { from: 0, to: 1, insert: 'H' },
      { from: 6, to: 11, insert: 'there' },
    ])
    await vi.waitFor(() => expect(ada.text.toString()).toBe('Hello there'), WAIT)
    const authors = await server.history.authorsOf('doc')
    expect(authors.map((run) => [run.from, run.to, run.user])).toEqual([
      [0, 1, 'formatter'],
      [1, 6, 'ada'],
      [6, 11, 'formatter'],
    ])
  })

  it('takes lines and columns, and relative positions that still mean the place after others typed', async () => {
    const { port, url } = await servers.start(tokenAuth(SECRET))
    const ada = servers.client(url, 'doc', { token: token('ada') })
    await ada.synced()
    ada.text.insert(0, 'first line\nsecond line\n')
    await vi.waitFor(async () => {
      expect((await request(port, 'doc')).body.length).toBe(23)
    }, WAIT)
    const byLine = await request(port, 'doc/changes?text=1', {
      body: {
        changes: [{ from: { line: 1, column: 0 }, to: { line: 1, column: 6 }, insert: '2nd' }],
      },
    })
    expect(byLine.body.text).toBe('first line\n2nd line\n')
    // The program reads where "line" of the first line is, then Ada types before it.
    const anchors = (await request(port, 'doc?anchors=6,10')).body.anchors
    ada.text.insert(0, '>> ')
    await vi.waitFor(async () => {
      expect((await request(port, 'doc')).body.text.startsWith('>> ')).toBe(true)
    }, WAIT)
    const byAnchor = await request(port, 'doc/changes?text=1', {
      body: {
        changes: [
          { from: { relative: anchors['6'] }, to: { relative: anchors['10'] }, insert: 'row' },
        ],
      },
    })
    expect(byAnchor.status).toBe(200)
    expect(byAnchor.body.text).toBe('>> first row\n2nd line\n')
  })

  it('applies a retried request once, even when the retries race', async () => {
    const { port, url } = await servers.start(tokenAuth(SECRET))
    const ada = servers.client(url, 'doc', { token: token('ada') })
    await ada.synced()
    const send = (key: string) =>
      request(port, 'doc/changes?text=1', {
        body: { changes: [{ from: 0, insert: 'x' }] },
        headers: { 'idempotency-key': key },
      })
    const [first, second] = await Promise.all([send('key-1'), send('key-1')])
    const third = await send('key-1')
    expect(first.body).toEqual(second.body)
    expect(third.body).toEqual(first.body)
    expect(first.body.text).toBe('x')
    expect((await send('key-2')).body.text).toBe('xx')
    await vi.waitFor(() => expect(ada.text.toString()).toBe('xx'), WAIT)
    expect((await send('bad key with spaces')).status).toBe(400)
  })

  it('answers 429 to an address over its request rate, and serves it again later', async () => {
    const { port } = await servers.start(tokenAuth(SECRET))
    // One after another: more at once would meet the cap on one address's open sockets first.
    const statuses: number[] = []
    for (let i = 0; i < 160; i++)
      statuses.push((await request(port, 'doc', { role: 'read' })).status)
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0)
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(100)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect((await request(port, 'doc', { role: 'read' })).status).toBe(200)
  })

  it('takes the request rate per address the server is given', async () => {
    const { port } = await servers.start({
      ...tokenAuth(SECRET),
      rateLimits: { apiRequestsPerSecond: 1, apiRequestBurst: 3 },
    })
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) statuses.push((await request(port, 'doc', { role: 'read' })).status)
    expect(statuses).toEqual([200, 200, 200, 429, 429])
  })

  it('stores a change before anyone sees it', async () => {
    const store = new HeldStore(SqliteStore.open({ file: join(servers.dir, 'held.sqlite') }))
    const server = new TandemServer({ store })
    const port = await server.listen(0, '127.0.0.1')
    try {
      const ada = openClient(`ws://127.0.0.1:${port}`, 'doc')
      await ada.synced()
      store.hold()
      const pending = fetch(`http://127.0.0.1:${port}/api/rooms/doc/changes`, {
        method: 'POST',
        body: JSON.stringify({ changes: [{ from: 0, insert: 'stored first' }] }),
      })
      await store.waitForParked(1)
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(ada.text.toString()).toBe('')
      store.release()
      expect((await pending).status).toBe(200)
      await vi.waitFor(() => expect(ada.text.toString()).toBe('stored first'), WAIT)
      ada.destroy()
    } finally {
      await server.close()
      await store.close()
    }
  })

  it('refuses bad requests with a status and a reason, and changes nothing', async () => {
    const { port, url } = await servers.start(tokenAuth(SECRET))
    const ada = servers.client(url, 'doc', { token: token('ada') })
    await ada.synced()
    ada.text.insert(0, 'a\u{1F600}b')
    await vi.waitFor(async () => expect((await request(port, 'doc')).body.length).toBe(4), WAIT)
    const bad: [unknown, number, RegExp][] = [
      ['not json', 400, /JSON/],
      [{ nothing: true }, 400, /changes/],
      [{ changes: [{ from: 9 }] }, 400, /past the end/],
      [{ changes: [{ from: 2 }] }, 400, /inside a character/],
      [
        {
          changes: [
            { from: 0, to: 3 },
            { from: 1, to: 4 },
          ],
        },
        400,
        /overlap/,
      ],
      [{ changes: [{ from: 3, to: 1 }] }, 400, /before/],
      [{ changes: [{ from: -1 }] }, 400, /whole number/],
      [{ changes: [{ from: { line: 5, column: 0 } }] }, 400, /line 5/],
      [{ changes: [{ from: 0, insert: '\ud800' }] }, 400, /surrogate/],
      [
        {
          changes: [
            {
              from: {
                relative: { type: null, tname: 'text', item: { client: 1, clock: 99 }, assoc: 0 },
              },
            },
          ],
        },
        409,
        /does not have/,
      ],
      [{ changes: [{ from: { relative: 'nonsense' } }] }, 400, /relative/],
    ]
    for (const [body, status, reason] of bad) {
      const answer = await request(port, 'doc/changes', { body })
      expect(answer.status, JSON.stringify(body)).toBe(status)
      expect(answer.body.error, JSON.stringify(body)).toMatch(reason)
    }
    expect(
      (await request(port, 'doc/changes', { role: 'read', body: { changes: [] } })).status,
    ).toBe(403)
    const big = await request(port, 'doc/changes', {
      body: { changes: [{ from: 0, insert: 'x'.repeat(9 * 1024 * 1024) }] },
    })
    expect(big.status).toBe(413)
    expect((await request(port, 'doc', { role: 'read' })).body.text).toBe('a\u{1F600}b')
    expect((await request(port, 'doc?anchors=0,99', { role: 'read' })).status).toBe(400)
    expect((await request(port, 'doc?version=5', { role: 'read' })).status).toBe(404)
  })
})
