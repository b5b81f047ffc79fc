/**
 * Other peers as the view shows them, in Chromium: names that show when their peer moves and
 * fade, that hover brings back; idle carets that dim; remote selections that show on light
 * and dark backgrounds with the text over them readable. Screenshots go to `artifacts/view/`.
 */
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { inPage } from './testing/in-page.js'
import { useViewPage } from './testing/serve-view-page.js'
import type { OpenOptions } from './testing/view-page.js'

const ARTIFACTS = fileURLToPath(new URL('../../../artifacts/view/', import.meta.url))

const SAMPLE = [
  '// Who is here',
  'export function greet(name) {',
  '  const greeting = "Hello, " + name + "!"',
  '  console.log(greeting)',
  '  return greeting',
  '}',
  '',
  'export const people = ["Ada", "Bob", "Grace", "Linus"]',
].join('\n')

/** The part of the page with both editors. */
const SHOT = { x: 0, y: 0, width: 1160, height: 260 }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Red, green, blue (0-255) and alpha (0-1) of a computed CSS color. */
const parseColor = (css: string): [number, number, number, number] => {
  const srgb = /^color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.e-]+))?\)$/.exec(css)
  if (srgb !== null) {
    const [r, g, b] = [srgb[1], srgb[2], srgb[3]].map((v) => Number(v) * 255) as [
      number,
      number,
      number,
    ]
    return [r, g, b, srgb[4] === undefined ? 1 : Number(srgb[4])]
  }
  const rgb = /^rgba?\(([\d.]+), ([\d.]+), ([\d.]+)(?:, ([\d.]+))?\)$/.exec(css)
  if (rgb === null) throw new Error(`cannot read color ${css}`)
  return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3]), rgb[4] === undefined ? 1 : Number(rgb[4])]
}

/** `top` drawn over `bottom` (opaque). */
const over = (top: number[], bottom: number[]): number[] =>
  [0, 1, 2].map((i) => top[i]! * top[3]! + bottom[i]! * (1 - top[3]!))

const luminance = (rgb: number[]): number => {
  const [r, g, b] = rgb.map((v) => {
    const c = v / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** WCAG contrast ratio of two opaque colors. */
const contrast = (x: number[], y: number[]): number => {
  const [a, b] = [luminance(x), luminance(y)].sort((p, q) => q - p) as [number, number]
  return (a + 0.05) / (b + 0.05)
}

describe('other peers in the view', () => {
  const view = useViewPage(ARTIFACTS)
  let page: Page
  const open = async (options: Partial<OpenOptions> = {}) => {
    page = await view.openPage()
    await inPage(page, (vp, o) => vp.open(o), {
      text: SAMPLE,
      peer: true,
      width: 560,
      height: 240,
      ...options,
    } as OpenOptions)
  }

  /** Bob's label in Ada's view: its text and whether it can be seen now. */
  const bobLabel = () =>
    inPage(page, async (vp) => {
      await vp.frames()
      const label = [...vp.a.element!.querySelectorAll<HTMLElement>('.tandem-remote-label')].find(
        (l) => l.textContent === 'Bob',
      )
      if (label === undefined) return null
      const style = getComputedStyle(label)
      return { visibility: style.visibility, opacity: Number(style.opacity) }
    })

  it("shows a peer's name when it moves, fades it after the delay, and shows it on hover", async () => {
    await open({ view: { cursorBlink: false, labelFadeDelay: 400, idleDelay: 60_000 } })
    await inPage(page, (vp) => {
      vp.a.editor.setCursorBufferPosition([0, 0])
      vp.b!.editor.setCursorBufferPosition([3, 14])
      vp.flush()
    })
    await sleep(120)
    expect(await bobLabel()).toEqual({ visibility: 'visible', opacity: 1 })
    await page.screenshot({ path: `${ARTIFACTS}presence-label-shown.png`, clip: SHOT })

    await sleep(800)
    expect(await bobLabel()).toEqual({ visibility: 'hidden', opacity: 0 })
    await page.screenshot({ path: `${ARTIFACTS}presence-label-faded.png`, clip: SHOT })

    // Moving again brings the name back, and it fades again.
    await inPage(page, (vp) => {
      vp.b!.editor.setCursorBufferPosition([4, 2])
      vp.flush()
    })
    await sleep(120)
    expect(await bobLabel()).toEqual({ visibility: 'visible', opacity: 1 })
    await sleep(800)
    expect((await bobLabel())?.visibility).toBe('hidden')

    // Typing shows it as well: Bob's caret stays on the same character, his clock moves.
    await inPage(page, (vp) => {
      vp.b!.editor.insertText('x')
      vp.flush()
    })
    await sleep(120)
    expect((await bobLabel())?.visibility).toBe('visible')
    await sleep(800)

    const caret = await inPage(page, (vp) => {
      const box = vp.a.element!.querySelector('.tandem-remote-cursor')!.getBoundingClientRect()
      return { x: box.left + box.width / 2, y: box.top + box.height / 2 }
    })
    await page.mouse.move(caret.x + 2, caret.y)
    await sleep(150)
    expect(await bobLabel()).toEqual({ visibility: 'visible', opacity: 1 })
    await page.screenshot({ path: `${ARTIFACTS}presence-label-hover.png`, clip: SHOT })
    await page.mouse.move(5, 5)
    await sleep(500)
    expect((await bobLabel())?.visibility).toBe('hidden')
  })

  it("dims an idle peer's caret, and brightens it when the peer moves", async () => {
    await open({ view: { cursorBlink: false, labelFadeDelay: 200, idleDelay: 700 } })
    await inPage(page, (vp) => {
      vp.b!.editor.setCursorBufferPosition([2, 20])
      vp.flush()
    })
    const caretState = () =>
      inPage(page, async (vp) => {
        await vp.frames()
        const caret = vp.a.element!.querySelector('.tandem-remote-cursor')!
        return {
          idle: caret.classList.contains('is-idle'),
          opacity: getComputedStyle(caret).opacity,
        }
      })
    await sleep(100)
    expect((await caretState()).idle).toBe(false)
    await sleep(1_100)
    const idle = await caretState()
    expect(idle.idle).toBe(true)
    expect(Number(idle.opacity)).toBeLessThan(0.6)
    await page.screenshot({ path: `${ARTIFACTS}presence-caret-idle.png`, clip: SHOT })
    await inPage(page, (vp) => {
      vp.b!.editor.setCursorBufferPosition([2, 10])
      vp.flush()
    })
    await sleep(100)
    expect((await caretState()).idle).toBe(false)
  })

  it('keeps one timer per view however many carets a peer has', async () => {
    await open({ view: { cursorBlink: false, labelFadeDelay: 300, idleDelay: 900 } })
    const pending = await inPage(page, async (vp) => {
      const live = new Set<number>()
      const setTimeout_ = window.setTimeout
      const clearTimeout_ = window.clearTimeout
      window.setTimeout = ((fn: () => void, ms?: number) => {
        const id = setTimeout_(() => {
          live.delete(id)
          fn()
        }, ms)
        live.add(id)
        return id
      }) as typeof window.setTimeout
      window.clearTimeout = ((id: number) => {
        live.delete(id)
        clearTimeout_(id)
      }) as typeof window.clearTimeout
      const most: number[] = []
      for (let i = 0; i < 6; i++) {
        for (let row = 0; row < 8; row++) vp.b!.editor.addCursorAtBufferPosition([row, i])
        vp.flush()
        await vp.frames()
        most.push(live.size)
      }
      window.setTimeout = setTimeout_
      window.clearTimeout = clearTimeout_
      return Math.max(...most)
    })
    // Two views on the page (Ada's and Bob's), one timer each, however many carets.
    expect(pending).toBeLessThanOrEqual(2)
  })

  it('writes a name readably on a light peer color as on a strong one', async () => {
    await open({ view: { cursorBlink: false } })
    for (const color of ['#cf222e', '#facc15']) {
      const label = await inPage(
        page,
        async (vp, user) => {
          vp.b!.binding.awareness.setLocalStateField('user', user)
          vp.b!.editor.setCursorBufferPosition([2, 8])
          vp.flush()
          await vp.frames()
          const shown = vp.a.element!.querySelector('.tandem-remote-label')!
          const style = getComputedStyle(shown)
          return { text: style.color, background: style.backgroundColor }
        },
        { name: 'Bob', color },
      )
      const ratio = contrast(parseColor(label.text), parseColor(label.background))
      expect(ratio, color).toBeGreaterThanOrEqual(4.5)
    }
  })

  for (const theme of ['light', 'dark'] as const) {
    it(`shows a remote selection clearly on a ${theme} background, the text over it readable`, async () => {
      await open({ view: { cursorBlink: false, labelFadeDelay: 60_000 } })
      const shown = await inPage(
        page,
        async (vp, theme) => {
          vp.a.view!.setTheme(theme)
          vp.b!.view!.setTheme(theme)
          if (theme === 'dark') document.body.style.background = '#010409'
          vp.a.editor.setCursorBufferPosition([0, 0])
          vp.b!.editor.setSelectedBufferRange([
            [1, 7],
            [2, 20],
          ])
          vp.flush()
          await vp.frames()
          const root = vp.a.element!
          const highlight = root.querySelector('.tandem-remote-selection')!
          return {
            highlight: getComputedStyle(highlight).backgroundColor,
            background: getComputedStyle(root).backgroundColor,
            text: getComputedStyle(root.querySelector('.tandem-line')!).color,
          }
        },
        theme,
      )
      const highlight = parseColor(shown.highlight)
      const background = parseColor(shown.background)
      const text = parseColor(shown.text)
      expect(highlight[3]).toBeGreaterThanOrEqual(0.25)
      const under = over(highlight, background)
      expect(contrast(under, background)).toBeGreaterThanOrEqual(1.15)
      expect(contrast(text, under)).toBeGreaterThanOrEqual(4.5)
      await page.screenshot({ path: `${ARTIFACTS}presence-selection-${theme}.png`, clip: SHOT })
    })
  }
})
