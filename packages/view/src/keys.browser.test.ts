/**
 * Atom's key bindings beyond moving and deleting, pressed in Chromium: moving and duplicating
 * lines, new lines above and below, case changes through `ctrl-k` chords, folding, soft wrap
 * and zoom. Each key's effect on the text and the selections is checked against the same
 * editor method called on a fresh editor with the same text; the chord's wait, its hint, its
 * timeout and its cancelling by escape are checked on their own.
 */
import { fileURLToPath } from 'node:url'
import { TextEditor } from '@tandem/editor'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { EDITOR_COMMANDS } from './commands.js'
import { ATOM_KEYMAP, CHORD_TIMEOUT } from './keymap.js'
import { editorState, openFocusedEditor, pageEditorState } from './testing/focused-editor.js'
import { inPage } from './testing/in-page.js'
import { useViewPage } from './testing/serve-view-page.js'
import type { OpenOptions } from './testing/view-page.js'

const ARTIFACTS = fileURLToPath(new URL('../../../artifacts/view/', import.meta.url))

const CODE = [
  'function area(shape) {',
  '  if (shape.kind === "circle") {',
  '    return Math.PI * shape.radius ** 2',
  '  }',
  '  return shape.width * shape.height',
  '}',
  '',
  'const shapes = [circle, square]',
  'for (const shape of shapes) print(area(shape))',
].join('\n')

/** One step: keys pressed in the page, and the same through the editor's API. */
interface Step {
  readonly keys: readonly string[]
  readonly api: (editor: TextEditor) => void
}

const step = (keys: string | string[], api: (editor: TextEditor) => void): Step => ({
  keys: typeof keys === 'string' ? [keys] : keys,
  api,
})

const SESSION: readonly Step[] = [
  step('ArrowDown', (e) => e.moveDown()),
  step('Control+ArrowDown', (e) => e.moveLineDown()),
  step('Control+ArrowDown', (e) => e.moveLineDown()),
  step('Control+ArrowUp', (e) => e.moveLineUp()),
  step('Shift+ArrowDown', (e) => e.selectDown()),
  step('Control+ArrowUp', (e) => e.moveLineUp()),
  step('Control+Shift+D', (e) => e.duplicateLines()),
  step('Escape', (e) => e.consolidateSelections()),
  step('Control+Shift+Enter', (e) => e.insertNewlineAbove()),
  step('Control+Enter', (e) => e.insertNewlineBelow()),
  step('Control+End', (e) => e.moveToBottom()),
  step('Control+Shift+ArrowLeft', (e) => e.selectToBeginningOfWord()),
  step(['Control+k', 'Control+u'], (e) => e.upperCase()),
  step('Control+l', (e) => e.selectLinesContainingCursors()),
  step(['Control+k', 'Control+u'], (e) => e.upperCase()),
  step(['Control+k', 'Control+l'], (e) => e.lowerCase()),
  step('Control+Home', (e) => e.moveToTop()),
  step('Alt+Shift+ArrowDown', (e) =>
    e.expandSelectionsForward((selection) => selection.addSelectionBelow()),
  ),
  step('Control+Shift+ArrowRight', (e) => e.selectToEndOfWord()),
  step(['Control+k', 'Control+u'], (e) => e.upperCase()),
  step('Control+ArrowDown', (e) => e.moveLineDown()),
  step('Control+Shift+D', (e) => e.duplicateLines()),
  step('Control+Shift+K', (e) => e.deleteLine()),
  step('Control+z', (e) => e.undo()),
  step('Escape', (e) => e.consolidateSelections()),
  step('Control+j', (e) => e.joinLines()),
  step('Control+/', (e) => e.toggleLineCommentsInSelection()),
  step('Control+]', (e) => e.indentSelectedRows()),
  step('Control+[', (e) => e.outdentSelectedRows()),
  step('Tab', (e) => e.indent()),
  step('Control+y', (e) => e.redo()),
  step('Control+Shift+Z', (e) => e.redo()),
  step('Control+z', (e) => e.undo()),
  step('Control+a', (e) => e.selectAll()),
  step('Alt+q', (e) => e.reflowSelection()),
  step('Control+z', (e) => e.undo()),
  step('Control+Shift+Q', (e) => e.reflowSelection()),
]

/** Playwright's name for a key of Atom's notation. */
const PLAYWRIGHT_KEYS: Readonly<Record<string, string>> = {
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  pageup: 'PageUp',
  pagedown: 'PageDown',
  home: 'Home',
  end: 'End',
  enter: 'Enter',
  tab: 'Tab',
  escape: 'Escape',
  backspace: 'Backspace',
  delete: 'Delete',
  insert: 'Insert',
  '+': 'Shift+Equal',
  _: 'Shift+Minus',
  '<': 'Shift+Comma',
  '{': 'Shift+BracketLeft',
  '}': 'Shift+BracketRight',
}

/** The keys to press for one keystroke (`ctrl-alt-{` -> `Control+Alt+Shift+BracketLeft`). */
const playwrightKeys = (keystroke: string): string => {
  const parts = keystroke.endsWith('--')
    ? [...keystroke.slice(0, -2).split('-'), '-']
    : keystroke.split('-')
  const key = parts.pop()!
  const modifiers = parts.map(
    (part) => ({ ctrl: 'Control', alt: 'Alt', shift: 'Shift', cmd: 'Meta' })[part]!,
  )
  let name = PLAYWRIGHT_KEYS[key] ?? (/^f\d+$/.test(key) ? key.toUpperCase() : key)
  if (name.startsWith('Shift+')) {
    modifiers.push('Shift')
    name = name.slice('Shift+'.length)
  } else if (modifiers.includes('Shift') && name.length === 1) name = name.toUpperCase()
  return [...new Set(modifiers), name].join('+')
}

/** Bindings the browser or the view's panels carry out, tested on their own elsewhere. */
const NOT_EDITOR_ONLY = new Set([
  'core:copy',
  'core:cut',
  'core:paste',
  'core:backspace',
  'editor:newline',
])

describe('EditorView key bindings', () => {
  const view = useViewPage(ARTIFACTS)
  let page: Page
  const open = async (options: OpenOptions) => {
    page = await openFocusedEditor(view, options)
  }
  const stateOf = editorState
  const pageState = () => pageEditorState(page)
  const hint = () =>
    inPage(page, (vp) => ({
      text: vp.a.element!.querySelector('.tandem-chord-hint')?.textContent ?? null,
      said: vp.a.element!.querySelector('.tandem-live-region')?.lastElementChild?.textContent ?? '',
      pending: vp.a.view!.getPendingKeystrokes(),
    }))

  it('line, case and chord keys give the text and selections the same methods give', async () => {
    const options = { undoGroupingInterval: 0, preferredLineLength: 24 }
    await open({ text: CODE, editor: options, view: { cursorBlink: false } })
    const reference = new TextEditor({ ...options, text: CODE })
    reference.getBuffer().clearUndoStack()
    for (const [i, { keys, api }] of SESSION.entries()) {
      for (const key of keys) await page.keyboard.press(key)
      api(reference)
      expect(await pageState(), `step ${i}: ${keys.join(' ')}`).toEqual(stateOf(reference))
    }
    await page.screenshot({ path: `${ARTIFACTS}keys-session.png` })
    reference.destroy()
  })

  it('every default binding of an editor command does what the command does to a fresh editor', async () => {
    const text = [CODE, 'const camelCaseName = snake_case_name', '', '', 'last line here'].join(
      '\n',
    )
    await open({ text, editor: { undoGroupingInterval: 0 }, view: { cursorBlink: false } })
    const perPage = await inPage(page, (vp) => vp.a.view!.getRowsPerPage())
    const start = [
      [
        [1, 6],
        [1, 11],
      ],
      [
        [4, 9],
        [4, 9],
      ],
      [
        [9, 7],
        [9, 7],
      ],
    ] as [[number, number], [number, number]][]
    const bindings = Object.entries(ATOM_KEYMAP).filter(
      ([, command]) =>
        command !== null &&
        Object.hasOwn(EDITOR_COMMANDS, command) &&
        !NOT_EDITOR_ONLY.has(command),
    ) as [string, string][]
    expect(bindings.length).toBeGreaterThan(70)
    const stateWithFolds = (editor: TextEditor) => ({
      ...stateOf(editor),
      folds: editor.getFoldedBufferRanges().map(String),
      softWrapped: editor.isSoftWrapped(),
    })
    for (const [keystrokes, command] of bindings) {
      await inPage(
        page,
        (vp, { text, ranges }) => {
          const { editor } = vp.a
          editor.unfoldAll()
          editor.setSoftWrapped(false)
          editor.setText(text)
          editor.getBuffer().clearUndoStack()
          // Not reversed: an existing selection keeps its orientation otherwise, as in Atom.
          editor.setSelectedBufferRanges(ranges, { reversed: false })
          vp.a.view!.focus()
        },
        { text, ranges: start },
      )
      const reference = new TextEditor({ text, undoGroupingInterval: 0 })
      reference.setSelectedBufferRanges(start)
      for (const keystroke of keystrokes.split(' ')) {
        await page.keyboard.press(playwrightKeys(keystroke))
      }
      EDITOR_COMMANDS[command]!({ editor: reference, rowsPerPage: () => perPage })
      const shown = await inPage(page, (vp) => ({
        text: vp.a.editor.getText(),
        selections: vp.a.editor
          .getSelections()
          .map((s) => `${s.getBufferRange().toString()}${s.isReversed() ? ' reversed' : ''}`),
        folds: vp.a.editor.getFoldedBufferRanges().map(String),
        softWrapped: vp.a.editor.isSoftWrapped(),
      }))
      expect(shown, `${keystrokes} (${command})`).toEqual(stateWithFolds(reference))
      reference.destroy()
    }
  })

  it('commands without a key run by name give what the same methods give', async () => {
    await open({ text: CODE, editor: { undoGroupingInterval: 0 }, view: { cursorBlink: false } })
    const reference = new TextEditor({ text: CODE, undoGroupingInterval: 0 })
    const steps: [string, (editor: TextEditor) => void][] = [
      ['editor:select-word', (e) => e.selectWordsContainingCursors()],
      ['editor:transpose', (e) => e.transpose()],
      ['editor:move-selection-right', (e) => e.moveSelectionRight()],
      ['editor:move-selection-left', (e) => e.moveSelectionLeft()],
      ['core:select-all', (e) => e.selectAll()],
      ['editor:split-selections-into-lines', (e) => e.splitSelectionsIntoLines()],
      ['editor:consolidate-selections', (e) => e.consolidateSelections()],
      ['core:move-to-top', (e) => e.moveToTop()],
      ['editor:toggle-fold', (e) => e.toggleFoldAtBufferRow(e.getCursorBufferPosition().row)],
      ['editor:toggle-fold', (e) => e.toggleFoldAtBufferRow(e.getCursorBufferPosition().row)],
      ['editor:move-to-end-of-line', (e) => e.moveToEndOfLine()],
      ['editor:newline-below', (e) => e.insertNewlineBelow()],
      ['autoflow:reflow-selection', (e) => e.reflowSelection()],
      ['core:move-up', (e) => e.moveUp()],
      ['editor:cut-to-end-of-buffer-line', (e) => e.cutToEndOfBufferLine()],
      ['editor:toggle-soft-tabs', (e) => e.setSoftTabs(!e.getSoftTabs())],
    ]
    for (const [name, api] of steps) {
      await inPage(page, (vp, command) => vp.a.view!.dispatchCommand(command), name)
      api(reference)
      expect(await pageState(), name).toEqual(stateOf(reference))
      expect(
        await inPage(page, (vp) => vp.a.editor.getFoldedBufferRanges().map(String)),
        name,
      ).toEqual(reference.getFoldedBufferRanges().map(String))
      expect(await inPage(page, (vp) => vp.a.editor.getSoftTabs()), name).toBe(
        reference.getSoftTabs(),
      )
    }
    reference.destroy()
  })

  it('a chord waits with a hint, escape cancels it, another key ends it, and it times out', async () => {
    await open({ text: 'one two\nthree', view: { cursorBlink: false } })
    await inPage(page, (vp) => vp.a.editor.addCursorAtBufferPosition([1, 0]))
    expect(await hint()).toMatchObject({ text: '', said: '', pending: null })

    await page.keyboard.press('Control+k')
    // Shown at the editor's bottom edge, and said in the view's polite live region.
    expect(await hint()).toEqual({
      text: 'Ctrl+K was pressed; waiting for the next key…',
      said: 'Ctrl+K was pressed; waiting for the next key…',
      pending: 'ctrl-k',
    })
    await page.screenshot({ path: `${ARTIFACTS}chord-pending.png` })
    // Escape ends the chord only: both cursors stay.
    await page.keyboard.press('Escape')
    expect(await hint()).toMatchObject({ text: '', pending: null })
    expect((await pageState()).selections).toHaveLength(2)

    // A key that continues no chord ends it and is typed.
    await page.keyboard.press('Control+k')
    await page.keyboard.press('x')
    expect(await pageState()).toEqual({
      text: 'xone two\nxthree',
      selections: ['[(0, 1) - (0, 1)]', '[(1, 1) - (1, 1)]'],
    })
    expect((await hint()).pending).toBeNull()

    // Past the wait, the chord is over: ctrl-u alone does not change case.
    await page.keyboard.press('Escape')
    await page.keyboard.press('Control+Shift+ArrowRight')
    await page.keyboard.press('Control+k')
    await page.waitForTimeout(CHORD_TIMEOUT + 150)
    expect(await hint()).toMatchObject({ text: '', pending: null })
    await page.keyboard.press('Control+u')
    expect((await pageState()).text).toBe('xone two\nxthree')
    // Within it, the chord runs.
    await inPage(page, (vp) =>
      vp.a.editor.setSelectedBufferRange([
        [0, 1],
        [0, 4],
      ]),
    )
    await page.keyboard.press('Control+k')
    await page.keyboard.press('Control+u')
    expect((await pageState()).text).toBe('xONE two\nxthree')

    // Leaving the editor drops a pending chord.
    await page.keyboard.press('Control+k')
    await inPage(page, (_vp) => (document.activeElement as HTMLElement | null)?.blur())
    expect((await hint()).pending).toBeNull()
  })

  it('alt-z toggles soft wrap; the fold keys fold and unfold as the same methods do', async () => {
    const long = `const text = "${'word '.repeat(40)}"`
    const text = `${CODE}\n${long}`
    await open({ text, width: 420, height: 360, view: { cursorBlink: false } })
    const wrapped = () =>
      inPage(page, (vp) => ({
        softWrapped: vp.a.editor.isSoftWrapped(),
        screenRows: vp.a.editor.getScreenLineCount(),
      }))
    const before = await wrapped()
    await page.keyboard.press('Alt+z')
    const after = await wrapped()
    expect(after.softWrapped).toBe(!before.softWrapped)
    expect(after.screenRows).toBeGreaterThan(before.screenRows)
    await page.keyboard.press('Alt+z')
    expect(await wrapped()).toEqual(before)

    const reference = new TextEditor({ text })
    const folds = () => inPage(page, (vp) => vp.a.editor.getFoldedBufferRanges().map(String))
    const foldsOf = (editor: TextEditor) => editor.getFoldedBufferRanges().map(String)
    await inPage(page, (vp) => vp.a.editor.setCursorBufferPosition([2, 4]))
    reference.setCursorBufferPosition([2, 4])
    const steps: [string[], (editor: TextEditor) => void][] = [
      [['Control+Alt+BracketLeft'], (e) => e.foldCurrentRow()],
      [['Control+Alt+BracketRight'], (e) => e.unfoldCurrentRow()],
      [['Control+Alt+Shift+BracketLeft'], (e) => e.foldAll()],
      [['Control+Alt+Shift+BracketRight'], (e) => e.unfoldAll()],
      [['Control+k', 'Control+1'], (e) => e.foldAllAtIndentLevel(0)],
      [['Control+k', 'Control+0'], (e) => e.unfoldAll()],
      [['Control+k', 'Control+2'], (e) => e.foldAllAtIndentLevel(1)],
      [['Control+Home'], (e) => e.moveToTop()],
      [['Control+Alt+f'], (e) => e.foldSelectedLines()],
    ]
    for (const [keys, api] of steps) {
      for (const key of keys) await page.keyboard.press(key)
      api(reference)
      expect(await folds(), keys.join(' ')).toEqual(foldsOf(reference))
      expect(await pageState(), keys.join(' ')).toEqual(stateOf(reference))
    }
    expect(await folds()).not.toEqual([])
    await page.screenshot({ path: `${ARTIFACTS}keys-folds.png` })

    // The gutter: a foldable row's number folds it when clicked, a folded row's unfolds it.
    await page.keyboard.press('Control+k')
    await page.keyboard.press('Control+0')
    reference.unfoldAll()
    const number = (line: number) =>
      page.locator('.tandem-line-number', { hasText: new RegExp(`^${line}$`) })
    // The markers show while the pointer is over the gutter.
    expect(await number(2).getAttribute('class')).not.toContain('foldable')
    await page.hover('.tandem-gutter')
    await expect.poll(() => number(2).getAttribute('class')).toContain('foldable')
    await page.screenshot({ path: `${ARTIFACTS}gutter-foldable.png` })
    for (let i = 0; i < 2; i++) {
      await number(2).click()
      reference.toggleFoldAtBufferRow(1)
      expect(await folds()).toEqual(foldsOf(reference))
      expect(await pageState()).toEqual(stateOf(reference))
    }
    expect(await folds()).toEqual([])
    expect(await number(3).getAttribute('class')).not.toMatch(/fold/)
    reference.destroy()
  })

  it('ctrl-= and ctrl-- zoom the font a pixel a step, ctrl-0 resets it; rows are measured again', async () => {
    await open({ text: CODE, width: 600, height: 300, view: { cursorBlink: false } })
    const zoom = () =>
      inPage(page, (vp) => {
        vp.a.view!.updateSync()
        const top = (row: number) =>
          vp.a
            .element!.querySelector<HTMLElement>(`.tandem-line[data-screen-row="${row}"]`)!
            .getBoundingClientRect().top
        return {
          fontSize: vp.a.view!.getFontSize(),
          lineHeight: vp.a.view!.getMetrics().lineHeight,
          rowStep: top(3) - top(2),
          caret: vp.localCarets('a')[0]!,
          glyph: vp.glyphPosition('a', 2, 4),
        }
      })
    await inPage(page, (vp) => vp.a.editor.setCursorBufferPosition([2, 4]))
    const start = await zoom()
    expect(start.fontSize).toBe(14)
    await page.keyboard.press('Control+Equal')
    await page.keyboard.press('Control+Shift+Equal')
    const bigger = await zoom()
    expect(bigger.fontSize).toBe(16)
    expect(bigger.lineHeight).toBeGreaterThan(start.lineHeight)
    expect(bigger.rowStep).toBeCloseTo(bigger.lineHeight, 1)
    expect(bigger.caret.left).toBeCloseTo(bigger.glyph!.left, 0)
    expect(bigger.glyph!.left).toBeGreaterThan(start.glyph!.left)
    await page.screenshot({ path: `${ARTIFACTS}zoom-in.png` })
    for (let i = 0; i < 3; i++) await page.keyboard.press('Control+Minus')
    await page.keyboard.press('Control+Shift+Minus')
    const smaller = await zoom()
    expect(smaller.fontSize).toBe(12)
    expect(smaller.caret.left).toBeCloseTo(smaller.glyph!.left, 0)
    await page.keyboard.press('Control+0')
    expect(await zoom()).toEqual(start)
    await expect(inPage(page, (vp) => vp.a.view!.setFontSize(2))).rejects.toThrow(/font size/)
  })
})
