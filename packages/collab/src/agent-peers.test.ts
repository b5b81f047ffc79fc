/**
 * A program in the server's process (`server.openDocument`, with a `TextEditor` over its doc
 * and its caret published) typing an answer while two people type around it and inside it,
 * over a real server on loopback: all three converge, every caret stays after what its owner
 * typed, people see the program's caret where it is, and what it types is stored before
 * anyone sees it. Seeded, so a failing run replays from its seed.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TextBuffer } from '@tandem/buffer'
import { TextEditor } from '@tandem/editor'
import { SqliteStore, TandemServer } from '@tandem/server'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { Random, seeds } from '../../../testing/random.js'
import { HeldStore } from '../../server/src/testing/held-store.js'
import { type CollabConnection, connect } from './connect.js'
import { SelectionPublisher } from './selection-publisher.js'

const WAIT = { timeout: 15_000, interval: 20 }
const dir = mkdtempSync(join(tmpdir(), 'tandem-agent-peers-'))
const cleanups: (() => unknown)[] = []
let files = 0

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const startServer = async () => {
  const store = new HeldStore(SqliteStore.open({ file: join(dir, `agents-${++files}.sqlite`) }))
  const server = new TandemServer({ store })
  const port = await server.listen(0, '127.0.0.1')
  cleanups.push(async () => {
    store.release()
    await server.close()
    await store.close()
  })
  return { server, store, url: `ws://127.0.0.1:${port}` }
}

interface Person {
  readonly editor: TextEditor
  readonly connection: CollabConnection
}

const openPerson = async (url: string, room: string, name: string): Promise<Person> => {
  const editor = new TextEditor({ buffer: new TextBuffer() })
  const connection = connect(editor, {
    url,
    room,
    user: { name, color: '#dd3333', id: name.toLowerCase() },
    WebSocket,
    crossTab: false,
    throttleMs: 0,
  })
  cleanups.push(() => {
    connection.destroy()
    editor.destroy()
  })
  await connection.whenSynced
  return { editor, connection }
}

/** A program with an editor over its direct connection, publishing its caret as an agent. */
const openProgram = async (server: TandemServer, room: string) => {
  const connection = await server.openDocument(room, { user: 'answer-bot', name: 'Answer bot' })
  const editor = new TextEditor({ doc: connection.doc })
  const publisher = new SelectionPublisher(
    editor,
    connection.awareness,
    { name: 'Answer bot', color: '#1a7f7a', id: 'answer-bot', agent: true },
    { throttleMs: 0 },
  )
  cleanups.push(async () => {
    publisher.dispose()
    editor.destroy()
    await connection.close()
  })
  return { connection, editor }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const WORDS = ['the ', 'answer ', 'is ', 'forty ', 'two, ', 'give ', 'or ', 'take ', 'one. ']

describe('a program typing among people', () => {
  it.each(seeds(3))('converges with carets right, seed %i', async (seed) => {
    const random = new Random(seed)
    const { server, url } = await startServer()
    const room = `answer-${seed}`
    const ada = await openPerson(url, room, 'Ada')
    ada.editor.setText('Question\n\nNotes\n')
    const bob = await openPerson(url, room, 'Bob')
    const bot = await openProgram(server, room)
    await bot.connection.whenSynced
    await vi.waitFor(() => {
      expect(bob.editor.getText()).toBe('Question\n\nNotes\n')
      expect(bot.editor.getText()).toBe('Question\n\nNotes\n')
    }, WAIT)

    // The program answers on row 1; Ada types after "Question"; Bob types inside the answer.
    bot.editor.setCursorBufferPosition([1, 0])
    ada.editor.setCursorBufferPosition([0, 8])
    const typedBy = { bot: [] as string[], ada: '', bob: 0 }
    for (let step = 0; step < 40; step++) {
      const word = random.pick(WORDS)
      bot.editor.insertText(word)
      typedBy.bot.push(word)
      if (random.chance(0.5)) {
        const char = random.pick(['?', '!', '.', 'x'])
        ada.editor.insertText(char)
        typedBy.ada += char
      }
      // Bob types strictly inside what the program has typed that he has, never at its end.
      const answer = bob.editor.lineTextForBufferRow(1) ?? ''
      if (answer.length > 2 && random.chance(0.4)) {
        bob.editor.setCursorBufferPosition([1, random.int(1, answer.length - 1)])
        bob.editor.insertText('B')
        typedBy.bob++
        expect(
          bob.editor.getTextInBufferRange([[1, 0], bob.editor.getCursorBufferPosition()]),
        ).toMatch(/B$/)
      }
      if (random.chance(0.3)) await sleep(random.int(0, 15))
    }

    await vi.waitFor(() => {
      expect(ada.editor.getText()).toBe(bot.editor.getText())
      expect(bob.editor.getText()).toBe(bot.editor.getText())
    }, WAIT)
    // Everyone's text is there: the program's words in order, with Bob's letters among them.
    const answer = bot.editor.lineTextForBufferRow(1) ?? ''
    expect(answer.replaceAll('B', '')).toBe(typedBy.bot.join(''))
    expect(answer.split('B').length - 1).toBe(typedBy.bob)
    expect(ada.editor.lineTextForBufferRow(0)).toBe(`Question${typedBy.ada}`)
    // Each caret is right after what its owner typed last.
    expect(ada.editor.getCursorBufferPosition().toArray()).toEqual([0, 8 + typedBy.ada.length])
    if (typedBy.bob > 0) {
      const caret = bob.editor.getCursorBufferPosition()
      expect(bob.editor.getTextInBufferRange([[caret.row, caret.column - 1], caret])).toBe('B')
    }
    const botCaret = bot.editor.getCursorBufferPosition()
    expect(bot.editor.getTextInBufferRange([[1, 0], botCaret]).endsWith(typedBy.bot.at(-1)!)).toBe(
      true,
    )
    expect(botCaret.toArray()).toEqual([1, answer.length])
    // People see the program's caret where it is, marked as an agent.
    for (const person of [ada, bob]) {
      await vi.waitFor(() => {
        const cursor = person.connection
          .getRemoteCursors()
          .find((remote) => remote.user.name === 'Answer bot')
        expect(cursor?.user.agent).toBe(true)
        expect(cursor?.selections.at(-1)?.range.end.toArray()).toEqual(botCaret.toArray())
      }, WAIT)
    }
  })

  it('stores what the program types before anyone sees it', async () => {
    const { server, store, url } = await startServer()
    const ada = await openPerson(url, 'held', 'Ada')
    const bot = await openProgram(server, 'held')
    await bot.connection.whenSynced
    store.hold()
    bot.editor.insertText('not yet stored')
    await store.waitForParked(1)
    await sleep(200)
    expect(ada.editor.getText()).toBe('')
    store.release()
    await vi.waitFor(() => expect(ada.editor.getText()).toBe('not yet stored'), WAIT)
    await bot.connection.flushed()
    expect(await server.history.authorsOf('held')).toEqual([
      expect.objectContaining({ from: 0, to: 14, user: 'answer-bot' }),
    ])
  })
})
