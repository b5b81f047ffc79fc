/**
 * The find bar, the go-to-line box, select-next and the bracket matcher in Chromium, driven
 * with real key presses. Every step's text and selections are checked against the editor
 * package's own models (EditorSearch, OccurrenceSelector, goToLine, BracketMatcher) called on
 * a fresh editor with the same text; the bar's count, its toggles and its labels are read from
 * the page as a screen reader would find them.
 */
import { fileURLToPath } from 'node:url'
import {
  BracketMatcher,
  EditorSearch,
  goToLine,
  OccurrenceSelector,
  type SearchQuery,
  TextEditor,
} from '@tandem/editor'
import type { Page } from 'playwright-core'
import { describe, expect, it, vi } from 'vitest'
import { editorState, openFocusedEditor, pageEditorState } from './testing/focused-editor.js'
import { inPage } from './testing/in-page.js'
import { useViewPage } from './testing/serve-view-page.js'
import type { OpenOptions } from './testing/view-page.js'

const ARTIFACTS = fileURLToPath(new URL('../../../artifacts/view/', import.meta.url))

const TEXT = [
  'const first = 1',
  'const second = first + 1',
  'let third = second + first',
  'const Fourth = "first"',
  'function sum(values) {',
  '  return values.reduce((a, b) => a + b, 0)',
  '}',
  'export { first, second }',
].join('\n')

const stateOf = editorState

describe('EditorView find bar, go to line, select next and brackets', () => {
  const view = useViewPage(ARTIFACTS)
  let page: Page
  const open = async (options: OpenOptions) => {
    page = await openFocusedEditor(view, options)
  }
  const pageState = () => pageEditorState(page)
  const bar = () =>
    inPage(page, (vp) => {
      const root = vp.a.element!.querySelector<HTMLElement>('.tandem-find-bar')!
      const focused = document.activeElement
      return {
        visible: !root.hidden,
        role: root.getAttribute('role'),
        count: root.querySelector('[role="status"]')?.textContent ?? null,
        live: root.querySelector('[role="status"]')?.getAttribute('aria-live') ?? null,
        focus: focused?.getAttribute('aria-label') ?? focused?.className ?? null,
        pressed: Object.fromEntries(
          [...root.querySelectorAll('button[aria-pressed]')].map((b) => [
            b.getAttribute('aria-label'),
            b.getAttribute('aria-pressed'),
          ]),
        ),
        unlabelled: [...root.querySelectorAll('input, button')].filter(
          (control) => !(control.getAttribute('aria-label') || control.textContent?.trim()),
        ).length,
        highlights: vp.a.element!.querySelectorAll('.tandem-highlight.find-result').length,
        current: vp.a.element!.querySelectorAll('.tandem-highlight.current-result').length,
      }
    })
  const countIs = (text: string) =>
    vi.waitFor(async () => expect((await bar()).count).toBe(text), { timeout: 5000 })

  it('ctrl-f, typing, enter, shift-enter and F3 select the matches EditorSearch finds', async () => {
    await open({ text: TEXT, width: 720, height: 320, view: { cursorBlink: false } })
    const reference = new TextEditor({ text: TEXT })
    const search = new EditorSearch(reference)
    await inPage(page, (vp) => vp.a.editor.setCursorBufferPosition([1, 0]))
    reference.setCursorBufferPosition([1, 0])

    await page.keyboard.press('Control+f')
    expect(await bar()).toMatchObject({
      visible: true,
      role: 'search',
      focus: 'Find',
      live: 'polite',
      unlabelled: 0,
      pressed: {
        'Use regular expression': 'false',
        'Match case': 'false',
        'Whole word': 'false',
        'Only in selection': 'false',
      },
    })
    await page.keyboard.type('first')
    await search.search({ text: 'first' })
    await countIs(`${search.getMatchCount()} results`)
    expect((await bar()).highlights).toBeGreaterThan(0)

    const steps: [string, (s: EditorSearch) => unknown][] = [
      ['Enter', (s) => s.findNext()],
      ['Enter', (s) => s.findNext()],
      ['Shift+Enter', (s) => s.findPrevious()],
      ['F3', (s) => s.findNext()],
      ['Shift+F3', (s) => s.findPrevious()],
    ]
    for (const [key, step] of steps) {
      await page.keyboard.press(key)
      step(search)
      await vi.waitFor(async () => expect(await pageState()).toEqual(stateOf(reference)))
      await countIs(`${search.getCurrentMatchIndex() + 1} of ${search.getMatchCount()}`)
      await vi.waitFor(async () => expect((await bar()).current).toBe(1))
    }
    await page.screenshot({ path: `${ARTIFACTS}find-bar.png` })

    // Match case and whole word narrow the matches; the toggles say they are on.
    await page.getByRole('button', { name: 'Match case' }).click()
    await page.getByRole('button', { name: 'Whole word' }).click()
    const narrow: SearchQuery = { text: 'first', caseSensitive: true, wholeWord: true }
    await search.search(narrow)
    await countIs(
      search.getCurrentMatchIndex() >= 0
        ? `${search.getCurrentMatchIndex() + 1} of ${search.getMatchCount()}`
        : `${search.getMatchCount()} results`,
    )
    expect((await bar()).pressed).toMatchObject({ 'Match case': 'true', 'Whole word': 'true' })
    expect((await bar()).focus).toBe('Find')

    // A regular expression that does not compile says why, in the live region.
    await page.keyboard.press('Control+Alt+Slash')
    await page.keyboard.press('Control+a')
    await page.keyboard.type('fir(st')
    await search.search({ ...narrow, text: 'fir(st', regex: true })
    expect(search.getError()).toBeDefined()
    await countIs(search.getError()!)

    // Escape, from any control of the bar, closes it and gives the editor the focus; F3 goes
    // on with the last query.
    await page.keyboard.press('Control+a')
    await page.keyboard.type('second')
    await search.search({ ...narrow, text: 'second', regex: true })
    await page.keyboard.press('Tab')
    expect((await bar()).focus).toBe('Use regular expression')
    await page.keyboard.press('Escape')
    await vi.waitFor(async () =>
      expect(await bar()).toMatchObject({
        visible: false,
        focus: 'Editor',
        highlights: 0,
        current: 0,
      }),
    )
    await page.keyboard.press('F3')
    search.findNext()
    await vi.waitFor(async () => expect(await pageState()).toEqual(stateOf(reference)))
    search.destroy()
    reference.destroy()
  })

  it('in a narrow editor the bar wraps inside it and the text starts below it', async () => {
    await open({ text: TEXT, width: 300, height: 300, view: { cursorBlink: false } })
    await page.keyboard.press('Control+f')
    await page.keyboard.type('first')
    await countIs('5 results')
    const layout = await inPage(page, async (vp) => {
      await vp.frames()
      const root = vp.a.element!.getBoundingClientRect()
      const bar = vp.a.element!.querySelector('.tandem-find-bar')!.getBoundingClientRect()
      const scroller = vp.a.element!.querySelector('.tandem-scroller')!.getBoundingClientRect()
      const controls = [
        ...vp.a.element!.querySelectorAll('.tandem-find-bar input, .tandem-find-bar button'),
      ]
        .map((control) => control.getBoundingClientRect())
        .filter((rect) => rect.right > root.right + 0.5 || rect.left < root.left - 0.5)
      return { barBottom: bar.bottom, scrollerTop: scroller.top, outside: controls.length }
    })
    expect(layout.outside).toBe(0)
    expect(layout.scrollerTop).toBeCloseTo(layout.barBottom, 0)
    await page.screenshot({ path: `${ARTIFACTS}find-bar-narrow.png` })
  })

  it('of 20,000 matches, only those on the rows on screen have elements', async () => {
    const text = Array.from({ length: 20_000 }, (_, i) => `row ${i} needle`).join('\n')
    await open({ text, width: 600, height: 300, view: { cursorBlink: false } })
    await page.keyboard.press('Control+f')
    await page.keyboard.type('needle')
    await countIs('20000 results')
    const shown = await inPage(page, async (vp) => {
      vp.a.view!.setScrollTop(12_345 * vp.a.view!.getMetrics().lineHeight)
      await vp.frames()
      const [start, end] = vp.a.view!.getRenderedRowRange()
      const rows = [...vp.a.element!.querySelectorAll('.tandem-highlight.find-result')].map((box) =>
        Math.round((box as HTMLElement).offsetTop / vp.a.view!.getMetrics().lineHeight),
      )
      return { start, end, rows }
    })
    expect(shown.rows.length).toBe(shown.end - shown.start)
    expect(Math.min(...shown.rows)).toBe(shown.start)
    expect(Math.max(...shown.rows)).toBe(shown.end - 1)
  })

  it('replace, replace all and select all, from the keyboard', async () => {
    await open({ text: TEXT, width: 720, height: 320, view: { cursorBlink: false, theme: 'dark' } })
    const reference = new TextEditor({ text: TEXT })
    const search = new EditorSearch(reference)
    await page.keyboard.press('Control+h')
    expect((await bar()).focus).toBe('Replace')
    await page.keyboard.type('total')
    const find = page.getByRole('textbox', { name: 'Find', exact: true })
    const replace = page.getByRole('textbox', { name: 'Replace', exact: true })
    await find.focus()
    await page.keyboard.type('second')
    await search.search({ text: 'second' })
    await countIs(`${search.getMatchCount()} results`)

    await replace.focus()
    await page.keyboard.press('Enter')
    search.replaceNext('total')
    await vi.waitFor(async () => expect(await pageState()).toEqual(stateOf(reference)))
    await page.keyboard.press('Control+Enter')
    const replaced = search.replaceAll('total')
    await vi.waitFor(async () => expect(await pageState()).toEqual(stateOf(reference)))
    await countIs(`Replaced ${replaced} ${replaced === 1 ? 'match' : 'matches'}`)
    await page.screenshot({ path: `${ARTIFACTS}find-bar-dark.png` })

    await find.focus()
    await page.keyboard.press('Control+a')
    await page.keyboard.type('first')
    await search.search({ text: 'first' })
    await countIs(`${search.getMatchCount()} results`)
    await page.keyboard.press('Alt+Enter')
    search.selectAllMatches()
    await vi.waitFor(async () => expect(await pageState()).toEqual(stateOf(reference)))
    expect((await bar()).focus).toBe('Editor')
    search.destroy()
    reference.destroy()
  })

  it('ctrl-e and ctrl-f3 find the selected word; in-selection searches only the selection', async () => {
    await open({ text: TEXT, width: 720, height: 320, view: { cursorBlink: false } })
    const reference = new TextEditor({ text: TEXT })
    const search = new EditorSearch(reference)
    await inPage(page, (vp) => vp.a.editor.setCursorBufferPosition([1, 9]))
    reference.setCursorBufferPosition([1, 9])

    // ctrl-f3: the word at the cursor becomes the query, and the next match is selected.
    await page.keyboard.press('Control+F3')
    await search.search({ text: 'second' })
    search.findNext()
    await vi.waitFor(async () => expect(await pageState()).toEqual(stateOf(reference)))
    await page.keyboard.press('Control+Shift+F3')
    search.findPrevious()
    await vi.waitFor(async () => expect(await pageState()).toEqual(stateOf(reference)))

    // ctrl-e: the selection is the query; the bar, opened, shows it.
    await inPage(page, (vp) =>
      vp.a.editor.setSelectedBufferRange([
        [4, 9],
        [4, 12],
      ]),
    )
    reference.setSelectedBufferRange([
      [4, 9],
      [4, 12],
    ])
    await page.keyboard.press('Control+e')
    await page.keyboard.press('F3')
    await search.search({ text: 'sum' })
    search.findNext()
    await vi.waitFor(async () => expect(await pageState()).toEqual(stateOf(reference)))
    // ctrl-shift-e: the selection is the replacement.
    await page.keyboard.press('Control+Shift+E')
    await page.keyboard.press('Control+f')
    const field = page.getByRole('textbox', { name: 'Find', exact: true })
    expect(await field.inputValue()).toBe('sum')
    expect(await page.getByRole('textbox', { name: 'Replace', exact: true }).inputValue()).toBe(
      'sum',
    )

    // Only in the selection: rows 2 to 4 hold fewer matches of "first" than the document.
    await inPage(page, (vp) =>
      vp.a.editor.setSelectedBufferRange([
        [1, 0],
        [3, 0],
      ]),
    )
    reference.setSelectedBufferRange([
      [1, 0],
      [3, 0],
    ])
    await field.fill('first')
    await page.getByRole('button', { name: 'Only in selection' }).click()
    await search.search({ text: 'first', inSelection: true })
    expect(search.getMatchCount()).toBeLessThan(5)
    await countIs(`${search.getMatchCount()} results`)
    await page.keyboard.press('Alt+Enter')
    search.selectAllMatches()
    await vi.waitFor(async () => expect(await pageState()).toEqual(stateOf(reference)))
    search.destroy()
    reference.destroy()
  })

  it('ctrl-d, ctrl-k ctrl-d, ctrl-u and alt-f3 select as OccurrenceSelector does', async () => {
    await open({ text: TEXT, view: { cursorBlink: false } })
    const reference = new TextEditor({ text: TEXT })
    const occurrences = new OccurrenceSelector(reference)
    await inPage(page, (vp) => vp.a.editor.setCursorBufferPosition([0, 8]))
    reference.setCursorBufferPosition([0, 8])
    const steps: [string[], (o: OccurrenceSelector) => void][] = [
      [['Control+d'], (o) => o.selectNext()],
      [['Control+d'], (o) => o.selectNext()],
      [['Control+d'], (o) => o.selectNext()],
      [['Control+k', 'Control+d'], (o) => o.skipCurrent()],
      [['Control+u'], (o) => o.undoLast()],
      [['Control+d'], (o) => o.selectNext()],
      [['Escape'], () => reference.consolidateSelections()],
      [['Alt+F3'], (o) => o.selectAll()],
    ]
    for (const [keys, step] of steps) {
      for (const key of keys) await page.keyboard.press(key)
      step(occurrences)
      expect(await pageState(), keys.join(' ')).toEqual(stateOf(reference))
    }
    expect((await pageState()).selections.length).toBeGreaterThan(2)
    // Typing replaces every occurrence at once.
    await page.keyboard.type('one')
    reference.insertText('o')
    reference.insertText('n')
    reference.insertText('e')
    expect((await pageState()).text).toBe(reference.getText())
    await page.screenshot({ path: `${ARTIFACTS}select-next.png` })
    reference.destroy()
  })

  it('ctrl-g goes to line:column as goToLine does; escape leaves the cursor', async () => {
    await open({ text: TEXT, view: { cursorBlink: false } })
    const reference = new TextEditor({ text: TEXT })
    await page.keyboard.press('Control+g')
    const box = () =>
      inPage(page, (vp) => {
        const root = vp.a.element!.querySelector<HTMLElement>('.tandem-go-to-line')!
        return {
          visible: !root.hidden,
          role: root.getAttribute('role'),
          label: root.getAttribute('aria-label'),
          hint: root.querySelector('.tandem-go-to-line-hint')?.textContent ?? null,
          focus: document.activeElement?.getAttribute('aria-label') ?? null,
          invalid: root.querySelector('input')?.getAttribute('aria-invalid') ?? null,
        }
      })
    expect(await box()).toEqual({
      visible: true,
      role: 'dialog',
      label: 'Go to line',
      hint: 'Current line 1 of 8, column 1',
      focus: 'Line, or line:column',
      invalid: null,
    })
    await page.screenshot({ path: `${ARTIFACTS}go-to-line.png` })
    await page.keyboard.type('6:12')
    await page.keyboard.press('Enter')
    goToLine(reference, '6:12')
    expect(await pageState()).toEqual(stateOf(reference))
    expect((await box()).visible).toBe(false)

    await page.keyboard.press('Control+g')
    await page.keyboard.type('3')
    await page.keyboard.press('Escape')
    expect(await pageState()).toEqual(stateOf(reference))
    expect((await box()).visible).toBe(false)

    await page.keyboard.press('Control+g')
    await page.keyboard.type('nowhere')
    await page.keyboard.press('Enter')
    if (goToLine(reference, 'nowhere') === undefined) {
      expect(await box()).toMatchObject({ visible: true, invalid: 'true' })
    }
    await page.keyboard.press('Escape')
    expect(await pageState()).toEqual(stateOf(reference))
    reference.destroy()
  })

  it('brackets close as typed, the pair at the cursor is outlined, ctrl-m jumps between them', async () => {
    await open({ text: '', view: { cursorBlink: false } })
    const reference = new TextEditor({ text: '' })
    const matcher = new BracketMatcher(reference)
    const type = (text: string) => {
      for (const character of text) reference.insertText(character)
    }
    await page.keyboard.type('call(')
    type('call(')
    expect(await pageState()).toEqual(stateOf(reference))
    await page.keyboard.type('"x')
    type('"x')
    expect(await pageState()).toEqual(stateOf(reference))
    await page.keyboard.type('"')
    type('"')
    expect(await pageState()).toEqual(stateOf(reference))
    await page.keyboard.type(', [')
    type(', [')
    await page.keyboard.press('Backspace')
    if (!matcher.backspace()) reference.backspace()
    expect(await pageState()).toEqual(stateOf(reference))
    await page.keyboard.type('{')
    type('{')
    await page.keyboard.press('Enter')
    if (!matcher.newline()) reference.insertNewline()
    expect(await pageState()).toEqual(stateOf(reference))

    const outlined = () =>
      inPage(page, async (vp) => {
        // The pair is found in idle time, then drawn in a frame.
        await new Promise((resolve) => requestIdleCallback(resolve, { timeout: 500 }))
        await vp.frames()
        return vp.a.element!.querySelectorAll('.tandem-highlight.bracket-matcher').length
      })
    await page.keyboard.press('Control+End')
    await page.keyboard.press('ArrowLeft')
    reference.moveToBottom()
    reference.moveLeft()
    expect(matcher.matchingBracketRanges()).toBeDefined()
    expect(await outlined()).toBe(2)
    await page.keyboard.press('Control+m')
    matcher.goToMatchingBracket()
    expect(await pageState()).toEqual(stateOf(reference))
    await page.keyboard.press('Control+Alt+Comma')
    matcher.selectInsideBrackets()
    expect(await pageState()).toEqual(stateOf(reference))
    await page.keyboard.press('ArrowRight')
    reference.moveRight()
    await page.keyboard.press('Control+Alt+Backspace')
    matcher.removeBrackets()
    expect(await pageState()).toEqual(stateOf(reference))
    await page.screenshot({ path: `${ARTIFACTS}brackets.png` })
    matcher.destroy()
    reference.destroy()
  })

  it('the view goes cleanly with its panels open, whichever goes first', async () => {
    for (const first of ['view', 'editor'] as const) {
      await open({ text: TEXT, view: { cursorBlink: false } })
      const errors: string[] = []
      page.on('pageerror', (error) => errors.push(error.message))
      await page.keyboard.press('Control+f')
      await page.keyboard.type('first')
      await countIs('5 results')
      await inPage(page, (vp) => vp.a.editor.setCursorBufferPosition([4, 12]))
      await page.keyboard.press('Control+d')
      await page.keyboard.press('Control+k')
      const left = await inPage(
        page,
        (vp, which) => {
          if (which === 'view') vp.a.view!.destroy()
          else vp.a.editor.destroy()
          return {
            panels: vp.a.element!.querySelectorAll('.tandem-panel').length,
            classes: vp.a.element!.className,
          }
        },
        first,
      )
      expect(left, first).toEqual({ panels: 0, classes: '' })
      await page.waitForTimeout(1200)
      expect(errors, first).toEqual([])
      if (first === 'view') await page.close()
    }
  })

  it('autoCloseBrackets: false leaves typed brackets alone', async () => {
    await open({ text: '', view: { cursorBlink: false, autoCloseBrackets: false } })
    await page.keyboard.type('f(x, [1')
    expect((await pageState()).text).toBe('f(x, [1')
  })
})
