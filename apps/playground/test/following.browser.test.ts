/// <reference lib="dom" />
/**
 * Following someone in the built playground, in real Chromium, served by a real server over
 * SQLite: Bob clicks Ada's name and his view goes where hers is, caret included, as she
 * scrolls and clicks far down; his own typing or scrolling stops it, and so does Ada leaving,
 * each with a notice. Ada sees that Bob follows her. Screenshots go to `artifacts/playground/`.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { launchChromium } from '../../../testing/browser.js'
import { AppServer, buildApp } from './app-server.js'

const WAIT = { timeout: 20_000, interval: 50 }
const ARTIFACTS = fileURLToPath(new URL('../../../artifacts/playground/', import.meta.url))
const ADA = { name: 'Ada', color: '#e11d48', id: 'ada' }
const BOB = { name: 'Bob', color: '#2563eb', id: 'bob' }
const ROWS = 400
const TEXT = Array.from({ length: ROWS }, (_, row) => `line ${row} of the long document`).join('\n')

const dir = mkdtempSync(join(tmpdir(), 'tandem-following-test-'))
let app: { dir: string; remove: () => void }
let server: AppServer
let browser: Browser
const contexts: BrowserContext[] = []

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true })
  ;[app, browser] = await Promise.all([buildApp(), launchChromium()])
  server = await AppServer.start({ app: app.dir, file: join(dir, 'following.sqlite') })
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
  const context = await browser.newContext({ viewport: { width: 1100, height: 620 } })
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

/** The buffer rows (here the same as screen rows) wholly in sight in `page`'s editor. */
const rowsInSight = (page: Page): Promise<[number, number]> =>
  page.evaluate(() => {
    const scroller = document.querySelector('.tandem-scroller')!.getBoundingClientRect()
    const rows = Array.from(document.querySelectorAll<HTMLElement>('.tandem-line'))
      .filter((line) => {
        const box = line.getBoundingClientRect()
        return box.top >= scroller.top - 1 && box.bottom <= scroller.bottom + 1
      })
      .map((line) => Number(line.dataset.screenRow))
    return [Math.min(...rows), Math.max(...rows)]
  })

/** The rows in sight once scrolling has settled (a wheel's scroll is animated). */
const settledRows = async (page: Page): Promise<[number, number]> => {
  let rows = await rowsInSight(page)
  for (;;) {
    await page.waitForTimeout(250)
    const now = await rowsInSight(page)
    if (now[0] === rows[0] && now[1] === rows[1]) return now
    rows = now
  }
}

/** Whether `page` draws `name`'s caret inside its editor's visible box. */
const caretInSight = (page: Page, name: string): Promise<boolean> =>
  page.evaluate((name) => {
    const scroller = document.querySelector('.tandem-scroller')!.getBoundingClientRect()
    return Array.from(document.querySelectorAll<HTMLElement>('.tandem-remote-cursor')).some(
      (caret) => {
        const box = caret.getBoundingClientRect()
        const label = caret.querySelector('.tandem-remote-label')?.textContent
        return label === name && box.top >= scroller.top && box.bottom <= scroller.bottom
      },
    )
  }, name)

/** The follow button of `name` in the "here now" list. */
const followButton = (page: Page, name: string) =>
  page.locator('#people .person-follow', { hasText: name })

/** The state of following as the sidebar shows it. */
const sidebar = (page: Page) =>
  page.evaluate(() => {
    const bar = document.getElementById('following')!
    const notice = document.getElementById('notice')!
    return {
      following: bar.hidden ? null : (bar.querySelector('.following-label')?.textContent ?? ''),
      pressed: Array.from(document.querySelectorAll('#people .person-follow')).map(
        (button) => `${button.textContent}: ${button.getAttribute('aria-pressed')}`,
      ),
      followers: document.querySelector('#people [data-self] .person-followers')?.textContent ?? '',
      notice: notice.hidden ? '' : notice.textContent,
    }
  })

/** The caret row of `page`'s own editor. */
const caretRow = (page: Page): Promise<number> =>
  page.evaluate(
    () =>
      (
        globalThis as unknown as {
          playground: { editor: { getCursorBufferPosition(): { row: number } } }
        }
      ).playground.editor.getCursorBufferPosition().row,
  )

/** Turns the mouse wheel over `page`'s editor. */
const wheel = async (page: Page, deltaY: number) => {
  const box = (await page.locator('.tandem-scroller').boundingBox())!
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await page.mouse.wheel(0, deltaY)
}

describe('following someone in the playground', () => {
  it("follows Ada's scrolling and caret until Bob acts, and stops when she leaves", async () => {
    const room = `following-${process.pid}`
    const ada = await openPage(ADA, room)
    await ada.evaluate(
      (text) =>
        (
          globalThis as unknown as { playground: { editor: { setText(text: string): void } } }
        ).playground.editor.setText(text),
      TEXT,
    )
    const bob = await openPage(BOB, room)
    await vi.waitFor(async () => expect(await followButton(bob, 'Ada').count()).toBe(1), WAIT)
    await vi.waitFor(
      async () => expect(await bob.locator('.tandem-line[data-screen-row="0"]').count()).toBe(1),
      WAIT,
    )
    expect(await sidebar(bob)).toMatchObject({ following: null, pressed: ['Ada: false'] })

    // Bob clicks Ada's name: he follows her, and she sees it.
    await followButton(bob, 'Ada').click()
    expect(await sidebar(bob)).toMatchObject({ following: 'Following Ada', pressed: ['Ada: true'] })
    await vi.waitFor(
      async () => expect((await sidebar(ada)).followers).toBe('followed by Bob'),
      WAIT,
    )

    // Ada scrolls far down with the wheel and clicks a row there.
    await wheel(ada, 6_000)
    const adaRows = await settledRows(ada)
    expect(adaRows[0]).toBeGreaterThan(200)
    const target = ada.locator(`.tandem-line[data-screen-row="${adaRows[0] + 10}"]`)
    await target.click({ position: { x: 40, y: 5 } })
    expect(await caretRow(ada)).toBe(adaRows[0] + 10)

    // Bob's view goes where hers is, her caret in sight.
    expect(await settledRows(ada)).toEqual(adaRows)
    // (Her first row in sight may be partly hidden; his shows it whole.)
    await vi.waitFor(async () => {
      expect(adaRows[0] - (await rowsInSight(bob))[0]).toBeOneOf([0, 1])
      expect(await caretInSight(bob, 'Ada')).toBe(true)
    }, WAIT)
    expect(await caretRow(bob)).toBe(0)
    await bob.screenshot({ path: join(ARTIFACTS, 'following-bob.png') })
    await ada.screenshot({ path: join(ARTIFACTS, 'following-ada.png') })

    // Ada's typing (a remote edit for Bob) does not stop him following.
    await ada.keyboard.type('typed by Ada ')
    await vi.waitFor(
      async () =>
        expect(await bob.locator('.tandem-line', { hasText: 'typed by Ada' }).count()).toBe(1),
      WAIT,
    )
    expect((await sidebar(bob)).following).toBe('Following Ada')

    // Bob types in his editor: following stops, and he is told why.
    await bob.focus('.tandem-editor textarea')
    await bob.keyboard.type('x')
    await vi.waitFor(async () => expect((await sidebar(bob)).following).toBeNull(), WAIT)
    expect(await sidebar(bob)).toMatchObject({
      pressed: ['Ada: false'],
      notice: 'Stopped following Ada: you edited.',
    })
    await vi.waitFor(async () => expect((await sidebar(ada)).followers).toBe(''), WAIT)

    // From the keyboard: Tab to Ada's name, Space follows her; Bob's own scrolling stops it.
    await followButton(bob, 'Ada').focus()
    await bob.keyboard.press('Space')
    expect((await sidebar(bob)).following).toBe('Following Ada')
    // The focus stays on the button, which says it is pressed; Space again stops, and again follows.
    const focused = () =>
      bob.evaluate(() => document.activeElement?.getAttribute('aria-pressed') ?? 'not a toggle')
    expect(await focused()).toBe('true')
    await bob.keyboard.press('Space')
    expect(await focused()).toBe('false')
    expect((await sidebar(bob)).following).toBeNull()
    await bob.keyboard.press('Enter')
    expect(await focused()).toBe('true')
    expect((await sidebar(bob)).following).toBe('Following Ada')
    await vi.waitFor(
      async () => expect(adaRows[0] - (await rowsInSight(bob))[0]).toBeOneOf([0, 1]),
      WAIT,
    )
    await wheel(bob, -2_000)
    await vi.waitFor(async () => expect((await sidebar(bob)).following).toBeNull(), WAIT)
    expect((await sidebar(bob)).notice).toBe('Stopped following Ada: you scrolled.')

    // The bar's button stops following too, without a notice of its own.
    await followButton(bob, 'Ada').click()
    await bob.click('#following .following-stop')
    expect((await sidebar(bob)).following).toBeNull()

    // Following Ada when she leaves: it stops, and Bob is told she left.
    await followButton(bob, 'Ada').click()
    expect((await sidebar(bob)).following).toBe('Following Ada')
    await ada.close()
    await vi.waitFor(
      async () =>
        expect(await sidebar(bob)).toMatchObject({
          following: null,
          notice: 'Stopped following Ada: they left.',
          pressed: [],
        }),
      WAIT,
    )
    await bob.screenshot({ path: join(ARTIFACTS, 'following-left.png') })
  })
})
