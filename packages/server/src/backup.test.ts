/**
 * `tandem-server backup`: a copy taken while a server process runs and a client types is a
 * database a fresh server opens, holding a prefix of what was typed; and its errors say
 * what is wrong.
 */
import { execFile } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import { UsageError } from './auth/token-command.js'
import { backupDatabase, DATABASE_FILE, parseBackupArgs } from './backup-command.js'
import { SqliteStore } from './storage/sqlite-store.js'
import { openClient, type StockClient } from './testing/clients.js'
import { ServerProcess } from './testing/server-process.js'

const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url))
const WAIT = { timeout: 15_000, interval: 10 }
const root = mkdtempSync(join(tmpdir(), 'tandem-backup-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const processes: ServerProcess[] = []
const clients: StockClient[] = []
afterEach(async () => {
  for (const c of clients.splice(0)) c.destroy()
  for (const p of processes.splice(0)) await p.kill('SIGKILL')
})
const startServer = async (data: string) => {
  const server = await ServerProcess.start({ data })
  processes.push(server)
  return server
}
const client = (url: string, room: string) => {
  const c = openClient(url, room)
  clients.push(c)
  return c
}

/** Runs `tandem-server backup <args>` from source; resolves with its exit code and output. */
const runBackup = (args: readonly string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', CLI, 'backup', ...args],
      { timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1
        resolve({ code, stdout, stderr })
      },
    )
  })

/** The text typed, one character a keystroke: digits, then letters, over and over. */
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz'

describe('tandem-server backup', () => {
  it('copies a running server mid-typing into a database a fresh server serves', async () => {
    const data = join(root, 'live')
    const server = await startServer(data)
    const writer = client(server.url, 'notes')
    await writer.synced()
    let typed = 0
    const typing = setInterval(() => {
      for (let i = 0; i < 3; i++) writer.text.insert(typed, ALPHABET[typed++ % ALPHABET.length]!)
    }, 2)
    await vi.waitFor(() => expect(typed).toBeGreaterThan(200), WAIT)
    // The history goes with the documents: a named version, and who wrote what.
    const api = (url: string, path: string, init?: RequestInit) =>
      fetch(`${url.replace('ws:', 'http:')}/api/rooms/notes/${path}`, init)
    const saved = await api(server.url, 'versions', {
      method: 'POST',
      body: JSON.stringify({ name: 'mid-typing' }),
    })
    expect(saved.status).toBe(200)

    const out = join(root, 'notes-backup.sqlite')
    const backup = await runBackup(['--data', data, '--out', out])
    const typedAtBackup = typed
    await vi.waitFor(() => expect(typed).toBeGreaterThan(typedAtBackup + 100), WAIT)
    clearInterval(typing)
    expect(backup).toMatchObject({ code: 0, stderr: '' })
    expect(backup.stdout).toMatch(
      /^backed up .*tandem\.sqlite to .*notes-backup\.sqlite: 1 rooms, \d+ updates, 1 versions/,
    )

    // Every update in the copy is whole: the document decodes with nothing left pending.
    const copy = SqliteStore.open({ file: out })
    const stored = await copy.load('notes')
    await copy.close()
    const doc = new Y.Doc()
    for (const update of stored.updates) Y.applyUpdate(doc, update)
    expect(doc.store.pendingStructs).toBeNull()
    expect(doc.store.pendingDs).toBeNull()

    // Restored as the database of a new data folder, it is served: a prefix of the typing.
    const restored = join(root, 'restored')
    mkdirSync(restored)
    copyFileSync(out, join(restored, DATABASE_FILE))
    const fresh = await startServer(restored)
    const reader = client(fresh.url, 'notes')
    await reader.synced()
    const text = reader.text.toString()
    const full = writer.text.toString()
    expect(text.length).toBeGreaterThan(0)
    expect(text.length).toBeLessThan(full.length)
    expect(full.startsWith(text)).toBe(true)
    expect(text).toBe(doc.getText('text').toString())
    const versions = (await (await api(fresh.url, 'versions')).json()) as {
      versions: { name: string; length: number }[]
    }
    expect(versions.versions.map((v) => v.name)).toEqual(['mid-typing'])
    const authors = (await (await api(fresh.url, 'authors')).json()) as {
      authors: { to: number; user: string }[]
    }
    expect(authors.authors.at(-1)?.to).toBe(text.length)
    expect(authors.authors.every((run) => run.user === 'anonymous')).toBe(true)
  })

  it('says clearly when the data folder or the output cannot be used', async () => {
    const missing = await runBackup(['--data', join(root, 'nowhere'), '--out', 'x.sqlite'])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain(`the data folder ${join(root, 'nowhere')} does not exist`)

    const data = join(root, 'small')
    const store = SqliteStore.open({ file: join(data, DATABASE_FILE) })
    await store.append('notes', Y.encodeStateAsUpdate(new Y.Doc()))
    await store.close()
    const unwritable = join(root, 'no-such-folder', 'backup.sqlite')
    const cannotWrite = await runBackup(['--data', data, '--out', unwritable])
    expect(cannotWrite.code).toBe(1)
    expect(cannotWrite.stderr).toContain(
      `cannot write ${unwritable}: the folder ${join(root, 'no-such-folder')} does not exist`,
    )

    const empty = join(root, 'empty')
    mkdirSync(empty)
    await expect(backupDatabase({ data: empty, out: join(root, 'b.sqlite') })).rejects.toThrow(
      `there is no database in ${empty}`,
    )
    await expect(backupDatabase({ data, out: root })).rejects.toThrow('it is a folder')
    await expect(backupDatabase({ data, out: join(data, DATABASE_FILE) })).rejects.toThrow(
      '--out must not be the database itself',
    )
  })

  it('refuses a bad command line with the usage', async () => {
    expect(() => parseBackupArgs(['--data', 'data'])).toThrow(new UsageError('--out is needed'))
    expect(() => parseBackupArgs(['--out', 'b.sqlite'])).toThrow(new UsageError('--data is needed'))
    expect(() => parseBackupArgs(['--postgres', 'postgres://db/tandem'])).toThrow(/pg_dump/)
    const usage = await runBackup(['--data', 'data', '--out', 'b.sqlite', 'extra'])
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain('usage: tandem-server backup --data DIR --out FILE')
  })
})
