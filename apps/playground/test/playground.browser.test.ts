/// <reference lib="dom" />
/**
 * The built playground in real Chromium, served by a real server over SQLite: co-editing
 * between two browsers, tabs of one browser without a server, offline edits kept in
 * IndexedDB, a read-only token, and a CodeMirror 6 editor (y-codemirror.next) on the same
 * room. Screenshots go to `artifacts/playground/`.
 */
import { randomBytes } from 'node:crypto'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { signToken, tokenAuthorizer } from '@tandem/server'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { CodeMirrorPage } from '../../../packages/collab/src/testing/codemirror-page.js'
import { openClient } from '../../../packages/server/src/testing/clients.js'
import { launchChromium } from '../../../testing/browser.js'
import { type PageServer, servePage } from '../../../testing/page-server.js'
import { AppServer, buildApp } from './app-server.js'

const WAIT = { timeout: 20_000, interval: 50 }
const ARTIFACTS = fileURLToPath(new URL('../../../artifacts/playground/', import.meta.url))
const README_IMAGE = new URL('../../../docs/images/playground.png', import.meta.url)
const ADA = { name: 'Ada', color: '#e11d48', id: 'ada' }
const BOB = { name: 'Bob', color: '#2563eb', id: 'bob' }

const dir = mkdtempSync(join(tmpdir(), 'tandem-playground-test-'))
let app: { dir: string; remove: () => void }
let server: AppServer
let browser: Browser
const contexts: BrowserContext[] = []
let rooms = 0
const newRoom = (label: string) => `${label}-${++rooms}`

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true })
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

/** A browser profile whose remembered user is `user`. */
const newContext = async (user: typeof ADA): Promise<BrowserContext> => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 620 } })
  await context.addInitScript((saved) => {
    if (localStorage.getItem('tandem.playground.user') === null) {
      localStorage.setItem('tandem.playground.user', saved)
    }
  }, JSON.stringify(user))
  contexts.push(context)
  return context
}

/** Opens `url` in a new tab of `context`; fails the test on any error in the page. */
const openPage = async (context: BrowserContext, url: string): Promise<Page> => {
  const page = await context.newPage()
  page.on('pageerror', (error) => {
    throw new Error(`error in the page: ${error.message}`)
  })
  await page.goto(url)
  await page.waitForSelector('.tandem-editor .tandem-line', { state: 'attached' })
  return page
}

const status = (page: Page) => page.getAttribute('#status', 'data-status')
const waitForStatus = (page: Page, expected: string) =>
  vi.waitFor(async () => expect(await status(page)).toBe(expected), WAIT)

/** The text the view shows: its rendered rows, in order. */
const shownText = (page: Page): Promise<string> =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('.tandem-line'))
      .sort((a, b) => Number(a.dataset.screenRow) - Number(b.dataset.screenRow))
      .map((line) => line.textContent)
      .join('\n'),
  )

/** The text of the page's editor (not only what is rendered). */
const editorText = (page: Page): Promise<string> =>
  page.evaluate(() =>
    (
      globalThis as unknown as { playground: { editor: { getText(): string } } }
    ).playground.editor.getText(),
  )

/** Where the view draws column `column` of screen row `row`: the left edge and the row's box. */
const columnBox = (page: Page, row: number, column: number) =>
  page.evaluate(
    ([row, column]) => {
      const line = document.querySelector(`.tandem-line[data-screen-row="${row}"]`)
      if (line === null) throw new Error(`row ${row} is not rendered`)
      const box = line.getBoundingClientRect()
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT)
      let left = box.left
      let rest = column
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const length = node.textContent?.length ?? 0
        if (rest <= length) {
          const range = document.createRange()
          range.setStart(node, rest)
          range.setEnd(node, rest)
          left = range.getBoundingClientRect().left
          break
        }
        rest -= length
      }
      return { left, top: box.top, bottom: box.bottom }
    },
    [row, column] as const,
  )

/** The remote carets the view draws: the label's name, the caret's box and color. */
const remoteCarets = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('.tandem-remote-cursor')).map((caret) => {
      const box = caret.getBoundingClientRect()
      return {
        name: caret.querySelector('.tandem-remote-label')?.textContent ?? '',
        left: box.left,
        top: box.top,
        bottom: box.bottom,
        width: box.width,
        color: getComputedStyle(caret).backgroundColor,
      }
    }),
  )

/** The remote selection highlights the view draws, as boxes. */
const remoteHighlights = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('.tandem-remote-selection')).map((mark) => {
      const box = mark.getBoundingClientRect()
      return { left: box.left, right: box.right, top: box.top, bottom: box.bottom }
    }),
  )

/** Expects one remote caret, named `name`, at (`row`, `column`) of `page`'s view. */
const expectRemoteCaretAt = async (page: Page, name: string, row: number, column: number) => {
  const at = await columnBox(page, row, column)
  const carets = (await remoteCarets(page)).filter((caret) => caret.name === name)
  expect(carets).toHaveLength(1)
  const caret = carets[0]!
  expect(Math.abs(caret.left + caret.width / 2 - at.left)).toBeLessThanOrEqual(2)
  expect(caret.top).toBeGreaterThanOrEqual(at.top - 1)
  expect(caret.bottom).toBeLessThanOrEqual(at.bottom + 1)
}

const people = (page: Page) =>
  page.$$eval('#people .person', (items) =>
    items.map(
      (item) =>
        `${item.querySelector('.person-name')?.textContent}${'self' in (item as HTMLElement).dataset ? ' (you)' : ''}`,
    ),
  )

describe('the playground in a browser', () => {
  it('co-edits between two browsers: text, the remote caret where it is with its name, the remote selection', async () => {
    const room = newRoom('co-editing')
    const ada = await openPage(await newContext(ADA), server.pageUrl(room))
    const bob = await openPage(await newContext(BOB), server.pageUrl(room))
    await Promise.all([waitForStatus(ada, 'synced'), waitForStatus(bob, 'synced')])
    expect(await ada.textContent('#status')).toBe('Online')

    await ada.keyboard.type('Hello from Ada\nsecond line')
    await vi.waitFor(
      async () => expect(await shownText(bob)).toBe('Hello from Ada\nsecond line'),
      WAIT,
    )
    await bob.keyboard.type('Bob: ')
    await vi.waitFor(
      async () => expect(await editorText(ada)).toBe('Bob: Hello from Ada\nsecond line'),
      WAIT,
    )

    // Ada's caret is at the end of the second row; Bob sees it there, labelled with her name.
    await vi.waitFor(() => expectRemoteCaretAt(bob, 'Ada', 1, 11), WAIT)
    await vi.waitFor(() => expectRemoteCaretAt(ada, 'Bob', 0, 5), WAIT)
    expect((await remoteCarets(bob))[0]!.color).toBe('rgb(225, 29, 72)')

    // Ada selects "second"; Bob sees it highlighted, exactly over those characters.
    await ada.keyboard.press('Home')
    await ada.keyboard.down('Shift')
    for (let i = 0; i < 6; i++) await ada.keyboard.press('ArrowRight')
    await ada.keyboard.up('Shift')
    const [from, to] = [await columnBox(bob, 1, 0), await columnBox(bob, 1, 6)]
    await vi.waitFor(async () => {
      const highlights = await remoteHighlights(bob)
      expect(highlights).toHaveLength(1)
      expect(Math.abs(highlights[0]!.left - from.left)).toBeLessThanOrEqual(1)
      expect(Math.abs(highlights[0]!.right - to.left)).toBeLessThanOrEqual(1)
      expect(highlights[0]!.top).toBeGreaterThanOrEqual(from.top - 1)
    }, WAIT)
    await vi.waitFor(() => expectRemoteCaretAt(bob, 'Ada', 1, 6), WAIT)

    expect(await people(bob)).toEqual(['Bob (you)', 'Ada'])
    expect(await people(ada)).toEqual(['Ada (you)', 'Bob'])
    await bob.screenshot({ path: join(ARTIFACTS, 'co-editing-bob.png') })
    // The README's picture, renewed on request only, so that a test run leaves docs/ alone.
    if (process.env.TANDEM_UPDATE_DOCS_IMAGES === '1') {
      copyFileSync(join(ARTIFACTS, 'co-editing-bob.png'), fileURLToPath(README_IMAGE))
    }
    await ada.screenshot({ path: join(ARTIFACTS, 'co-editing-ada.png') })
  })

  it('shows the document picker, renames the user for everyone, and remembers the name', async () => {
    const room = newRoom('picker')
    const context = await newContext(ADA)
    const ada = await openPage(context, server.pageUrl(room))
    const bob = await openPage(await newContext(BOB), server.pageUrl(room))
    await waitForStatus(ada, 'synced')
    await ada.keyboard.type('kept')
    await vi.waitFor(async () => expect(await editorText(bob)).toBe('kept'), WAIT)

    await ada.fill('#user-name', 'Ada L.')
    await ada.press('#user-name', 'Enter')
    await vi.waitFor(async () => expect(await people(bob)).toEqual(['Bob (you)', 'Ada L.']), WAIT)
    const again = await openPage(context, server.pageUrl(room))
    expect(await again.inputValue('#user-name')).toBe('Ada L.')
    await again.close()

    // The picker lists the stored documents and opens another one in place.
    await ada.focus('#document')
    await vi.waitFor(async () => {
      const listed = await ada.$$eval('#documents option', (options) =>
        options.map((option) => (option as HTMLOptionElement).value),
      )
      expect(listed).toContain(room)
    }, WAIT)
    await ada.fill('#document', `${room}-other`)
    await ada.press('#document', 'Enter')
    await vi.waitFor(async () => expect(await editorText(ada)).toBe(''), WAIT)
    expect(new URL(ada.url()).searchParams.get('room')).toBe(`${room}-other`)
    await vi.waitFor(async () => expect(await people(bob)).toEqual(['Bob (you)']), WAIT)
  })

  it('picks a language for everyone on the document, whose comments ctrl-/ then toggles', async () => {
    const room = newRoom('language')
    const ada = await openPage(await newContext(ADA), server.pageUrl(room))
    const bob = await openPage(await newContext(BOB), server.pageUrl(room))
    await Promise.all([waitForStatus(ada, 'synced'), waitForStatus(bob, 'synced')])
    await ada.selectOption('#language', 'python')
    await vi.waitFor(async () => expect(await bob.inputValue('#language')).toBe('python'), WAIT)
    const grammar = () =>
      bob.evaluate(() =>
        (
          globalThis as unknown as { playground: { editor: { getGrammar(): string } } }
        ).playground.editor.getGrammar(),
      )
    expect(await grammar()).toBe('python')
    // Atom's ctrl-/ comments the line out in the language's way, for both.
    await bob.click('.tandem-editor')
    await bob.keyboard.type('x = 1')
    await bob.keyboard.press('Control+/')
    await vi.waitFor(async () => expect(await editorText(ada)).toBe('# x = 1'), WAIT)
    await bob.keyboard.press('Control+/')
    await vi.waitFor(async () => expect(await editorText(ada)).toBe('x = 1'), WAIT)
    // Drawn in Python's colours: the number is a constant.
    await vi.waitFor(
      async () => expect(await ada.textContent('.tandem-line .syntax--constant')).toBe('1'),
      WAIT,
    )
  })

  it("switches the editor's theme, and remembers the choice in this browser", async () => {
    const room = newRoom('theme')
    const context = await newContext(ADA)
    const page = await openPage(context, server.pageUrl(room))
    await waitForStatus(page, 'synced')
    const look = () =>
      page.evaluate(() => {
        const editor = document.querySelector('.tandem-editor')!
        return {
          dark: editor.classList.contains('tandem-theme-dark'),
          background: getComputedStyle(editor).backgroundColor,
        }
      })
    const light = await look()
    await page.selectOption('#theme', 'dark')
    const dark = await look()
    expect(dark.dark).toBe(true)
    expect(dark.background).not.toBe(light.background)
    await page.reload()
    await waitForStatus(page, 'synced')
    expect(await page.inputValue('#theme')).toBe('dark')
    expect(await look()).toEqual(dark)
  })

  it('says "Saved" once the server has stored what was typed, and "Not saved" offline', async () => {
    const room = newRoom('saved')
    const page = await openPage(await newContext(ADA), server.pageUrl(room))
    await waitForStatus(page, 'synced')
    const badge = page.getByRole('status').filter({ hasText: /saved|saving/i })
    const saved = async () => ({
      state: await page.getAttribute('#saved', 'data-saved'),
      text: await page.textContent('#saved'),
    })
    await vi.waitFor(
      async () => expect(await saved()).toEqual({ state: 'saved', text: 'Saved' }),
      WAIT,
    )
    await page.keyboard.type('stored on the server')
    // The typing makes it unsaved at once; only the server's word makes it saved again.
    expect((await saved()).state).not.toBe('saved')
    await vi.waitFor(
      async () => expect(await saved()).toEqual({ state: 'saved', text: 'Saved' }),
      WAIT,
    )
    expect(await badge.textContent()).toBe('Saved')
    const check = openClient(server.roomsUrl, room)
    try {
      await vi.waitFor(() => expect(check.text.toString()).toBe('stored on the server'), WAIT)
    } finally {
      check.destroy()
    }

    await server.stop()
    await waitForStatus(page, 'offline')
    await page.keyboard.type(', and more')
    await vi.waitFor(
      async () =>
        expect(await saved()).toEqual({
          state: 'unsaved',
          text: 'Not saved (kept in this browser)',
        }),
      WAIT,
    )
    expect(await page.getAttribute('#saved', 'title')).toMatch(/^\d+ changes? (is|are) not stored/)
    await server.start()
    await vi.waitFor(
      async () => expect(await saved()).toEqual({ state: 'saved', text: 'Saved' }),
      WAIT,
    )
  })

  it('syncs two tabs over BroadcastChannel with the server stopped, and sends the offline edits once it is back', async () => {
    const room = newRoom('offline')
    const context = await newContext(ADA)
    const first = await openPage(context, server.pageUrl(room))
    const second = await openPage(context, server.pageUrl(room))
    await Promise.all([waitForStatus(first, 'synced'), waitForStatus(second, 'synced')])
    await server.stop()
    await Promise.all([waitForStatus(first, 'offline'), waitForStatus(second, 'offline')])
    expect(await first.textContent('#status')).toBe('Offline')
    // And it says why, on the badge and in the side bar.
    await vi.waitFor(async () => {
      expect(await first.getAttribute('#status', 'title')).toMatch(
        /^nothing answers at http:\/\/127\.0\.0\.1:\d+ \(no connection\)$/,
      )
      expect(await first.textContent('#notice')).toMatch(/^Cannot connect: nothing answers at/)
    }, WAIT)

    const stored = () =>
      first.evaluate(
        (name) =>
          new Promise<number>((resolve, reject) => {
            const request = indexedDB.open(name)
            request.onerror = () => reject(request.error)
            request.onsuccess = () => {
              const db = request.result
              const count = db.transaction('updates').objectStore('updates').count()
              count.onsuccess = () => {
                db.close()
                resolve(count.result)
              }
              count.onerror = () => reject(count.error)
            }
          }),
        `tandem:${server.roomsUrl}/${room}`,
      )
    const before = await stored()
    const typed = 'written while the server was down'
    await first.keyboard.type(typed)
    await vi.waitFor(async () => expect(await shownText(second)).toBe(typed), WAIT)
    await vi.waitFor(
      async () => expect(await stored()).toBeGreaterThanOrEqual(before + typed.length),
      WAIT,
    )
    await first.screenshot({ path: join(ARTIFACTS, 'offline.png') })

    // Every tab closed: only IndexedDB has the text. The server comes back; a new tab sends it.
    await first.close()
    await second.close()
    await server.start()
    const back = await openPage(context, server.pageUrl(room))
    await waitForStatus(back, 'synced')
    expect(await editorText(back)).toBe(typed)
    const check = openClient(server.roomsUrl, room)
    try {
      await vi.waitFor(() => expect(check.text.toString()).toBe(typed), WAIT)
    } finally {
      check.destroy()
    }
  })
})

describe('the playground with tokens', () => {
  const secret = randomBytes(32).toString('base64url')
  let guarded: AppServer
  beforeAll(async () => {
    guarded = await AppServer.start({
      app: app.dir,
      file: join(dir, 'guarded.sqlite'),
      authorize: tokenAuthorizer(secret),
    })
  })
  afterAll(() => guarded?.stop())
  const token = (role: 'read' | 'write', sub: string) =>
    signToken({ room: 'guarded/*', role, sub, exp: Math.floor(Date.now() / 1000) + 600 }, secret)

  it('with a read-only token: typing changes nothing, and the page says so', async () => {
    const room = 'guarded/handbook'
    const writer = openClient(`ws://127.0.0.1:${guarded.port}/ws`, room, {
      token: token('write', 'ed'),
    })
    try {
      await writer.synced()
      writer.text.insert(0, 'Read me, do not edit me')
      const page = await openPage(
        await newContext(ADA),
        guarded.pageUrl(room, token('read', 'ada')),
      )
      await waitForStatus(page, 'synced')
      await vi.waitFor(
        async () => expect(await shownText(page)).toBe('Read me, do not edit me'),
        WAIT,
      )
      expect(await page.isVisible('#read-only')).toBe(true)
      expect(await page.textContent('#read-only')).toBe('Read only')
      expect(await page.isDisabled('#language')).toBe(true)

      await page.keyboard.type('vandal ')
      await page.keyboard.press('Backspace')
      await vi.waitFor(async () => {
        expect(await page.isVisible('#notice')).toBe(true)
        expect(await page.textContent('#notice')).toBe('This document is read-only for you.')
      }, WAIT)
      expect(await shownText(page)).toBe('Read me, do not edit me')
      // The writer's next edit still arrives, and nothing of the reader's reached the writer.
      writer.text.insert(writer.text.length, '!')
      await vi.waitFor(
        async () => expect(await shownText(page)).toBe('Read me, do not edit me!'),
        WAIT,
      )
      expect(writer.text.toString()).toBe('Read me, do not edit me!')
      await page.screenshot({ path: join(ARTIFACTS, 'read-only.png') })
    } finally {
      writer.destroy()
    }
  })

  it('says so when the server refuses the token', async () => {
    const page = await openPage(
      await newContext(ADA),
      guarded.pageUrl('payroll', token('write', 'ada')),
    )
    await waitForStatus(page, 'refused')
    expect(await page.textContent('#status')).toBe('Access refused')
    expect(await page.textContent('#notice')).toBe(
      'The server refused this page: the token does not open the room "payroll"',
    )
  })
})

describe('the playground and CodeMirror 6 (y-codemirror.next) on one room', () => {
  let codeMirror: PageServer
  beforeAll(async () => {
    codeMirror = await servePage({
      entry: fileURLToPath(
        new URL('../../../packages/collab/src/testing/codemirror-page.ts', import.meta.url),
      ),
    })
  })
  afterAll(() => codeMirror?.close())

  it('sends text and carets both ways', async () => {
    const room = newRoom('codemirror')
    const context = await newContext(ADA)
    const ada = await openPage(context, server.pageUrl(room))
    await waitForStatus(ada, 'synced')
    const cm = await context.newPage()
    await cm.goto(codeMirror.url)
    await cm.waitForFunction(() => 'codeMirrorPage' in globalThis)
    await cm.evaluate(
      (options) =>
        (globalThis as unknown as { codeMirrorPage: CodeMirrorPage }).codeMirrorPage.open(options),
      {
        url: server.roomsUrl,
        room,
        user: { name: 'Cleo', color: '#059669', colorLight: '#05966933' },
      },
    )

    await ada.bringToFront()
    await ada.locator('#editor').click({ position: { x: 300, y: 10 } })
    await ada.keyboard.type('typed in Tandem')
    const cmText = () =>
      cm.evaluate(() =>
        (globalThis as unknown as { codeMirrorPage: CodeMirrorPage }).codeMirrorPage.text(),
      )
    await vi.waitFor(async () => expect(await cmText()).toBe('typed in Tandem'), WAIT)
    await cm.evaluate(() => {
      const page = (globalThis as unknown as { codeMirrorPage: CodeMirrorPage }).codeMirrorPage
      page.insertAt(0, '> ')
      page.select(2, 7)
    })
    await vi.waitFor(async () => expect(await editorText(ada)).toBe('> typed in Tandem'), WAIT)

    // Cleo's selection ("typed") and caret, drawn in Tandem's view.
    await vi.waitFor(() => expectRemoteCaretAt(ada, 'Cleo', 0, 7), WAIT)
    const [from, to] = [await columnBox(ada, 0, 2), await columnBox(ada, 0, 7)]
    await vi.waitFor(async () => {
      const highlights = await remoteHighlights(ada)
      expect(highlights).toHaveLength(1)
      expect(Math.abs(highlights[0]!.left - from.left)).toBeLessThanOrEqual(1)
      expect(Math.abs(highlights[0]!.right - to.left)).toBeLessThanOrEqual(1)
    }, WAIT)

    // Ada's caret (after "Tandem"), drawn by y-codemirror.next.
    await vi.waitFor(async () => {
      const carets = await cm.evaluate(() =>
        (globalThis as unknown as { codeMirrorPage: CodeMirrorPage }).codeMirrorPage.remoteCarets(),
      )
      expect(carets).toEqual([{ name: 'Ada', at: 17, color: 'rgb(225, 29, 72)' }])
    }, WAIT)
    await ada.screenshot({ path: join(ARTIFACTS, 'with-codemirror.png') })
  })

  it('reaches every command from the keyboard and the toolbar: the palette, find, soft wrap, chords', async () => {
    const room = newRoom('commands')
    const ada = await openPage(await newContext(ADA), server.pageUrl(room))
    await waitForStatus(ada, 'synced')
    await ada.keyboard.type('alpha beta\ngamma alpha\nalpha')
    await ada.keyboard.press('Control+Home')

    // ctrl-shift-p: the palette, a listbox of every command with its keys.
    await ada.keyboard.press('Control+Shift+P')
    const listbox = ada.getByRole('listbox', { name: 'Commands' })
    await expect.poll(() => listbox.getByRole('option').count()).toBeGreaterThan(100)
    await ada.keyboard.type('upper case')
    await expect
      .poll(() => listbox.getByRole('option').first().textContent())
      .toBe('Editor: Upper CaseCtrl+K Ctrl+U')
    // With nothing selected, it upper-cases the word at the cursor, as Atom's does.
    await ada.keyboard.press('Enter')
    await vi.waitFor(async () => expect(await editorText(ada)).toMatch(/^ALPHA beta/), WAIT)

    // The same through its chord, and back with the lower-case chord.
    await ada.keyboard.press('Control+k')
    await ada.keyboard.press('Control+l')
    await vi.waitFor(async () => expect(await editorText(ada)).toMatch(/^alpha beta/), WAIT)

    // ctrl-f finds; the count is read from its live region.
    await ada.keyboard.press('Control+f')
    await ada.keyboard.type('alpha')
    const count = ada.locator('.tandem-find-bar [role="status"]')
    await expect.poll(() => count.textContent()).toMatch(/^\d of 3$|^3 results$/)
    await ada.keyboard.press('Enter')
    await expect.poll(() => count.textContent()).toMatch(/^\d of 3$/)
    await ada.screenshot({ path: join(ARTIFACTS, 'find-bar.png') })
    await ada.keyboard.press('Escape')

    // The toolbar's soft-wrap toggle shows the editor's state, by click and by alt-z.
    const wrap = ada.getByRole('button', { name: 'Soft wrap' })
    expect(await wrap.getAttribute('aria-pressed')).toBe('false')
    await wrap.click()
    await expect.poll(() => wrap.getAttribute('aria-pressed')).toBe('true')
    await ada.keyboard.press('Alt+z')
    await expect.poll(() => wrap.getAttribute('aria-pressed')).toBe('false')
  })

  for (const width of [360, 480, 560]) {
    it(`fits a ${width} px wide window: labels by their controls, "here now" in sight, nothing wider than the page`, async () => {
      const room = newRoom(`narrow-${width}`)
      const context = await newContext(ADA)
      const ada = await openPage(context, server.pageUrl(room))
      await ada.setViewportSize({ width, height: 640 })
      const bob = await openPage(await newContext(BOB), server.pageUrl(room))
      await Promise.all([waitForStatus(ada, 'synced'), waitForStatus(bob, 'synced')])
      await vi.waitFor(async () => expect(await people(ada)).toEqual(['Ada (you)', 'Bob']), WAIT)
      const layout = await ada.evaluate(() => {
        const box = (selector: string) => {
          const rect = document.querySelector(selector)!.getBoundingClientRect()
          return { left: rect.left, right: rect.right, top: rect.top, bottom: rect.bottom }
        }
        const visible = (selector: string) =>
          [...document.querySelectorAll<HTMLElement>(selector)].map((element) => {
            const rect = element.getBoundingClientRect()
            return (
              element.checkVisibility() &&
              rect.width > 0 &&
              rect.height > 0 &&
              rect.left >= 0 &&
              rect.right <= innerWidth &&
              rect.top >= 0 &&
              rect.bottom <= innerHeight
            )
          })
        const pairs = [...document.querySelectorAll<HTMLLabelElement>('label[for]')].map(
          (label) => ({
            name: label.textContent,
            label: box(`label[for="${label.htmlFor}"]`),
            control: box(`#${label.htmlFor}`),
          }),
        )
        const outside = [...document.querySelectorAll<HTMLElement>('body *')]
          .filter((element) => element.checkVisibility())
          .map((element) => ({ element, rect: element.getBoundingClientRect() }))
          .filter(
            ({ rect }) => rect.width > 0 && (rect.left < -0.5 || rect.right > innerWidth + 0.5),
          )
          .filter(({ element }) => element.closest('.tandem-scroller') === null)
          .map(({ element }) => element.id || element.className)
        return {
          pairs,
          people: visible('#people .person'),
          title: visible('#people-title'),
          editor: box('#editor'),
          scrollWidth: document.documentElement.scrollWidth,
          clientWidth: document.documentElement.clientWidth,
          outside,
        }
      })
      expect(layout.pairs.map((pair) => pair.name)).toEqual(['Document', 'Language', 'Theme'])
      for (const { name, label, control } of layout.pairs) {
        // Same line, the control right after its label.
        const middle = (box: typeof label) => (box.top + box.bottom) / 2
        expect(Math.abs(middle(label) - middle(control)), String(name)).toBeLessThanOrEqual(4)
        expect(control.left - label.right, String(name)).toBeGreaterThanOrEqual(0)
        expect(control.left - label.right, String(name)).toBeLessThanOrEqual(16)
      }
      expect(layout.people).toEqual([true, true])
      expect(layout.title).toEqual([true])
      expect(layout.scrollWidth).toBeLessThanOrEqual(layout.clientWidth)
      expect(layout.outside).toEqual([])
      expect(layout.editor.bottom - layout.editor.top).toBeGreaterThan(200)
      await ada.screenshot({ path: join(ARTIFACTS, `narrow-${width}.png`) })
    })
  }
})
