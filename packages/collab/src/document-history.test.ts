/**
 * A document's history from a Tandem editor: who wrote what and the versions, asked of a real
 * `@tandem/server` over loopback (SQLite, signed tokens); a version restored in the editor as
 * one undoable change while another person types.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TextBuffer } from '@tandem/buffer'
import { TextEditor } from '@tandem/editor'
import { SqliteStore, signToken, TandemServer, tokenAuth } from '@tandem/server'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { type CollabConnection, connect } from './connect.js'
import { HistoryError } from './document-history.js'

const WAIT = { timeout: 10_000, interval: 20 }
const SECRET = 'document-history-test-secret-long-enough'
const dir = mkdtempSync(join(tmpdir(), 'tandem-history-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const token = (sub: string, role: 'read' | 'write' = 'write') =>
  signToken({ room: '*', role, sub, exp: Math.floor(Date.now() / 1000) + 600 }, SECRET)

const startServer = async () => {
  const store = SqliteStore.open({ file: join(dir, `${Date.now()}-${Math.random()}.sqlite`) })
  const server = new TandemServer({ store, ...tokenAuth(SECRET), versions: { manualOnly: true } })
  const port = await server.listen(0)
  cleanups.push(async () => {
    await server.close()
    await store.close()
  })
  return `ws://127.0.0.1:${port}`
}

const open = async (url: string, user: string, role: 'read' | 'write' = 'write') => {
  const editor = new TextEditor({ buffer: new TextBuffer() })
  const connection: CollabConnection = connect(editor, {
    url,
    room: 'minutes',
    token: token(user, role),
    user: { name: user, color: '#336699', id: user },
    WebSocket,
    crossTab: false,
    restoreSession: false,
  })
  cleanups.push(() => connection.destroy())
  await connection.whenSynced
  return { editor, connection }
}

describe('a document history from the editor', () => {
  it('tells who wrote what, refreshed as people type', async () => {
    const url = await startServer()
    const ada = await open(url, 'ada')
    const bob = await open(url, 'bob')
    ada.editor.insertText('Agenda\n')
    await vi.waitFor(() => expect(bob.editor.getText()).toBe('Agenda\n'), WAIT)
    bob.editor.setCursorBufferPosition([1, 0])
    bob.editor.insertText('Budget: yes')
    const changed = vi.fn()
    ada.connection.history.onDidChangeAuthors(changed)
    await vi.waitFor(async () => {
      const spans = await ada.connection.authorsOf()
      expect(spans.map(({ user, range }) => [user, range?.serialize()])).toEqual([
        [
          'ada',
          [
            [0, 0],
            [1, 0],
          ],
        ],
        [
          'bob',
          [
            [1, 0],
            [1, 11],
          ],
        ],
      ])
    }, WAIT)
    await vi.waitFor(() => expect(changed).toHaveBeenCalled(), WAIT)
    // A buffer range asks for that part only.
    const part = await ada.connection.authorsOf([
      [1, 0],
      [1, 6],
    ])
    expect(part.map(({ from, to, user }) => [from, to, user])).toEqual([[7, 13, 'bob']])
  })

  it('saves, lists, diffs and restores versions; a restore is one undo away', async () => {
    const url = await startServer()
    const ada = await open(url, 'ada')
    const bob = await open(url, 'bob')
    const reader = await open(url, 'carol', 'read')
    ada.editor.setText('Ship on Monday.\n')
    await vi.waitFor(() => expect(bob.editor.getText()).toBe('Ship on Monday.\n'), WAIT)
    await vi.waitFor(async () => {
      expect((await ada.connection.authorsOf()).at(-1)?.to).toBe(16)
    }, WAIT)
    const first = await ada.connection.history.saveVersion('First plan')
    await expect(reader.connection.history.saveVersion('nope')).rejects.toBeInstanceOf(HistoryError)
    expect((await reader.connection.history.versions()).map((v) => v.name)).toEqual(['First plan'])
    bob.editor.setSelectedBufferRange([
      [0, 8],
      [0, 14],
    ])
    bob.editor.insertText('Friday')
    await vi.waitFor(async () => {
      const { changes } = await reader.connection.history.diff(first.id)
      expect(changes).toEqual([{ from: 8, to: 14, insert: 'Friday' }])
    }, WAIT)
    // Bob's caret after "Friday" stays on his text while Ada restores, and he types on.
    await vi.waitFor(() => expect(ada.editor.getText()).toBe('Ship on Friday.\n'), WAIT)
    const changes = await ada.connection.history.restoreVersion(first.id)
    expect(changes.length).toBeGreaterThan(0)
    expect(ada.editor.getText()).toBe('Ship on Monday.\n')
    await vi.waitFor(() => expect(bob.editor.getText()).toBe('Ship on Monday.\n'), WAIT)
    bob.editor.setCursorBufferPosition([1, 0])
    bob.editor.insertText('Agreed.')
    await vi.waitFor(() => expect(ada.editor.getText()).toBe('Ship on Monday.\nAgreed.'), WAIT)
    // One undo takes the restore back, and keeps what Bob typed since.
    ada.editor.undo()
    expect(ada.editor.getText()).toBe('Ship on Friday.\nAgreed.')
    await vi.waitFor(() => expect(bob.editor.getText()).toBe('Ship on Friday.\nAgreed.'), WAIT)
    await expect(ada.connection.history.openVersion('999999')).rejects.toMatchObject({
      status: 404,
    })
    expect(() => ada.connection.history.diff('abc')).toThrow(TypeError)
  })
})
