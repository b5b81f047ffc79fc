/**
 * Tandem and CodeMirror 6 with y-codemirror.next (`yCollab`) in one room of a real y-websocket
 * server: CodeMirror in Chromium, Tandem in Node. Text goes both ways, and each side shows the
 * other's caret and selection where it is, also after an edit before it. Tandem publishes its
 * rows in sight (`viewport`) throughout, which y-codemirror.next ignores, and follows the
 * CodeMirror user by their caret.
 */
import { fileURLToPath } from 'node:url'
import { TextBuffer } from '@tandem/buffer'
import { TextEditor } from '@tandem/editor'
import { Range } from '@tandem/text'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { launchChromium } from '../../../testing/browser.js'
import { type PageServer, servePage } from '../../../testing/page-server.js'
import { type CollabConnection, connect } from './connect.js'
import type { CodeMirrorPage, CodeMirrorUser } from './testing/codemirror-page.js'
import { RowsViewport } from './testing/rows-viewport.js'
import { YWebsocketServer } from './testing/y-websocket-server.js'

const WAIT = { timeout: 15_000, interval: 25 }
const CM_USER: CodeMirrorUser = {
  name: 'Cleo in CodeMirror',
  color: '#30bced',
  colorLight: '#30bced33',
}
const TANDEM_USER = { name: 'Tess in Tandem', color: '#dd3333', colorLight: '#dd333333' }

type PageWindow = { codeMirrorPage: CodeMirrorPage }

/** Tandem's `color` and `colorLight` as the browser reads them back from a style. */
const TANDEM_CSS = { color: 'rgb(221, 51, 51)', colorLight: 'rgba(221, 51, 51, 0.2)' }

/** Tandem's caret at `at`, as y-codemirror.next should draw it. */
const caretAt = (at: number) => ({ name: TANDEM_USER.name, at, color: TANDEM_CSS.color })
/** Tandem's selection over `from`..`to`, as y-codemirror.next should highlight it. */
const highlight = (from: number, to: number) => ({ from, to, color: TANDEM_CSS.colorLight })

/** A Tandem editor connected to the room, in Node. */
interface TandemPeer {
  readonly editor: TextEditor
  readonly connection: CollabConnection
  /** Ten rows in sight, published as the awareness `viewport` field. */
  readonly viewport: RowsViewport
}

describe('Tandem and CodeMirror (y-codemirror.next) in one room', () => {
  let browser: Browser
  let pages: PageServer
  let server: YWebsocketServer
  let context: BrowserContext | null = null
  let tab: Page
  let tandem: TandemPeer | null = null
  let pageErrors: string[] = []
  let roomCount = 0

  beforeAll(async () => {
    ;[pages, server, browser] = await Promise.all([
      servePage({
        entry: fileURLToPath(new URL('./testing/codemirror-page.ts', import.meta.url)),
      }),
      YWebsocketServer.start(),
      launchChromium(),
    ])
  })
  afterAll(async () => {
    await browser?.close()
    await pages?.close()
    await server?.stop()
  })
  afterEach(async () => {
    tandem?.connection.destroy()
    tandem?.viewport.dispose()
    tandem?.editor.destroy()
    tandem = null
    await context?.close()
    context = null
    expect(pageErrors).toEqual([])
  })

  /** Opens CodeMirror in a new tab and Tandem in Node on a new room; resolves once both synced. */
  const openBoth = async (): Promise<void> => {
    const room = `codemirror-${process.pid}-${++roomCount}`
    context = await browser.newContext()
    tab = await context.newPage()
    pageErrors = []
    tab.on('pageerror', (error) => pageErrors.push(error.message))
    await tab.goto(pages.url)
    await tab.waitForFunction(() => 'codeMirrorPage' in globalThis)
    await tab.evaluate(
      (options) => (globalThis as unknown as PageWindow).codeMirrorPage.open(options),
      { url: server.url, room, user: CM_USER },
    )
    expect(await cm.synced()).toBe(true)
    const editor = new TextEditor({ buffer: new TextBuffer() })
    const connection = connect(editor, {
      url: server.url,
      room,
      user: TANDEM_USER,
      WebSocket,
      crossTab: false,
      throttleMs: 0,
    })
    const viewport = new RowsViewport(editor, 10)
    connection.attachViewport(viewport)
    tandem = { editor, connection, viewport }
    await connection.whenSynced
    expect(connection.awareness.getLocalState()?.viewport).toBeTruthy()
  }

  const peer = (): TandemPeer => {
    if (!tandem) throw new Error('call openBoth first')
    return tandem
  }

  const cm = {
    text: () => tab.evaluate(() => (globalThis as unknown as PageWindow).codeMirrorPage.text()),
    insertAt: (pos: number, text: string) =>
      tab.evaluate(
        ([p, t]) => (globalThis as unknown as PageWindow).codeMirrorPage.insertAt(p, t),
        [pos, text] as const,
      ),
    select: (anchor: number, head: number) =>
      tab.evaluate(([a, h]) => (globalThis as unknown as PageWindow).codeMirrorPage.select(a, h), [
        anchor,
        head,
      ] as const),
    selection: () =>
      tab.evaluate(() => (globalThis as unknown as PageWindow).codeMirrorPage.selection()),
    synced: () => tab.evaluate(() => (globalThis as unknown as PageWindow).codeMirrorPage.synced()),
    remoteCarets: () =>
      tab.evaluate(() => (globalThis as unknown as PageWindow).codeMirrorPage.remoteCarets()),
    remoteHighlights: () =>
      tab.evaluate(() => (globalThis as unknown as PageWindow).codeMirrorPage.remoteHighlights()),
  }

  /** Types `text` in Tandem at `offset`, and waits until CodeMirror has the result. */
  const typeInTandem = async (offset: number, text: string): Promise<void> => {
    const { editor } = peer()
    editor.setCursorBufferPosition(editor.getBuffer().positionForCharacterIndex(offset))
    editor.insertText(text)
    const expected = editor.getText()
    await vi.waitFor(async () => expect(await cm.text()).toBe(expected), WAIT)
  }

  /** A CodeMirror selection as Tandem writes it: its range, and whether its head comes first. */
  const asTandemSelection = ({ anchor, head }: { anchor: number; head: number }) => {
    const buffer = peer().editor.getBuffer()
    const range = new Range(
      buffer.positionForCharacterIndex(Math.min(anchor, head)),
      buffer.positionForCharacterIndex(Math.max(anchor, head)),
    )
    return { range: range.toString(), reversed: head < anchor }
  }

  /** The CodeMirror user's selections as Tandem shows them. */
  const shownInTandem = () =>
    peer()
      .connection.getRemoteCursors()
      .map((cursor) => ({
        name: cursor.user.name,
        color: cursor.user.color,
        selections: cursor.selections.map(({ range, reversed }) => ({
          range: range.toString(),
          reversed,
        })),
      }))

  /** Waits until Tandem shows the CodeMirror user's selection where CodeMirror has it. */
  const expectTandemShowsCodeMirrorSelection = async (): Promise<void> => {
    await vi.waitFor(async () => {
      const selection = asTandemSelection(await cm.selection())
      expect(shownInTandem()).toEqual([
        { name: CM_USER.name, color: CM_USER.color, selections: [selection] },
      ])
    }, WAIT)
  }

  it('sends text typed in Tandem to CodeMirror and text typed in CodeMirror to Tandem', async () => {
    await openBoth()
    await typeInTandem(0, 'typed in Tandem\n')
    expect(await cm.text()).toBe('typed in Tandem\n')

    await cm.insertAt(16, 'typed in CodeMirror')
    await vi.waitFor(
      () => expect(peer().editor.getText()).toBe('typed in Tandem\ntyped in CodeMirror'),
      WAIT,
    )
    await cm.insertAt(5, ' and sent')
    await vi.waitFor(
      () => expect(peer().editor.getText()).toBe('typed and sent in Tandem\ntyped in CodeMirror'),
      WAIT,
    )
    expect(await cm.text()).toBe(peer().editor.getText())
  })

  it("shows CodeMirror's selection in Tandem, and keeps it on its text through an edit before it", async () => {
    await openBoth()
    await typeInTandem(0, 'one two three\nfour five six')

    // "two three\nfour", selected backwards: the caret at the start of "two".
    await cm.select(18, 4)
    expect(await cm.selection()).toEqual({ anchor: 18, head: 4 })
    await expectTandemShowsCodeMirrorSelection()
    expect(shownInTandem()[0]?.selections).toEqual([{ range: '[(0, 4) - (1, 4)]', reversed: true }])

    // Tandem types before the selection: both sides move it along with its text.
    await typeInTandem(0, 'zero ')
    expect(await cm.selection()).toEqual({ anchor: 23, head: 9 })
    await expectTandemShowsCodeMirrorSelection()
    expect(shownInTandem()[0]?.selections).toEqual([{ range: '[(0, 9) - (1, 4)]', reversed: true }])

    // A caret alone, on the second line.
    await cm.select(28, 28)
    await expectTandemShowsCodeMirrorSelection()
    expect(shownInTandem()[0]?.selections).toEqual([
      { range: '[(1, 9) - (1, 9)]', reversed: false },
    ])
  })

  it("draws Tandem's caret and selection in CodeMirror with its name, and keeps them on their text through an edit before them", async () => {
    await openBoth()
    const { editor } = peer()
    await typeInTandem(0, 'alpha beta gamma\ndelta')

    // "beta gamma", caret at its end.
    editor.setSelectedBufferRange([
      [0, 6],
      [0, 16],
    ])
    await vi.waitFor(async () => {
      expect(await cm.remoteCarets()).toEqual([caretAt(16)])
      expect(await cm.remoteHighlights()).toEqual([highlight(6, 16)])
    }, WAIT)

    // CodeMirror types before it: the caret and selection move with their text, on both sides.
    await cm.insertAt(0, '>> ')
    await vi.waitFor(() => expect(editor.getText()).toBe('>> alpha beta gamma\ndelta'), WAIT)
    expect(editor.getSelectedBufferRange().toString()).toBe('[(0, 9) - (0, 19)]')
    await vi.waitFor(async () => {
      expect(await cm.remoteCarets()).toEqual([caretAt(19)])
      expect(await cm.remoteHighlights()).toEqual([highlight(9, 19)])
    }, WAIT)

    // A backward selection over the line break: the caret at its start.
    editor.setSelectedBufferRange(
      [
        [0, 15],
        [1, 3],
      ],
      { reversed: true },
    )
    await vi.waitFor(async () => {
      expect(await cm.remoteCarets()).toEqual([caretAt(15)])
      expect(await cm.remoteHighlights()).toEqual([highlight(15, 23)])
    }, WAIT)

    // An empty caret, then an edit before it from CodeMirror.
    editor.setCursorBufferPosition([1, 2])
    await vi.waitFor(async () => {
      expect(await cm.remoteCarets()).toEqual([caretAt(22)])
      expect(await cm.remoteHighlights()).toEqual([])
    }, WAIT)
    await cm.insertAt(20, 'new line\n')
    await vi.waitFor(
      () => expect(editor.getText()).toBe('>> alpha beta gamma\nnew line\ndelta'),
      WAIT,
    )
    expect(editor.getCursorBufferPosition().toString()).toBe('(2, 2)')
    await vi.waitFor(async () => {
      expect(await cm.remoteCarets()).toEqual([caretAt(31)])
    }, WAIT)
  })

  it('follows the CodeMirror user by their caret, and CodeMirror goes on drawing Tandem', async () => {
    await openBoth()
    const { editor, connection, viewport } = peer()
    const lines = Array.from({ length: 100 }, (_, row) => `row ${row}`)
    await typeInTandem(0, lines.join('\n'))
    editor.setCursorBufferPosition([2, 1])
    await vi.waitFor(async () => expect(await cm.remoteCarets()).toHaveLength(1), WAIT)

    const [cmClient] = [...connection.awareness.getStates().keys()].filter(
      (id) => id !== connection.awareness.clientID,
    )
    connection.follow(cmClient!)
    expect(connection.awareness.getLocalState()?.following).toBe(cmClient)
    // CodeMirror's caret goes to row 80: Tandem's rows follow it (CodeMirror has no viewport).
    const offset = lines.slice(0, 80).join('\n').length + 1
    await cm.select(offset + 2, offset + 2)
    await vi.waitFor(() => expect(viewport.rows()).toEqual([71, 80]), WAIT)
    expect(connection.following).toBe(cmClient)
    // CodeMirror still draws Tandem's caret where it is, the extra fields ignored.
    const caret = editor.getBuffer().characterIndexForPosition(editor.getCursorBufferPosition())
    await vi.waitFor(async () => expect(await cm.remoteCarets()).toEqual([caretAt(caret)]), WAIT)
    // CodeMirror's typing does not stop it; Tandem's does.
    await cm.insertAt(offset, '> ')
    await vi.waitFor(() => expect(editor.lineTextForBufferRow(80)).toBe('> row 80'), WAIT)
    expect(connection.following).toBe(cmClient)
    editor.insertText('!')
    expect(connection.following).toBeNull()
  })

  it('agrees on where a caret is after the other side inserts exactly at it', async () => {
    await openBoth()
    const { editor } = peer()
    await typeInTandem(0, 'abcdef\nghij')

    // Tandem's caret, with CodeMirror inserting right at it: drawn where Tandem keeps it.
    editor.setCursorBufferPosition([0, 3])
    await vi.waitFor(async () => expect(await cm.remoteCarets()).toEqual([caretAt(3)]), WAIT)
    await cm.insertAt(3, 'XY')
    await vi.waitFor(() => expect(editor.getText()).toBe('abcXYdef\nghij'), WAIT)
    const kept = editor.getBuffer().characterIndexForPosition(editor.getCursorBufferPosition())
    await vi.waitFor(async () => expect(await cm.remoteCarets()).toEqual([caretAt(kept)]), WAIT)

    // CodeMirror's caret, with Tandem inserting right at it: shown where CodeMirror keeps it.
    await cm.select(9, 9)
    await expectTandemShowsCodeMirrorSelection()
    await typeInTandem(9, 'ZZ')
    await expectTandemShowsCodeMirrorSelection()
  })
})
