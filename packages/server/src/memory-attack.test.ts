/**
 * The memory attack, against a `tandem-server` process: two read-only connections, each with
 * an awareness state of 900 kB, ask for everyone's awareness 900 times each and never read
 * the answers. Answering each would queue 1.6 GB in the server. The server's resident memory
 * must grow by less than 256 MiB, and two people editing another room must not notice.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { signToken } from './auth/tokens.js'
import { openClient, type StockClient } from './testing/clients.js'
import {
  askForAwareness,
  awarenessOf,
  type RawConnection,
  rawConnection,
} from './testing/raw-connection.js'
import { ServerProcess } from './testing/server-process.js'

const WAIT = { timeout: 15_000, interval: 25 }
const SECRET = 'the secret of the memory attack test, long enough'
const MiB = 1024 * 1024
const root = mkdtempSync(join(tmpdir(), 'tandem-memory-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const token = (room: string, role: 'read' | 'write', sub: string) =>
  signToken({ room, role, sub, exp: Math.floor(Date.now() / 1000) + 600 }, SECRET)

/** The server's resident memory, from its own metrics. */
const residentOf = async (server: ServerProcess): Promise<number> => {
  const text = await (await fetch(`http://127.0.0.1:${server.port}/metrics`)).text()
  return Number(/^process_resident_memory_bytes (\S+)$/m.exec(text)?.[1])
}

describe('a flood of awareness questions from connections that never read', () => {
  it('grows the server by less than 256 MiB, and another room edits on undisturbed', async () => {
    const server = await ServerProcess.start({
      data: join(root, 'data'),
      env: { TANDEM_AUTH_SECRET: SECRET },
    })
    const clients: StockClient[] = []
    const attackers: RawConnection[] = []
    let typing: NodeJS.Timeout | undefined
    try {
      const editors = [
        openClient(server.url, 'calm', { token: token('calm', 'write', 'ada') }),
        openClient(server.url, 'calm', { token: token('calm', 'write', 'bob') }),
      ]
      clients.push(...editors)
      await Promise.all(editors.map((editor) => editor.synced()))
      const [ada, bob] = editors as [StockClient, StockClient]
      let typed = 0
      typing = setInterval(() => {
        ada.text.insert(ada.text.length, 'x')
        typed++
      }, 20)
      const baseline = await residentOf(server)
      let peak = baseline

      const blob = JSON.stringify({ user: { name: 'Eve' }, blob: 'e'.repeat(900_000) })
      for (const [i, name] of ['eve', 'mallory'].entries()) {
        const attacker = await rawConnection(
          `${server.url}/flood?token=${token('flood', 'read', name)}`,
          { reading: false },
        )
        attackers.push(attacker)
        attacker.send(awarenessOf(1000 + i, 1, blob))
      }
      for (let round = 0; round < 9; round++) {
        for (const attacker of attackers) {
          for (let i = 0; i < 100; i++) attacker.send(askForAwareness())
        }
        peak = Math.max(peak, await residentOf(server))
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      // The server had eight seconds to queue what it was asked for.
      const until = Date.now() + 8_000
      while (Date.now() < until) {
        peak = Math.max(peak, await residentOf(server))
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
      clearInterval(typing)
      console.log(
        `memory attack: resident memory grew by ${((peak - baseline) / MiB).toFixed(1)} MiB`,
      )
      expect(peak - baseline).toBeLessThan(256 * MiB)
      await vi.waitFor(() => expect(bob.text.length).toBe(typed), WAIT)
      expect(editors.flatMap((editor) => editor.closes)).toEqual([])
    } finally {
      clearInterval(typing)
      for (const attacker of attackers) attacker.ws.terminate()
      for (const c of clients) c.destroy()
      await server.kill('SIGKILL')
    }
  })
})
