/**
 * Sockets that have not become WebSocket connections: a bound on the time their request
 * headers may take, and a cap on how many one address may hold at once. Raw TCP sockets on
 * loopback against a real server over real SQLite, and the command line as its own process.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { SqliteStore } from './storage/sqlite-store.js'
import { TandemServer } from './tandem-server.js'
import { ServerProcess } from './testing/server-process.js'
import { useTestServers } from './testing/test-servers.js'
import { upgradeAnswer } from './testing/upgrade.js'

const WAIT = { timeout: 10_000, interval: 50 }
const servers = useTestServers('pending')
const sockets: Socket[] = []
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy()
})
const dataDir = mkdtempSync(join(tmpdir(), 'tandem-pending-process-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/** A raw TCP socket to `port` on loopback, connected, with what it receives kept. */
const rawSocket = async (port: number) => {
  const socket = connect(port, '127.0.0.1')
  sockets.push(socket)
  let received = ''
  let closed = false
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString()
  })
  socket.on('error', () => {})
  socket.once('close', () => {
    closed = true
  })
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('close', () => reject(new Error('closed before it connected')))
  })
  return {
    socket,
    received: () => received,
    isClosed: () => closed,
    /** Resolves once the server closed it; rejects if still open `withinMs` later. */
    closed: (withinMs: number) =>
      new Promise<void>((resolve, reject) => {
        if (closed) return resolve()
        const timer = setTimeout(
          () => reject(new Error(`still open after ${withinMs} ms`)),
          withinMs,
        )
        socket.once('close', () => {
          clearTimeout(timer)
          resolve()
        })
      }),
  }
}

/** A full plain GET of `path` on `socket`; resolves with the answer's status line. */
const get = (socket: Socket, path: string) =>
  new Promise<string>((resolve, reject) => {
    socket.once('data', (chunk: Buffer) => resolve(chunk.toString().split('\r\n')[0]!))
    socket.once('close', () => reject(new Error('closed without an answer')))
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
  })

describe('sockets before their upgrade', () => {
  it('closes a socket whose request headers come too slowly, with 408, and counts it', async () => {
    const { port, server } = await servers.start({ headersTimeoutMs: 500 })
    const slow = await rawSocket(port)
    // One header line every 100 ms, never the blank line that ends them: at most 100 lines.
    slow.socket.write('GET /notes HTTP/1.1\r\nHost: 127.0.0.1\r\n')
    const trickle = setInterval(() => {
      if (!slow.isClosed()) slow.socket.write(`X-Slow-${Date.now()}: 1\r\n`)
    }, 100)
    const silent = await rawSocket(port)
    try {
      await Promise.all([slow.closed(10_000), silent.closed(10_000)])
    } finally {
      clearInterval(trickle)
    }
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /)
    expect(server.metrics.connectionsRefused.value({ reason: 'headers_timeout' })).toBe(2)
    // A client sending its request at once is served.
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200)
  })

  it('destroys a socket over the per-address cap at once, and takes one again once a slot is free', async () => {
    const { port, url, server } = await servers.start({ maxPendingSocketsPerIp: 3 })
    const held = [await rawSocket(port), await rawSocket(port), await rawSocket(port)]
    const over = await rawSocket(port).catch((error: Error) => error)
    if (!(over instanceof Error)) await over.closed(10_000)
    expect(server.metrics.connectionsRefused.value({ reason: 'pending_limit' })).toBe(1)
    // The sockets held are served.
    expect(await get(held[0]!.socket, '/healthz')).toBe('HTTP/1.1 200 OK')
    for (const socket of held) expect(socket.isClosed()).toBe(false)
    // One closes: its slot is free once the server has seen it close.
    held[1]!.socket.destroy()
    const next = await vi.waitFor(async () => {
      const socket = await rawSocket(port)
      expect(await get(socket.socket, '/healthz')).toBe('HTTP/1.1 200 OK')
      return socket
    }, WAIT)
    // Upgraded sockets are WebSocket connections, no longer pending: more than 3 may be open.
    next.socket.destroy()
    held[2]!.socket.destroy()
    const clients = Array.from({ length: 5 }, () => servers.client(url, 'notes'))
    await Promise.all(clients.map((c) => c.synced()))
  })

  it('counts sockets from behind a trusted proxy by the proxy, so it does not cap them', async () => {
    const { port } = await servers.start({ maxPendingSocketsPerIp: 1, trustProxy: true })
    const held = [await rawSocket(port), await rawSocket(port)]
    expect(await get(held[1]!.socket, '/healthz')).toBe('HTTP/1.1 200 OK')
  })

  it('refuses unusable values with a RangeError', async () => {
    const store = SqliteStore.open({ file: ':memory:' })
    expect(() => new TandemServer({ store, headersTimeoutMs: 0 })).toThrow(RangeError)
    expect(() => new TandemServer({ store, maxPendingSocketsPerIp: 1.5 })).toThrow(RangeError)
    await store.close()
  })
})

describe('tandem-server --headers-timeout-ms and --max-pending-sockets-per-ip', () => {
  it('bounds slow headers and caps pending sockets per address', async () => {
    const server = await ServerProcess.start({
      data: join(dataDir, 'data'),
      args: ['--headers-timeout-ms', '1500', '--max-pending-sockets-per-ip', '2'],
    })
    try {
      const [first, second] = [await rawSocket(server.port), await rawSocket(server.port)]
      const third = await rawSocket(server.port).catch((error: Error) => error)
      if (!(third instanceof Error)) await third.closed(10_000)
      await Promise.all([first.closed(10_000), second.closed(10_000)])
      expect(await upgradeAnswer(`${server.url}/notes`)).toEqual({ status: 101, body: '' })
    } finally {
      await server.kill('SIGKILL')
    }
    expect(server.output).toContain('"msg":"closed a socket whose request headers were too slow"')
    expect(server.output).toContain(
      '"msg":"destroyed sockets over the pending limit of an address"',
    )
  })
})
