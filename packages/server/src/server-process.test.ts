/**
 * `tandem-server` as its own process: restarts, a crash in the middle of typing, and a
 * graceful shutdown.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import { openClient, type StockClient } from './testing/clients.js'
import { ServerProcess } from './testing/server-process.js'
import { openUpgrade } from './testing/upgrade.js'

const WAIT = { timeout: 15_000, interval: 10 }
const root = mkdtempSync(join(tmpdir(), 'tandem-process-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

let count = 0
const processes: ServerProcess[] = []
const clients: StockClient[] = []
afterEach(async () => {
  for (const c of clients.splice(0)) c.destroy()
  for (const p of processes.splice(0)) await p.kill('SIGKILL')
})
const startServer = async () => {
  const server = await ServerProcess.start({ data: join(root, `data-${++count}`) })
  processes.push(server)
  return server
}
const client = (url: string, room: string) => {
  const c = openClient(url, room)
  clients.push(c)
  return c
}

describe('tandem-server process', () => {
  it('keeps every update a client received from another, through kill -9 mid-typing', async () => {
    const server = await startServer()
    const [writer, watcher] = [client(server.url, 'crash'), client(server.url, 'crash')]
    await Promise.all([writer.synced(), watcher.synced()])
    // Type until the watcher has seen a good part, then kill the server while typing goes on.
    const typing = setInterval(() => {
      for (let i = 0; i < 5; i++) writer.text.insert(writer.text.length, 'x')
    }, 1)
    await vi.waitFor(() => expect(watcher.text.length).toBeGreaterThan(300), WAIT)
    await server.kill('SIGKILL')
    clearInterval(typing)
    const seen = Y.encodeStateAsUpdate(watcher.doc)
    const seenLength = watcher.text.length
    writer.destroy()
    watcher.destroy()

    await server.start()
    const check = client(server.url, 'crash')
    await check.synced()
    const fromServer = Y.encodeStateVector(check.doc)
    // Nothing the watcher received is missing on the server.
    expect(Y.decodeUpdate(Y.diffUpdate(seen, fromServer)).structs).toEqual([])
    expect(check.text.length).toBeGreaterThanOrEqual(seenLength)
  })

  it('stores what it received and exits 0 on SIGTERM; a restart has the document', async () => {
    const server = await startServer()
    const a = client(server.url, 'graceful')
    await a.synced()
    a.text.insert(0, 'kept through SIGTERM')
    const b = client(server.url, 'graceful')
    await vi.waitFor(() => expect(b.text.toString()).toBe('kept through SIGTERM'), WAIT)
    expect(await server.kill('SIGTERM')).toBe(0)
    expect(server.output).toContain('"msg":"stopped"')
    a.destroy()
    b.destroy()
    await server.start()
    const c = client(server.url, 'graceful')
    await c.synced()
    expect(c.text.toString()).toBe('kept through SIGTERM')
  })

  it('exits 0 on SIGTERM when its output pipe was closed, as by `| head -1`', async () => {
    const server = await startServer()
    expect(await (await fetch(`http://127.0.0.1:${server.port}/healthz`)).text()).toBe('ok')
    // Nothing is written between the close and the signal: the first failing write is the
    // shutdown's own log line.
    server.closeOutput()
    expect(await server.stop('SIGTERM')).toBe(0)
  })

  it('exits 0 on SIGTERM when the reader of its output stopped reading', async () => {
    const server = await startServer()
    server.stopReadingOutput()
    // Every connection logs a line naming its room: far more than the pipes hold.
    const room = 'r'.repeat(500)
    for (let i = 0; i < 600; i++) {
      const outcome = await openUpgrade(`${server.url}/${room}`)
      expect(outcome.status).toBe(101)
      outcome.ws.close()
    }
    expect(await server.stop('SIGTERM')).toBe(0)
  })

  it('serves, stores and exits 0 on SIGTERM with its output pipe closed', async () => {
    const server = await startServer()
    server.closeOutput()
    // Each connection logs (debug) into the closed pipe.
    const a = client(server.url, 'no-output')
    await a.synced()
    a.text.insert(0, 'logged nowhere')
    const b = client(server.url, 'no-output')
    await vi.waitFor(() => expect(b.text.toString()).toBe('logged nowhere'), WAIT)
    expect(await server.stop('SIGTERM')).toBe(0)
    a.destroy()
    b.destroy()
    await server.start()
    const c = client(server.url, 'no-output')
    await c.synced()
    expect(c.text.toString()).toBe('logged nowhere')
  })
})
