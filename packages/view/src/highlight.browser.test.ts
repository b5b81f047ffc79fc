import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { inPage } from './testing/in-page.js'
import { useViewPage } from './testing/serve-view-page.js'
import type { OpenOptions } from './testing/view-page.js'
import { DARK_THEME, LIGHT_THEME, type ThemePalette } from './theme.js'

const ARTIFACTS = fileURLToPath(new URL('../../../artifacts/view/', import.meta.url))

/** A token kind of the themes (`keyword` is `--tandem-syntax-keyword`). */
type Kind =
  | 'keyword'
  | 'string'
  | 'comment'
  | 'number'
  | 'function'
  | 'type'
  | 'tag'
  | 'attribute'
  | 'regexp'

/** A sample of each language and the kind of token at the first occurrence of each needle. */
const SAMPLES: Record<string, { text: string; expect: [needle: string, kind: Kind][] }> = {
  javascript: {
    text: 'const n = 42 // note\nif (n) return "text"\nfunction f(a) { return /ab+/g.test(a) }',
    expect: [
      ['const', 'keyword'],
      ['42', 'number'],
      ['note', 'comment'],
      ['text', 'string'],
      ['f(a)', 'function'],
      ['ab+', 'regexp'],
    ],
  },
  typescript: {
    text: 'let n: number = 42 // note\nif (n) return "text"',
    expect: [
      ['let', 'keyword'],
      ['42', 'number'],
      ['note', 'comment'],
      ['text', 'string'],
      ['number', 'type'],
    ],
  },
  tsx: {
    text: 'const n = 42 // note\nconst e = <div className="text">hi</div>',
    expect: [
      ['const', 'keyword'],
      ['42', 'number'],
      ['note', 'comment'],
      ['text', 'string'],
      ['div', 'tag'],
      ['className', 'attribute'],
    ],
  },
  python: {
    text: 'n = 42  # note\ndef f(a):\n    return "text"',
    expect: [
      ['def', 'keyword'],
      ['42', 'number'],
      ['note', 'comment'],
      ['text', 'string'],
      ['f(a)', 'function'],
    ],
  },
  json: {
    text: '{"key": "text", "n": 42, "t": true}\n// note',
    expect: [
      ['42', 'number'],
      ['text', 'string'],
      ['note', 'comment'],
      ['key', 'attribute'],
    ],
  },
  markdown: {
    text: '# Title\nSome `code` here\n<!-- note -->',
    expect: [
      ['Title', 'keyword'],
      ['code', 'string'],
      ['note', 'comment'],
    ],
  },
  css: {
    text: '/* note */\n@media screen { a { width: 42px; content: "text" } }',
    expect: [
      ['note', 'comment'],
      ['media', 'keyword'],
      ['42', 'number'],
      ['text', 'string'],
      ['a {', 'tag'],
      ['width', 'attribute'],
    ],
  },
  html: {
    text: '<!-- note -->\n<a href="text">link</a>\n<script>var x = 42</script>',
    expect: [
      ['note', 'comment'],
      ['text', 'string'],
      ['a href', 'tag'],
      ['href', 'attribute'],
      ['var', 'keyword'],
      ['42', 'number'],
    ],
  },
}

const rgb = (hex: string): string => {
  const n = Number.parseInt(hex.slice(1), 16)
  return `rgb(${n >> 16}, ${(n >> 8) & 255}, ${n & 255})`
}

const colorOf = (palette: ThemePalette, kind: Kind) => rgb(palette[`syntax-${kind}`]!)

const JAVASCRIPT = [
  '// Greets people, and counts them.',
  'import { format } from "./format.js"',
  '',
  'export class Greeter {',
  '  constructor(name, times = 3) {',
  '    this.name = name',
  '    this.times = times',
  '  }',
  '',
  '  /* Says hello, a few times over. */',
  '  greet() {',
  '    const words = /^\\w+$/.test(this.name) ? this.name : "friend"',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source text to colour
  '    for (let i = 0; i < this.times; i++) console.log(format(`Hello, ${words}!`))',
  '    return this.times * 2.5',
  '  }',
  '}',
].join('\n')

describe('EditorView syntax colours', () => {
  const view = useViewPage(ARTIFACTS)
  let page: Page
  const open = async (options: OpenOptions) => {
    page = await view.openPage()
    const grammar = options.editor?.grammar
    if (typeof grammar === 'string') await inPage(page, (vp, id) => vp.loadLanguage(id), grammar)
    await inPage(page, (vp, o) => vp.open(o), options)
  }

  /** The colour drawn at the first occurrence of each needle, in each theme. */
  const colorsAt = (needles: string[]) =>
    inPage(
      page,
      (vp, needles) => {
        const { editor, view, element } = vp.a
        const text = editor.getText()
        const result: Record<string, Record<string, string>> = {}
        for (const theme of ['light', 'dark'] as const) {
          view!.setTheme(theme)
          view!.updateSync()
          result[theme] = {}
          for (const needle of needles) {
            const at = editor.getBuffer().positionForCharacterIndex(text.indexOf(needle))
            const row = element!.querySelector(`.tandem-line[data-screen-row="${at.row}"]`)!
            const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT)
            let left = at.column
            let color = 'none'
            for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
              const length = node.textContent!.length
              if (left < length) {
                color = getComputedStyle(node.parentElement!).color
                break
              }
              left -= length
            }
            result[theme][needle] = color
          }
        }
        return result
      },
      needles,
    )

  for (const [language, sample] of Object.entries(SAMPLES)) {
    it(`colours ${language}'s keywords, strings, comments and numbers in both themes`, async () => {
      await open({ text: sample.text, editor: { grammar: language } })
      const colors = await colorsAt(sample.expect.map(([needle]) => needle))
      for (const [theme, palette] of [
        ['light', LIGHT_THEME],
        ['dark', DARK_THEME],
      ] as const) {
        for (const [needle, kind] of sample.expect) {
          expect(colors[theme]![needle], `${language}, ${theme}: ${needle} is a ${kind}`).toBe(
            colorOf(palette, kind),
          )
        }
      }
    })
  }

  it('follows the system preference by default, and a pinned theme over it', async () => {
    await open({ text: JAVASCRIPT, editor: { grammar: 'javascript' } })
    const look = () =>
      inPage(page, (vp) => {
        vp.a.view!.updateSync()
        const element = vp.a.element!
        return {
          theme: vp.a.view!.getTheme(),
          background: getComputedStyle(element).backgroundColor,
          gutter: getComputedStyle(element.querySelector('.tandem-gutter')!).backgroundColor,
        }
      })
    await page.emulateMedia({ colorScheme: 'light' })
    expect(await look()).toEqual({
      theme: 'auto',
      background: rgb(LIGHT_THEME.background!),
      gutter: rgb(LIGHT_THEME['gutter-background']!),
    })
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await look()).toMatchObject({ background: rgb(DARK_THEME.background!) })
    await inPage(page, (vp) => vp.a.view!.setTheme('light'))
    expect(await look()).toMatchObject({ theme: 'light', background: rgb(LIGHT_THEME.background!) })
    await page.emulateMedia({ colorScheme: 'light' })
    await inPage(page, (vp) => vp.a.view!.setTheme('dark'))
    expect(await look()).toMatchObject({ theme: 'dark', background: rgb(DARK_THEME.background!) })
    const error = await inPage(page, (vp) => {
      try {
        vp.a.view!.setTheme('sepia' as never)
        return null
      } catch (e) {
        return `${(e as Error).name}: ${(e as Error).message}`
      }
    })
    expect(error).toMatch(/^RangeError: theme must be/)
    await expect(
      inPage(page, (vp) => vp.open({ text: '', view: { theme: 'sepia' as never } })),
    ).rejects.toThrow(/theme must be 'light', 'dark' or 'auto', got sepia/)
  })

  it('colours rows once the grammar loads or changes, and keeps every row text exactly its screen line', async () => {
    await open({
      text: `${JAVASCRIPT}\n\tconst tabbed = 1 ${'+ 1 '.repeat(40)}`,
      editor: { softWrapped: true },
      width: 420,
    })
    const shown = await inPage(page, async (vp) => {
      const { editor, element } = vp.a
      editor.foldBufferRowRange(4, 7)
      vp.flush()
      const spans = () => element!.querySelectorAll('.tandem-line span[class*="syntax--"]').length
      const before = spans()
      editor.setGrammar('javascript')
      await vp.loadLanguage('javascript')
      await vp.frames()
      const texts = [...element!.querySelectorAll<HTMLElement>('.tandem-line')].map((row) => {
        const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT)
        let text = ''
        for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
          const fold = node.parentElement?.classList.contains('tandem-fold-marker') ?? false
          text += fold ? editor.displayLayer.getSettings().foldCharacter : node.textContent
        }
        return { text, expected: editor.lineTextForScreenRow(Number(row.dataset.screenRow)) }
      })
      const after = spans()
      const lines = element!.querySelector('.tandem-lines')!
      const jsRoot = lines.classList.contains('syntax--js')
      await vp.loadLanguage('python')
      editor.setGrammar('python')
      await vp.frames()
      return {
        before,
        after,
        texts,
        folds: element!.querySelectorAll('.tandem-fold-marker').length,
        jsRoot,
        pythonRoot:
          lines.classList.contains('syntax--python') && !lines.classList.contains('syntax--js'),
        pythonSpans: element!.querySelectorAll('.tandem-line span.syntax--python').length,
      }
    })
    expect(shown.before).toBe(0)
    expect(shown.after).toBeGreaterThan(20)
    expect(shown.folds).toBe(1)
    expect(shown.jsRoot).toBe(true)
    expect(shown.pythonRoot).toBe(true)
    expect(shown.pythonSpans).toBeGreaterThan(5)
    for (const { text, expected } of shown.texts) expect(text).toBe(expected)
  })

  it('redraws only the rows a remote edit recolours, and tokenizes no row below the screen', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => `const v${i} = ${i} // row ${i}`)
    await open({
      text: rows.join('\n'),
      peer: 'hidden',
      height: 300,
      editor: { grammar: 'javascript' },
      view: { cursorBlink: false },
    })
    const shown = await inPage(page, async (vp) => {
      const { editor, view, element } = vp.a
      vp.flush()
      await vp.frames()
      const [, endRow] = view!.getRenderedRowRange()
      let tokenizedTo = -1
      editor.getLanguageMode().onDidTokenizeBufferRows?.(({ endRow: last }) => {
        tokenizedTo = Math.max(tokenizedTo, last)
      })
      const touched = new Set<number>()
      const collect = (records: MutationRecord[]) => {
        for (const record of records) {
          const nodes = [record.target, ...record.addedNodes, ...record.removedNodes]
          for (const node of nodes) {
            const line = (node instanceof Element ? node : node.parentElement)?.closest(
              '.tandem-line',
            ) as HTMLElement | null | undefined
            if (line != null) touched.add(Number(line.dataset.screenRow))
          }
        }
      }
      const observer = new MutationObserver(collect)
      observer.observe(element!.querySelector('.tandem-lines')!, {
        childList: true,
        subtree: true,
        characterData: true,
        attributes: true,
      })
      const remote = vp.b!.editor.getBuffer()
      const settle = async () => {
        await vp.frames()
        collect(observer.takeRecords())
        const rowsTouched = [...touched].sort((x, y) => x - y)
        touched.clear()
        return rowsTouched
      }
      const colorAt = (row: number, column: number) => {
        const line = element!.querySelector(`.tandem-line[data-screen-row="${row}"]`)!
        const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT)
        let left = column
        for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
          if (left < node.textContent!.length) return getComputedStyle(node.parentElement!).color
          left -= node.textContent!.length
        }
        return 'none'
      }
      // Opening a string on row 5: the string ends with the row, rows below stay as they are.
      remote.insert([5, 'const v5 = '.length], '"')
      const afterString = await settle()
      const stringColor = colorAt(5, 'const v5 = "'.length)
      const row6Color = colorAt(6, 'const v6 = '.length)
      // Opening a block comment on row 8 that nothing closes: every row below turns comment.
      remote.insert([8, 0], '/*')
      const afterComment = await settle()
      const commentColor = colorAt(12, 'const v12 = '.length)
      observer.disconnect()
      return {
        endRow,
        tokenizedTo,
        afterString,
        afterComment,
        stringColor,
        row6Color,
        commentColor,
      }
    })
    expect(shown.endRow).toBeLessThan(40)
    expect(shown.afterString).toEqual([5])
    expect(shown.stringColor).toBe(rgb(LIGHT_THEME['syntax-string']!))
    expect(shown.row6Color).toBe(rgb(LIGHT_THEME['syntax-number']!))
    expect(shown.afterComment).toEqual(Array.from({ length: shown.endRow - 8 }, (_, i) => 8 + i))
    expect(shown.commentColor).toBe(rgb(LIGHT_THEME['syntax-comment']!))
    expect(shown.tokenizedTo).toBe(shown.endRow - 1)
  })

  it('draws rows far down a large file at once, colours them in the next idle time from a guess, and tokenizes the rows above later', async () => {
    const text = Array.from(
      { length: 6000 },
      (_, i) =>
        `/* block ${i} */\nfunction f${i}(a) {\n  const s = "text ${i}"\n  return a * ${i}\n}`,
    ).join('\n')
    await open({
      text,
      peer: 'hidden',
      height: 300,
      editor: { grammar: 'javascript' },
      view: { cursorBlink: false },
    })
    const shown = await inPage(page, async (vp) => {
      const { editor, view, element } = vp.a
      await vp.frames()
      const row = 5 * 5000 + 2
      editor.setCursorBufferPosition([row, 12])
      view!.updateSync()
      const mode = editor.getLanguageMode()
      const colourOf = (selector: string) => {
        const span = element!.querySelector(`.tandem-line ${selector}`)
        return span === null ? 'none' : getComputedStyle(span).color
      }
      // The jump's frame draws the rows plain; their colours come in idle time, before the
      // rows above them are tokenized.
      const plainAtFirst = colourOf('.syntax--string') === 'none'
      const colouredBy = Date.now() + 5_000
      while (colourOf('.syntax--string') === 'none' && Date.now() < colouredBy) await vp.frames()
      const first = {
        plainAtFirst,
        string: colourOf('.syntax--string'),
        comment: colourOf('.syntax--comment'),
        // Whether the rows above were left for later (asking tokenizes 8 rows at most).
        aboveWaiting: mode.tokenizeBufferRowsFor?.(0, row - 100) === false,
      }
      const deadline = Date.now() + 20_000
      while (mode.tokenizeBufferRowsFor?.(0, row) === false && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      await vp.frames()
      return {
        first,
        caughtUp: mode.tokenizeBufferRowsFor?.(0, row),
        string: colourOf('.syntax--string'),
        comment: colourOf('.syntax--comment'),
      }
    })
    expect(shown.first.plainAtFirst).toBe(true)
    expect(shown.first.aboveWaiting).toBe(true)
    expect(shown.first.string).toBe(rgb(LIGHT_THEME['syntax-string']!))
    expect(shown.first.comment).toBe(rgb(LIGHT_THEME['syntax-comment']!))
    expect(shown.caughtUp).toBe(true)
    expect(shown.string).toBe(shown.first.string)
    expect(shown.comment).toBe(shown.first.comment)
  })

  it('looks right in both themes (screenshots)', async () => {
    await open({
      text: JAVASCRIPT,
      width: 760,
      height: 400,
      editor: { grammar: 'javascript' },
      view: { cursorBlink: false, theme: 'light' },
    })
    await inPage(page, (vp) => {
      vp.a.editor.setSelectedBufferRange([
        [4, 2],
        [4, 13],
      ])
      vp.a.view!.focus()
      vp.flush()
    })
    const editor = page.locator('.tandem-editor').first()
    await editor.screenshot({ path: `${ARTIFACTS}highlight-light.png` })
    await inPage(page, (vp) => {
      vp.a.view!.setTheme('dark')
      vp.flush()
    })
    await editor.screenshot({ path: `${ARTIFACTS}highlight-dark.png` })
  })
})
