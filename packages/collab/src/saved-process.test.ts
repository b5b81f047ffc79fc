/**
 * `connection.saved` across a server killed with SIGKILL: a server process over SQLite whose
 * appends the test holds. What the connection reported saved before the kill is in the store
 * the next process opens; what was typed while appends were held, or while no server ran, is
 * reported saved only once a restarted server has stored it, and is then in the store even if
 * that server is killed the moment it said so. Then `tandem-server` on PostgreSQL, killed while
 * someone types: the text last reported saved is in the database, every time.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TextBuffer } from '@tandem/buffer'
import { TextEditor } from '@tandem/editor'
import { PostgresStore, SqliteStore } from '@tandem/server'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import * as Y from 'yjs'
import { freePort } from '../../../testing/processes.js'
import { HeldServerProcess } from '../../server/src/testing/held-server-process.js'
import { ServerProcess } from '../../server/src/testing/server-process.js'
import {
  dropSchema,
  neededServices,
  POSTGRES_URL,
  uniqueNames,
} from '../../server/src/testing/services.js'
import { connect } from './connect.js'

const WAIT = { timeout: 15_000, interval: 10 }
const root = mkdtempSync(join(tmpdir(), 'tandem-saved-kill-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const start = async (data: string, port: number) => {
  const server = await HeldServerProcess.start(data, port)
  cleanups.push(() => server.kill())
  return server
}

/** The text the SQLite file in `data` holds, read while no server runs. */
const storedText = async (data: string): Promise<string> => {
  const store = SqliteStore.open({ file: join(data, 'tandem.sqlite') })
  try {
    const doc = new Y.Doc()
    for (const update of (await store.load('notes')).updates) Y.applyUpdate(doc, update)
    return doc.getText('text').toString()
  } finally {
    await store.close()
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('connection.saved across kill -9', () => {
  it('reports saved only what a store holds after the crash', async () => {
    const data = join(root, 'kill')
    const port = await freePort()
    const first = await start(data, port)
    const editor = new TextEditor({ buffer: new TextBuffer() })
    const connection = connect(editor, {
      url: first.url,
      room: 'notes',
      user: { name: 'Ada', color: '#dd3333' },
      WebSocket,
      crossTab: false,
      maxBackoffMs: 100,
    })
    cleanups.push(() => {
      connection.destroy()
      editor.destroy()
    })
    const state = () => ({ saved: connection.saved, unsavedUpdates: connection.unsavedUpdates })
    await connection.whenSynced
    editor.insertText('one ')
    await vi.waitFor(() => expect(connection.saved).toBe(true), WAIT)

    await first.hold()
    editor.insertText('two ')
    await first.parked(1, 1)
    await pause(200)
    expect(state()).toEqual({ saved: false, unsavedUpdates: 1 })
    await first.kill()
    await vi.waitFor(() => expect(connection.status).toBe('offline'), WAIT)
    editor.insertText('three')
    expect(state()).toEqual({ saved: false, unsavedUpdates: 2 })
    // Stop the attempts, so that the next server holds its appends before this client is back.
    connection.disconnect()
    expect(await storedText(data)).toBe('one ')

    const second = await start(data, port)
    await second.hold()
    connection.reconnect()
    await vi.waitFor(() => expect(connection.status).toBe('synced'), WAIT)
    await second.parked(1, 1)
    await pause(200)
    expect(state()).toEqual({ saved: false, unsavedUpdates: 2 })
    second.release()
    await vi.waitFor(() => expect(connection.saved).toBe(true), WAIT)
    await second.kill()
    expect(await storedText(data)).toBe('one two three')
  })
})

const skipPostgres = await neededServices('the saved kill test on PostgreSQL', { postgres: true })

describe.skipIf(skipPostgres !== null)('connection.saved across kill -9 (PostgreSQL)', () => {
  it('has in the database, after each kill, the text last reported saved', async () => {
    const { schema } = uniqueNames('savedkill')
    cleanups.push(() => dropSchema(schema))
    const server = await ServerProcess.start({
      data: join(root, 'postgres'),
      postgres: { url: POSTGRES_URL, schema },
    })
    cleanups.push(() => server.kill('SIGKILL'))
    const editor = new TextEditor({ buffer: new TextBuffer() })
    const connection = connect(editor, {
      url: server.url,
      room: 'notes',
      user: { name: 'Ada', color: '#dd3333' },
      WebSocket,
      crossTab: false,
      maxBackoffMs: 100,
    })
    cleanups.push(() => {
      connection.destroy()
      editor.destroy()
    })
    // The text at the moment it was last reported saved: one typist appending, so every text
    // the store may hold is a prefix of what was typed, and must reach at least this one.
    let savedText = ''
    connection.onDidChangeSaved(({ saved }) => {
      if (saved) savedText = editor.getText()
    })
    await connection.whenSynced
    const storedText = async () => {
      const store = await PostgresStore.open({ connectionString: POSTGRES_URL, schema })
      try {
        const doc = new Y.Doc()
        for (const update of (await store.load('notes')).updates) Y.applyUpdate(doc, update)
        return doc.getText('text').toString()
      } finally {
        await store.close()
      }
    }
    let typing = true
    const typist = (async () => {
      for (let i = 0; typing; i++) {
        editor.insertText(String.fromCharCode(97 + (i % 26)))
        // A fast typist: saved turns true between keystrokes, as the server keeps up.
        await pause(15 + (i % 25))
      }
    })()
    try {
      for (let round = 0; round < 4; round++) {
        await vi.waitFor(() => expect(connection.status).toBe('synced'), WAIT)
        const before = savedText.length
        await vi.waitFor(() => expect(savedText.length).toBeGreaterThan(before + 10), WAIT)
        await pause(37 * round)
        await server.kill('SIGKILL')
        const claimed = savedText
        const stored = await storedText()
        expect(editor.getText().startsWith(stored), `round ${round}`).toBe(true)
        expect(stored.length, `round ${round}`).toBeGreaterThanOrEqual(claimed.length)
        await server.start()
      }
    } finally {
      typing = false
      await typist
    }
    await vi.waitFor(() => expect(connection.saved).toBe(true), WAIT)
    await server.kill('SIGKILL')
    expect(await storedText()).toBe(editor.getText())
  })
})
