import { describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import { useTestServers } from '../testing/test-servers.js'
import { upgradeAnswer } from '../testing/upgrade.js'
import { NO_TOKEN_REASON, tokenAuthorizer } from './token-authorizer.js'
import { signToken, type TokenClaims } from './tokens.js'

const WAIT = { timeout: 10_000, interval: 10 }
const SECRET = 'the secret of this test server, long enough'

const servers = useTestServers('tokens')
const start = () => servers.start({ authorize: tokenAuthorizer(SECRET) })

const now = () => Math.floor(Date.now() / 1000)
const token = (claims: Partial<TokenClaims> = {}, secret = SECRET) =>
  signToken({ room: 'notes', role: 'write', sub: 'ada', exp: now() + 600, ...claims }, secret)

const client = servers.client

/** The answer to a WebSocket upgrade of `path`: 101 when it opened, else the refusal. */
const upgrade = (url: string, path: string, headers: Record<string, string> = {}) =>
  upgradeAnswer(`${url}${path}`, headers)

describe('tokenAuthorizer on a TandemServer', () => {
  it('refuses no token, a bad signature, an expired token (401) and a wrong room (403), with the reason', async () => {
    const { url } = await start()
    expect(await upgrade(url, '/notes')).toEqual({ status: 401, body: NO_TOKEN_REASON })
    expect(await upgrade(url, '/notes?token=')).toEqual({ status: 401, body: NO_TOKEN_REASON })
    const forged = token({}, 'another secret, just as long as the right one')
    expect(await upgrade(url, `/notes?token=${forged}`)).toEqual({
      status: 401,
      body: 'invalid token: bad signature',
    })
    const exp = now() - 5
    expect(await upgrade(url, `/notes?token=${token({ iat: exp - 60, exp })}`)).toEqual({
      status: 401,
      body: `invalid token: expired at ${new Date(exp * 1000).toISOString()}`,
    })
    expect(await upgrade(url, '/notes?token=not.a.token')).toMatchObject({ status: 401 })
    expect(await upgrade(url, `/other?token=${token()}`)).toEqual({
      status: 403,
      body: 'the token does not open the room "other"',
    })
    expect(await upgrade(url, `/notes?token=${token()}`)).toEqual({ status: 101, body: '' })
    // A plain GET of the same address gets the same answer, as browsers learn the reason.
    const probe = await fetch(`${url.replace('ws:', 'http:')}/other?token=${token()}`)
    expect(probe.status).toBe(403)
    expect(await probe.text()).toBe('the token does not open the room "other"')
  })

  it('refuses a token living longer than 30 days (401), unless the server allows more', async () => {
    const { url } = await start()
    const day = 24 * 3600
    const iat = now()
    const month = token({ iat, exp: iat + 31 * day })
    expect(await upgrade(url, `/notes?token=${month}`)).toEqual({
      status: 401,
      body: `invalid token: lives too long: ${31 * day} s from issue to expiry, more than the ${30 * day} s allowed`,
    })
    const forever = token({ iat, exp: 1e308 })
    expect((await upgrade(url, `/notes?token=${forever}`)).status).toBe(401)
    const lenient = await servers.start({
      authorize: tokenAuthorizer(SECRET, { maxLifetimeSeconds: 40 * day }),
    })
    expect((await upgrade(lenient.url, `/notes?token=${month}`)).status).toBe(101)
    expect((await upgrade(lenient.url, `/notes?token=${forever}`)).status).toBe(401)
    expect(() => tokenAuthorizer(SECRET, { maxLifetimeSeconds: -1 })).toThrow(RangeError)
  })

  it('opens the rooms a pattern matches, and takes a Bearer header too', async () => {
    const { url } = await start()
    const team = token({ room: 'team/*' })
    expect((await upgrade(url, `/team%2Fplan?token=${team}`)).status).toBe(101)
    expect((await upgrade(url, `/team%2Fa%2Fb?token=${team}`)).status).toBe(101)
    expect((await upgrade(url, `/teams?token=${team}`)).status).toBe(403)
    const exact = token({ room: 'a.c (draft)' })
    expect(
      (await upgrade(url, `/${encodeURIComponent('a.c (draft)')}?token=${exact}`)).status,
    ).toBe(101)
    expect((await upgrade(url, `/abc%20(draft)?token=${exact}`)).status).toBe(403)
    const bearer = { authorization: `Bearer ${token()}` }
    expect(await upgrade(url, '/notes', bearer)).toEqual({ status: 101, body: '' })
    expect((await upgrade(url, '/other', bearer)).status).toBe(403)
  })

  it('gives a read token the document live, refuses its updates, and never stores or relays them', async () => {
    const { server, store, url } = await start()
    const writer = client(url, 'notes', { token: token({ role: 'write', sub: 'ed' }) })
    await writer.synced()
    writer.text.insert(0, 'from the writer')
    const reader = client(url, 'notes', { token: token({ role: 'read', sub: 'vi' }) })
    await reader.synced()
    expect(reader.text.toString()).toBe('from the writer')

    // Its awareness still reaches the writer.
    reader.provider.awareness.setLocalStateField('user', { name: 'Vi' })
    await vi.waitFor(
      () =>
        expect(writer.provider.awareness.getStates().get(reader.doc.clientID)).toEqual({
          user: { name: 'Vi' },
        }),
      WAIT,
    )

    reader.text.insert(0, 'sneaky ')
    await vi.waitFor(
      () => expect(reader.denied).toEqual(['read-only: this connection may not edit the document']),
      WAIT,
    )
    // Live: the writer's next edit reaches the reader.
    writer.text.insert(writer.text.length, '!')
    await vi.waitFor(() => expect(reader.text.toString()).toBe('sneaky from the writer!'), WAIT)

    // A client joining now gets the server's document: the reader's edit is not in it.
    const late = client(url, 'notes', { token: token({ role: 'read', sub: 'lee' }) })
    await late.synced()
    expect(late.text.toString()).toBe('from the writer!')
    expect(writer.text.toString()).toBe('from the writer!')
    expect(writer.doc.store.clients.has(reader.doc.clientID)).toBe(false)

    // Nor in the store, once every received update is flushed.
    servers.destroyClients()
    await server.close()
    const stored = await store.load('notes')
    const authors = new Set(
      stored.updates.flatMap((update) => Y.decodeUpdate(update).structs.map((s) => s.id.client)),
    )
    expect(authors).toEqual(new Set([writer.doc.clientID]))
    const rebuilt = new Y.Doc()
    for (const update of stored.updates) Y.applyUpdate(rebuilt, update)
    expect(rebuilt.getText('text').toString()).toBe('from the writer!')
  })
})
