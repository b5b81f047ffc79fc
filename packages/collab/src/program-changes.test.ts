/**
 * Whose undo undoes what, against a real `@tandem/server` on loopback (SQLite, signed
 * tokens): a person's editor connected with `connect()` and a program's editor over
 * `server.openDocument`. Each one's own undo takes back only its own changes; the person
 * overrules the program with `connection.programs`, a forward change of their own.
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
const SECRET = 'program-changes-test-secret-long-enough'
const dir = mkdtempSync(join(tmpdir(), 'tandem-programs-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const token = (sub: string, role: 'read' | 'write' = 'write') =>
  signToken({ room: '*', role, sub, exp: Math.floor(Date.now() / 1000) + 600 }, SECRET)

const startServer = async () => {
  const store = SqliteStore.open({ file: join(dir, `${Date.now()}-${Math.random()}.sqlite`) })
  const server = new TandemServer({ store, ...tokenAuth(SECRET) })
  const port = await server.listen(0)
  cleanups.push(async () => {
    await server.close()
    await store.close()
  })
  return { server, url: `ws://127.0.0.1:${port}` }
}

const open = async (url: string, user: string, role: 'read' | 'write' = 'write') => {
  const editor = new TextEditor({ buffer: new TextBuffer() })
  const connection: CollabConnection = connect(editor, {
    url,
    room: 'draft',
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

describe("a program's changes and a person's", () => {
  it('are each undone only by their own undo, and the person can overrule the program', async () => {
    const { server, url } = await startServer()
    const ada = await open(url, 'ada')
    const bot = await server.openDocument('draft', { user: 'style-bot', name: 'Style bot' })
    cleanups.push(() => bot.close())
    const botEditor = new TextEditor({ buffer: new TextBuffer({ doc: bot.doc }) })

    ada.editor.insertText('Dear team,\n')
    await vi.waitFor(() => expect(botEditor.getText()).toBe('Dear team,\n'), WAIT)
    botEditor.setCursorBufferPosition([1, 0])
    botEditor.insertText('Thanks for the week.\n')
    await bot.flushed()
    await vi.waitFor(
      () => expect(ada.editor.getText()).toBe('Dear team,\nThanks for the week.\n'),
      WAIT,
    )
    ada.editor.setCursorBufferPosition([2, 0])
    ada.editor.insertText('Ada')
    await vi.waitFor(
      () => expect(botEditor.getText()).toBe('Dear team,\nThanks for the week.\nAda'),
      WAIT,
    )

    // The person's undo takes back only the person's typing, never the program's.
    ada.editor.undo()
    expect(ada.editor.getText()).toBe('Dear team,\nThanks for the week.\n')
    ada.editor.redo()
    // The program's undo takes back only its own.
    botEditor.undo()
    expect(botEditor.getText()).toBe('Dear team,\nAda')
    botEditor.redo()
    await bot.flushed()
    await vi.waitFor(
      () => expect(ada.editor.getText()).toBe('Dear team,\nThanks for the week.\nAda'),
      WAIT,
    )

    // The person overrules the program: its last change goes, as the person's own change.
    const changes = await ada.connection.programs.changes()
    // Its typing, undo and redo came within a second: one change of the program's.
    expect(changes.map((change) => [change.user, change.undone])).toEqual([['style-bot', false]])
    const undone = await ada.connection.programs.undoLast('style-bot')
    expect(undone.removed.map((r) => r.text)).toEqual(['Thanks for the week.\n'])
    await vi.waitFor(() => expect(ada.editor.getText()).toBe('Dear team,\nAda'), WAIT)
    await vi.waitFor(() => expect(botEditor.getText()).toBe('Dear team,\nAda'), WAIT)
    // It reached the person's editor as a remote change: their undo does not take it back,
    // and the program's undo has nothing of its text left to bring back.
    ada.editor.undo()
    expect(ada.editor.getText()).toBe('Dear team,\n')
    await vi.waitFor(() => expect(botEditor.getText()).toBe('Dear team,\n'), WAIT)

    // Undone once: again is refused; a reader may list but not undo.
    await expect(ada.connection.programs.undo(undone.change)).rejects.toMatchObject({
      status: 409,
    })
    const reader = await open(url, 'rex', 'read')
    expect((await reader.connection.programs.changes())[0]?.undone).toBe(true)
    await expect(reader.connection.programs.undoLast('style-bot')).rejects.toBeInstanceOf(
      HistoryError,
    )
  })
})
