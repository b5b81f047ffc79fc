/// <reference lib="dom" />
/**
 * Who wrote what and earlier versions in the built playground, in real Chromium, served by a
 * real server over SQLite, with two people in two browser profiles: Ada and Bob type, "Show
 * authors" colours each one's text in their own colour with a legend naming both; Ada saves
 * a version, the text is rewritten, the history panel's diff shows the change with its
 * author, and restoring the version brings the text back in both pages. Screenshots go to
 * `artifacts/playground/`.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { launchChromium } from '../../../testing/browser.js'
import { AppServer, buildApp } from './app-server.js'

const WAIT = { timeout: 20_000, interval: 100 }
const ARTIFACTS = fileURLToPath(new URL('../../../artifacts/playground/', import.meta.url))
const ADA = { name: 'Ada', color: '#e11d48', id: 'ada-lovelace' }
const BOB = { name: 'Bob', color: '#2563eb', id: 'bob-kahn' }

const dir = mkdtempSync(join(tmpdir(), 'tandem-history-test-'))
let app: { dir: string; remove: () => void }
let server: AppServer
let browser: Browser
const contexts: BrowserContext[] = []

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true })
  ;[app, browser] = await Promise.all([buildApp(), launchChromium()])
  server = await AppServer.start({ app: app.dir, file: join(dir, 'history.sqlite') })
}, 120_000)
afterAll(async () => {
  for (const context of contexts) await context.close()
  await browser?.close()
  await server?.stop()
  app?.remove()
  rmSync(dir, { recursive: true, force: true })
})

/** A page of `room` in a browser profile of its own whose remembered user is `user`. */
const openPage = async (user: typeof ADA, room: string): Promise<Page> => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 640 } })
  contexts.push(context)
  await context.addInitScript((saved) => {
    localStorage.setItem('tandem.playground.user', saved)
  }, JSON.stringify(user))
  const page = await context.newPage()
  page.on('pageerror', (error) => {
    throw new Error(`error in ${user.name}'s page: ${error.message}`)
  })
  await page.goto(server.pageUrl(room))
  await page.waitForSelector('.tandem-editor .tandem-line', { state: 'attached' })
  await vi.waitFor(
    async () => expect(await page.getAttribute('#status', 'data-status')).toBe('synced'),
    WAIT,
  )
  return page
}

const textOf = (page: Page) =>
  page.evaluate(() =>
    (
      globalThis as unknown as { playground: { editor: { getText(): string } } }
    ).playground.editor.getText(),
  )

/** The coloured runs in `page`'s editor: whose, in which colour. */
const authorRuns = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.tandem-editor .tandem-author-run')].map((run) => ({
      user: run.dataset.user ?? '',
      color: getComputedStyle(run).backgroundColor,
    })),
  )

describe('the history panel of the playground', () => {
  it('shows who wrote what, saves a version, diffs it against now and restores it in both pages', async () => {
    const room = 'minutes'
    const ada = await openPage(ADA, room)
    const bob = await openPage(BOB, room)
    await ada.click('.tandem-editor')
    await ada.keyboard.type('Ada wrote the agenda.\n')
    await vi.waitFor(async () => expect(await textOf(bob)).toBe('Ada wrote the agenda.\n'), WAIT)
    await bob.click('.tandem-editor')
    await bob.keyboard.press('Control+End')
    await bob.keyboard.type('Bob added the decisions.')
    const drafted = 'Ada wrote the agenda.\nBob added the decisions.'
    await vi.waitFor(async () => expect(await textOf(ada)).toBe(drafted), WAIT)

    // Ada opens the history panel and shows the authors.
    await ada.getByRole('button', { name: 'History' }).click()
    const panel = ada.getByRole('complementary', { name: 'History' })
    await expect.poll(() => panel.isVisible()).toBe(true)
    expect(await ada.getAttribute('[data-command="history:toggle"]', 'aria-expanded')).toBe('true')
    await panel.getByLabel('Show authors').check()
    await vi.waitFor(async () => {
      const users = new Set((await authorRuns(ada)).map((run) => run.user))
      expect([...users].sort()).toEqual([ADA.id, BOB.id].sort())
    }, WAIT)
    const runs = await authorRuns(ada)
    const colorOf = (id: string) => runs.find((run) => run.user === id)!.color
    expect(colorOf(ADA.id)).not.toBe(colorOf(BOB.id))
    const legend = await ada.evaluate(() =>
      [...document.querySelectorAll('.tandem-attribution-legend li')].map((li) => li.textContent),
    )
    expect(legend).toEqual(expect.arrayContaining(['Ada', 'Bob']))
    // Hovering Bob's words says it is his.
    const bobWords = await ada.evaluate(() => {
      const line = document.querySelector('.tandem-line[data-screen-row="1"]')!
      const box = line.getBoundingClientRect()
      return { x: box.left + 30, y: box.top + box.height / 2 }
    })
    await ada.mouse.move(bobWords.x, bobWords.y)
    await vi.waitFor(
      async () =>
        expect(await ada.locator('.tandem-author-tooltip').textContent()).toMatch(
          /^Written by Bob/,
        ),
      WAIT,
    )
    await ada.screenshot({ path: `${ARTIFACTS}history-authors.png` })

    // A named version of the text as it is.
    await panel.getByLabel('Version name').fill('Draft one')
    await panel.getByRole('button', { name: 'Save version' }).click()
    await vi.waitFor(
      async () =>
        expect(await panel.getByRole('status').textContent()).toBe('Saved version “Draft one”.'),
      WAIT,
    )
    const draft = panel.locator('li.version', { hasText: 'Draft one' })
    await expect.poll(() => draft.count(), WAIT).toBe(1)
    expect(await draft.textContent()).toContain('Ada, Bob')

    // Bob rewrites his line.
    await bob.keyboard.press('Shift+Home')
    await bob.keyboard.type('Bob changed his mind.')
    const rewritten = 'Ada wrote the agenda.\nBob changed his mind.'
    await vi.waitFor(async () => expect(await textOf(ada)).toBe(rewritten), WAIT)

    // The diff against now: Bob's old words deleted, his new ones inserted, named as his.
    await vi.waitFor(async () => {
      await draft.getByRole('button', { name: /^Diff against now/ }).click()
      const inserted = await panel.locator('.history-diff ins').allTextContents()
      expect(inserted.join('')).toContain('changed his mind')
    }, WAIT)
    expect((await panel.locator('.history-diff del').allTextContents()).join('')).toContain(
      'added the decisions',
    )
    expect(await panel.locator('.history-diff ins').first().getAttribute('title')).toMatch(
      /^Inserted by Bob/,
    )
    expect(await panel.locator('.history-diff').textContent()).toContain('Ada wrote the agenda.')
    const inWords = await panel.getByRole('list', { name: 'Changes in words' }).textContent()
    expect(inWords).toMatch(/Deleted by Bob, [^“]+: “[^”]*added the decisions/)
    expect(inWords).toMatch(/Inserted by Bob, [^“]+: “[^”]*changed his mind/)
    // The focus went to the result's heading.
    expect(await ada.evaluate(() => document.activeElement?.textContent)).toBe(
      'Changes since Draft one',
    )
    await ada.screenshot({ path: `${ARTIFACTS}history-diff.png` })

    // The preview shows the version's text as it was.
    await draft.getByRole('button', { name: /^Preview/ }).click()
    await vi.waitFor(
      async () => expect(await panel.locator('pre.history-text').textContent()).toBe(drafted),
      WAIT,
    )

    // Restoring brings the draft back, in both pages, as one change Ada can undo.
    await draft.getByRole('button', { name: /^Restore/ }).click()
    await vi.waitFor(async () => expect(await textOf(ada)).toBe(drafted), WAIT)
    await vi.waitFor(async () => expect(await textOf(bob)).toBe(drafted), WAIT)
    expect(await panel.getByRole('status').textContent()).toBe(
      'Restored “Draft one”. Undo takes it back.',
    )
    await bob.screenshot({ path: `${ARTIFACTS}history-restored.png` })

    // Closing gives the focus back to the History button.
    await ada.keyboard.press('Escape')
    await expect.poll(() => panel.isVisible()).toBe(false)
    expect(await ada.evaluate(() => document.activeElement?.textContent)).toBe('History')

    // The command palette opens it too.
    await ada.keyboard.press('Control+Shift+P')
    await ada.keyboard.type('History: Toggle')
    expect(await ada.locator('.palette-option').first().textContent()).toContain('History: Toggle')
    await ada.keyboard.press('Enter')
    await expect.poll(() => panel.isVisible()).toBe(true)
    expect(await ada.evaluate(() => document.activeElement?.id)).toBe('show-authors')
  })
})
