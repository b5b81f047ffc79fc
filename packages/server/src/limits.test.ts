/**
 * Connection limits per room and per address, and per-connection rate limits, on a real
 * server over real SQLite with stock y-websocket clients and raw WebSockets on loopback.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as encoding from 'lib0/encoding'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import type { WebSocket } from 'ws'
import * as syncProtocol from 'y-protocols/sync'
import * as Y from 'yjs'
import { ConnectionLimits } from './connection-limits.js'
import { RateLimiter, rateLimitsWithDefaults, TokenBucket } from './rate-limit.js'
import type { Authorize, TandemServerOptions } from './server-options.js'
import { SqliteStore } from './storage/sqlite-store.js'
import { TandemServer } from './tandem-server.js'
import { openClient, type StockClient } from './testing/clients.js'
import { ServerProcess } from './testing/server-process.js'
import { openUpgrade } from './testing/upgrade.js'

const WAIT = { timeout: 10_000, interval: 20 }
const dir = mkdtempSync(join(tmpdir(), 'tandem-limits-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let fileCount = 0
const running: { server: TandemServer; store: SqliteStore }[] = []
const clients: StockClient[] = []
const sockets: WebSocket[] = []

const start = async (options: Omit<TandemServerOptions, 'store'> = {}) => {
  const store = SqliteStore.open({ file: join(dir, `limits-${++fileCount}.sqlite`) })
  const server = new TandemServer({ store, ...options })
  const port = await server.listen(0)
  running.push({ server, store })
  return { server, store, url: `ws://127.0.0.1:${port}`, http: `http://127.0.0.1:${port}` }
}

const client = (url: string, room: string, params?: Record<string, string>) => {
  const c = openClient(url, room, params)
  clients.push(c)
  return c
}

/** How an upgrade to `url` ends: 101 when it opened (the socket is kept), or the refusal. */
const upgrade = async (url: string, headers: Record<string, string> = {}) => {
  const outcome = await openUpgrade(url, headers)
  sockets.push(outcome.ws)
  return outcome
}

/** The status and body a plain GET of `url` gets (how clients learn why an upgrade failed). */
const probe = async (url: string) => {
  const response = await fetch(url)
  return { status: response.status, body: await response.text() }
}

const closeOf = (ws: WebSocket) =>
  new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  )

/** A sync update message that inserts `text` (a new update every call). */
const updateMessages = (count: number): Uint8Array[] => {
  const doc = new Y.Doc()
  const updates: Uint8Array[] = []
  doc.on('update', (update: Uint8Array) => updates.push(update))
  for (let i = 0; i < count; i++) doc.getText('text').insert(0, 'x')
  return updates.map((update) => {
    const encoder = encoding.createEncoder()
    encoding.writeVarUint(encoder, 0)
    syncProtocol.writeUpdate(encoder, update)
    return encoding.toUint8Array(encoder)
  })
}

afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate()
  for (const c of clients.splice(0)) c.destroy()
  for (const { server, store } of running.splice(0)) {
    await server.close()
    await store.close()
  }
})

describe('connection limits', () => {
  it('refuses a connection over the room limit with 503 and a reason, also over plain GET, and takes one again once a slot is free', async () => {
    const { url, http, server } = await start({ maxConnectionsPerRoom: 2 })
    const [a, b] = [client(url, 'full'), client(url, 'full')]
    await Promise.all([a.synced(), b.synced()])
    const refused = await upgrade(`${url}/full`)
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 503,
      body: 'this room is full (connection limit 2)',
    })
    expect(await probe(`${http}/full`)).toEqual({
      status: 503,
      body: 'this room is full (connection limit 2)',
    })
    // Another room is not affected.
    expect((await upgrade(`${url}/elsewhere`)).status).toBe(101)
    a.destroy()
    await vi.waitFor(async () => expect((await probe(`${http}/full`)).status).toBe(426), WAIT)
    const c = client(url, 'full')
    await c.synced()
    expect(server.metrics.connectionsRefused.value({ reason: 'room_full' })).toBe(1)
  })

  it('refuses a connection over the address limit with 429, whatever the room', async () => {
    const { url, http } = await start({ maxConnectionsPerIp: 2 })
    const [a, b] = [client(url, 'one'), client(url, 'two')]
    await Promise.all([a.synced(), b.synced()])
    const reason = 'too many connections from this address (limit 2)'
    const refused = await upgrade(`${url}/three`)
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 429, body: reason })
    expect(await probe(`${http}/three`)).toEqual({ status: 429, body: reason })
    b.destroy()
    await vi.waitFor(async () => expect((await probe(`${http}/three`)).status).toBe(426), WAIT)
    expect((await upgrade(`${url}/three`)).status).toBe(101)
  })

  it('counts by the last X-Forwarded-For entry with trustProxy', async () => {
    const { url } = await start({ maxConnectionsPerIp: 1, trustProxy: true })
    const from = (forwarded: string) => upgrade(`${url}/proxied`, { 'x-forwarded-for': forwarded })
    expect((await from('203.0.113.9')).status).toBe(101)
    expect((await from('203.0.113.9')).status).toBe(429)
    // Only the entry the proxy added counts: what the client wrote before it does not.
    expect((await from('203.0.113.9, 198.51.100.4')).status).toBe(101)
    expect((await from('198.51.100.4, 203.0.113.9')).status).toBe(429)
  })

  it('gives the slot back when the room fails to load', async () => {
    const { url, http, store } = await start({ maxConnectionsPerRoom: 1 })
    await store.close()
    for (let attempt = 0; attempt < 3; attempt++) {
      const { status, ws } = await upgrade(`${url}/broken`)
      expect(status).toBe(101)
      expect(await closeOf(ws)).toEqual({ code: 1011, reason: 'could not load the document' })
      await vi.waitFor(async () => expect((await probe(`${http}/broken`)).status).toBe(426), WAIT)
    }
  })

  it('keeps counts per room and per address, and refuses bad limits', () => {
    const limits = new ConnectionLimits({ perRoom: 2, perAddress: 3 })
    const first = limits.admit('r', 'a')
    const second = limits.admit('r', 'b')
    expect('release' in first && 'release' in second).toBe(true)
    expect(limits.admit('r', 'c')).toEqual({
      refusal: {
        status: 503,
        reason: 'this room is full (connection limit 2)',
        cause: 'room_full',
      },
    })
    if ('release' in first) {
      first.release()
      first.release()
    }
    expect(limits.inRoom('r')).toBe(1)
    expect(limits.fromAddress('a')).toBe(0)
    expect(() => new ConnectionLimits({ perRoom: 0 })).toThrow(RangeError)
    expect(() => new ConnectionLimits({ perAddress: 1.5 })).toThrow(RangeError)
    expect(new ConnectionLimits({ perRoom: Number.POSITIVE_INFINITY }).perRoom).toBe(
      Number.POSITIVE_INFINITY,
    )
  })
})

describe('rate limits', () => {
  it('closes a connection sending too many messages with 1008, while the room goes on', async () => {
    const { url, server } = await start({ rateLimits: { messagesPerSecond: 5, messageBurst: 20 } })
    const [a, b] = [client(url, 'busy'), client(url, 'busy')]
    await Promise.all([a.synced(), b.synced()])
    const { ws } = await upgrade(`${url}/busy`)
    const closed = closeOf(ws)
    // Query-awareness messages: each is harmless, but not 50 at once.
    for (let i = 0; i < 50; i++) ws.send(new Uint8Array([3]))
    expect(await closed).toEqual({ code: 1008, reason: 'rate limit: too many messages' })
    a.text.insert(0, 'still here')
    await vi.waitFor(() => expect(b.text.toString()).toBe('still here'), WAIT)
    expect(server.metrics.rateLimitCloses.value({ limit: 'messages' })).toBe(1)
  })

  it('closes a connection sending too many bytes with 1008', async () => {
    const { url } = await start({
      maxMessageBytes: 4096,
      rateLimits: { bytesPerSecond: 100, byteBurst: 4096 },
    })
    const { ws } = await upgrade(`${url}/bytes`)
    const closed = closeOf(ws)
    // A message type the server ignores, padded: fine once, not three times in a row.
    for (let i = 0; i < 3; i++) ws.send(new Uint8Array(2000).fill(9, 0, 1))
    expect(await closed).toEqual({ code: 1008, reason: 'rate limit: too many bytes' })
  })

  it('closes a read-only connection that keeps sending updates after being refused', async () => {
    const authorize: Authorize = (request) => ({
      role: request.url?.includes('role=read') ? 'read' : 'write',
    })
    const { url, server } = await start({ authorize, rateLimits: { refusedWriteBurst: 5 } })
    const writer = client(url, 'read-only')
    await writer.synced()
    const { ws } = await upgrade(`${url}/read-only?role=read`)
    const denied: Uint8Array[] = []
    ws.on('message', (data: Buffer) => {
      if (data[0] === 2) denied.push(new Uint8Array(data))
    })
    const closed = closeOf(ws)
    for (const message of updateMessages(10)) ws.send(message)
    expect(await closed).toEqual({
      code: 1008,
      reason: 'rate limit: too many refused updates from a read-only connection',
    })
    expect(denied).toHaveLength(5)
    expect(server.metrics.refusedWrites.value()).toBe(6)
    writer.text.insert(0, 'the writer is fine')
    const late = client(url, 'read-only')
    await vi.waitFor(() => expect(late.text.toString()).toBe('the writer is fine'), WAIT)
  })

  it('never trips a stock client typing quickly with its cursor, nor a 1 MB paste, with the defaults', async () => {
    const { url, server } = await start()
    const [typist, reader] = [client(url, 'typing'), client(url, 'typing')]
    const closes = [typist.closes, reader.closes]
    await Promise.all([typist.synced(), reader.synced()])
    // 300 keystrokes at about 100 a second (several times a fast typist), each moving the
    // caret in awareness as editor bindings do: two messages per keystroke.
    await new Promise<void>((resolve) => {
      let typed = 0
      const timer = setInterval(() => {
        typist.text.insert(typist.text.length, String.fromCharCode(97 + (typed % 26)))
        typist.provider.awareness.setLocalStateField('cursor', { at: typist.text.length })
        if (++typed === 300) {
          clearInterval(timer)
          resolve()
        }
      }, 10)
    })
    const paste = 'pasted text\n'.repeat(Math.ceil(1_000_000 / 12))
    typist.text.insert(0, paste)
    typist.text.insert(typist.text.length, '!')
    const expected = typist.text.toString()
    await vi.waitFor(() => expect(reader.text.toString()).toBe(expected), WAIT)
    expect(closes).toEqual([[], []])
    expect(server.metrics.rateLimitCloses.value({ limit: 'messages' })).toBe(0)
    expect(server.metrics.rateLimitCloses.value({ limit: 'bytes' })).toBe(0)
    const late = client(url, 'typing')
    await late.synced()
    expect(late.text.length).toBe(expected.length)
  })
})

describe('tandem-server limit flags', () => {
  it('applies --max-connections-per-room and --max-connections-per-ip, and refuses a bad value', async () => {
    const server = await ServerProcess.start({
      data: join(dir, 'process'),
      args: ['--max-connections-per-room', '1', '--max-connections-per-ip', '2'],
    })
    try {
      const http = server.url.replace('ws:', 'http:')
      expect((await upgrade(`${server.url}/one`)).status).toBe(101)
      expect(await probe(`${http}/one`)).toEqual({
        status: 503,
        body: 'this room is full (connection limit 1)',
      })
      expect((await upgrade(`${server.url}/two`)).status).toBe(101)
      expect(await probe(`${http}/three`)).toEqual({
        status: 429,
        body: 'too many connections from this address (limit 2)',
      })
    } finally {
      await server.kill('SIGKILL')
    }
    await expect(
      ServerProcess.start({ data: join(dir, 'bad'), args: ['--max-connections-per-ip', '0'] }),
    ).rejects.toThrow('--max-connections-per-ip must be a positive integer or Infinity, got 0')
  })
})

describe('TokenBucket and RateLimiter', () => {
  it('start full, refill at their rate, and cap at their burst', () => {
    let now = 0
    const bucket = new TokenBucket(10, 5, () => now)
    expect([1, 2, 3, 4, 5, 6].map(() => bucket.take(1))).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
    ])
    now += 250
    expect(bucket.take(2)).toBe(true)
    expect(bucket.take(1)).toBe(false)
    now += 60_000
    expect(bucket.take(5)).toBe(true)
    expect(bucket.take(1)).toBe(false)
  })

  it('fill in defaults that let the largest message through, and refuse bad values', () => {
    const limits = rateLimitsWithDefaults({}, 1_000_000)
    expect(limits).toEqual({
      messagesPerSecond: 100,
      messageBurst: 1000,
      bytesPerSecond: 1024 * 1024,
      byteBurst: 1_000_000,
      refusedWritesPerSecond: 1,
      refusedWriteBurst: 20,
      refusedAwarenessPerSecond: 1,
      refusedAwarenessBurst: 20,
      apiRequestsPerSecond: 20,
      apiRequestBurst: 100,
    })
    let now = 0
    const limiter = new RateLimiter(limits, () => now)
    expect(limiter.message(1_000_000)).toBeNull()
    expect(limiter.message(1)).toBe('bytes')
    now += 1000
    expect(limiter.message(1000)).toBeNull()
    expect(() => rateLimitsWithDefaults({ messagesPerSecond: 0 }, 10)).toThrow(RangeError)
    expect(() => rateLimitsWithDefaults({ byteBurst: 5 }, 10)).toThrow(RangeError)
    const unlimited = new TokenBucket(Number.POSITIVE_INFINITY, 1, () => 0)
    expect([1, 2, 3].every(() => unlimited.take(1))).toBe(true)
  })
})
