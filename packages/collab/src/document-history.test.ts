import { describe, expect, it, vi } from 'vitest'
import { HistoryError } from './document-history.js'
import { useTokenServers } from './testing/token-servers.js'

const WAIT = { timeout: 10_000, interval: 20 }
const servers = useTokenServers('document-history')
const startServer = async () => (await servers.start({ versions: { manualOnly: true } })).url
const open = (url: string, user: string, role: 'read' | 'write' = 'write') =>
  servers.open(url, 'minutes', user, role)

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
