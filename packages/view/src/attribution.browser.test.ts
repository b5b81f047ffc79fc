/**
 * The attribution mode in Chromium, over a source that answers known runs: every block of
 * three lines is Ada's or Bob's in turn. The text and the gutter coloured by author, the
 * legend, the author and time on hover and for the cursor, only the rows on screen asked for
 * (again after scrolling), and text typed since the last answer left uncoloured until the
 * source says it has stored it. Screenshots go to `artifacts/view/`.
 */
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { describe, expect, it, vi } from 'vitest'
import { inPage } from './testing/in-page.js'
import { useViewPage } from './testing/serve-view-page.js'

const ARTIFACTS = fileURLToPath(new URL('../../../artifacts/view/', import.meta.url))
const WAIT = { timeout: 5_000, interval: 30 }
const LINES = 600
const TEXT = Array.from({ length: LINES }, (_, row) => `line ${row} of the shared notes`).join('\n')

/** What the page's fake source noted: each range asked for, as rows. */
interface Asked {
  readonly startRow: number
  readonly endRow: number
}

/**
 * Installs the fake source in the page and shows it in view A. Rows 0-2 are Ada's, 3-5
 * Bob's, and so on; every run was written at 09:30 UTC on 5 January 2026.
 */
const showFakeAttribution = (page: Page, show: 'text' | 'gutter' | 'both') =>
  inPage(
    page,
    (vp, show) => {
      const editor = vp.a.editor
      const buffer = editor.getBuffer()
      const listeners = new Set<() => void>()
      const asked: { startRow: number; endRow: number }[] = []
      const source = {
        // Answers from the text as it was when shown: runs of whole blocks of three lines.
        authorsOf(range: { start: { row: number }; end: { row: number } }) {
          asked.push({ startRow: range.start.row, endRow: range.end.row })
          const runs = []
          for (let row = range.start.row; row <= range.end.row; row++) {
            const start = buffer.positionForCharacterIndex(
              buffer.characterIndexForPosition([row, 0]),
            )
            const end = buffer.positionForCharacterIndex(
              buffer.characterIndexForPosition([row + 1, 0]),
            )
            runs.push({
              range: { start, end },
              user: Math.floor(row / 3) % 2 === 0 ? 'ada' : 'bob',
              time: Date.UTC(2026, 0, 5, 9, 30),
            })
          }
          return Promise.resolve(runs)
        },
        onDidChangeAuthors(callback: () => void) {
          listeners.add(callback)
          return { dispose: () => listeners.delete(callback) }
        },
      }
      ;(globalThis as Record<string, unknown>).fakeAttribution = {
        asked,
        changed: () => {
          for (const listener of listeners) listener()
        },
      }
      const names: Record<string, string> = { ada: 'Ada', bob: 'Bob' }
      vp.a.view!.showAttribution(source as never, {
        show,
        nameOf: (user) => names[user],
        formatTime: (time) => new Date(time).toISOString().slice(11, 16),
      })
    },
    show,
  )

const asked = (page: Page) =>
  page.evaluate(
    () => (globalThis as unknown as { fakeAttribution: { asked: Asked[] } }).fakeAttribution.asked,
  )

/** The coloured runs drawn in view A: author, colour, and rectangle in client pixels. */
const runsOnScreen = (page: Page) =>
  inPage(page, async (vp) => {
    await vp.frames()
    return [...vp.a.element!.querySelectorAll<HTMLElement>('.tandem-author-run')].map((run) => {
      const box = run.getBoundingClientRect()
      return {
        user: run.dataset.user ?? null,
        color: getComputedStyle(run).backgroundColor,
        top: box.top,
        left: box.left,
        right: box.right,
      }
    })
  })

/** The top of a screen row in view A, once the view has drawn the frame an edit asked for. */
const rowTop = (page: Page, row: number) => vi.waitFor(() => rowTopNow(page, row), WAIT)

const rowTopNow = (page: Page, row: number) =>
  inPage(
    page,
    async (vp, row) => {
      await vp.frames()
      return vp.a
        .element!.querySelector(`.tandem-line[data-screen-row="${row}"]`)!
        .getBoundingClientRect().top
    },
    row,
  )

describe('the attribution mode of the view', () => {
  const view = useViewPage(ARTIFACTS)
  let page: Page
  const open = async () => {
    page = await view.openPage()
    await inPage(page, (vp, text) => vp.open({ text, width: 640, height: 300 }), TEXT)
  }

  it('colours each author’s text, names them in a legend, and says who wrote a run on hover', async () => {
    await open()
    await showFakeAttribution(page, 'both')
    await vi.waitFor(async () => expect((await runsOnScreen(page)).length).toBeGreaterThan(4), WAIT)
    const runs = await runsOnScreen(page)
    const top0 = await rowTop(page, 0)
    const top3 = await rowTop(page, 3)
    const ada = runs.find((run) => Math.abs(run.top - top0) < 1)!
    const bob = runs.find((run) => Math.abs(run.top - top3) < 1)!
    expect(ada.user).toBe('ada')
    expect(bob.user).toBe('bob')
    expect(ada.color).not.toBe(bob.color)
    expect(ada.color).not.toMatch(/rgba\(0, 0, 0, 0\)/)
    // Every run of one author has one colour.
    for (const run of runs) expect(run.color).toBe(run.user === 'ada' ? ada.color : bob.color)

    // The legend: a labelled group listing the names in text, beside their colours.
    const legend = await inPage(page, (vp) => {
      const group = vp.a.element!.querySelector<HTMLElement>('.tandem-attribution-legend')!
      return {
        role: group.getAttribute('role'),
        label: group.getAttribute('aria-label'),
        items: [...group.querySelectorAll('li')].map((li) => li.textContent),
      }
    })
    expect(legend).toEqual({
      role: 'group',
      label: 'Authors',
      items: ['Ada', 'Bob', 'Not yet stored (no colour)'],
    })

    // The gutter: one bar per block of rows by one author, titled with the author and time.
    const bars = await inPage(page, (vp) =>
      [...vp.a.element!.querySelectorAll<HTMLElement>('.tandem-author-bar')].map((bar) => ({
        title: bar.title,
        height: bar.getBoundingClientRect().height,
      })),
    )
    expect(bars[0]!.title).toBe('Written by Ada, 09:30')
    expect(bars[1]!.title).toBe('Written by Bob, 09:30')
    const lineHeight = await inPage(page, (vp) => vp.a.view!.getMetrics().lineHeight)
    expect(bars[0]!.height).toBeCloseTo(3 * lineHeight, 0)

    // Hovering a run shows its author and time beside the pointer.
    const tooltip = () =>
      inPage(page, (vp) => {
        const tip = vp.a.element!.querySelector<HTMLElement>('.tandem-author-tooltip')!
        return tip.hidden ? null : { text: tip.textContent, role: tip.getAttribute('role') }
      })
    const glyph = async (row: number, column: number) =>
      (await inPage(page, (vp, [r, c]) => vp.glyphPosition('a', r!, c!), [row, column]))!
    const overBob = await glyph(4, 3)
    await page.mouse.move(overBob.left + 3, overBob.top + 5)
    await vi.waitFor(
      async () =>
        expect(await tooltip()).toEqual({ text: 'Written by Bob, 09:30', role: 'tooltip' }),
      WAIT,
    )
    await page.screenshot({
      path: `${ARTIFACTS}attribution.png`,
      clip: { x: 0, y: 0, width: 680, height: 330 },
    })
    const overAda = await glyph(1, 2)
    await page.mouse.move(overAda.left + 3, overAda.top + 5)
    await vi.waitFor(
      async () => expect((await tooltip())?.text).toBe('Written by Ada, 09:30'),
      WAIT,
    )
    // Past the end of a row there is no text, so nothing to say.
    await page.mouse.move(overAda.left + 500, overAda.top + 5)
    await vi.waitFor(async () => expect(await tooltip()).toBeNull(), WAIT)

    // The cursor's run describes the editor for a screen reader.
    const description = () =>
      inPage(page, async (vp) => {
        await vp.frames()
        const input = vp.a.element!.querySelector('textarea')!
        const ids = (input.getAttribute('aria-describedby') ?? '').split(' ')
        return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' | ')
      })
    expect(await description()).toContain('Written by Ada, 09:30')
    await inPage(page, (vp) => vp.a.editor.setCursorBufferPosition([3, 4]))
    await vi.waitFor(async () => expect(await description()).toContain('Written by Bob'), WAIT)

    // Turned off, nothing of it stays.
    await inPage(page, (vp) => {
      vp.a.view!.hideAttribution()
      vp.a.view!.updateSync()
    })
    const left = await inPage(
      page,
      (vp) =>
        vp.a.element!.querySelectorAll(
          '.tandem-author-run, .tandem-author-bar, .tandem-attribution-legend, .tandem-author-tooltip',
        ).length,
    )
    expect(left).toBe(0)
    expect(await description()).not.toContain('Written by')
  })

  it('asks only for the rows on screen, again after scrolling a long document', async () => {
    await open()
    await showFakeAttribution(page, 'text')
    await vi.waitFor(async () => expect((await asked(page)).length).toBe(1), WAIT)
    const first = (await asked(page))[0]!
    expect(first.startRow).toBe(0)
    expect(first.endRow).toBeLessThan(30)

    await inPage(page, (vp) => vp.a.view!.scrollBufferPositionToTop([400, 0]))
    await vi.waitFor(async () => expect((await asked(page)).length).toBe(2), WAIT)
    const second = (await asked(page))[1]!
    expect(second.startRow).toBeGreaterThan(380)
    expect(second.startRow).toBeLessThanOrEqual(400)
    expect(second.endRow).toBeLessThan(430)
    // The rows now on screen are coloured: row 400 is in block 133, Bob's.
    const top400 = await rowTop(page, 400)
    await vi.waitFor(async () => {
      const runs = await runsOnScreen(page)
      expect(runs.find((run) => Math.abs(run.top - top400) < 1)?.user).toBe('bob')
    }, WAIT)
    // Scrolling a little, within the rows asked for, asks nothing more.
    await inPage(page, (vp) => vp.a.view!.setScrollTop(vp.a.view!.getScrollTop() + 10))
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await asked(page)).toHaveLength(2)
    for (const range of await asked(page)) expect(range.endRow - range.startRow).toBeLessThan(40)
  })

  it('leaves text typed since the last answer uncoloured until the source has stored it', async () => {
    await open()
    await showFakeAttribution(page, 'text')
    await vi.waitFor(async () => expect((await runsOnScreen(page)).length).toBeGreaterThan(4), WAIT)
    const before = await inPage(page, (vp) => vp.glyphPosition('a', 1, 0)!.left)
    await inPage(page, (vp) => {
      vp.a.editor.setCursorBufferPosition([1, 0])
      vp.a.editor.insertText('NEW ')
    })
    const top1 = await rowTop(page, 1)
    const row1 = async () =>
      (await runsOnScreen(page)).filter((run) => Math.abs(run.top - top1) < 1)
    // Row 1's run now starts after the four new characters; nothing was asked again yet.
    const afterTyping = await inPage(page, (vp) => vp.glyphPosition('a', 1, 4)!.left)
    await vi.waitFor(async () => {
      const runs = await row1()
      expect(runs).toHaveLength(1)
      expect(runs[0]!.left).toBeCloseTo(afterTyping, 0)
    }, WAIT)
    expect(afterTyping).toBeGreaterThan(before)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await asked(page)).toHaveLength(1)
    await page.screenshot({
      path: `${ARTIFACTS}attribution-not-yet-stored.png`,
      clip: { x: 0, y: 0, width: 680, height: 330 },
    })

    // The source says it has stored the change: the view asks again, and this source now
    // counts the whole row as Ada's.
    await page.evaluate(() =>
      (globalThis as unknown as { fakeAttribution: { changed(): void } }).fakeAttribution.changed(),
    )
    await vi.waitFor(async () => expect(await asked(page)).toHaveLength(2), WAIT)
    await vi.waitFor(async () => {
      const runs = await row1()
      expect(runs[0]!.left).toBeCloseTo(before, 0)
    }, WAIT)
  })
})
