/**
 * `pnpm start` as its own process: it builds the app, serves it and the rooms on one port
 * with SQLite under the data folder, prints the address, and a restart keeps the documents.
 */
import { spawn } from 'node:child_process'
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

  it('stops on Ctrl-C and on SIGTERM run through pnpm, as the README runs it: exit 0, no error line', async () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const port = await freePort()
      // Its own process group, as a terminal runs a command: Ctrl-C reaches pnpm, its shell
      // and the server at once.
      const child = spawn('pnpm', ['start'], {
        cwd: fileURLToPath(new URL('../../../', import.meta.url)),
        env: { ...process.env, PORT: String(port), TANDEM_DATA: data, TANDEM_AUTH_SECRET: '' },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let output = ''
      child.stdout.on('data', (chunk) => (output += chunk))
      child.stderr.on('data', (chunk) => (output += chunk))
      const exited = new Promise<number | null>((resolve) =>
        child.on('exit', (code) => resolve(code)),
      )
      try {
        await expect
          .poll(() => output, { timeout: 60_000, interval: 100 })
          .toContain('Ctrl-C stops')
        process.kill(-child.pid!, signal)
        expect(await exited, output).toBe(0)
        expect(output).toContain('Stopped; every document is saved.')
        expect(output).not.toMatch(/ELIFECYCLE|error|failed/i)
      } finally {
        if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL')
      }
    }
  })
})
