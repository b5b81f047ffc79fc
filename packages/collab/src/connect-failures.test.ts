/**
 * `connect` tells the application why it cannot connect, against real servers on loopback: a
 * port nothing listens on, a Tandem server asked at a path that names no room, and plain HTTP
 * servers answering 404, 200 and 500 where a WebSocket was expected.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SqliteStore, StaticSite, TandemServer } from '@tandem/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import * as Y from 'yjs'
import { ConnectError, type ConnectFailure } from './auth-failure.js'
import { type CollabConnection, connect } from './connect.js'

const WAIT = { timeout: 10_000, interval: 10 }
const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A plain HTTP server answering every request with `status` and `body`. */
const httpServer = async (status: number, body: string): Promise<string> => {
  const server: Server = createServer((_request, response) => {
    response.writeHead(status, { 'content-type': 'text/plain' }).end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(() => new Promise((resolve) => server.close(resolve)))
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** A port that was free a moment ago: nothing listens on it. */
const closedPort = async (): Promise<string> => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return `ws://127.0.0.1:${port}`
}

/** A Tandem server serving a web app, so its rooms are under /ws/. */
const tandemWithSite = async (): Promise<string> => {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-connect-failures-'))
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>app</title>')
  const store = SqliteStore.open({ file: join(dir, 'documents.sqlite') })
  const tandem = new TandemServer({ store, site: await StaticSite.open(dir) })
  const port = await tandem.listen(0, '127.0.0.1')
  cleanups.push(async () => {
    await tandem.close()
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return `ws://127.0.0.1:${port}`
}

const open = (url: string) => {
  const connection: CollabConnection = connect(new Y.Doc(), {
    url,
    room: 'notes',
    user: { name: 'Ada', color: '#dd3333' },
    WebSocket,
    crossTab: false,
    maxBackoffMs: 200,
  })
  const failures: ConnectFailure[] = []
  connection.onDidFailToConnect((failure) => failures.push(failure))
  cleanups.push(() => connection.destroy())
  return { connection, failures }
}

describe('connect says why it cannot connect', () => {
  it('to a port nothing listens on: unreachable, and it keeps trying', async () => {
    const url = await closedPort()
    const { connection, failures } = open(url)
    await vi.waitFor(() => expect(failures).toHaveLength(1), WAIT)
    expect(failures[0]).toMatchObject({
      kind: 'unreachable',
      url: `${url.replace('ws:', 'http:')}/notes`,
    })
    expect(failures[0]!.reason).toMatch(
      /^nothing answers at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)$/,
    )
    expect(connection.connectFailure).toEqual(failures[0])
    expect(connection.status).toBe('offline')
    // Still trying (a server may come up there), and the same reason is told once.
    await new Promise((resolve) => setTimeout(resolve, 600))
    expect(failures).toHaveLength(1)
    expect(connection.provider.shouldConnect).toBe(true)
  })

  it('to a Tandem server at a path that names no room: refused with its reason, and it stops', async () => {
    const url = await tandemWithSite()
    const { connection, failures } = open(url)
    const error = await connection.whenSynced.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConnectError)
    expect((error as ConnectError).failure).toMatchObject({ kind: 'refused', status: 400 })
    expect((error as ConnectError).failure.reason).toMatch(
      /the server refused http:\/\/127\.0\.0\.1:\d+\/notes with 400: the URL path must name a room: \/ws\/<room>/,
    )
    expect(failures).toHaveLength(1)
    expect(connection.provider.shouldConnect).toBe(false)
    expect(connection.status).toBe('offline')
  })

  it('to the right path of the same server: connects, with no failure', async () => {
    const url = await tandemWithSite()
    const { connection, failures } = open(`${url}/ws`)
    await connection.whenSynced
    expect(failures).toEqual([])
    expect(connection.connectFailure).toBeNull()
  })

  it('to a server that answers 404: refused', async () => {
    const { connection } = open(await httpServer(404, 'no such page'))
    const error = await connection.whenSynced.catch((e: unknown) => e)
    expect((error as ConnectError).failure).toMatchObject({ kind: 'refused', status: 404 })
    expect((error as ConnectError).failure.reason).toMatch(/with 404: no such page$/)
  })

  it('to a web server that answers 200: not a WebSocket server, and it keeps trying', async () => {
    const { connection, failures } = open(await httpServer(200, 'hello'))
    await vi.waitFor(() => expect(failures).toHaveLength(1), WAIT)
    expect(failures[0]).toMatchObject({ kind: 'not-websocket', status: 200 })
    expect(failures[0]!.reason).toMatch(/answered 200 but took no WebSocket at \/notes/)
    expect(connection.provider.shouldConnect).toBe(true)
  })

  it('to a server that fails with 500: a server error, and it keeps trying', async () => {
    const { connection, failures } = open(await httpServer(503, 'down for maintenance'))
    await vi.waitFor(() => expect(failures).toHaveLength(1), WAIT)
    expect(failures[0]).toMatchObject({ kind: 'server-error', status: 503 })
    expect(failures[0]!.reason).toBe('the server failed with 503: down for maintenance')
    expect(connection.provider.shouldConnect).toBe(true)
  })
})
