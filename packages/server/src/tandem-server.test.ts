/**
 * The server in this process over a real SQLite file, with stock y-websocket clients on
 * loopback.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { type Authorize, AuthRefusal } from './server-options.js'
import { SqliteStore } from './storage/sqlite-store.js'
import { TandemServer } from './tandem-server.js'
import { openClient, type StockClient } from './testing/clients.js'
import { upgradeAnswer } from './testing/upgrade.js'

const WAIT = { timeout: 10_000, interval: 10 }
const dir = mkdtempSync(join(tmpdir(), 'tandem-server-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let fileCount = 0
const running: { server: TandemServer; store: SqliteStore }[] = []
const clients: StockClient[] = []

/** A server on a free port over `file` (a new SQLite file unless given). */
const start = async (
  options: {
    file?: string
    authorize?: Authorize
    idleUnloadMs?: number
    maxMessageBytes?: number
  } = {},
) => {
  const file = options.file ?? join(dir, `server-${++fileCount}.sqlite`)
  const store = SqliteStore.open({ file })
  const server = new TandemServer({ store, ...options })
  const port = await server.listen(0)
  running.push({ server, store })
  return { server, store, file, url: `ws://127.0.0.1:${port}` }
}

const stop = async (entry: { server: TandemServer; store: SqliteStore }) => {
  await entry.server.close()
  await entry.store.close()
}

const client = (url: string, room: string, params?: Record<string, string>) => {
  const c = openClient(url, room, params)
  clients.push(c)
  return c
}

afterEach(async () => {
  for (const c of clients.splice(0)) c.destroy()
  for (const entry of running.splice(0)) await stop(entry)
})

describe('TandemServer with stock y-websocket clients', () => {
  it('syncs two clients, and gives a late one the whole document', async () => {
    const { url } = await start()
    const [a, b] = [client(url, 'notes'), client(url, 'notes')]
    await Promise.all([a.synced(), b.synced()])
    a.text.insert(0, 'hello')
    b.text.insert(0, 'well, ')
    await vi.waitFor(() => expect(a.text.toString()).toBe(b.text.toString()), WAIT)
    expect(a.text.toString()).toHaveLength(11)
    const late = client(url, 'notes')
    await late.synced()
    expect(late.text.toString()).toBe(a.text.toString())
    const other = client(url, 'other room')
    await other.synced()
    expect(other.text.toString()).toBe('')
  })

  it('keeps documents in the store: a new server on the same file has them', async () => {
    const first = await start()
    const writer = client(first.url, 'kept')
    await writer.synced()
    writer.text.insert(0, 'stored before the restart')
    const reader = client(first.url, 'kept')
    await vi.waitFor(() => expect(reader.text.toString()).toBe('stored before the restart'), WAIT)
    writer.destroy()
    reader.destroy()
    await stop(running.pop()!)

    const second = await start({ file: first.file })
    const back = client(second.url, 'kept')
    await back.synced()
    expect(back.text.toString()).toBe('stored before the restart')
  })

  it('relays awareness, and removes a closed connection’s states at once', async () => {
    const { url } = await start()
    const [a, b] = [client(url, 'presence'), client(url, 'presence')]
    await Promise.all([a.synced(), b.synced()])
    a.provider.awareness.setLocalStateField('user', { name: 'Ada' })
    await vi.waitFor(
      () =>
        expect(b.provider.awareness.getStates().get(a.doc.clientID)).toEqual({
          user: { name: 'Ada' },
        }),
      WAIT,
    )
    // Closed without saying goodbye: the server must tell the others.
    ;(a.provider.ws as unknown as WebSocket).terminate()
    a.provider.shouldConnect = false
    await vi.waitFor(
      () => expect(b.provider.awareness.getStates().has(a.doc.clientID)).toBe(false),
      WAIT,
    )
  })

  it('refuses upgrades its authorize hook refuses, with the status and reason, also over plain HTTP', async () => {
    const authorize: Authorize = (request) => {
      const token = new URL(request.url ?? '/', 'http://x').searchParams.get('token')
      if (token === null) throw new AuthRefusal(401, 'a token is needed')
      if (token !== 'good') throw new AuthRefusal(403, 'this token may not open this room')
      return { role: 'write' }
    }
    const { url } = await start({ authorize })
    const status = (query: string) => upgradeAnswer(`${url}/room${query}`)
    expect(await status('')).toEqual({ status: 401, body: 'a token is needed' })
    expect(await status('?token=bad')).toEqual({
      status: 403,
      body: 'this token may not open this room',
    })
    expect(await status('?token=good')).toEqual({ status: 101, body: '' })
    const probe = await fetch(`${url.replace('ws:', 'http:')}/room?token=bad`)
    expect(probe.status).toBe(403)
    expect(probe.headers.get('access-control-allow-origin')).toBe('*')
    expect(await probe.text()).toBe('this token may not open this room')
  })

  it('refuses an upgrade to a room name with a control character with 400 and the reason', async () => {
    const { url, server, store } = await start()
    const reason =
      'a room name cannot contain control characters (U+0000 to U+001F, U+007F to U+009F)'
    for (const [path, shown] of [
      ['/a%00b', '"a\\u0000b"'],
      ['/line%0Abreak', '"line\\nbreak"'],
      ['/del%7F', '"del\\u007f"'],
      ['/c1%C2%85', '"c1\\u0085"'],
    ]) {
      expect(await upgradeAnswer(`${url}${path}`), path).toEqual({
        status: 400,
        body: `${reason}, got ${shown}`,
      })
      const probe = await fetch(`${url.replace('ws:', 'http:')}${path}`)
      expect(probe.status, path).toBe(400)
    }
    expect(server.metrics.connectionsRefused.value({ reason: 'bad_request' })).toBe(4)
    // The no-break space right after the C1 range is an ordinary character.
    expect(await upgradeAnswer(`${url}/nbsp%C2%A0`)).toEqual({ status: 101, body: '' })
    await server.close()
    expect(await store.listRooms()).toEqual([])
  })

  it('never stores or relays a read-only client’s updates, tells it why, and keeps it live', async () => {
    const authorize: Authorize = (request) => ({
      role: request.url?.includes('role=read') ? 'read' : 'write',
    })
    const first = await start({ authorize })
    const writer = client(first.url, 'doc', { role: 'write' })
    await writer.synced()
    writer.text.insert(0, 'from the writer')
    const reader = client(first.url, 'doc', { role: 'read' })
    await reader.synced()
    expect(reader.text.toString()).toBe('from the writer')
    reader.text.insert(0, 'sneaky ')
    await vi.waitFor(
      () => expect(reader.denied).toEqual(['read-only: this connection may not edit the document']),
      WAIT,
    )
    // Still live: the writer's next edit reaches the reader.
    writer.text.insert(writer.text.length, '!')
    await vi.waitFor(() => expect(reader.text.toString()).toContain('from the writer!'), WAIT)
    expect(writer.text.toString()).toBe('from the writer!')
    // Not stored either: a new server on the same file has only the writer's text.
    writer.destroy()
    reader.destroy()
    await stop(running.pop()!)
    const second = await start({ file: first.file })
    const check = client(second.url, 'doc')
    await check.synced()
    expect(check.text.toString()).toBe('from the writer!')
  })

  it('closes a connection that sends a malformed message, and only that one', async () => {
    const { url } = await start()
    const good = client(url, 'shared')
    await good.synced()
    const bad = new WebSocket(`${url}/shared`)
    await new Promise((resolve) => bad.once('open', resolve))
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      bad.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    )
    // A sync update whose length prefix promises more bytes than there are.
    bad.send(new Uint8Array([0, 2, 200, 1, 7]))
    expect(await closed).toEqual({ code: 1007, reason: 'malformed message' })
    good.text.insert(0, 'still fine')
    const other = client(url, 'shared')
    await vi.waitFor(() => expect(other.text.toString()).toBe('still fine'), WAIT)
  })

  it('closes a connection whose message is over the size limit with 1009', async () => {
    const { url } = await start({ maxMessageBytes: 1024 })
    const big = new WebSocket(`${url}/limits`)
    await new Promise((resolve) => big.once('open', resolve))
    const closed = new Promise<number>((resolve) => big.once('close', (code) => resolve(code)))
    big.send(new Uint8Array(4096))
    expect(await closed).toBe(1009)
    // The server is still up, and the room still works.
    const fine = client(url, 'limits')
    await fine.synced()
  })

  it('unloads an idle room and loads it again on demand', async () => {
    const { server, url } = await start({ idleUnloadMs: 50 })
    const a = client(url, 'idle')
    await a.synced()
    a.text.insert(0, 'remember me')
    const b = client(url, 'idle')
    await vi.waitFor(() => expect(b.text.toString()).toBe('remember me'), WAIT)
    a.destroy()
    b.destroy()
    await vi.waitFor(() => expect(server.openRooms).toEqual([]), WAIT)
    const c = client(url, 'idle')
    await c.synced()
    expect(c.text.toString()).toBe('remember me')
    expect(server.openRooms).toEqual(['idle'])
  })

  it('answers /healthz', async () => {
    const { url } = await start()
    const response = await fetch(`${url.replace('ws:', 'http:')}/healthz`)
    expect(response.status).toBe(200)
  })
})
