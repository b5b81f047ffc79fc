import { TextBuffer } from '@tandem/buffer'
import { TextEditor } from '@tandem/editor'
import { describe, expect, it, vi } from 'vitest'
import { HistoryError } from './document-history.js'
import { useTokenServers } from './testing/token-servers.js'

const WAIT = { timeout: 10_000, interval: 20 }
const servers = useTokenServers('program-changes')
const startServer = () => servers.start()
const open = (url: string, user: string, role: 'read' | 'write' = 'write') =>
  servers.open(url, 'draft', user, role)

describe("a program's changes and a person's", () => {
  it('are each undone only by their own undo, and the person can overrule the program', async () => {
    const { server, url } = await startServer()
    const ada = await open(url, 'ada')
    const bot = await server.openDocument('draft', { user: 'style-bot', name: 'Style bot' })
    servers.cleanup(() => bot.close())
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
