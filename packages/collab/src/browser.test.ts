/**
 * `connect` in real Chromium: tabs of one browser syncing over BroadcastChannel with the
 * server down, and edits kept in IndexedDB while offline reaching the server once it is back.
 */
import { fileURLToPath } from 'node:url'
import { TextBuffer } from '@tandem/buffer'
import { TextEditor } from '@tandem/editor'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { launchChromium } from '../../../testing/browser.js'
import { type PageServer, servePage } from '../../../testing/page-server.js'
import { connect } from './connect.js'
import type { CollabPage } from './testing/collab-page.js'
import { GateServer } from './testing/gate-server.js'
import { YWebsocketServer } from './testing/y-websocket-server.js'

const WAIT = { timeout: 15_000, interval: 25 }
const ADA = { name: 'Ada', color: '#dd3333', id: 'ada' }

type PageWindow = { collabPage: CollabPage }

describe('connect in a browser', () => {
  let browser: Browser
  let pages: PageServer
  let server: YWebsocketServer
  let context: BrowserContext

  beforeAll(async () => {
    ;[pages, server, browser] = await Promise.all([
      servePage({ entry: fileURLToPath(new URL('./testing/collab-page.ts', import.meta.url)) }),
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
    await context?.close()
    if (!server.running) await server.start()
  })

  /** A tab of `context` with an editor connected to `room`. */
  const openTab = async (room: string, offline: boolean): Promise<Page> => {
    const tab = await context.newPage()
    const errors: string[] = []
    tab.on('pageerror', (error) => errors.push(error.message))
    await tab.goto(pages.url)
    await tab.waitForFunction(() => 'collabPage' in globalThis)
    await tab.evaluate(
      (options) => (globalThis as unknown as PageWindow).collabPage.open(options),
      { url: server.url, room, user: ADA, offline },
    )
    expect(errors).toEqual([])
    return tab
  }
  const textOf = (tab: Page) =>
    tab.evaluate(() => (globalThis as unknown as PageWindow).collabPage.text())
  const type = (tab: Page, text: string) =>
    tab.evaluate((t) => (globalThis as unknown as PageWindow).collabPage.insertText(t), text)

  it('syncs two tabs over BroadcastChannel while the server is down, each showing the other as its own tab', async () => {
    context = await browser.newContext()
    await server.stop()
    const room = `tabs-${Date.now()}`
    const [first, second] = [await openTab(room, false), await openTab(room, false)]
    await type(first, 'no server needed')
    await vi.waitFor(async () => expect(await textOf(second)).toBe('no server needed'), WAIT)
    await second.evaluate(() => (globalThis as unknown as PageWindow).collabPage.setCursor(0, 16))
    await type(second, '!')
    await vi.waitFor(async () => expect(await textOf(first)).toBe('no server needed!'), WAIT)
    await vi.waitFor(async () => {
      const shown = await second.evaluate(() =>
        (globalThis as unknown as PageWindow).collabPage.remoteCursors(),
      )
      expect(shown).toEqual([{ name: 'Ada', ownTab: true, ranges: ['[(0, 16) - (0, 16)]'] }])
    }, WAIT)
    expect(
      await first.evaluate(() => (globalThis as unknown as PageWindow).collabPage.status()),
    ).toBe('offline')
  })

  it('keeps offline edits in IndexedDB across a reload and sends them once the server is back', async () => {
    context = await browser.newContext()
    await server.stop()
    const room = `offline-${Date.now()}`
    const tab = await openTab(room, true)
    await type(tab, 'written offline')
    await vi.waitFor(async () => {
      const stored = await tab.evaluate(
        ([url, name]) => (globalThis as unknown as PageWindow).collabPage.storedText(url, name),
        [server.url, room] as const,
      )
      expect(stored).toBe('written offline')
    }, WAIT)
    // Reload: the page and its memory are gone, only IndexedDB keeps the text.
    await tab.reload()
    await tab.waitForFunction(() => 'collabPage' in globalThis)
    await tab.evaluate(
      (options) => (globalThis as unknown as PageWindow).collabPage.open(options),
      { url: server.url, room, user: ADA, offline: true },
    )
    expect(await textOf(tab)).toBe('written offline')

    await server.start()
    const editor = new TextEditor({ buffer: new TextBuffer() })
    const peer = connect(editor, {
      url: server.url,
      room,
      user: { name: 'Bob', color: '#3333dd' },
      WebSocket,
      crossTab: false,
    })
    try {
      await peer.whenSynced
      await vi.waitFor(() => expect(editor.getText()).toBe('written offline'), WAIT)
      await vi.waitFor(
        async () =>
          expect(
            await tab.evaluate(() => (globalThis as unknown as PageWindow).collabPage.status()),
          ).toBe('synced'),
        WAIT,
      )
    } finally {
      peer.destroy()
      editor.destroy()
    }
  })

  it("learns a refused upgrade's reason, which the browser's WebSocket hides, and stops trying", async () => {
    context = await browser.newContext()
    const gate = await GateServer.start({
      kind: 'refuse-upgrade',
      status: 403,
      reason: 'no access to this room',
    })
    try {
      const tab = await context.newPage()
      await tab.goto(pages.url)
      await tab.waitForFunction(() => 'collabPage' in globalThis)
      await tab.evaluate(
        (options) => (globalThis as unknown as PageWindow).collabPage.open(options),
        { url: gate.url, room: 'secret', user: ADA, token: 'someone else' },
      )
      await vi.waitFor(async () => {
        const failure = await tab.evaluate(() =>
          (globalThis as unknown as PageWindow).collabPage.authFailure(),
        )
        expect(failure).toEqual({ reason: 'no access to this room', status: 403 })
      }, WAIT)
      const attempts = gate.upgrades
      await new Promise((resolve) => setTimeout(resolve, 800))
      expect(gate.upgrades).toBe(attempts)
    } finally {
      await gate.close()
    }
  })
})
