/// <reference lib="dom" />
/**
 * A program at work in the built playground, in real Chromium, served by a real server over
 * SQLite behind tokens: it types an answer over HTTP a piece at a time, and Ada watches it
 * appear at its caret (marked as an agent) and follows it; then she undoes its answer from the
 * list of who is here. Screenshots go to `artifacts/playground/`.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { signToken, tokenAuthorizer } from '@tandem/server'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { launchChromium } from '../../../testing/browser.js'
import { AppServer, buildApp } from './app-server.js'

const WAIT = { timeout: 20_000, interval: 50 }
const ARTIFACTS = fileURLToPath(new URL('../../../artifacts/playground/', import.meta.url))
const ADA = { name: 'Ada', color: '#e11d48', id: 'ada' }
const SECRET = randomBytes(32).toString('base64url')
const ROWS = 120
const TEXT = `${Array.from({ length: ROWS }, (_, row) => `line ${row} of the notes`).join('\n')}\n`

const dir = mkdtempSync(join(tmpdir(), 'tandem-agents-test-'))
let app: { dir: string; remove: () => void }
let server: AppServer
let browser: Browser
const contexts: BrowserContext[] = []

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true })
  ;[app, browser] = await Promise.all([buildApp(), launchChromium()])
  server = await AppServer.start({
    app: app.dir,
    file: join(dir, 'agents.sqlite'),
    authorize: tokenAuthorizer(SECRET),
  })
}, 120_000)
afterAll(async () => {
  for (const context of contexts) await context.close()
  await browser?.close()
  await server?.stop()
  app?.remove()
  rmSync(dir, { recursive: true, force: true })
})

const token = (sub: string) =>
  signToken({ room: '*', role: 'write', sub, exp: Math.floor(Date.now() / 1000) + 600 }, SECRET)

/** A request to the document API as `user`. */
const api = (path: string, user: string, init: RequestInit = {}) =>
  fetch(new URL(`api/rooms/${path}`, server.url), {
    ...init,
    headers: { authorization: `Bearer ${token(user)}`, ...init.headers },
  })

/** A request body fed a piece at a time by `next()`, closed by `end()`. */
const pieces = (parts: readonly string[]) => {
  let controller!: ReadableStreamDefaultController<Uint8Array>
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c
    },
  })
  const queue = [...parts]
  let ended = false
  return {
    body,
    next: () => controller.enqueue(new TextEncoder().encode(queue.shift()!)),
    end: () => {
      if (!ended) controller.close()
      ended = true
    },
  }
}

/** Ada's page of `room`, synced. */
const openPage = async (room: string): Promise<Page> => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 620 } })
  contexts.push(context)
  await context.addInitScript((saved) => {
    localStorage.setItem('tandem.playground.user', saved)
  }, JSON.stringify(ADA))
  const page = await context.newPage()
  page.on('pageerror', (error) => {
    throw new Error(`error in the page: ${error.message}`)
  })
  await page.goto(server.pageUrl(room, token('ada')))
  await page.waitForSelector('.tandem-editor .tandem-line', { state: 'attached' })
  await vi.waitFor(
    async () => expect(await page.getAttribute('#status', 'data-status')).toBe('synced'),
    WAIT,
  )
  return page
}

/** The text of the row showing buffer row `row` (rows are buffer rows here: no wrap, no folds). */
const rowText = (page: Page, row: number) =>
  page.evaluate(
    (row) => document.querySelector(`.tandem-line[data-screen-row="${row}"]`)?.textContent ?? null,
    row,
  )

/** The agent's caret in the page: where it is, and its label. */
const agentCaret = (page: Page) =>
  page.evaluate(() => {
    const caret = document.querySelector<HTMLElement>('.tandem-remote-cursor.is-agent')
    if (caret === null) return null
    const box = caret.getBoundingClientRect()
    const label = caret.querySelector('.tandem-remote-label')
    return {
      left: box.left,
      top: box.top,
      label: label?.textContent ?? null,
      badge: label === null ? null : getComputedStyle(label, '::after').content,
    }
  })

/** The right edge of the text of the row at `top` (client pixels). */
const textEndAt = (page: Page, top: number) =>
  page.evaluate((top) => {
    const line = [...document.querySelectorAll<HTMLElement>('.tandem-line')].find(
      (element) => Math.abs(element.getBoundingClientRect().top - top) < 2,
    )
    if (line === undefined) return null
    const range = document.createRange()
    range.selectNodeContents(line)
    return range.getBoundingClientRect().right
  }, top)

/** The buffer rows wholly in sight in the page's editor. */
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

describe('a program in the playground', () => {
  it('types an answer a piece at a time at its own caret, which Ada watches and follows', async () => {
    const room = 'agents/stream'
    const seeded = await api(`${encodeURIComponent(room)}/changes`, 'importer', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ changes: [{ from: 0, to: 0, insert: TEXT }] }),
    })
    expect(seeded.status).toBe(200)
    const page = await openPage(room)
    await vi.waitFor(async () => expect(await rowText(page, 0)).toBe('line 0 of the notes'), WAIT)

    // The program answers at the end of the notes, far below what Ada sees.
    const stream = pieces([
      'Answer: ',
      'the plan ',
      'has three steps, ',
      '日本語で一つ、',
      'and one 🎉 more.',
    ])
    const answered = api(`${encodeURIComponent(room)}/stream`, 'assistant', {
      method: 'POST',
      body: stream.body,
      duplex: 'half',
    } as RequestInit)
    // Should a check fail, the stream still ends, before the server stops.
    answered.catch(() => {})
    try {
      stream.next()
      // Ada sees the program among those here, marked as an agent, and follows it.
      const follow = page.locator('.person-follow', { hasText: 'assistant' })
      await follow.waitFor({ timeout: WAIT.timeout })
      expect(
        await page.locator('.person', { hasText: 'assistant' }).locator('.person-agent').count(),
      ).toBe(1)
      await follow.click()
      stream.next()
      await vi.waitFor(async () => {
        expect(await rowText(page, ROWS)).toBe('Answer: the plan ')
        const [, bottom] = await rowsInSight(page)
        expect(bottom).toBeGreaterThanOrEqual(ROWS)
      }, WAIT)
      expect(await page.getAttribute('.person-follow[aria-pressed="true"]', 'title')).toBe(
        'Stop following assistant',
      )

      // Its caret stands after what it typed, CJK and emoji included, labelled as an agent.
      stream.next()
      stream.next()
      stream.next()
      await vi.waitFor(async () => {
        expect(await rowText(page, ROWS)).toBe(
          'Answer: the plan has three steps, 日本語で一つ、and one 🎉 more.',
        )
        const caret = await agentCaret(page)
        expect(caret?.label).toBe('assistant')
        expect(caret?.badge).toBe('"agent"')
        const end = await textEndAt(page, caret!.top)
        expect(Math.abs(caret!.left - end!)).toBeLessThan(2)
      }, WAIT)
      await page.screenshot({ path: `${ARTIFACTS}agent-streamed-typing.png` })
    } finally {
      stream.end()
    }
    const answer = (await (await answered).json()) as { typed: number }
    expect(answer.typed).toBe(
      'Answer: the plan has three steps, 日本語で一つ、and one 🎉 more.'.length,
    )

    // Ada overrules the program: its last change (the whole answer) goes, as her own change.
    await page.locator('.person', { hasText: 'assistant' }).locator('.person-undo').click()
    await vi.waitFor(async () => expect(await rowText(page, ROWS)).toBe(''), WAIT)
    const stored = (await (await api(encodeURIComponent(room), 'ada')).json()) as { text: string }
    expect(stored.text).toBe(TEXT)
    await vi.waitFor(
      async () =>
        expect(await page.textContent('#notice')).toContain('Undid assistant’s last change'),
      WAIT,
    )
    await page.screenshot({ path: `${ARTIFACTS}agent-change-undone.png` })
  })
})
