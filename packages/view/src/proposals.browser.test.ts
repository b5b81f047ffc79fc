/**
 * The suggestions layer in Chromium, over a source in the page that holds known proposals
 * and notes each decision: the replaced text struck through exactly over its glyphs (after
 * emoji and CJK text on the row), the proposed text in the program's colour right after it,
 * a multi-line insertion drawn on rows of its own, and a card with the program's name, its
 * message and Accept and Reject buttons that the mouse and the keyboard reach, disabled for a
 * reader, and telling why a decision failed. Screenshots go to `artifacts/view/`.
 */
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { describe, expect, it, vi } from 'vitest'
import { inPage } from './testing/in-page.js'
import { useViewPage } from './testing/serve-view-page.js'

const ARTIFACTS = fileURLToPath(new URL('../../../artifacts/view/', import.meta.url))
const WAIT = { timeout: 5_000, interval: 30 }
// Row 1: '😀' is 2 UTF-16 units, '宿題' 2 more, so 'teh' is columns 6 to 9.
const TEXT = 'The comittee met on Tuesday.\nNotes 😀宿題 teh end of notes\nlast line here'
const SPELLBOT = '#7a3db8'

/** Installs the page's source with two proposals and shows it in view A. */
const showFakeProposals = (page: Page, failWith: string | null = null) =>
  inPage(
    page,
    (vp, { color, failWith }) => {
      let proposals = [
        {
          id: 'typo',
          name: 'Spellbot',
          color,
          message: 'Fix a typo',
          changes: [
            {
              range: [
                [1, 12],
                [1, 15],
              ],
              insert: 'the',
            },
          ],
        },
        {
          id: 'lines',
          name: 'Outliner',
          color: '#0f6e78',
          message: null,
          changes: [
            {
              range: [
                [2, 4],
                [2, 4],
              ],
              insert: ' one\n- two',
            },
          ],
        },
      ]
      const listeners = new Set<() => void>()
      const decisions: string[] = []
      const decide = (id: string, decision: string) => {
        decisions.push(`${decision}:${id}`)
        if (failWith !== null) return Promise.reject(new Error(failWith))
        proposals = proposals.filter((proposal) => proposal.id !== id)
        for (const listener of listeners) listener()
        return Promise.resolve()
      }
      ;(globalThis as Record<string, unknown>).fakeProposals = { decisions }
      vp.a.view!.showProposals({
        list: () => proposals as never,
        onDidChange(callback) {
          listeners.add(callback)
          return { dispose: () => listeners.delete(callback) }
        },
        accept: (id) => decide(id, 'accept'),
        reject: (id) => decide(id, 'reject'),
      })
    },
    { color: SPELLBOT, failWith },
  )

const decisions = (page: Page) =>
  page.evaluate(
    () =>
      (globalThis as unknown as { fakeProposals: { decisions: string[] } }).fakeProposals.decisions,
  )

/** The marks drawn in view A, in client pixels. */
const marks = (page: Page) =>
  inPage(page, async (vp) => {
    await vp.frames()
    const boxes = (selector: string) =>
      [...vp.a.element!.querySelectorAll<HTMLElement>(selector)].map((element) => {
        const box = element.getBoundingClientRect()
        return {
          text: element.textContent ?? '',
          left: box.left,
          right: box.right,
          top: box.top,
          bottom: box.bottom,
          color: getComputedStyle(element.firstElementChild ?? element).color,
          ghost: (() => {
            const label = element.firstElementChild?.getBoundingClientRect()
            return label ? { left: label.left, top: label.top, height: label.height } : null
          })(),
          background: getComputedStyle(element).backgroundColor,
        }
      })
    return {
      deletes: boxes('.tandem-proposal-delete'),
      inserts: boxes('.tandem-proposal-insert'),
      cards: [...vp.a.element!.querySelectorAll<HTMLElement>('.tandem-proposal-card')]
        .filter((card) => !card.hidden)
        .map((card) => ({
          label: card.getAttribute('aria-label'),
          text: card.textContent,
          top: card.getBoundingClientRect().top,
          left: card.getBoundingClientRect().left,
        })),
    }
  })

const glyph = async (page: Page, row: number, column: number) =>
  (await inPage(page, (vp, [r, c]) => vp.glyphPosition('a', r!, c!), [row, column]))!

describe('the suggestions layer of the view', () => {
  const view = useViewPage(ARTIFACTS)
  let page: Page
  const open = async () => {
    page = await view.openPage()
    await inPage(page, (vp, text) => vp.open({ text, width: 640, height: 300 }), TEXT)
  }

  it('strikes the replaced text through over its glyphs and shows the proposed text after it', async () => {
    await open()
    await showFakeProposals(page)
    await vi.waitFor(async () => expect((await marks(page)).deletes).toHaveLength(1), WAIT)
    const { deletes, inserts, cards } = await marks(page)
    const start = await glyph(page, 1, 12)
    const end = await glyph(page, 1, 15)
    const emoji = await glyph(page, 1, 6)
    const afterCjk = await glyph(page, 1, 10)
    // Emoji and CJK glyphs are wider than the ASCII ones: a column count would miss.
    expect(afterCjk.left - emoji.left).toBeGreaterThan(4 * ((end.left - start.left) / 3) + 2)
    const [struck] = deletes
    expect(Math.abs(struck!.left - start.left)).toBeLessThan(1)
    expect(Math.abs(struck!.right - end.left)).toBeLessThan(1)
    expect(Math.abs(struck!.top - start.top)).toBeLessThan(2)
    expect(struck!.background).not.toMatch(/rgba\(0, 0, 0, 0\)/)

    // The insertion follows the struck text, in the program's colour; the multi-line one has
    // its own rows and starts at its place.
    // Its place is marked by a bar in the program's colour; the text hangs under it.
    const typo = inserts.find((insert) => insert.text === 'the')!
    expect(Math.abs((typo.left + typo.right) / 2 - end.left)).toBeLessThan(1)
    expect(Math.abs(typo.top - end.top)).toBeLessThan(2)
    expect(typo.background).toBe('rgb(122, 61, 184)')
    expect(typo.color).not.toBe('rgb(31, 36, 48)') // not the text's own colour
    expect(Math.abs(typo.ghost!.left - typo.left)).toBeLessThan(1)
    expect(Math.abs(typo.ghost!.top - typo.bottom)).toBeLessThan(1)
    const lines = inserts.find((insert) => insert.text === ' one\n- two')!
    const at = await glyph(page, 2, 4)
    expect(Math.abs((lines.left + lines.right) / 2 - at.left)).toBeLessThan(1)
    expect(lines.ghost!.height).toBeGreaterThan(1.8 * typo.ghost!.height)

    // A card under each proposal, named for screen readers.
    expect(cards.map((card) => card.label)).toEqual([
      'Suggestion by Spellbot: Fix a typo',
      'Suggestion by Outliner',
    ])
    expect(cards[0]!.text).toContain('Spellbot suggests')
    expect(cards[0]!.text).toContain('Fix a typo')
    expect(cards[0]!.top).toBeGreaterThan(typo.ghost!.top + typo.ghost!.height - 1)
    expect(Math.abs(cards[0]!.left - start.left)).toBeLessThan(4)
    await page.screenshot({
      path: `${ARTIFACTS}proposals.png`,
      clip: { x: 0, y: 0, width: 660, height: 310 },
    })
    await inPage(page, (vp) => vp.a.view!.setTheme('dark'))
    await inPage(page, (vp) => vp.frames())
    await page.screenshot({
      path: `${ARTIFACTS}proposals-dark.png`,
      clip: { x: 0, y: 0, width: 660, height: 310 },
    })
  })

  it('accepts with the mouse and rejects with the keyboard, and the marks go', async () => {
    await open()
    await showFakeProposals(page)
    const typo = page.getByRole('group', { name: 'Suggestion by Spellbot: Fix a typo' })
    await typo.getByRole('button', { name: 'Accept' }).click()
    expect(await decisions(page)).toEqual(['accept:typo'])
    await vi.waitFor(async () => expect((await marks(page)).cards).toHaveLength(1), WAIT)
    expect((await marks(page)).deletes).toEqual([])

    // From the editor, escape then tab leaves it for the card's buttons.
    await page.locator('.tandem-editor').first().click()
    await page.keyboard.press('Escape')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Accept')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Reject')
    await page.keyboard.press('Enter')
    expect(await decisions(page)).toEqual(['accept:typo', 'reject:lines'])
    await vi.waitFor(async () => expect((await marks(page)).inserts).toEqual([]), WAIT)
    // The card went with the focus in it: the focus is back in the editor.
    expect(await inPage(page, (vp) => vp.a.view!.hasFocus())).toBe(true)
    // Clicking a button did not move the caret or change the text.
    expect(await inPage(page, (vp) => vp.a.editor.getText())).toBe(
      'The comittee met on Tuesday.\nNotes 😀宿題 teh end of notes\nlast line here',
    )
  })

  it('disables the buttons for a reader and says why a decision failed', async () => {
    await open()
    await showFakeProposals(page, 'this needs a token with the write role')
    const typo = page.getByRole('group', { name: 'Suggestion by Spellbot: Fix a typo' })
    await inPage(page, (vp) => vp.a.editor.setReadOnly(true))
    await inPage(page, (vp) => vp.a.view!.updateSync())
    expect(await typo.getByRole('button', { name: 'Accept' }).isDisabled()).toBe(true)
    expect(await typo.getByRole('button', { name: 'Reject' }).isDisabled()).toBe(true)

    await inPage(page, (vp) => vp.a.editor.setReadOnly(false))
    await inPage(page, (vp) => vp.a.view!.updateSync())
    await typo.getByRole('button', { name: 'Accept' }).click()
    await vi.waitFor(
      async () =>
        expect(await typo.getByRole('alert').textContent()).toBe(
          'Could not accept: this needs a token with the write role',
        ),
      WAIT,
    )
    expect(await typo.getByRole('button', { name: 'Accept' }).isDisabled()).toBe(false)
    expect((await marks(page)).deletes).toHaveLength(1)

    await inPage(page, (vp) => vp.a.view!.hideProposals())
    await inPage(page, (vp) => vp.a.view!.updateSync())
    expect(await page.locator('.tandem-proposals').count()).toBe(0)
  })
})
