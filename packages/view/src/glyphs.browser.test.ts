import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { inPage } from './testing/in-page.js'
import { useViewPage } from './testing/serve-view-page.js'
import type { OpenOptions } from './testing/view-page.js'

const ARTIFACTS = fileURLToPath(new URL('../../../artifacts/view/', import.meta.url))

const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}'
const FLAGS = '\u{1F1EB}\u{1F1F7}\u{1F1EF}\u{1F1F5}'

/** Lines mixing what a fixed character width gets wrong. */
const LINES = [
  'abc 中文字符测试',
  'ok 😀👍🏽🎉 done',
  'cafe\u0301 re\u0301sume\u0301 ok',
  'ＡＢＣ１２３ fullwidth',
  `${FAMILY} family ${FLAGS} flags`,
  'tab\there\t中\t😀\tend',
  'plain ascii to compare with',
]

/** The fonts the browser used for a node's text, from DevTools' CSS domain. */
const platformFonts = async (page: Page, selector: string): Promise<string[]> => {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('DOM.enable')
  await cdp.send('CSS.enable')
  const { root } = await cdp.send('DOM.getDocument', { depth: -1 })
  const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector })
  const names = new Set<string>()
  for (const nodeId of nodeIds) {
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId })
    for (const font of fonts) names.add(font.familyName)
  }
  await cdp.detach()
  return [...names]
}

interface CaretCheck {
  row: number
  column: number
  expected: number
  local: number
  remote: number
}

describe('EditorView places glyph boundaries where the browser drew them', () => {
  const view = useViewPage(ARTIFACTS)
  let page: Page
  const open = async (options: OpenOptions) => {
    page = await view.openPage()
    await inPage(page, (vp, o) => vp.open(o), options)
  }

  it('draws the text in real CJK, emoji and monospace fonts (not fallback boxes)', async () => {
    await open({ text: LINES.join('\n'), width: 720, height: 300 })
    const fonts = await platformFonts(page, '.tandem-line')
    expect(fonts).toEqual(
      expect.arrayContaining(['DejaVu Sans Mono', 'WenQuanYi Zen Hei', 'Noto Color Emoji']),
    )
  })

  it('puts local and remote carets within 1 px of every grapheme boundary', async () => {
    await open({
      text: LINES.join('\n'),
      peer: 'hidden',
      width: 720,
      height: 300,
      view: { cursorBlink: false },
    })
    const checks = await inPage(
      page,
      (vp, rowCount) => {
        const results: CaretCheck[] = []
        for (let row = 0; row < rowCount; row++) {
          vp.flush()
          const clusters = vp.clusters('a', row)
          const last = clusters[clusters.length - 1]!
          const boundaries = [...clusters.map((c) => c.column), last.column + last.length]
          for (const column of boundaries) {
            vp.a.editor.setCursorScreenPosition([row, column])
            vp.b!.editor.setCursorScreenPosition([row, column])
            vp.flush()
            const local = vp.localCarets('a')[0]!.left
            const remote = vp.remoteCarets('a')[0]!.left
            // Inside a hard tab the model clips to one of its ends: compare with where it is.
            const at = vp.a.editor.getCursorScreenPosition().column
            results.push({
              row,
              column: at,
              expected: vp.glyphPosition('a', row, at)!.left,
              local,
              remote,
            })
          }
        }
        return results
      },
      LINES.length,
    )
    expect(checks.length).toBeGreaterThan(100)
    for (const check of checks) {
      const where = `row ${check.row} column ${check.column}`
      expect(Math.abs(check.local - check.expected), `local caret at ${where}`).toBeLessThanOrEqual(
        1,
      )
      expect(
        Math.abs(check.remote - check.expected),
        `remote caret at ${where}`,
      ).toBeLessThanOrEqual(1)
    }
    await inPage(page, (vp) => {
      vp.a.editor.setCursorScreenPosition([0, 10])
      vp.b!.editor.setCursorScreenPosition([1, 11])
      vp.flush()
    })
    await page.screenshot({ path: `${ARTIFACTS}glyph-carets.png` })
  })

  it('draws a caret the model put inside a cluster at the cluster, never in the middle of it', async () => {
    await open({ text: LINES.join('\n'), peer: 'hidden', view: { cursorBlink: false } })
    const shown = await inPage(page, (vp) => {
      // Inside the thumb with its skin tone (columns 5 to 9) and inside the accented e.
      vp.a.editor.setCursorBufferPosition([1, 7])
      vp.b!.editor.setCursorBufferPosition([2, 4])
      vp.flush()
      return {
        local: vp.localCarets('a')[0]!.left,
        remote: vp.remoteCarets('a')[0]!.left,
        thumb: vp.glyphPosition('a', 1, 5)!.left,
        accent: vp.glyphPosition('a', 2, 3)!.left,
      }
    })
    expect(Math.abs(shown.local - shown.thumb)).toBeLessThanOrEqual(1)
    expect(Math.abs(shown.remote - shown.accent)).toBeLessThanOrEqual(1)
  })

  it('covers exactly the selected glyphs with local and remote selection boxes', async () => {
    await open({ text: LINES.join('\n'), peer: 'hidden', view: { cursorBlink: false } })
    const shown = await inPage(page, (vp) => {
      const cjk = [
        [0, 4],
        [0, 10],
      ] as const
      const emoji = [
        [1, 3],
        [1, 11],
      ] as const
      vp.a.editor.setSelectedBufferRanges([cjk])
      vp.b!.editor.setSelectedBufferRanges([emoji])
      vp.flush()
      const box = (selector: string) => {
        const rect = vp.a.element!.querySelector(selector)!.getBoundingClientRect()
        return { left: rect.left, right: rect.right }
      }
      return {
        local: box('.tandem-selection'),
        remote: box('.tandem-remote-selection'),
        cjk: [vp.glyphPosition('a', 0, 4)!.left, vp.glyphPosition('a', 0, 10)!.left],
        emoji: [vp.glyphPosition('a', 1, 3)!.left, vp.glyphPosition('a', 1, 11)!.left],
      }
    })
    expect(Math.abs(shown.local.left - shown.cjk[0]!)).toBeLessThanOrEqual(1)
    expect(Math.abs(shown.local.right - shown.cjk[1]!)).toBeLessThanOrEqual(1)
    expect(Math.abs(shown.remote.left - shown.emoji[0]!)).toBeLessThanOrEqual(1)
    expect(Math.abs(shown.remote.right - shown.emoji[1]!)).toBeLessThanOrEqual(1)
    await page.screenshot({ path: `${ARTIFACTS}glyph-selections.png` })
  })

  it('lands a click on the nearest grapheme boundary', async () => {
    await open({ text: LINES.join('\n'), width: 720, height: 300, view: { cursorBlink: false } })
    const rows = LINES.length - 1
    // Clusters whose both edges a cursor can take (the spaces inside a hard tab are not).
    const clusters = await inPage(
      page,
      (vp, count) =>
        Array.from({ length: count }, (_, row) =>
          vp
            .clusters('a', row)
            .filter((cluster) =>
              [cluster.column, cluster.column + cluster.length].every(
                (column) => vp.a.editor.clipScreenPosition([row, column]).column === column,
              ),
            ),
        ),
      rows,
    )
    const tops = await inPage(
      page,
      (vp, count) =>
        Array.from({ length: count }, (_, row) => {
          const rect = vp.a.element!.querySelector(`.tandem-line[data-screen-row="${row}"]`)!
          const box = rect.getBoundingClientRect()
          return box.top + box.height / 2
        }),
      rows,
    )
    let clicks = 0
    for (let row = 0; row < rows; row++) {
      for (const cluster of clusters[row]!) {
        const width = cluster.right - cluster.left
        if (width < 4) continue
        for (const [fraction, column] of [
          [0.3, cluster.column],
          [0.7, cluster.column + cluster.length],
        ] as const) {
          await page.mouse.click(cluster.left + width * fraction, tops[row]!)
          const at = await inPage(page, (vp) => vp.a.editor.getCursorScreenPosition())
          expect(at, `click ${fraction} into row ${row} column ${cluster.column}`).toEqual({
            row,
            column,
          })
          clicks++
        }
      }
    }
    expect(clicks).toBeGreaterThan(150)
  })

  it('steps over whole clusters with the arrow keys and deletes whole clusters', async () => {
    await open({ text: LINES.join('\n'), view: { cursorBlink: false } })
    await inPage(page, (vp) => {
      vp.a.editor.setCursorBufferPosition([4, 0])
      vp.a.view!.focus()
    })
    const expected = (await inPage(page, (vp) => vp.clusters('a', 4))).map((c) => c.column)
    const line = LINES[4]!
    const visited: number[] = []
    for (let i = 0; i < expected.length; i++) {
      visited.push((await inPage(page, (vp) => vp.a.editor.getCursorBufferPosition())).column)
      await page.keyboard.press('ArrowRight')
    }
    expect(visited).toEqual(expected)
    expect((await inPage(page, (vp) => vp.a.editor.getCursorBufferPosition())).column).toBe(
      line.length,
    )
    const back: number[] = []
    for (let i = 0; i < expected.length; i++) {
      await page.keyboard.press('ArrowLeft')
      back.push((await inPage(page, (vp) => vp.a.editor.getCursorBufferPosition())).column)
    }
    expect(back).toEqual([...expected].reverse())
    // Shift-arrow selects the family emoji whole; backspace and delete remove whole clusters.
    await page.keyboard.press('Shift+ArrowRight')
    const selected = await inPage(page, (vp) => vp.a.editor.getSelectedText())
    expect(selected).toBe(FAMILY)
    await page.keyboard.press('End')
    for (let i = 0; i < ' flags'.length; i++) await page.keyboard.press('Backspace')
    await page.keyboard.press('Backspace')
    expect(await inPage(page, (vp) => vp.a.editor.lineTextForBufferRow(4))).toBe(
      `${FAMILY} family \u{1F1EB}\u{1F1F7}`,
    )
    await page.keyboard.press('Home')
    await page.keyboard.press('Delete')
    expect(await inPage(page, (vp) => vp.a.editor.lineTextForBufferRow(4))).toBe(
      ' family \u{1F1EB}\u{1F1F7}',
    )
    await page.keyboard.press('Control+z')
    expect(await inPage(page, (vp) => vp.a.editor.lineTextForBufferRow(4))).toBe(
      `${FAMILY} family \u{1F1EB}\u{1F1F7}`,
    )
    expect(await inPage(page, (vp) => vp.a.editor.getCursorBufferPosition())).toEqual({
      row: 4,
      column: 0,
    })
  })

  it('places carets in a proportional font, and under browser zoom', async () => {
    for (const zoom of [1, 1.25, 2]) {
      page = await view.openPage()
      const cdp = await page.context().newCDPSession(page)
      await cdp.send('Emulation.setDeviceMetricsOverride', {
        width: 1000,
        height: 700,
        deviceScaleFactor: zoom,
        mobile: false,
      })
      await inPage(page, (vp, o) => vp.open(o), {
        text: LINES.join('\n'),
        peer: 'hidden' as const,
        view: { cursorBlink: false },
      })
      const worst = await inPage(
        page,
        async (vp, proportional) => {
          if (proportional) {
            vp.a.element!.style.setProperty('--tandem-font', "'DejaVu Sans', sans-serif")
            await vp.frames()
          }
          let worstLocal = 0
          let worstRemote = 0
          for (let row = 0; row < 6; row++) {
            vp.flush()
            for (const { column } of vp.clusters('a', row)) {
              vp.a.editor.setCursorScreenPosition([row, column])
              vp.b!.editor.setCursorScreenPosition([row, column])
              vp.flush()
              const at = vp.a.editor.getCursorScreenPosition().column
              const expected = vp.glyphPosition('a', row, at)!.left
              worstLocal = Math.max(worstLocal, Math.abs(vp.localCarets('a')[0]!.left - expected))
              worstRemote = Math.max(
                worstRemote,
                Math.abs(vp.remoteCarets('a')[0]!.left - expected),
              )
            }
          }
          return { worstLocal, worstRemote }
        },
        zoom === 1.25,
      )
      expect(worst.worstLocal, `zoom ${zoom}`).toBeLessThanOrEqual(1)
      expect(worst.worstRemote, `zoom ${zoom}`).toBeLessThanOrEqual(1)
      if (zoom === 1.25) await page.screenshot({ path: `${ARTIFACTS}glyph-proportional.png` })
      await cdp.detach()
      await page.close()
    }
  })

  it('measures the font again when the page changes it, and wraps a proportional font to the element', async () => {
    const text = [
      'W'.repeat(120),
      'i'.repeat(300),
      'The quick brown fox jumps over the lazy dog. '.repeat(4),
    ].join('\n')
    await open({
      text,
      width: 420,
      height: 400,
      editor: { softWrapped: true },
      view: { cursorBlink: false },
    })
    const shown = await inPage(page, async (vp) => {
      vp.a.element!.style.setProperty('--tandem-font', "'DejaVu Sans', sans-serif")
      await vp.frames()
      await vp.frames()
      vp.flush()
      const scroller = vp.a.element!.querySelector('.tandem-scroller')!
      const lines = vp.a.element!.querySelector('.tandem-lines')!.getBoundingClientRect()
      const rows = [...vp.a.element!.querySelectorAll<HTMLElement>('.tandem-line')].map((row) => {
        const clusters = vp.clusters('a', Number(row.dataset.screenRow))
        const last = clusters[clusters.length - 1]
        return {
          text: row.textContent ?? '',
          right: last === undefined ? 0 : last.right - lines.left,
        }
      })
      const end = vp.a.editor.getBuffer().getEndPosition()
      vp.a.editor.setCursorBufferPosition(end)
      vp.flush()
      const screen = vp.a.editor.getCursorScreenPosition()
      return {
        rows,
        available: scroller.clientWidth - (lines.left - scroller.getBoundingClientRect().left),
        caret: vp.localCarets('a')[0]!.left,
        expected: vp.glyphPosition('a', screen.row, screen.column)!.left,
      }
    })
    const widest = Math.max(...shown.rows.map((row) => row.right))
    expect(widest).toBeLessThanOrEqual(shown.available)
    // Rows of narrow letters fill the width too: wrapping follows each character's width.
    const narrow = shown.rows.filter((row) => /^i+$/.test(row.text))
    expect(narrow.length).toBeGreaterThan(1)
    expect(narrow[0]!.right).toBeGreaterThan(shown.available * 0.85)
    expect(Math.abs(shown.caret - shown.expected)).toBeLessThanOrEqual(1)
    await page.screenshot({ path: `${ARTIFACTS}glyph-proportional-wrap.png` })
  })

  it('scrolls sideways to a cursor after wide characters, and puts the input method box there', async () => {
    const line = `${'中文字符测试 😀👍🏽 '.repeat(20)}end`
    await open({ text: `${line}\nshort`, width: 400, height: 200, view: { cursorBlink: false } })
    const shown = await inPage(
      page,
      async (vp, length) => {
        vp.a.editor.setCursorBufferPosition([0, length])
        await vp.frames()
        const scroller = vp.a.element!.querySelector('.tandem-scroller')!.getBoundingClientRect()
        const caret = vp.localCarets('a')[0]!
        const input = vp.a.element!.querySelector('textarea')!.getBoundingClientRect()
        return {
          caret: caret.left,
          expected: vp.glyphPosition('a', 0, length)!.left,
          input: input.left,
          visible: [scroller.left, scroller.right],
        }
      },
      line.length,
    )
    expect(Math.abs(shown.caret - shown.expected)).toBeLessThanOrEqual(1)
    expect(shown.caret).toBeGreaterThan(shown.visible[0]!)
    expect(shown.caret).toBeLessThan(shown.visible[1]!)
    expect(Math.abs(shown.input - shown.expected)).toBeLessThanOrEqual(1)
  })

  it('soft-wraps CJK and emoji lines within the element', async () => {
    const text = [
      '中文字符测试'.repeat(12),
      '😀👍🏽🎉 '.repeat(20),
      `${FAMILY}${FLAGS}`.repeat(15),
    ].join('\n')
    await open({ text, width: 360, height: 400, editor: { softWrapped: true } })
    const shown = await inPage(page, async (vp) => {
      await vp.frames()
      vp.flush()
      const scroller = vp.a.element!.querySelector('.tandem-scroller')!
      const rows = [...vp.a.element!.querySelectorAll<HTMLElement>('.tandem-line')]
      const rights = rows.map((row) => {
        const clusters = vp.clusters('a', Number(row.dataset.screenRow))
        return clusters.length === 0 ? 0 : clusters[clusters.length - 1]!.right
      })
      return {
        rows: rows.length,
        right: scroller.getBoundingClientRect().right,
        widest: Math.max(...rights),
        scrollWidth: scroller.scrollWidth,
        clientWidth: scroller.clientWidth,
      }
    })
    expect(shown.rows).toBeGreaterThan(6)
    expect(shown.widest).toBeLessThanOrEqual(shown.right)
    expect(shown.scrollWidth).toBeLessThanOrEqual(shown.clientWidth)
    await page.screenshot({ path: `${ARTIFACTS}glyph-soft-wrap.png` })
  })
})
