/**
 * A program's direct connection to a room, in the server process, with stock y-websocket
 * clients in the same room over loopback: it syncs, its changes are stored before anyone sees
 * them and attributed to it, its presence shows with an agent mark and goes when it closes.
 */
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { SqliteStore } from '../storage/sqlite-store.js'
import { TandemServer } from '../tandem-server.js'
import { openClient } from '../testing/clients.js'
import { HeldStore } from '../testing/held-store.js'
import { useTestServers } from '../testing/test-servers.js'

const WAIT = { timeout: 10_000, interval: 20 }
const servers = useTestServers('direct')

describe('server.openDocument', () => {
  it('syncs both ways, shows the program to everyone and attributes its changes', async () => {
    const { server, url } = await servers.start()
    const ada = servers.client(url, 'notes')
    await ada.synced()
    ada.text.insert(0, 'written by ada\n')
    await vi.waitFor(async () => {
      expect((await server.history.authorsOf('notes')).at(-1)?.to).toBe(15)
    }, WAIT)
    const bot = await server.openDocument('notes', { user: 'summary-bot', name: 'Summary bot' })
    const text = bot.doc.getText('text')
    expect(text.toString()).toBe('written by ada\n')
    // People see the program, marked as one.
    await vi.waitFor(() => {
      const states = [...ada.provider.awareness.getStates().values()]
      expect(states.map((s) => s.user)).toContainEqual({
        name: 'Summary bot',
        color: '#1a7f7a',
        id: 'summary-bot',
        agent: true,
      })
    }, WAIT)
    text.insert(text.length, 'summary: one line\n')
    await bot.flushed()
    await vi.waitFor(
      () => expect(ada.text.toString()).toBe('written by ada\nsummary: one line\n'),
      WAIT,
    )
    // And the program sees people.
    ada.text.insert(0, '# ')
    await vi.waitFor(() => expect(text.toString().startsWith('# written')).toBe(true), WAIT)
    const authors = await server.history.authorsOf('notes')
    expect(authors.map((run) => run.user)).toEqual(['anonymous', 'summary-bot'])
    await bot.close()
    await vi.waitFor(() => {
      const states = [...ada.provider.awareness.getStates().values()]
      expect(states.some((s) => (s.user as { agent?: boolean } | undefined)?.agent)).toBe(false)
    }, WAIT)
  })

  it('stores a change before anyone sees it', async () => {
    const store = new HeldStore(SqliteStore.open({ file: join(servers.dir, 'held.sqlite') }))
    const server = new TandemServer({ store })
    const port = await server.listen(0, '127.0.0.1')
    const ada = openClient(`ws://127.0.0.1:${port}`, 'notes')
    try {
      await ada.synced()
      const bot = await server.openDocument('notes', { user: 'bot' })
      store.hold()
      bot.doc.getText('text').insert(0, 'from the bot')
      await store.waitForParked(1)
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(ada.text.toString()).toBe('')
      store.release()
      await vi.waitFor(() => expect(ada.text.toString()).toBe('from the bot'), WAIT)
      await bot.close()
    } finally {
      ada.destroy()
      await server.close()
      await store.close()
    }
  })

  it('refuses a program without a usable user, and a read-only one changes nothing', async () => {
    const { server, url } = await servers.start()
    await expect(server.openDocument('notes', { user: '' })).rejects.toThrow(TypeError)
    await expect(server.openDocument('a\u0000b', { user: 'bot' })).rejects.toThrow(TypeError)
    const ada = servers.client(url, 'notes')
    await ada.synced()
    const reader = await server.openDocument('notes', { user: 'reader', role: 'read' })
    reader.doc.getText('text').insert(0, 'not allowed')
    await reader.flushed()
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(ada.text.toString()).toBe('')
    await reader.close()
  })
})
