import { describe, expect, it } from 'vitest'
import { assertTheme, themeStyles } from './theme.js'

/** The custom properties a rule of the theme CSS sets, by name without `--tandem-`. */
const propertiesOf = (css: string, selector: string): Record<string, string> => {
  const start = css.indexOf(`${selector} {`)
  if (start < 0) throw new Error(`no rule for ${selector}`)
  const body = css.slice(start, css.indexOf('}', start))
  return Object.fromEntries(
    [...body.matchAll(/--tandem-([\w-]+):\s*(#[0-9a-f]{6})\s*;/gi)].map((m) => [m[1]!, m[2]!]),
  )
}

/** WCAG 2 relative luminance of a `#rrggbb` colour. */
const luminance = (hex: string): number => {
  const n = Number.parseInt(hex.slice(1), 16)
  const [r, g, b] = [n >> 16, (n >> 8) & 255, n & 255].map((channel) => {
    const c = channel / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}

/** WCAG 2 contrast ratio of two colours (1 to 21). */
const contrast = (a: string, b: string): number => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (light! + 0.05) / (dark! + 0.05)
}

const css = themeStyles()
const THEMES = {
  light: propertiesOf(css, '.tandem-editor'),
  dark: propertiesOf(css, '.tandem-editor.tandem-theme-dark'),
}

describe('themes', () => {
  it('define the same colours, and the system-dark rule is the dark theme', () => {
    expect(Object.keys(THEMES.dark).sort()).toEqual(Object.keys(THEMES.light).sort())
    expect(propertiesOf(css, '.tandem-editor:not(.tandem-theme-light)')).toEqual(THEMES.dark)
    for (const kind of ['keyword', 'string', 'comment', 'number', 'function', 'variable']) {
      expect(THEMES.light).toHaveProperty(`syntax-${kind}`)
    }
    for (const kind of ['type', 'punctuation', 'tag', 'attribute', 'regexp']) {
      expect(THEMES.light).toHaveProperty(`syntax-${kind}`)
    }
  })

  for (const [name, theme] of Object.entries(THEMES)) {
    it(`${name}: every token colour and the text reach 4.5:1 against the background`, () => {
      const colours = Object.entries(theme).filter(
        ([property]) => property.startsWith('syntax-') || property === 'text',
      )
      expect(colours.length).toBeGreaterThan(10)
      for (const [property, colour] of colours) {
        const ratio = contrast(colour, theme.background!)
        expect(
          ratio,
          `${name} ${property} ${colour} on ${theme.background}`,
        ).toBeGreaterThanOrEqual(4.5)
      }
      expect(contrast(theme['gutter-text']!, theme['gutter-background']!)).toBeGreaterThanOrEqual(
        4.5,
      )
      expect(contrast(theme['fold-text']!, theme.fold!)).toBeGreaterThanOrEqual(4.5)
    })
  }

  it('refuses an unknown theme, naming it', () => {
    expect(() => assertTheme('sepia')).toThrow(/theme must be 'light', 'dark' or 'auto', got sepia/)
    expect(() => assertTheme('auto')).not.toThrow()
  })
})
