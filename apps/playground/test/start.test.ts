/**
 * `pnpm start` as its own process: it builds the app, serves it and the rooms on one port
 * with SQLite under the data folder, prints the address, and a restart keeps the documents.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { openClient } from '../../../packages/server/src/testing/clients.js'
import { freePort, startNodeProcess, stopProcess } from '../../../testing/processes.js'

const START = fileURLToPath(new URL('../scripts/start.ts', import.meta.url))
const data = mkdtempSync(join(tmpdir(), 'tandem-start-'))
afterAll(() => rmSync(data, { recursive: true, force: true }))

describe('pnpm start', () => {
  it('serves the built app and the rooms on PORT, and keeps documents through a restart', async () => {
    const port = await freePort()
    const run = () =>
      startNodeProcess({
        args: ['--conditions=source', '--import', 'tsx', START],
        env: { PORT: String(port), TANDEM_DATA: data, TANDEM_AUTH_SECRET: undefined },
        ready: 'Ctrl-C stops',
        timeoutMs: 60_000,
      })
    let running = await run()
    try {
      expect(running.output()).toContain(`Tandem playground: http://127.0.0.1:${port}/`)
      expect(running.output()).toContain(join(data, 'tandem.sqlite'))
      const page = await fetch(`http://127.0.0.1:${port}/?room=kept`)
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(await page.text()).toContain('<title>Tandem</title>')

      const writer = openClient(`ws://127.0.0.1:${port}/ws`, 'kept')
      await writer.synced()
      writer.text.insert(0, 'still here after a restart')
      const reader = openClient(`ws://127.0.0.1:${port}/ws`, 'kept')
      await expect
        .poll(() => reader.text.toString(), { timeout: 10_000 })
        .toBe('still here after a restart')
      writer.destroy()
      reader.destroy()
      expect(await stopProcess(running.child, 'SIGINT')).toBe(0)

      running = await run()
      const back = openClient(`ws://127.0.0.1:${port}/ws`, 'kept')
      await back.synced()
      expect(back.text.toString()).toBe('still here after a restart')
      back.destroy()
    } finally {
      await stopProcess(running.child, 'SIGKILL')
    }
  })
})
