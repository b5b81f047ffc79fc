/// <reference lib="dom" />
/**
 * The playground's command palette and editor toolbar in Chromium, over a local editor: ctrl-
 * shift-p lists every command with its keys, typing filters, the keyboard picks, enter runs
 * the command (checked against the same method on a fresh editor), escape closes; the
 * toolbar's soft-wrap toggle and fold buttons do what their keys do. Screenshots go to
 * `artifacts/playground/`.
 */
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { TextEditor } from '@tandem/editor'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../../../testing/browser.js'
import { type PageServer, servePage } from '../../../testing/page-server.js'
import type { PalettePage } from './palette-page.js'

const ARTIFACTS = fileURLToPath(new URL('../../../artifacts/playground/', import.meta.url))
const STYLES = fileURLToPath(new URL('../src/styles.css', import.meta.url))

const TEXT = ['alpha beta', 'gamma delta', 'function f() {', '  return 1', '}', 'omega'].join('\n')

let browser: Browser
let server: PageServer
let page: Page
const errors: string[] = []

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true })
  ;[browser, server] = await Promise.all([
    launchChromium(),
    servePage({ entry: fileURLToPath(new URL('./palette-page.ts', import.meta.url)) }),
  ])
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await server?.close()
})
afterEach(async () => {
  await page?.close()
  expect(errors.splice(0)).toEqual([])
})

const open = async () => {
  page = await browser.newPage({ viewport: { width: 900, height: 560 } })
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(server.url)
  await page.waitForFunction(() => 'palettePage' in globalThis)
  await page.addStyleTag({ path: STYLES })
  await inPage((pp, text) => {
    pp.editor.setText(text)
    pp.editor.getBuffer().clearUndoStack()
    pp.editor.setCursorBufferPosition([0, 0])
    pp.pane.focus()
  }, TEXT)
}

const inPage = <R, A = undefined>(fn: (pp: PalettePage, arg: A) => R, arg?: A): Promise<R> =>
  page.evaluate(
    ([source, value]) =>
      new Function('pp', 'arg', `return (${source})(pp, arg)`)(
        (globalThis as unknown as { palettePage: PalettePage }).palettePage,
        value,
      ),
    [fn.toString(), arg] as const,
  ) as Promise<R>

const stateOf = (editor: TextEditor) => ({
  text: editor.getText(),
  selections: editor.getSelectedBufferRanges().map(String),
})
const pageState = () =>
  inPage((pp) => ({
    text: pp.editor.getText(),
    selections: pp.editor.getSelectedBufferRanges().map(String),
  }))

const palette = () =>
  inPage(() => {
    const element = document.querySelector<HTMLElement>('.palette')!
    const input = element.querySelector<HTMLInputElement>('[role="combobox"]')!
    const options = [...element.querySelectorAll<HTMLElement>('[role="option"]')]
    const active = document.getElementById(input.getAttribute('aria-activedescendant') ?? '')
    return {
      open: !element.hidden,
      focused: document.activeElement === input,
      listbox:
        element.querySelector('[role="listbox"]')?.id === input.getAttribute('aria-controls'),
      options: options.map((option) => ({
        command: option.dataset.command!,
        title: option.querySelector('.palette-title')!.textContent!,
        keys: [...option.querySelectorAll('kbd')].map((kbd) => kbd.textContent!),
      })),
      active: active?.dataset.command ?? null,
      activeSelected: active?.getAttribute('aria-selected') ?? null,
    }
  })

const editorFocused = () =>
  inPage(() => document.activeElement?.classList.contains('tandem-input') ?? false)

describe('command palette', () => {
  it('lists every command with its keys, filters as you type, runs the chosen one', async () => {
    await open()
    await page.keyboard.press('Control+Shift+P')
    const all = await palette()
    expect(all).toMatchObject({ open: true, focused: true, listbox: true })
    const names = await inPage((pp) => pp.pane.commands().map((command) => command.name))
    expect(all.options.map((option) => option.command).sort()).toEqual([...names].sort())
    expect(all.options.length).toBeGreaterThan(100)
    const byCommand = new Map(all.options.map((option) => [option.command, option]))
    expect(byCommand.get('editor:move-line-up')).toEqual({
      command: 'editor:move-line-up',
      title: 'Editor: Move Line Up',
      keys: ['Ctrl+Up'],
    })
    expect(byCommand.get('editor:upper-case')?.keys).toEqual(['Ctrl+K Ctrl+U'])
    expect(byCommand.get('window:increase-font-size')?.keys).toEqual(['Ctrl+=', 'Ctrl++'])
    expect(byCommand.get('editor:transpose')?.keys).toEqual([])

    const reference = new TextEditor({ text: TEXT, undoGroupingInterval: 0 })
    await page.keyboard.type('move line down')
    const filtered = await palette()
    expect(filtered.options[0]?.command).toBe('editor:move-line-down')
    expect(filtered.options.length).toBeLessThan(all.options.length)
    expect(filtered).toMatchObject({
      active: 'editor:move-line-down',
      activeSelected: 'true',
    })
    await page.screenshot({ path: `${ARTIFACTS}palette.png` })
    await page.keyboard.press('Enter')
    reference.moveLineDown()
    expect(await pageState()).toEqual(stateOf(reference))
    expect((await palette()).open).toBe(false)
    expect(await editorFocused()).toBe(true)

    // The keyboard moves through the list; the arrow keys wrap around.
    await page.keyboard.press('Control+Shift+P')
    await page.keyboard.type('case')
    const cases = await palette()
    expect(
      cases.options
        .map((option) => option.command)
        .slice(0, 2)
        .sort(),
    ).toEqual(['editor:lower-case', 'editor:upper-case'])
    const upper = cases.options.findIndex((option) => option.command === 'editor:upper-case')
    for (let i = 0; i < upper; i++) await page.keyboard.press('ArrowDown')
    expect((await palette()).active).toBe('editor:upper-case')
    await page.keyboard.press('ArrowUp')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    reference.upperCase()
    expect(await pageState()).toEqual(stateOf(reference))

    // A key binding finds its command; escape closes without running anything.
    await page.keyboard.press('Control+Shift+P')
    await page.keyboard.type('ctrl+shift+d')
    expect((await palette()).options[0]?.command).toBe('editor:duplicate-lines')
    await page.keyboard.press('Escape')
    expect((await palette()).open).toBe(false)
    expect(await editorFocused()).toBe(true)
    expect(await pageState()).toEqual(stateOf(reference))

    // Nothing matches: the list is empty and enter does nothing.
    await page.keyboard.press('Control+Shift+P')
    await page.keyboard.type('zzqqxx')
    expect((await palette()).options).toEqual([])
    await page.keyboard.press('Enter')
    await page.keyboard.press('Escape')
    expect(await pageState()).toEqual(stateOf(reference))
    reference.destroy()
  })

  it('the toolbar toggles soft wrap and folds, as the keys do', async () => {
    await open()
    const wrap = () =>
      inPage((pp) => ({
        softWrapped: pp.editor.isSoftWrapped(),
        pressed: document
          .querySelector('[data-command="editor:toggle-soft-wrap"]')!
          .getAttribute('aria-pressed'),
      }))
    expect(await wrap()).toEqual({ softWrapped: false, pressed: 'false' })
    await page.getByRole('button', { name: 'Soft wrap' }).click()
    expect(await wrap()).toEqual({ softWrapped: true, pressed: 'true' })
    expect(await editorFocused()).toBe(true)
    await page.keyboard.press('Alt+z')
    expect(await wrap()).toEqual({ softWrapped: false, pressed: 'false' })

    await inPage((pp) => pp.editor.setCursorBufferPosition([3, 2]))
    await page.getByRole('button', { name: 'Fold', exact: true }).click()
    const reference = new TextEditor({ text: TEXT })
    reference.setCursorBufferPosition([3, 2])
    reference.foldCurrentRow()
    const folds = () => inPage((pp) => pp.editor.getFoldedBufferRanges().map(String))
    expect(await folds()).toEqual(reference.getFoldedBufferRanges().map(String))
    expect(await folds()).not.toEqual([])
    await page.screenshot({ path: `${ARTIFACTS}toolbar-folded.png` })
    await page.getByRole('button', { name: 'Unfold all' }).click()
    expect(await folds()).toEqual([])
    reference.destroy()
  })
})
