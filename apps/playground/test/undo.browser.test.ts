/// <reference lib="dom" />
/**
 * Undo after a reload, in the built playground in real Chromium over a real server and SQLite:
 * type, reload the page, ctrl-z undoes what was typed before the reload and puts the caret
 * back; and words typed while the server was down, in a tab since closed, are undone in a new
 * tab once the server is back (the history kept in IndexedDB with the document).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { launchChromium } from '../../../testing/browser.js'
import { AppServer, buildApp } from './app-server.js'

const WAIT = { timeout: 20_000, interval: 50 }
const ADA = { name: 'Ada', color: '#e11d48', id: 'ada' }

const dir = mkdtempSync(join(tmpdir(), 'tandem-playground-undo-'))
let app: { dir: string; remove: () => void }
let server: AppServer
let browser: Browser
const contexts: BrowserContext[] = []

beforeAll(async () => {
  ;[app, browser] = await Promise.all([buildApp(), launchChromium()])
  server = await AppServer.start({ app: app.dir, file: join(dir, 'playground.sqlite') })
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  app?.remove()
  rmSync(dir, { recursive: true, force: true })
})
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close()
  await server.start()
})

const newContext = async (): Promise<BrowserContext> => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 620 } })
  await context.addInitScript((saved) => {
    if (localStorage.getItem('tandem.playground.user') === null) {
      localStorage.setItem('tandem.playground.user', saved)
    }
  }, JSON.stringify(ADA))
  contexts.push(context)
  return context
}

const openPage = async (context: BrowserContext, url: string): Promise<Page> => {
  const page = await context.newPage()
  page.on('pageerror', (error) => {
    throw new Error(`error in the page: ${error.message}`)
  })
  await page.goto(url)
  await page.waitForSelector('.tandem-editor .tandem-line', { state: 'attached' })
  return page
}

const waitForStatus = (page: Page, expected: string) =>
  vi.waitFor(
    async () => expect(await page.getAttribute('#status', 'data-status')).toBe(expected),
    WAIT,
  )

interface PageEditor {
  getText(): string
  getCursorBufferPosition(): { row: number; column: number }
  getUndoHistoryState(maxSteps?: number): { undo: unknown[]; redo: unknown[] }
}

const inEditor = <T>(page: Page, read: (editor: PageEditor) => T): Promise<T> =>
  page.evaluate((source) => {
    const editor = (globalThis as unknown as { playground: { editor: PageEditor } }).playground
      .editor
    return new Function('editor', `return (${source})(editor)`)(editor) as T
  }, read.toString())

const undoSteps = (page: Page) =>
  inEditor(page, (editor) => editor.getUndoHistoryState().undo.length)

describe('undo in the playground', () => {
  it('survives a page reload: ctrl-z undoes what was typed before it and puts the caret back', async () => {
    const context = await newContext()
    const page = await openPage(context, server.pageUrl('undo-reload'))
    await waitForStatus(page, 'synced')
    await page.keyboard.type('alpha')
    // Past the grouping interval, so that the next words are a step of their own.
    await page.waitForTimeout(800)
    await page.keyboard.type(' beta')
    await vi.waitFor(async () => expect(await undoSteps(page)).toBe(2), WAIT)

    await page.reload()
    await page.waitForSelector('.tandem-editor .tandem-line', { state: 'attached' })
    await waitForStatus(page, 'synced')
    expect(await inEditor(page, (editor) => editor.getText())).toBe('alpha beta')
    await vi.waitFor(async () => expect(await undoSteps(page)).toBe(2), WAIT)
    await page.keyboard.press('Control+z')
    expect(await inEditor(page, (editor) => editor.getText())).toBe('alpha')
    expect(await inEditor(page, (editor) => editor.getCursorBufferPosition())).toMatchObject({
      row: 0,
      column: 5,
    })
    await page.keyboard.press('Control+z')
    expect(await inEditor(page, (editor) => editor.getText())).toBe('')
    await page.keyboard.press('Control+Shift+z')
    expect(await inEditor(page, (editor) => editor.getText())).toBe('alpha')
  })

  it('keeps what was typed offline undoable in a new tab once the server is back', async () => {
    const context = await newContext()
    const first = await openPage(context, server.pageUrl('undo-offline'))
    await waitForStatus(first, 'synced')
    await first.keyboard.type('online ')
    await first.waitForTimeout(800)
    await server.stop()
    await waitForStatus(first, 'offline')
    await first.keyboard.type('offline')
    await vi.waitFor(async () => expect(await undoSteps(first)).toBe(2), WAIT)
    // Give the save its moment, then close the only tab: IndexedDB alone has the last step.
    await first.waitForTimeout(800)
    await first.close()
    await server.start()

    const back = await openPage(context, server.pageUrl('undo-offline'))
    await waitForStatus(back, 'synced')
    expect(await inEditor(back, (editor) => editor.getText())).toBe('online offline')
    await vi.waitFor(async () => expect(await undoSteps(back)).toBe(2), WAIT)
    await back.keyboard.press('Control+z')
    expect(await inEditor(back, (editor) => editor.getText())).toBe('online ')
    await back.keyboard.press('Control+z')
    expect(await inEditor(back, (editor) => editor.getText())).toBe('')
  })
})
