import { fileURLToPath } from 'node:url'
import { TextEditor } from '@tandem/editor'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { editorState, openFocusedEditor, pageEditorState } from './testing/focused-editor.js'
import { inPage } from './testing/in-page.js'
import { useViewPage } from './testing/serve-view-page.js'
import type { OpenOptions } from './testing/view-page.js'

const ARTIFACTS = fileURLToPath(new URL('../../../artifacts/view/', import.meta.url))

const CODE = [
  'function parseConfigFile(pathName) {',
  '  const rawText = readFileSync(pathName)',
  '  return JSON.parse(rawText)',
  '}',
  '',
  'const firstValue = 1',
  'const secondValue = 2',
  'const thirdValue = 3',
  'export { parseConfigFile }',
].join('\n')

/** One step of the scripted session: keys pressed in the page, and the same through the API. */
interface Step {
  readonly keys: readonly string[] | { readonly type: string }
  readonly api: (editor: TextEditor) => void
}

const typed = (text: string): Step => ({
  keys: { type: text },
  api: (editor) => {
    for (const character of text) editor.insertText(character, { groupUndo: true })
  },
})
const key = (keys: string, api: (editor: TextEditor) => void): Step => ({ keys: [keys], api })

const SESSION: readonly Step[] = [
  key('Control+ArrowRight', (e) => e.moveToEndOfWord()),
  key('Control+ArrowRight', (e) => e.moveToEndOfWord()),
  key('Control+Shift+ArrowLeft', (e) => e.selectToBeginningOfWord()),
  typed('loadSettings'),
  key('Alt+ArrowLeft', (e) => e.moveToPreviousSubwordBoundary()),
  key('Alt+Shift+ArrowRight', (e) => e.selectToNextSubwordBoundary()),
  key('Backspace', (e) => e.backspace()),
  key('ArrowDown', (e) => e.moveDown()),
  key('End', (e) => e.moveToEndOfScreenLine()),
  key('Shift+Home', (e) => e.selectToFirstCharacterOfLine()),
  key('Shift+ArrowUp', (e) => e.selectUp()),
  key('Escape', (e) => e.consolidateSelections()),
  key('Control+End', (e) => e.moveToBottom()),
  key('ArrowUp', (e) => e.moveUp()),
  key('Home', (e) => e.moveToFirstCharacterOfLine()),
  key('Alt+Shift+ArrowUp', (e) =>
    e.expandSelectionsBackward((selection) => selection.addSelectionAbove()),
  ),
  key('Alt+Shift+ArrowUp', (e) =>
    e.expandSelectionsBackward((selection) => selection.addSelectionAbove()),
  ),
  key('Shift+End', (e) => e.selectToEndOfLine()),
  key('Control+/', (e) => e.toggleLineCommentsInSelection()),
  key('Control+]', (e) => e.indentSelectedRows()),
  key('Control+[', (e) => e.outdentSelectedRows()),
  key('Shift+Tab', (e) => e.outdentSelectedRows()),
  key('Tab', (e) => e.indent()),
  key('Escape', (e) => e.consolidateSelections()),
  key('Control+Home', (e) => e.moveToTop()),
  key('Control+Shift+End', (e) => e.selectToBottom()),
  key('ArrowLeft', (e) => e.moveLeft()),
  key('Control+j', (e) => e.joinLines()),
  key('Control+Backspace', (e) => e.deleteToBeginningOfWord()),
  key('Control+Delete', (e) => e.deleteToEndOfWord()),
  key('Alt+Backspace', (e) => e.deleteToBeginningOfSubword()),
  key('Control+Shift+K', (e) => e.deleteLine()),
  key('Control+z', (e) => e.undo()),
  key('Control+z', (e) => e.undo()),
  key('Control+Shift+Z', (e) => e.redo()),
  key('Control+y', (e) => e.redo()),
  key('Alt+Shift+ArrowDown', (e) =>
    e.expandSelectionsForward((selection) => selection.addSelectionBelow()),
  ),
  typed('x = '),
  key('Enter', (e) => e.insertNewline()),
  key('Shift+ArrowRight', (e) => e.selectRight()),
  key('Delete', (e) => e.delete()),
  key('Control+Shift+Delete', (e) => e.deleteToEndOfLine()),
  key('Control+Shift+Backspace', (e) => e.deleteToBeginningOfLine()),
  key('Control+l', (e) => e.selectLinesContainingCursors()),
  key('Control+a', (e) => e.selectAll()),
  key('Shift+ArrowLeft', (e) => e.selectLeft()),
  key('Shift+ArrowDown', (e) => e.selectDown()),
  key('Control+Enter', (e) => e.insertNewlineBelow()),
]

describe('EditorView input', () => {
  const view = useViewPage(ARTIFACTS)
  let page: Page
  const open = async (options: OpenOptions) => {
    page = await openFocusedEditor(view, options)
  }
  const stateOf = editorState
  const pageState = () => pageEditorState(page)

  it('Keyboard: a scripted session of Atom key bindings produces the same text and selections as the same operations through the API', async () => {
    const editorOptions = { undoGroupingInterval: 0 }
    await open({ text: CODE, editor: editorOptions })
    const reference = new TextEditor({ ...editorOptions, text: CODE })
    reference.getBuffer().clearUndoStack()
    expect(await pageState()).toEqual(stateOf(reference))
    for (const [i, step] of SESSION.entries()) {
      if ('type' in step.keys) await page.keyboard.type(step.keys.type)
      else for (const keys of step.keys) await page.keyboard.press(keys)
      step.api(reference)
      expect(await pageState(), `step ${i}: ${JSON.stringify(step.keys)}`).toEqual(
        stateOf(reference),
      )
    }
    reference.destroy()
  })

  it('page down and up move by the rows that fit in the view', async () => {
    const text = Array.from({ length: 200 }, (_, i) => `line ${i}`).join('\n')
    await open({ text, height: 300 })
    await page.keyboard.press('PageDown')
    await page.keyboard.press('PageDown')
    await page.keyboard.press('Shift+PageUp')
    const { perPage, ranges, scrollTop } = await inPage(page, async (vp) => {
      await vp.frames()
      return {
        perPage: vp.a.view!.getRowsPerPage(),
        ranges: vp.a.editor.getSelectedBufferRanges().map(String),
        scrollTop: vp.a.view!.getScrollTop(),
      }
    })
    expect(perPage).toBeGreaterThan(5)
    expect(ranges).toEqual([`[(${perPage}, 0) - (${2 * perPage}, 0)]`])
    expect(scrollTop).toBeGreaterThan(0)
  })

  it('typing inserts text; an input method composition shows at the caret and reaches the document only when committed', async () => {
    await open({ text: 'hello world', peer: 'hidden' })
    await inPage(page, (vp) => vp.a.editor.setCursorBufferPosition([0, 5]))
    await page.keyboard.type(', dear')
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Input.imeSetComposition', { text: 'ni', selectionStart: 2, selectionEnd: 2 })
    await cdp.send('Input.imeSetComposition', { text: 'nihon', selectionStart: 5, selectionEnd: 5 })
    const composing = await inPage(page, async (vp) => {
      await vp.frames()
      const preview = vp.a.element!.querySelector<HTMLElement>('.tandem-composition')!
      return {
        text: vp.a.editor.getText(),
        peerText: vp.b!.editor.getText(),
        preview: preview.hidden ? null : preview.textContent,
      }
    })
    expect(composing).toEqual({
      text: 'hello, dear world',
      peerText: 'hello, dear world',
      preview: 'nihon',
    })
    await cdp.send('Input.insertText', { text: '日本' })
    const committed = await inPage(page, async (vp) => {
      await vp.frames()
      const preview = vp.a.element!.querySelector<HTMLElement>('.tandem-composition')!
      return {
        text: vp.a.editor.getText(),
        peerText: vp.b!.editor.getText(),
        hidden: preview.hidden,
        cursor: vp.a.editor.getCursorBufferPosition().toString(),
      }
    })
    expect(committed).toEqual({
      text: 'hello, dear日本 world',
      peerText: 'hello, dear日本 world',
      hidden: true,
      cursor: '(0, 13)',
    })
    await page.keyboard.type('!')
    expect(await inPage(page, (vp) => vp.a.editor.getText())).toBe('hello, dear日本! world')
    await cdp.detach()
  })

  it("copies whole lines and multi-cursor pieces through the browser's clipboard events, with Tandem's metadata, into another editor", async () => {
    // A and B edit one shared document, each with its own selections and view.
    await open({ text: 'first line\nsecond line\nthird line', peer: true, width: 420 })
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
    // An empty selection copies its whole line; pasted with an empty selection, it goes above.
    await inPage(page, (vp) => {
      vp.a.editor.setCursorBufferPosition([1, 3])
      vp.b!.editor.setCursorBufferPosition([0, 2])
    })
    await page.keyboard.press('Control+c')
    await inPage(page, (vp) => vp.b!.view!.focus())
    await page.keyboard.press('Control+v')
    expect(await inPage(page, (vp) => vp.b!.editor.getText())).toBe(
      'second line\nfirst line\nsecond line\nthird line',
    )

    // Three selections cut three pieces; three cursors in the other editor get one each.
    await inPage(page, (vp) => {
      vp.a.view!.focus()
      vp.a.editor.setSelectedBufferRanges([
        [
          [0, 0],
          [0, 6],
        ],
        [
          [1, 0],
          [1, 5],
        ],
        [
          [2, 0],
          [2, 6],
        ],
      ])
    })
    await page.keyboard.press('Control+x')
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('second\nfirst\nsecond')
    await inPage(page, (vp) => {
      vp.b!.view!.focus()
      vp.b!.editor.setCursorBufferPosition([1, 5])
      vp.b!.editor.addCursorAtBufferPosition([2, 5])
      vp.b!.editor.addCursorAtBufferPosition([3, 10])
    })
    await page.keyboard.press('Control+v')
    expect(await inPage(page, (vp) => vp.b!.editor.getText())).toBe(
      ' line\n linesecond\n linefirst\nthird linesecond',
    )

    // Text from elsewhere (no metadata) pastes as it is at every cursor.
    await page.evaluate(() => navigator.clipboard.writeText('<x>'))
    await page.keyboard.press('Control+v')
    expect(await inPage(page, (vp) => vp.a.editor.getText())).toBe(
      ' line\n linesecond<x>\n linefirst<x>\nthird linesecond<x>',
    )
  })

  it('mouse: click, drag, shift-click, ctrl-click, double and triple click', async () => {
    await open({ text: 'alpha beta gamma\ndelta epsilon\nzeta eta theta', width: 500 })
    const at = (row: number, column: number) =>
      inPage(
        page,
        (vp, [r, c]) => {
          const line = vp.a.element!.querySelector<HTMLElement>('.tandem-lines')!
          const rect = line.getBoundingClientRect()
          const pixel = vp.a.view!.pixelPositionForScreenPosition([r, c])
          const { lineHeight } = vp.a.view!.getMetrics()
          return { x: rect.left + pixel.left, y: rect.top + pixel.top + lineHeight / 2 }
        },
        [row, column] as const,
      )
    const ranges = () => inPage(page, (vp) => vp.a.editor.getSelectedBufferRanges().map(String))

    let point = await at(1, 6)
    await page.mouse.click(point.x, point.y)
    expect(await ranges()).toEqual(['[(1, 6) - (1, 6)]'])

    const from = await at(0, 2)
    const to = await at(2, 4)
    await page.mouse.move(from.x, from.y)
    await page.mouse.down()
    await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 3 })
    await page.mouse.move(to.x, to.y, { steps: 3 })
    await page.mouse.up()
    expect(await ranges()).toEqual(['[(0, 2) - (2, 4)]'])

    point = await at(0, 1)
    await page.mouse.click(point.x, point.y)
    point = await at(1, 3)
    await page.keyboard.down('Shift')
    await page.mouse.click(point.x, point.y)
    await page.keyboard.up('Shift')
    expect(await ranges()).toEqual(['[(0, 1) - (1, 3)]'])

    point = await at(0, 0)
    await page.mouse.click(point.x, point.y)
    point = await at(2, 5)
    await page.keyboard.down('Control')
    await page.mouse.click(point.x, point.y)
    await page.keyboard.up('Control')
    point = await at(1, 0)
    await page.keyboard.down('Alt')
    await page.mouse.click(point.x, point.y)
    await page.keyboard.up('Alt')
    expect(await ranges()).toEqual(['[(0, 0) - (0, 0)]', '[(2, 5) - (2, 5)]', '[(1, 0) - (1, 0)]'])

    point = await at(1, 8)
    await page.mouse.click(point.x, point.y, { clickCount: 2 })
    expect(await ranges()).toEqual(['[(1, 6) - (1, 13)]'])
    await page.mouse.click(point.x, point.y, { clickCount: 3 })
    expect(await ranges()).toEqual(['[(1, 0) - (2, 0)]'])
    await page.keyboard.type('replaced\n')
    expect(await inPage(page, (vp) => vp.a.editor.getText())).toBe(
      'alpha beta gamma\nreplaced\nzeta eta theta',
    )
    await page.screenshot({ path: `${ARTIFACTS}input.png` })
  })
})
