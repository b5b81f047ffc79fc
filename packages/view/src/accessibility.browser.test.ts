/**
 * The view through Chromium's accessibility tree: a labelled multi-line textbox holding the
 * current line with the selection in it, the focus on it with a visible ring, peers joining
 * and leaving said in a polite live region, and a keyboard way out of the editor.
 */
import { fileURLToPath } from 'node:url'
import type { CDPSession, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { inPage } from './testing/in-page.js'
import { useViewPage } from './testing/serve-view-page.js'
import type { OpenOptions } from './testing/view-page.js'

const ARTIFACTS = fileURLToPath(new URL('../../../artifacts/view/', import.meta.url))

const TEXT = ['first line', 'the second line', 'third'].join('\n')

interface AXValue {
  readonly value?: unknown
}
interface AXNode {
  readonly role?: AXValue
  readonly name?: AXValue
  readonly value?: AXValue
  readonly ignored?: boolean
  readonly properties?: { readonly name: string; readonly value: AXValue }[]
}

const property = (node: AXNode, name: string): unknown =>
  node.properties?.find((p) => p.name === name)?.value.value

const axTree = async (cdp: CDPSession): Promise<AXNode[]> =>
  ((await cdp.send('Accessibility.getFullAXTree')) as { nodes: AXNode[] }).nodes

const textbox = async (cdp: CDPSession, name: string) => {
  const nodes = (await axTree(cdp)).filter(
    (node) => node.role?.value === 'textbox' && node.name?.value === name,
  )
  expect(nodes).toHaveLength(1)
  const node = nodes[0]!
  return {
    value: node.value?.value,
    multiline: property(node, 'multiline'),
    focused: property(node, 'focused') ?? false,
  }
}

const luminance = (css: string): number => {
  const [r, g, b] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
    const c = Number(v) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

describe('the view for screen readers and the keyboard', () => {
  const view = useViewPage(ARTIFACTS)
  let page: Page
  const open = async (options: Partial<OpenOptions> = {}) => {
    page = await view.openPage()
    await inPage(page, (vp, o) => vp.open(o), {
      text: TEXT,
      width: 480,
      height: 160,
      view: { cursorBlink: false, label: 'Notes' },
      ...options,
    } as OpenOptions)
  }

  it('is a labelled multi-line textbox holding the current line, with the selection in it', async () => {
    await open()
    const cdp = await page.context().newCDPSession(page)
    expect(await textbox(cdp, 'Notes')).toMatchObject({ multiline: true, focused: false })

    await inPage(page, (vp) => {
      vp.a.view!.focus()
      vp.a.editor.setSelectedBufferRange([
        [1, 4],
        [1, 10],
      ])
      vp.a.view!.updateSync()
    })
    expect(await textbox(cdp, 'Notes')).toEqual({
      value: 'the second line',
      multiline: true,
      focused: true,
    })
    const selection = () =>
      inPage(page, () => {
        const textarea = document.querySelector<HTMLTextAreaElement>('.tandem-input')!
        return [textarea.selectionStart, textarea.selectionEnd, textarea.value]
      })
    expect(await selection()).toEqual([4, 10, 'the second line'])

    // Typing goes through the textarea and the editor alike; the textarea follows.
    await page.keyboard.type('2nd')
    await page.keyboard.press('ArrowDown')
    expect(await inPage(page, (vp) => vp.a.editor.getText())).toBe(
      'first line\nthe 2nd line\nthird',
    )
    expect(await selection()).toEqual([5, 5, 'third'])
    expect((await textbox(cdp, 'Notes')).value).toBe('third')

    // A selection over several lines puts them all in, selected.
    await page.keyboard.press('Control+a')
    expect(await selection()).toEqual([0, 29, 'first line\nthe 2nd line\nthird'])
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('End')
    await page.keyboard.type('!')
    expect(await inPage(page, (vp) => vp.a.editor.getText())).toBe(
      'first line!\nthe 2nd line\nthird',
    )
    await cdp.detach()
  })

  it('draws a focus ring that stands out from the background while the input has the focus', async () => {
    await open()
    const ring = () =>
      inPage(page, (vp) => {
        const root = vp.a.element!
        const after = getComputedStyle(root, '::after')
        return {
          width: after.borderTopWidth,
          color: after.borderTopColor,
          background: getComputedStyle(root).backgroundColor,
          content: after.content,
        }
      })
    expect((await ring()).content).toBe('none')
    await inPage(page, (vp) => vp.a.view!.focus())
    const shown = await ring()
    expect(shown.width).toBe('2px')
    const [a, b] = [luminance(shown.color), luminance(shown.background)].sort((x, y) => y - x)
    expect((a! + 0.05) / (b! + 0.05)).toBeGreaterThanOrEqual(3)
    await page.screenshot({
      path: `${ARTIFACTS}focus-ring.png`,
      clip: { x: 0, y: 0, width: 500, height: 180 },
    })
  })

  it('says politely when a peer joins and when it leaves', async () => {
    await open({ peer: 'hidden' })
    const cdp = await page.context().newCDPSession(page)
    const region = async () => {
      const nodes = (await axTree(cdp)).filter((node) => property(node, 'live') === 'polite')
      expect(nodes).toHaveLength(1)
      return inPage(page, (vp) => vp.a.element!.querySelector('.tandem-live-region')!.textContent)
    }
    await inPage(page, async (vp) => {
      vp.flush()
      await vp.frames()
    })
    expect(await region()).toBe('Bob joined')
    await inPage(page, async (vp) => {
      vp.b!.binding.awareness.setLocalState(null)
      await vp.frames()
    })
    expect(await region()).toBe('Bob joinedBob left')
    const lines = await inPage(page, (vp) =>
      [...vp.a.element!.querySelectorAll('.tandem-live-region > *')].map((l) => l.textContent),
    )
    expect(lines).toEqual(['Bob joined', 'Bob left'])
    await cdp.detach()
  })

  it('leaves the editor from the keyboard with Escape then Tab; Tab alone indents', async () => {
    await open()
    await page.evaluate(() => {
      const button = document.createElement('button')
      button.id = 'after'
      button.textContent = 'after'
      document.body.appendChild(button)
    })
    await inPage(page, (vp) => vp.a.view!.focus())
    await page.keyboard.press('Tab')
    expect(await inPage(page, (vp) => vp.a.editor.lineTextForBufferRow(0))).toBe('  first line')
    await page.keyboard.press('Escape')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('after')
    await page.keyboard.press('Shift+Tab')
    expect(await inPage(page, (vp) => vp.a.view!.hasFocus())).toBe(true)
  })

  it('folds and unfolds from the keyboard', async () => {
    await open()
    await inPage(page, (vp) => {
      vp.a.view!.focus()
      vp.a.editor.setSelectedBufferRange([
        [0, 3],
        [1, 5],
      ])
    })
    await page.keyboard.press('Control+Alt+f')
    expect(await inPage(page, (vp) => vp.a.editor.getScreenLineCount())).toBe(2)
    await page.keyboard.press('Control+Alt+}')
    expect(await inPage(page, (vp) => vp.a.editor.getScreenLineCount())).toBe(3)
  })

  it('rejects bad options with errors that name them', async () => {
    await open()
    const errors = await inPage(page, (vp) => {
      const View = vp.a.view!.constructor as new (
        editor: unknown,
        element: HTMLElement,
        options: Record<string, unknown>,
      ) => unknown
      const attempt = (options: Record<string, unknown>) => {
        try {
          new View(vp.a.editor, document.createElement('div'), options)
          return 'no error'
        } catch (error) {
          return `${(error as Error).name}: ${(error as Error).message}`
        }
      }
      return [
        attempt({ label: '' }),
        attempt({ labelFadeDelay: -1 }),
        attempt({ idleDelay: '30s' }),
      ]
    })
    expect(errors[0]).toMatch(/^TypeError: label/)
    expect(errors[1]).toMatch(/^RangeError: labelFadeDelay/)
    expect(errors[2]).toMatch(/^TypeError: idleDelay/)
  })
})
