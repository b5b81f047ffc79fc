/**
 * Tokens enforced for the life of a connection, on a real server over real SQLite: a
 * connection is closed when its token expires, and a client may hand over a fresh token
 * (message type 101) without reconnecting. Stock y-websocket clients and raw WebSockets on
 * loopback; the command line as its own process.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MessageType } from '@tandem/protocol'
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import type { WebSocket } from 'ws'
import { tokenAuth, tokenAuthorizer } from './auth/token-authorizer.js'
import { signToken, type TokenClaims } from './auth/tokens.js'
import { type Authorization, AuthRefusal } from './server-options.js'
import type { StockClient } from './testing/clients.js'
import { ServerProcess } from './testing/server-process.js'
import { useTestServers } from './testing/test-servers.js'
import { openUpgrade } from './testing/upgrade.js'

const WAIT = { timeout: 15_000, interval: 10 }
const SECRET = 'the secret of the token renewal tests, long'

const servers = useTestServers('access')
const sockets: WebSocket[] = []
afterEach(() => {
  for (const ws of sockets.splice(0)) ws.terminate()
})
const dataDir = mkdtempSync(join(tmpdir(), 'tandem-access-process-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/** A token for `notes` as `ada`, expiring `seconds` from now (fractions allowed). */
const token = (seconds: number, claims: Partial<TokenClaims> = {}, secret = SECRET) => {
  const now = Date.now() / 1000
  return signToken(
    { room: 'notes', role: 'write', sub: 'ada', exp: now + seconds, ...claims },
    secret,
  )
}

/** The message a client hands a fresh token over with. */
const tokenMessage = (fresh: string): Uint8Array => {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, MessageType.token)
  encoding.writeVarString(encoder, fresh)
  return encoding.toUint8Array(encoder)
}

/** A raw WebSocket on `path` of `url`, open. */
const open = async (url: string, path: string): Promise<WebSocket> => {
  const outcome = await openUpgrade(`${url}${path}`)
  sockets.push(outcome.ws)
  expect({ status: outcome.status, body: outcome.body }).toEqual({ status: 101, body: '' })
  return outcome.ws
}

/** The code and reason `ws` closes with; rejects when it is still open 15 s later. */
const closeOf = (ws: WebSocket) =>
  new Promise<{ code: number; reason: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('still open after 15 s')), 15_000)
    ws.once('close', (code, reason) => {
      clearTimeout(timer)
      resolve({ code, reason: reason.toString() })
    })
  })

/** Resolves once the server answered a query of awareness on `ws`: the connection is open. */
const roundTrip = (ws: WebSocket) =>
  new Promise<void>((resolve, reject) => {
    const onMessage = (data: Buffer) => {
      if (decoding.readVarUint(decoding.createDecoder(new Uint8Array(data))) !== 1) return
      ws.off('message', onMessage)
      resolve()
    }
    ws.on('message', onMessage)
    ws.once('close', (code) => reject(new Error(`closed with ${code}`)))
    ws.send(new Uint8Array([MessageType.queryAwareness]))
  })

/** Waits (at most 15 s) until the clock is past `ms` since the epoch. */
const waitPast = (ms: number) =>
  vi.waitFor(() => expect(Date.now()).toBeGreaterThan(ms), { timeout: 15_000, interval: 50 })

/** Close events a stock client saw. */
const closesOf = (c: StockClient) => {
  const closes: { code: number; reason: string }[] = []
  c.provider.on('connection-close', (event: { code: number; reason: string } | null) => {
    if (event) closes.push({ code: event.code, reason: event.reason })
  })
  return closes
}

describe('a token on an open connection', () => {
  it('closes the connection with 4401 "token expired" when its token expires, and counts it', async () => {
    const { url, server } = await servers.start(tokenAuth(SECRET))
    const ws = await open(url, `/notes?token=${token(1)}`)
    await roundTrip(ws)
    expect(await closeOf(ws)).toEqual({ code: 4401, reason: 'token expired' })
    expect(server.metrics.tokenExpiredCloses.value()).toBe(1)
    expect(server.metrics.render()).toMatch(/^tandem_token_expired_closes_total 1$/m)
  })

  it('closes at the expiresAt any authorize hook returns, and a stock client is told why', async () => {
    const { url } = await servers.start({
      authorize: (): Authorization => ({ role: 'write', user: 'ada', expiresAt: Date.now() + 500 }),
    })
    const ws = await open(url, '/notes')
    expect(await closeOf(ws)).toEqual({ code: 4401, reason: 'token expired' })
    const client = servers.client(url, 'notes')
    const closes = closesOf(client)
    await client.synced()
    await vi.waitFor(() => expect(closes[0]).toEqual({ code: 4401, reason: 'token expired' }), WAIT)
  })

  it('keeps the connection past the first expiry once a fresh token is handed over', async () => {
    const { url, server } = await servers.start(tokenAuth(SECRET))
    const expiring = token(1.5)
    const writer = servers.client(url, 'notes', { token: expiring })
    const closes = closesOf(writer)
    const reader = servers.client(url, 'notes', { token: token(600, { sub: 'bob' }) })
    await Promise.all([writer.synced(), reader.synced()])
    writer.provider.ws!.send(tokenMessage(token(600)))
    await waitPast(Date.now() + 2_000)
    writer.text.insert(0, 'still here')
    await vi.waitFor(() => expect(reader.text.toString()).toBe('still here'), WAIT)
    expect(closes).toEqual([])
    expect(server.metrics.tokenRenewals.value({ outcome: 'accepted' })).toBe(1)
    expect(server.metrics.tokenExpiredCloses.value()).toBe(0)
  })

  it("takes the fresh token's role: a reader handed a write token may edit, and back", async () => {
    const { url } = await servers.start(tokenAuth(SECRET))
    const watcher = servers.client(url, 'notes', { token: token(600, { sub: 'bob' }) })
    const ada = servers.client(url, 'notes', { token: token(600, { role: 'read' }) })
    await Promise.all([watcher.synced(), ada.synced()])
    // The handover and the edit leave together: the edit is judged under the fresh token.
    ada.provider.ws!.send(tokenMessage(token(600, { role: 'write' })))
    ada.text.insert(0, 'taken')
    await vi.waitFor(() => expect(watcher.text.toString()).toBe('taken'), WAIT)
    ada.provider.ws!.send(tokenMessage(token(600, { role: 'read' })))
    ada.text.insert(5, ', then refused')
    await vi.waitFor(
      () => expect(ada.denied).toEqual(['read-only: this connection may not edit the document']),
      WAIT,
    )
    expect(watcher.text.toString()).toBe('taken')
  })

  it('judges messages after a handover under the fresh token while a slow hook checks it', async () => {
    const roleOf = (key: string | null): Authorization => {
      if (key === 'read' || key === 'write') return { role: key, user: 'ada' }
      throw new AuthRefusal(401, 'unknown key')
    }
    const { url } = await servers.start({
      authorize: (request) =>
        roleOf(new URL(request.url ?? '/', 'http://x').searchParams.get('key')),
      authorizeToken: async (fresh) => {
        await new Promise((resolve) => setTimeout(resolve, 200))
        return roleOf(fresh)
      },
    })
    const watcher = servers.client(url, 'notes', { key: 'write' })
    const ada = servers.client(url, 'notes', { key: 'read' })
    await Promise.all([watcher.synced(), ada.synced()])
    ada.provider.ws!.send(tokenMessage('write'))
    ada.text.insert(0, 'after the handover')
    await vi.waitFor(() => expect(watcher.text.toString()).toBe('after the handover'), WAIT)
    expect(ada.denied).toEqual([])
  })

  it('closes the connection for a token handed over that is bad (4401) or not for it (4403)', async () => {
    const { url, server } = await servers.start(tokenAuth(SECRET))
    const exp = Math.floor(Date.now() / 1000) - 5
    const cases: [string, { code: number; reason: string }][] = [
      [
        token(600, {}, 'another secret, just as long as the right one'),
        { code: 4401, reason: 'invalid token: bad signature' },
      ],
      [
        token(0, { iat: exp - 60, exp }),
        { code: 4401, reason: `invalid token: expired at ${new Date(exp * 1000).toISOString()}` },
      ],
      ['', { code: 4401, reason: 'invalid token: the token handed over is empty' }],
      [
        token(600, { room: 'other' }),
        { code: 4403, reason: 'the token does not open the room "notes"' },
      ],
      [token(600, { sub: 'mallory' }), { code: 4403, reason: 'the token is for another user' }],
    ]
    for (const [fresh, expected] of cases) {
      const ws = await open(url, `/notes?token=${token(600)}`)
      await roundTrip(ws)
      const closed = closeOf(ws)
      ws.send(tokenMessage(fresh))
      expect(await closed, expected.reason).toEqual(expected)
    }
    expect(server.metrics.tokenRenewals.value({ outcome: 'refused' })).toBe(cases.length)
    // A handover that does not decode is a malformed message.
    const ws = await open(url, `/notes?token=${token(600)}`)
    const closed = closeOf(ws)
    ws.send(new Uint8Array([MessageType.token, 5]))
    expect(await closed).toEqual({ code: 1007, reason: 'malformed message' })
  })

  it('ignores a handover on a server without authorizeToken: the first expiry stands', async () => {
    const { url, server } = await servers.start({ authorize: tokenAuthorizer(SECRET) })
    const ws = await open(url, `/notes?token=${token(1)}`)
    const closed = closeOf(ws)
    ws.send(tokenMessage(token(600)))
    await roundTrip(ws)
    expect(await closed).toEqual({ code: 4401, reason: 'token expired' })
    expect(server.metrics.tokenRenewals.value({ outcome: 'accepted' })).toBe(0)
  })
})

describe('tandem-server --auth-secret', () => {
  it('closes a connection whose token expired and keeps one that handed over a fresh token', async () => {
    const server = await ServerProcess.start({
      data: join(dataDir, 'data'),
      env: { TANDEM_AUTH_SECRET: SECRET },
    })
    try {
      const kept = await open(server.url, `/notes?token=${token(1.5)}`)
      const dropped = await open(server.url, `/notes?token=${token(1.5)}`)
      const droppedClose = closeOf(dropped)
      kept.send(tokenMessage(token(600)))
      expect(await droppedClose).toEqual({ code: 4401, reason: 'token expired' })
      await roundTrip(kept)
    } finally {
      await server.kill('SIGKILL')
    }
  })
})
