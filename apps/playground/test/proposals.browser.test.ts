/// <reference lib="dom" />
/**
 * Reviewing a program's proposals in the built playground, in real Chromium, served by a real
 * server over SQLite. A program in the server's process proposes fixes to Ada's notes; her
 * editor strikes the replaced text through exactly over its glyphs (after emoji and CJK text
 * on the row), shows the proposed text in the program's colour, and lists the proposal under
 * "Suggestions". Accepting it on its card changes the text in every copy through the server's
 * HTTP route; rejecting another from the side panel leaves the text as it was. Screenshots go
 * to `artifacts/playground/`.
 *
 * Accepting and rejecting need the server's proposal routes
 * (`POST /api/rooms/:room/proposals/:id/accept|reject`).
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DocumentProposals } from '@tandem/collab'
import { type DirectConnection, signToken, tokenAuthorizer } from '@tandem/server'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { launchChromium } from '../../../testing/browser.js'
import { AppServer, buildApp } from './app-server.js'

const WAIT = { timeout: 20_000, interval: 100 }
const ARTIFACTS = fileURLToPath(new URL('../../../artifacts/playground/', import.meta.url))
const ADA = { name: 'Ada', color: '#e11d48', id: 'ada-lovelace' }
const SPELLBOT = { user: 'spellbot', name: 'Spellbot', color: '#7a3db8' }
const NOTES = 'Notes of the day\n😀 宿題: teh end of teh week\nBring the slides.'

const dir = mkdtempSync(join(tmpdir(), 'tandem-proposals-test-'))
let app: { dir: string; remove: () => void }
let server: AppServer
let browser: Browser
const contexts: BrowserContext[] = []
const programs: DirectConnection[] = []

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true })
  ;[app, browser] = await Promise.all([buildApp(), launchChromium()])
  server = await AppServer.start({ app: app.dir, file: join(dir, 'proposals.sqlite') })
}, 120_000)
afterAll(async () => {
  for (const program of programs) await program.close()
  for (const context of contexts) await context.close()
  await browser?.close()
  await server?.stop()
  app?.remove()
  rmSync(dir, { recursive: true, force: true })
})

/** Ada's page of `room` (on `on`, with `token` when given), synced. */
const openPage = async (room: string, on = server, token?: string): Promise<Page> => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 560 } })
  contexts.push(context)
  await context.addInitScript((saved) => {
    localStorage.setItem('tandem.playground.user', saved)
  }, JSON.stringify(ADA))
  const page = await context.newPage()
  page.on('pageerror', (error) => {
    throw new Error(`error in the page: ${error.message}`)
  })
  await page.goto(on.pageUrl(room, token))
  await page.waitForSelector('.tandem-editor .tandem-line', { state: 'attached' })
  await vi.waitFor(
    async () => expect(await page.getAttribute('#status', 'data-status')).toBe('synced'),
    WAIT,
  )
  return page
}

/** A program in the server's process, proposing through `connection.proposals`' API. */
const openProgram = async (room: string, on = server) => {
  const program = await on.openDocument(room, SPELLBOT)
  programs.push(program)
  const proposals = new DocumentProposals(program.doc, null, {
    url: on.roomsUrl,
    room,
    token: () => undefined,
    user: () => ({ id: SPELLBOT.user, name: SPELLBOT.name, color: SPELLBOT.color }),
  })
  return { program, proposals, text: () => program.doc.getText('text').toString() }
}

const textOf = (page: Page) =>
  page.evaluate(() =>
    (
      globalThis as unknown as { playground: { editor: { getText(): string } } }
    ).playground.editor.getText(),
  )

/** Ada types `text` into an empty document. */
const typeNotes = async (page: Page, text: string) => {
  await page.click('.tandem-editor')
  await page.evaluate((text) => {
    ;(
      globalThis as unknown as { playground: { editor: { insertText(text: string): void } } }
    ).playground.editor.insertText(text)
  }, text)
  await vi.waitFor(async () => expect(await textOf(page)).toBe(text), WAIT)
}

/** Where the rendered glyphs of row `row` from `column` to `end` are, from the text itself. */
const glyphSpan = (page: Page, row: number, column: number, end: number) =>
  page.evaluate(
    ([row, column, end]) => {
      const line = document.querySelector(`.tandem-line[data-screen-row="${row}"]`)!
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT)
      const range = document.createRange()
      let offset = 0
      let started = false
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const length = node.textContent!.length
        if (!started && column <= offset + length) {
          range.setStart(node, column - offset)
          started = true
        }
        if (started && end <= offset + length) {
          range.setEnd(node, end - offset)
          break
        }
        offset += length
      }
      const box = range.getBoundingClientRect()
      return { left: box.left, right: box.right, top: box.top }
    },
    [row, column, end] as const,
  )

const marks = (page: Page) =>
  page.evaluate(() => ({
    deletes: [...document.querySelectorAll('.tandem-editor .tandem-proposal-delete')].map(
      (mark) => {
        const box = mark.getBoundingClientRect()
        return { left: box.left, right: box.right, top: box.top }
      },
    ),
    inserts: [
      ...document.querySelectorAll<HTMLElement>('.tandem-editor .tandem-proposal-insert'),
    ].map((mark) => ({
      text: mark.textContent,
      color: getComputedStyle(mark).backgroundColor,
    })),
  }))

describe('reviewing proposals in the playground', () => {
  it('shows a program’s proposal in place and in the side panel, and accepting it changes the text everywhere', async () => {
    const room = 'review-accept'
    const ada = await openPage(room)
    await typeNotes(ada, NOTES)
    const bot = await openProgram(room)
    await vi.waitFor(() => expect(bot.text()).toBe(NOTES), WAIT)
    const teh = NOTES.indexOf('teh')
    bot.proposals.propose([{ from: teh, to: teh + 3, insert: 'the' }], {
      message: 'Fix “teh”',
    })

    // Row 1 is '😀 宿題: teh end…': 'teh' is columns 7 to 10 after a surrogate pair and CJK.
    await vi.waitFor(async () => expect((await marks(ada)).deletes).toHaveLength(1), WAIT)
    const struck = (await marks(ada)).deletes[0]!
    const glyphs = await glyphSpan(ada, 1, 7, 10)
    expect(Math.abs(struck.left - glyphs.left)).toBeLessThan(1)
    expect(Math.abs(struck.right - glyphs.right)).toBeLessThan(1)
    expect((await marks(ada)).inserts).toEqual([{ text: 'the', color: 'rgb(122, 61, 184)' }])

    // The side panel lists it with the program's name and message.
    const panel = ada.getByRole('complementary')
    const item = panel.locator('li.suggestion')
    await expect.poll(() => item.count(), WAIT).toBe(1)
    expect(await item.textContent()).toContain('Spellbot')
    expect(await item.textContent()).toContain('Fix “teh”')
    await ada.screenshot({ path: `${ARTIFACTS}proposals-shown.png` })

    // Ada types before it meanwhile: the marks move with the text.
    await ada.keyboard.press('Control+Home')
    await ada.keyboard.type('# ')
    await vi.waitFor(async () => {
      const moved = (await marks(ada)).deletes[0]
      expect(moved?.left).toBeCloseTo(struck.left, 0)
      expect(moved!.top).toBeCloseTo(struck.top, 0)
    }, WAIT)

    // Accepting on the card: the server applies it, and every copy has it.
    const card = ada.getByRole('group', { name: 'Suggestion by Spellbot: Fix “teh”' })
    await card.getByRole('button', { name: 'Accept' }).click()
    const accepted = `# ${NOTES.replace('teh end', 'the end')}`
    await vi.waitFor(async () => {
      expect(await textOf(ada)).toBe(accepted)
      expect(bot.text()).toBe(accepted)
      expect((await marks(ada)).deletes).toEqual([])
      expect(await item.count()).toBe(0)
    }, WAIT)
    expect(await panel.locator('.suggestion-empty').textContent()).toBe('No suggestions')
    await ada.screenshot({ path: `${ARTIFACTS}proposals-accepted.png` })
  })

  it('rejecting from the side panel removes the proposal and leaves the text as it was', async () => {
    const room = 'review-reject'
    const ada = await openPage(room)
    await typeNotes(ada, NOTES)
    const bot = await openProgram(room)
    await vi.waitFor(() => expect(bot.text()).toBe(NOTES), WAIT)
    const week = NOTES.indexOf('teh week')
    bot.proposals.propose([{ from: week, to: week + 8, insert: 'the week\n- and the next' }], {
      message: 'Add a line',
    })
    await vi.waitFor(async () => expect((await marks(ada)).inserts).toHaveLength(1), WAIT)
    expect((await marks(ada)).inserts[0]!.text).toBe('the week\n- and the next')
    await ada.screenshot({ path: `${ARTIFACTS}proposals-multiline.png` })

    await ada.getByRole('button', { name: 'Reject Spellbot’s suggestion' }).click()
    await vi.waitFor(async () => {
      expect(await ada.locator('li.suggestion').count()).toBe(0)
      expect((await marks(ada)).inserts).toEqual([])
      expect(bot.proposals.list()).toEqual([])
    }, WAIT)
    expect(await textOf(ada)).toBe(NOTES)
    expect(bot.text()).toBe(NOTES)
    // The button that had the focus went with its suggestion: the editor has it now.
    expect(
      await ada.evaluate(() => document.activeElement?.classList.contains('tandem-input')),
    ).toBe(true)
  })

  it('shows a reader the proposals with their buttons disabled', async () => {
    const secret = randomBytes(32).toString('base64url')
    const guarded = await AppServer.start({
      app: app.dir,
      file: join(dir, 'guarded.sqlite'),
      authorize: tokenAuthorizer(secret),
    })
    try {
      const room = 'review-read'
      const bot = await openProgram(room, guarded)
      bot.program.doc.getText('text').insert(0, NOTES)
      const teh = NOTES.indexOf('teh')
      bot.proposals.propose([{ from: teh, to: teh + 3, insert: 'the' }], { message: 'Typo' })
      await bot.program.flushed()
      const read = signToken(
        { room, role: 'read', sub: 'vi', exp: Math.floor(Date.now() / 1000) + 600 },
        secret,
      )
      const vi_ = await openPage(room, guarded, read)
      await vi.waitFor(async () => expect((await marks(vi_)).deletes).toHaveLength(1), WAIT)
      const card = vi_.getByRole('group', { name: 'Suggestion by Spellbot: Typo' })
      await vi.waitFor(
        async () =>
          expect(await card.getByRole('button', { name: 'Accept' }).isDisabled()).toBe(true),
        WAIT,
      )
      expect(await card.getByRole('button', { name: 'Reject' }).isDisabled()).toBe(true)
      const listed = vi_.getByRole('button', { name: 'Accept Spellbot’s suggestion' })
      await vi.waitFor(async () => expect(await listed.isDisabled()).toBe(true), WAIT)
      expect(
        await vi_.getByRole('button', { name: 'Reject Spellbot’s suggestion' }).isDisabled(),
      ).toBe(true)
      await vi_.screenshot({ path: `${ARTIFACTS}proposals-read-only.png` })
    } finally {
      for (const program of programs.splice(0)) await program.close()
      await guarded.stop()
    }
  })
})
