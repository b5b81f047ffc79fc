/**
 * A program's proposal made over the server's HTTP API, as a Tandem editor connected with
 * `connect()` sees it: a map entry beside the text, the text unchanged until a person accepts
 * it over HTTP, then the proposed text in the editor where it was meant. Real `@tandem/server`
 * over loopback, SQLite, signed tokens.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TextBuffer } from '@tandem/buffer'
import { TextEditor } from '@tandem/editor'
import { proposalsIn } from '@tandem/protocol'
import { SqliteStore, signToken, TandemServer, tokenAuth } from '@tandem/server'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { connect } from './connect.js'

const WAIT = { timeout: 10_000, interval: 20 }
const SECRET = 'proposals-over-http-test-secret-long-enough'
const dir = mkdtempSync(join(tmpdir(), 'tandem-proposals-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const token = (sub: string) =>
  signToken({ room: '*', role: 'write', sub, exp: Math.floor(Date.now() / 1000) + 600 }, SECRET)

describe('a proposal made over HTTP, in a connected editor', () => {
  it('waits beside the text, and lands where it was meant once accepted', async () => {
    const store = SqliteStore.open({ file: join(dir, 'proposals.sqlite') })
    const server = new TandemServer({ store, ...tokenAuth(SECRET) })
    const port = await server.listen(0)
    cleanups.push(async () => {
      await server.close()
      await store.close()
    })
    const editor = new TextEditor({ buffer: new TextBuffer() })
    const connection = connect(editor, {
      url: `ws://127.0.0.1:${port}`,
      room: 'notes',
      token: token('ada'),
      user: { name: 'Ada', color: '#336699', id: 'ada' },
      WebSocket,
      crossTab: false,
      restoreSession: false,
    })
    cleanups.push(() => connection.destroy())
    await connection.whenSynced
    editor.insertText('Helo world')
    await vi.waitFor(() => expect(server.openRooms).toContain('notes'), WAIT)
    const api = `http://127.0.0.1:${port}/api/rooms/notes`
    const post = async (path: string, user: string, body: unknown) => {
      const response = await fetch(`${api}/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token(user)}` },
        body: JSON.stringify(body),
      })
      return { status: response.status, body: (await response.json()) as Record<string, unknown> }
    }
    await vi.waitFor(async () => {
      const read = await fetch(api, { headers: { authorization: `Bearer ${token('bot')}` } })
      expect(((await read.json()) as { text: string }).text).toBe('Helo world')
    }, WAIT)
    const proposed = await post('changes', 'spell-bot', {
      propose: true,
      message: 'Spelling',
      changes: [{ from: 0, to: 4, insert: 'Hello' }],
    })
    expect(proposed.status).toBe(200)
    await vi.waitFor(() => expect(proposalsIn(connection.doc, 'text')).toHaveLength(1), WAIT)
    expect(proposalsIn(connection.doc, 'text')[0]).toMatchObject({
      id: proposed.body.proposal,
      user: 'spell-bot',
      message: 'Spelling',
    })
    expect(editor.getText()).toBe('Helo world')
    // Ada types before it; accepting still replaces the word it meant.
    editor.setCursorBufferPosition([0, 0])
    editor.insertText('> ')
    await vi.waitFor(async () => {
      const read = await fetch(api, { headers: { authorization: `Bearer ${token('bot')}` } })
      expect(((await read.json()) as { text: string }).text).toBe('> Helo world')
    }, WAIT)
    const accepted = await post(`proposals/${proposed.body.proposal}/accept`, 'ada', {})
    expect(accepted.status).toBe(200)
    await vi.waitFor(() => expect(editor.getText()).toBe('> Hello world'), WAIT)
    expect(proposalsIn(connection.doc, 'text')).toEqual([])
  })
})
