import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { Random, seeds } from '../../../testing/random.js'
import { inPage } from './testing/in-page.js'
import { useViewPage } from './testing/serve-view-page.js'
import type { OpenOptions } from './testing/view-page.js'

const ARTIFACTS = fileURLToPath(new URL('../../../artifacts/view/', import.meta.url))

const lines = (count: number, line: (i: number) => string) =>
  Array.from({ length: count }, (_, i) => line(i)).join('\n')

const SAMPLE = [
  '// A small module to look at',
  'export function greet(name) {',
  '  const greeting = "Hello, " + name + "!"',
  '  console.log(greeting)',
  '  return greeting',
  '}',
  '',
  'export const people = ["Ada", "Bob", "Grace", "Linus"]',
  'for (const person of people) greet(person)',
  '',
  '/* Folded below: a helper nobody needs to read right now. */',
  'function helper() {',
  '  return 42',
  '}',
  '',
  'const long = "a rather long line that goes on and on past the edge, to show horizontal room"',
].join('\n')

describe('EditorView rendering', () => {
  const view = useViewPage(ARTIFACTS)
  let page: Page
  const open = async (options: OpenOptions) => {
    page = await view.openPage()
    await inPage(page, (vp, o) => vp.open(o), options)
  }

  it('renders the screen rows, a gutter of line numbers, the caret and the selection', async () => {
    await open({ text: SAMPLE, width: 720, height: 380, view: { cursorBlink: false } })
    const shown = await inPage(page, (vp) => {
      vp.a.editor.setSelectedBufferRanges([
        [
          [1, 7],
          [2, 8],
        ],
      ])
      vp.a.view!.focus()
      vp.flush()
      const root = vp.a.element!
      const rows = [...root.querySelectorAll<HTMLElement>('.tandem-line')]
        .sort((x, y) => Number(x.dataset.screenRow) - Number(y.dataset.screenRow))
        .map((row) => row.textContent)
      const numbers = [...root.querySelectorAll('.tandem-line-number')].map((n) => n.textContent)
      const style = getComputedStyle(root.querySelector('.tandem-line')!)
      return {
        rows,
        numbers,
        font: style.fontFamily,
        selections: root.querySelectorAll('.tandem-selection').length,
        carets: vp.localCarets('a'),
        expected: vp.glyphPosition('a', 2, 8),
      }
    })
    expect(shown.rows).toEqual(SAMPLE.split('\n'))
    expect(shown.numbers).toEqual(SAMPLE.split('\n').map((_, i) => String(i + 1)))
    expect(shown.font).toMatch(/mono/i)
    expect(shown.selections).toBe(2)
    expect(shown.carets).toHaveLength(1)
    expect(shown.carets[0]!.left).toBeCloseTo(shown.expected!.left, 0)
    expect(shown.carets[0]!.top).toBeCloseTo(shown.expected!.top, 0)
    await page.screenshot({ path: `${ARTIFACTS}editor.png` })
  })

  it("draws the other peer's caret at its place with its name and color, and its selection", async () => {
    await open({ text: SAMPLE, peer: true, width: 560, height: 330, view: { cursorBlink: false } })
    const shown = await inPage(page, (vp) => {
      vp.b!.editor.setSelectedBufferRanges([
        [
          [7, 23],
          [7, 52],
        ],
      ])
      vp.b!.editor.addCursorAtBufferPosition([3, 14])
      vp.a.editor.setCursorBufferPosition([1, 16])
      vp.flush()
      const highlights = [...vp.a.element!.querySelectorAll('.tandem-remote-selection')]
      return {
        carets: vp.remoteCarets('a'),
        atSelection: vp.glyphPosition('a', 7, 52),
        atCursor: vp.glyphPosition('a', 3, 14),
        highlightColors: highlights.map((h) => getComputedStyle(h).backgroundColor),
        inB: vp.remoteCarets('b'),
        adaAt: vp.glyphPosition('b', 1, 16),
      }
    })
    const bob = 'rgb(207, 34, 46)'
    const named = shown.carets.filter((caret) => caret.name !== null)
    expect(named).toHaveLength(1)
    expect(named[0]).toMatchObject({ name: 'Bob', color: bob })
    // The primary (last added) selection carries the label: the cursor at (3, 14).
    expect(named[0]!.left).toBeCloseTo(shown.atCursor!.left, 0)
    expect(named[0]!.top).toBeCloseTo(shown.atCursor!.top, 0)
    const other = shown.carets.find((caret) => caret.name === null)!
    expect(other.color).toBe(bob)
    expect(other.left).toBeCloseTo(shown.atSelection!.left, 0)
    expect(shown.highlightColors).toHaveLength(1)
    expect(shown.highlightColors[0]).toMatch(/^(rgba|color)\(/)
    expect(shown.inB).toEqual([expect.objectContaining({ name: 'Ada', color: 'rgb(26, 127, 55)' })])
    expect(shown.inB[0]!.left).toBeCloseTo(shown.adaAt!.left, 0)
    await page.screenshot({ path: `${ARTIFACTS}remote-carets.png` })
  })

  it('keeps remote carets on their characters through folds and soft wrap', async () => {
    const text = [
      'header line',
      'fold me one',
      'fold me two',
      'fold me three',
      `${'word '.repeat(30)}TARGET here`,
      'after the long line, MARK is here',
    ].join('\n')
    await open({
      text,
      peer: 'hidden',
      width: 360,
      height: 300,
      editor: { softWrapped: true },
      view: { cursorBlink: false },
    })
    const shown = await inPage(page, (vp) => {
      const { editor } = vp.a
      editor.foldBufferRowRange(1, 3)
      const target = editor.lineTextForBufferRow(4)!.indexOf('TARGET')
      const mark = editor.lineTextForBufferRow(5)!.indexOf('MARK')
      vp.b!.editor.setCursorBufferPosition([4, target])
      vp.b!.editor.addCursorAtBufferPosition([5, mark])
      vp.flush()
      const targetAt = editor.screenPositionForBufferPosition([4, target])
      const markAt = editor.screenPositionForBufferPosition([5, mark])
      return {
        width: editor.getEditorWidthInChars(),
        screenRows: editor.getScreenLineCount(),
        targetAt,
        markAt,
        targetText: editor.lineTextForScreenRow(targetAt.row)!.slice(targetAt.column),
        markText: editor.lineTextForScreenRow(markAt.row)!.slice(markAt.column),
        carets: vp.remoteCarets('a'),
        targetGlyph: vp.glyphPosition('a', targetAt.row, targetAt.column),
        markGlyph: vp.glyphPosition('a', markAt.row, markAt.column),
        folds: vp.a.element!.querySelectorAll('.tandem-fold-marker').length,
        foldedNumbers: vp.a.element!.querySelectorAll('.tandem-line-number.folded').length,
      }
    })
    // The element is narrow: the long line wraps, and the fold hides rows 2-4.
    expect(shown.width).toBeLessThan(40)
    expect(shown.targetAt.row).toBeGreaterThan(3)
    expect(shown.targetText.startsWith('TARGET')).toBe(true)
    expect(shown.markText.startsWith('MARK')).toBe(true)
    expect(shown.folds).toBe(1)
    expect(shown.foldedNumbers).toBe(1)
    const lefts = shown.carets.map((caret) => [Math.round(caret.left), Math.round(caret.top)])
    expect(lefts).toContainEqual([
      Math.round(shown.targetGlyph!.left),
      Math.round(shown.targetGlyph!.top),
    ])
    expect(lefts).toContainEqual([
      Math.round(shown.markGlyph!.left),
      Math.round(shown.markGlyph!.top),
    ])
    await page.screenshot({ path: `${ARTIFACTS}folds-and-wrap.png` })
  })

  it("soft wrap follows the element's width", async () => {
    const text = lines(5, (i) => `${i} ${'lorem ipsum dolor sit amet '.repeat(6)}`)
    await open({ text, width: 400, height: 300, editor: { softWrapped: true } })
    const narrow = await inPage(page, (vp) => ({
      width: vp.a.editor.getEditorWidthInChars()!,
      rows: vp.a.editor.getScreenLineCount(),
    }))
    await inPage(page, async (vp) => {
      vp.a.element!.style.width = '800px'
      await vp.frames()
    })
    const wide = await inPage(page, (vp) => ({
      width: vp.a.editor.getEditorWidthInChars()!,
      rows: vp.a.editor.getScreenLineCount(),
      longest: Math.max(
        ...[...vp.a.element!.querySelectorAll('.tandem-line')].map((r) => r.textContent!.length),
      ),
    }))
    expect(wide.width).toBeGreaterThan(narrow.width * 1.8)
    expect(wide.rows).toBeLessThan(narrow.rows)
    expect(wide.longest).toBeLessThanOrEqual(wide.width)
  })

  it('keeps only the visible rows of a 100,000-line document in the DOM while scrolling', async () => {
    await open({ text: lines(100_000, (i) => `line ${i}`), width: 600, height: 400 })
    const { lineHeight, perPage } = await inPage(page, (vp) => ({
      lineHeight: vp.a.view!.getMetrics().lineHeight,
      perPage: vp.a.view!.getRowsPerPage(),
    }))
    for (const seed of seeds(1, 7)) {
      const random = new Random(seed)
      for (let step = 0; step < 12; step++) {
        const row = step === 11 ? 99_999 : random.int(0, 99_990)
        const shown = await inPage(
          page,
          async (vp, top) => {
            vp.a.view!.setScrollTop(top)
            await vp.frames()
            const rows = [...vp.a.element!.querySelectorAll<HTMLElement>('.tandem-line')]
            const scroller = vp.a.element!.querySelector('.tandem-scroller')!
            return {
              scrollTop: scroller.scrollTop,
              count: rows.length,
              numbers: vp.a.element!.querySelectorAll('.tandem-line-number').length,
              texts: rows.map((r) => r.textContent!),
              contentHeight: scroller.scrollHeight,
            }
          },
          row * lineHeight,
        )
        const first = Math.floor(shown.scrollTop / lineHeight)
        expect(shown.count, `seed ${seed}, step ${step}`).toBeLessThanOrEqual(perPage + 2 * 4 + 2)
        expect(shown.numbers).toBe(shown.count)
        expect(shown.texts).toContain(`line ${first}`)
        expect(shown.texts).toContain(`line ${Math.min(99_999, first + perPage - 1)}`)
        expect(shown.contentHeight).toBeGreaterThanOrEqual(100_000 * lineHeight)
      }
    }
  })

  it('reports the rows in sight, telling the user scrolling from its own, and scrolls a row to the top', async () => {
    await open({ text: lines(1_000, (i) => `line ${i}`), width: 600, height: 400 })
    type Seen = { start: number; end: number; byUser: boolean }[]
    const seen = () =>
      inPage(page, () => (globalThis as unknown as { seen: Seen }).seen.splice(0) as Seen)
    const first = await inPage(page, async (vp) => {
      const store = globalThis as unknown as { seen: Seen }
      store.seen = []
      vp.a.view!.onDidChangeVisibleRange(({ range, byUser }) =>
        store.seen.push({ start: range.start.row, end: range.end.row, byUser }),
      )
      const inSight = vp.a.view!.getVisibleBufferRange()
      vp.a.view!.scrollBufferPositionToTop([300, 4])
      await vp.frames()
      return { inSight: inSight.toString(), perPage: vp.a.view!.getRowsPerPage() }
    })
    expect(first.inSight).toMatch(/^\[\(0, 0\) - \(\d+, \d+\)\]$/)
    const perPage = first.perPage
    const toTop = await seen()
    expect(toTop.at(-1)).toMatchObject({ start: 300, byUser: false })
    expect(toTop.at(-1)!.end - 300).toBeGreaterThanOrEqual(perPage - 1)
    expect(toTop.every(({ byUser }) => !byUser)).toBe(true)

    // A cursor far below: the view scrolls to it by itself.
    await inPage(page, async (vp) => {
      vp.a.editor.setCursorBufferPosition([700, 0])
      await vp.frames()
    })
    const autoscrolled = await seen()
    expect(autoscrolled.at(-1)?.end).toBeGreaterThanOrEqual(700)
    expect(autoscrolled.every(({ byUser }) => !byUser)).toBe(true)

    // The wheel: the user scrolls.
    const box = (await page.locator('.tandem-scroller').boundingBox())!
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await page.mouse.wheel(0, -1_500)
    await expect
      .poll(async () => (await seen()).some(({ byUser }) => byUser), { timeout: 5_000 })
      .toBe(true)
    // The view's own scrolling right after it is not taken for the user's.
    await page.waitForTimeout(500)
    await seen()
    await inPage(page, async (vp) => {
      vp.a.view!.scrollBufferPositionToTop([10, 0])
      await vp.frames()
    })
    expect(await seen()).toEqual([expect.objectContaining({ start: 10, byUser: false })])
  })

  it('an edit rebuilds only the rows it changed; rows below keep their elements', async () => {
    await open({ text: lines(40, (i) => `row ${i}`), width: 600, height: 500 })
    const touched = await inPage(page, async (vp) => {
      const root = vp.a.element!.querySelector('.tandem-lines')!
      const rowElement = (row: number) =>
        root.querySelector<HTMLElement>(`.tandem-line[data-screen-row="${row}"]`)!
      const tenBefore = rowElement(10)
      const rewritten: string[] = []
      const added: string[] = []
      const removed: string[] = []
      const isRow = (node: Node) => node instanceof HTMLElement && node.matches('.tandem-line')
      const observer = new MutationObserver((records) => {
        for (const record of records) {
          if (record.target === root) {
            for (const node of record.addedNodes) if (isRow(node)) added.push(node.textContent!)
            for (const node of record.removedNodes) if (isRow(node)) removed.push(node.textContent!)
            continue
          }
          const target =
            record.target instanceof Element ? record.target : record.target.parentElement
          const row = target?.closest('.tandem-line')
          if (row != null) rewritten.push(row.textContent!)
        }
      })
      observer.observe(root, { subtree: true, childList: true, characterData: true })
      vp.a.editor.setCursorBufferPosition([3, 4])
      vp.a.editor.insertText('!\nnew ')
      await vp.frames()
      observer.disconnect()
      return {
        rewritten,
        added: added.sort(),
        removed,
        tenMoved: rowElement(11) === tenBefore && tenBefore.textContent === 'row 10',
      }
    })
    expect(touched.rewritten).toEqual([])
    // Row 3 was replaced; the only other row to go is the one pushed past the rendered end.
    expect(touched.removed[0]).toBe('row 3')
    expect(touched.removed.length).toBeLessThanOrEqual(2)
    expect(touched.added).toEqual(['new 3', 'row !'])
    expect(touched.tenMoved).toBe(true)
  })
})
