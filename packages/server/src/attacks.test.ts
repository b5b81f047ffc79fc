/**
 * What a hostile client tries, against a real server over real SQLite on loopback, with stock
 * y-websocket clients as the people it would harm: a client that never reads what it is sent,
 * awareness states built to break joins, states set for other people's client ids, and
 * read-only updates sent over and over.
 */
import type { IncomingMessage } from 'node:http'
import { MessageType } from '@tandem/protocol'
import { describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import { type Authorize, AuthRefusal } from './server-options.js'
import {
  askForAwareness,
  askForDocument,
  awarenessOf,
  rawConnection,
  updateOf,
} from './testing/raw-connection.js'
import { useTestServers } from './testing/test-servers.js'

const WAIT = { timeout: 10_000, interval: 10 }
const servers = useTestServers('attacks')

/** Read-only for `?role=read`, write otherwise; the user is `?user=` when given. */
const byQuery: Authorize = (request: IncomingMessage) => {
  const params = new URL(request.url ?? '/', 'http://localhost').searchParams
  const user = params.get('user') ?? undefined
  if (params.get('role') === 'refuse') throw new AuthRefusal(403, 'no')
  return { role: params.get('role') === 'read' ? 'read' : 'write', ...(user ? { user } : {}) }
}

/** A document of about `bytes` characters, as one update. */
const bigDocument = (bytes: number): Uint8Array => {
  const doc = new Y.Doc()
  const line = `${'lorem ipsum dolor sit amet '.repeat(3)}\n`
  doc.getText('text').insert(0, line.repeat(Math.ceil(bytes / line.length)))
  return Y.encodeStateAsUpdate(doc)
}

describe('a client that never reads', () => {
  it('gets one answer for 200 requests for a 2 MB document, and the server goes on', async () => {
    const { url, server } = await servers.start()
    const writer = await rawConnection(`${url}/big`)
    const document = bigDocument(2_000_000)
    writer.send(updateOf(document))
    const check = servers.client(url, 'big')
    await check.synced()
    await vi.waitFor(() => expect(check.text.length).toBeGreaterThan(1_900_000), WAIT)
    const before = server.metrics.bytesSent.value()
    const reader = await rawConnection(`${url}/big`, { reading: false })
    for (let i = 0; i < 200; i++) reader.send(askForDocument())
    // Someone else still gets answers from the same room.
    const other = servers.client(url, 'big')
    await other.synced()
    await new Promise((resolve) => setTimeout(resolve, 300))
    // What the sockets of loopback take holds a few answers; the rest wait, merged into one.
    // Answering every request would send 200.
    const answers = () => (server.metrics.bytesSent.value() - before) / document.length
    expect(answers()).toBeLessThan(20)
    // Reading again, it gets the answer it asked for last, and no more.
    reader.ws.resume()
    await vi.waitFor(() => expect(reader.received.length).toBeGreaterThan(2), WAIT)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(answers()).toBeLessThan(22)
  })

  it('is closed with 1008 once it leaves too much unread, and the room goes on', async () => {
    const { url, server } = await servers.start({
      sendBuffer: { pauseAt: 64 * 1024, closeAt: 512 * 1024 },
    })
    const sleeper = await rawConnection(`${url}/busy`, { reading: false })
    const [a, b] = [servers.client(url, 'busy'), servers.client(url, 'busy')]
    await Promise.all([a.synced(), b.synced()])
    const closes = b.closes
    // Pastes of 256 kB: the sleeper's unread bytes grow past what its sockets take, until it
    // is closed.
    for (let i = 0; i < 40; i++) {
      a.text.insert(a.text.length, `${i}`.padEnd(256 * 1024, '.'))
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    await vi.waitFor(() => expect(server.metrics.unreadCloses.value()).toBe(1), WAIT)
    // Reading again, it finds the close frame after what it had not read.
    sleeper.ws.resume()
    expect(await sleeper.closed).toEqual({
      code: 1008,
      reason: 'too much unsent: the connection does not read what it is sent',
    })
    await vi.waitFor(() => expect(b.text.length).toBe(a.text.length), WAIT)
    expect(closes).toEqual([])
  })
})

describe('awareness states that would break a room', () => {
  it("closes the sender of a state nested 200,000 deep, and others' joins go on", async () => {
    const { url, server } = await servers.start()
    const host = servers.client(url, 'deep')
    await host.synced()
    const attacker = await rawConnection(`${url}/deep`)
    const deep = `${'{"a":'.repeat(200_000)}1${'}'.repeat(200_000)}`
    attacker.send(awarenessOf(424242, 1, deep))
    expect(await attacker.closed).toEqual({
      code: 1008,
      reason: 'awareness state of client 424242 nested too deep (limit 32)',
    })
    // A newcomer joins and syncs, and gets the host's state, not the attacker's.
    host.provider.awareness.setLocalStateField('user', { name: 'Host' })
    const newcomer = servers.client(url, 'deep')
    const closes = newcomer.closes
    await newcomer.synced()
    await vi.waitFor(
      () =>
        expect(newcomer.provider.awareness.getStates().get(host.doc.clientID)).toEqual({
          user: { name: 'Host' },
        }),
      WAIT,
    )
    expect(newcomer.provider.awareness.getStates().has(424242)).toBe(false)
    expect(closes).toEqual([])
    expect(server.metrics.awarenessRefusals.value({ reason: 'invalid' })).toBe(1)
  })

  it('closes the sender of a state too large, not an object, or not JSON, each with its reason', async () => {
    const { url } = await servers.start({ awarenessLimits: { maxStateBytes: 10_000 } })
    const cases: [string, { code: number; reason: string }][] = [
      [
        JSON.stringify({ blob: 'x'.repeat(20_000) }),
        {
          code: 1008,
          reason: 'awareness state of client 7 too large: 20011 bytes (limit 10000)',
        },
      ],
      ['[1, 2, 3]', { code: 1008, reason: 'awareness state of client 7 is not an object' }],
      ['{"user": ', { code: 1007, reason: 'awareness state of client 7 is not JSON' }],
    ]
    for (const [json, close] of cases) {
      const sender = await rawConnection(`${url}/states`)
      sender.send(awarenessOf(7, 1, json))
      expect(await sender.closed).toEqual(close)
    }
    const fine = servers.client(url, 'states')
    await fine.synced()
  })
})

describe("other people's awareness states", () => {
  it('cannot be set by a read-only connection: the writer keeps its name for everyone', async () => {
    const { url, server } = await servers.start({
      authorize: byQuery,
      rateLimits: { refusedAwarenessBurst: 5 },
    })
    const writer = servers.client(url, 'team', { user: 'ada' })
    const peer = servers.client(url, 'team', { user: 'bob' })
    await Promise.all([writer.synced(), peer.synced()])
    writer.provider.awareness.setLocalStateField('user', { name: 'Ada' })
    await vi.waitFor(
      () =>
        expect(peer.provider.awareness.getStates().get(writer.doc.clientID)).toEqual({
          user: { name: 'Ada' },
        }),
      WAIT,
    )
    const forger = await rawConnection(`${url}/team?role=read&user=eve`)
    const id = writer.doc.clientID
    for (let clock = 100; clock < 110; clock++) {
      forger.send(awarenessOf(id, clock, JSON.stringify({ user: { name: 'Mallory' } })))
    }
    // Over its burst of refusals, the forger is closed.
    expect(await forger.closed).toEqual({
      code: 1008,
      reason: "rate limit: too many changes to other connections' awareness states",
    })
    const late = servers.client(url, 'team', { user: 'carol' })
    await late.synced()
    await vi.waitFor(() => expect(late.provider.awareness.getStates().has(id)).toBe(true), WAIT)
    for (const c of [writer, peer, late]) {
      expect(c.provider.awareness.getStates().get(id)).toEqual({ user: { name: 'Ada' } })
    }
    expect(server.metrics.awarenessRefusals.value({ reason: 'claimed' })).toBeGreaterThanOrEqual(5)
  })

  it('may be relayed by another connection of the same user, which takes them over when the first leaves', async () => {
    const { url } = await servers.start({ authorize: byQuery })
    const watcher = servers.client(url, 'tabs', { user: 'bob' })
    await watcher.synced()
    const first = await rawConnection(`${url}/tabs?user=ada`)
    const id = 5150
    first.send(awarenessOf(id, 1, '{"user":{"name":"Ada"}}'))
    await vi.waitFor(() => expect(watcher.provider.awareness.getStates().has(id)).toBe(true), WAIT)
    // Another tab of Ada's relays the same client's newer state, as y-websocket does.
    const second = await rawConnection(`${url}/tabs?user=ada`)
    second.send(awarenessOf(id, 2, '{"user":{"name":"Ada (2)"}}'))
    await vi.waitFor(
      () =>
        expect(watcher.provider.awareness.getStates().get(id)).toEqual({
          user: { name: 'Ada (2)' },
        }),
      WAIT,
    )
    // The first tab goes: the second speaks for the client now, so its state stays.
    first.ws.close()
    await first.closed
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(watcher.provider.awareness.getStates().has(id)).toBe(true)
    second.ws.close()
    await vi.waitFor(() => expect(watcher.provider.awareness.getStates().has(id)).toBe(false), WAIT)
  })

  it("are not shown for read-only connections when the server hides them, and echoes of others' states pass", async () => {
    const { url } = await servers.start({ authorize: byQuery, hideReadOnlyPresence: true })
    const writer = servers.client(url, 'quiet', { user: 'ada' })
    const reader = servers.client(url, 'quiet', { user: 'vi', role: 'read' })
    await Promise.all([writer.synced(), reader.synced()])
    const readerCloses = reader.closes
    writer.provider.awareness.setLocalStateField('user', { name: 'Ada' })
    reader.provider.awareness.setLocalStateField('user', { name: 'Vi' })
    await vi.waitFor(
      () =>
        expect(reader.provider.awareness.getStates().get(writer.doc.clientID)).toEqual({
          user: { name: 'Ada' },
        }),
      WAIT,
    )
    writer.provider.awareness.setLocalStateField('user', { name: 'Ada L.' })
    await vi.waitFor(
      () =>
        expect(reader.provider.awareness.getStates().get(writer.doc.clientID)).toEqual({
          user: { name: 'Ada L.' },
        }),
      WAIT,
    )
    expect(writer.provider.awareness.getStates().has(reader.doc.clientID)).toBe(false)
    // The reader's client echoed every state it received: none of it counted against it.
    expect(readerCloses).toEqual([])
  })
})

describe('a read-only connection that keeps sending updates', () => {
  it('is closed over its limit even when the document already holds them', async () => {
    const { url, server } = await servers.start({
      authorize: byQuery,
      rateLimits: { refusedWriteBurst: 5 },
    })
    const writer = servers.client(url, 'held')
    await writer.synced()
    writer.text.insert(0, 'already here')
    const reader = await rawConnection(`${url}/held?role=read`)
    await vi.waitFor(() => expect(reader.received.length).toBeGreaterThan(0), WAIT)
    const held = updateOf(Y.encodeStateAsUpdate(writer.doc))
    for (let i = 0; i < 10; i++) reader.send(held)
    expect(await reader.closed).toEqual({
      code: 1008,
      reason: 'rate limit: too many refused updates from a read-only connection',
    })
    // None was refused as a change: the document had them all.
    expect(server.metrics.refusedWrites.value()).toBe(0)
    expect(reader.received.some((m) => m[0] === MessageType.auth)).toBe(false)
  })
})

describe('awareness answers for a connection that does not read', () => {
  it('are built once however often it asks', async () => {
    const { url, server } = await servers.start()
    const host = servers.client(url, 'asked')
    await host.synced()
    host.provider.awareness.setLocalStateField('user', { name: 'x'.repeat(2_000_000) })
    const before = server.metrics.bytesSent.value()
    const asker = await rawConnection(`${url}/asked`, { reading: false })
    for (let i = 0; i < 900; i++) asker.send(askForAwareness())
    await new Promise((resolve) => setTimeout(resolve, 300))
    // A few answers fill what the sockets of loopback take; answering each would send 900.
    expect((server.metrics.bytesSent.value() - before) / 2_000_000).toBeLessThan(20)
  })
})
