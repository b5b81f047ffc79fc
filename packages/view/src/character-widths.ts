/// <reference lib="dom" />
/**
 * How wide each character of a proportional font is, for soft wrap. The display layer wraps
 * by columns; with a monospace font, Atom's rule (East Asian wide characters two columns,
 * everything else one) already fits rows to the element. A proportional font's characters
 * differ: each one's width is measured once with a canvas in the editor's font and given to
 * the display layer as a ratio of the average character width the view wraps by.
 */

/** Characters whose widths tell a monospace font from a proportional one. */
const NARROW = 'i'
const WIDE = 'W'

/** Widths within this many pixels count as equal (canvas widths are fractional). */
const SAME_WIDTH = 0.05

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff

/** Code units that add no width of their own: combining marks, joiners, variation selectors. */
const isZeroWidth = (code: number) =>
  (code >= 0x0300 && code <= 0x036f) ||
  (code >= 0x1ab0 && code <= 0x1aff) ||
  (code >= 0x1dc0 && code <= 0x1dff) ||
  (code >= 0x20d0 && code <= 0x20ff) ||
  (code >= 0xfe20 && code <= 0xfe2f) ||
  (code >= 0xfe00 && code <= 0xfe0f) ||
  code === 0x200b ||
  code === 0x200c ||
  code === 0x200d

/** The CSS font shorthand `element` is drawn with. */
const fontOf = (element: HTMLElement): string => {
  const style = element.ownerDocument.defaultView?.getComputedStyle(element)
  if (style === undefined) return ''
  return `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
}

/** What the view knows of its font's character widths. */
export interface FontWidths {
  /** Whether every ASCII character is known to take the average width (a monospace font). */
  readonly monospace: boolean
  /**
   * For a proportional font, the width of each UTF-16 unit in units of the average width (an
   * astral character's width is given to its first unit, marks and joiners get none); null
   * for a monospace font, or when the page cannot measure.
   */
  readonly ratio: ((character: string) => number) | null
}

/**
 * Measures the font `element` is drawn in, against its `averageWidth`.
 *
 * @example fontWidths(linesElement, 7.2).ratio?.('W') // => 1.6 in a proportional font
 */
export const fontWidths = (element: HTMLElement, averageWidth: number): FontWidths => {
  const canvas = element.ownerDocument.createElement('canvas')
  const context = canvas.getContext?.('2d')
  if (context == null || !(averageWidth > 0)) return { monospace: false, ratio: null }
  context.font = fontOf(element)
  const widthOf = (text: string) => context.measureText(text).width
  if (Math.abs(widthOf(NARROW) - widthOf(WIDE)) <= SAME_WIDTH) {
    return { monospace: true, ratio: null }
  }
  const emoji = widthOf('\u{1F600}') / averageWidth
  const ratios = new Map<string, number>()
  const ratio = (character: string): number => {
    let found = ratios.get(character)
    if (found !== undefined) return found
    const code = character.charCodeAt(0)
    if (isHighSurrogate(code)) found = emoji
    else if (isLowSurrogate(code) || isZeroWidth(code)) found = 0
    else found = widthOf(character) / averageWidth
    ratios.set(character, found)
    return found
  }
  return { monospace: false, ratio }
}
