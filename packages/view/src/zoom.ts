/// <reference lib="dom" />
/**
 * The editor's font size, as Atom's `window:increase-font-size`, `decrease-font-size` and
 * `reset-font-size` change it: one pixel a step. The size is the element's
 * `--tandem-font-size`, set inline over whatever the page's style sheet says; reset removes
 * the inline value, so the page's size comes back.
 */

/** The smallest font size the view zooms out to, in CSS pixels. */
export const MIN_FONT_SIZE = 6

/** The largest font size the view zooms in to, in CSS pixels. */
export const MAX_FONT_SIZE = 96

/**
 * The font size one zoom step from `size`: a pixel more or less, within the limits.
 *
 * @example zoomedFontSize(14, 'in') // => 15
 */
export const zoomedFontSize = (size: number, direction: 'in' | 'out'): number => {
  const next = direction === 'in' ? Math.floor(size) + 1 : Math.ceil(size) - 1
  return Math.min(MAX_FONT_SIZE, Math.max(MIN_FONT_SIZE, next))
}

/**
 * Throws a RangeError naming `size` unless it is a font size the view can show.
 *
 * @example assertFontSize(16)
 */
export const assertFontSize = (size: unknown): number => {
  if (typeof size !== 'number' || !(size >= MIN_FONT_SIZE && size <= MAX_FONT_SIZE)) {
    throw new RangeError(
      `font size must be a number of pixels from ${MIN_FONT_SIZE} to ${MAX_FONT_SIZE}, got ${String(size)}`,
    )
  }
  return size
}

/**
 * The font size of editor element `element`.
 *
 * @example const zoom = new FontZoom(view.element); zoom.zoom('in')
 */
export class FontZoom {
  constructor(private readonly element: HTMLElement) {}

  /** The font size the editor's text is drawn in, in CSS pixels. */
  getFontSize(): number {
    const view = this.element.ownerDocument.defaultView
    const size = Number.parseFloat(view?.getComputedStyle(this.element).fontSize ?? '')
    return Number.isFinite(size) ? size : 14
  }

  /** Draws the text at `size` CSS pixels (RangeError outside 6..96). */
  setFontSize(size: number): void {
    assertFontSize(size)
    this.element.style.setProperty('--tandem-font-size', `${size}px`)
  }

  /** One step bigger or smaller. */
  zoom(direction: 'in' | 'out'): void {
    this.setFontSize(zoomedFontSize(this.getFontSize(), direction))
  }

  /** Back to the page's own font size. */
  reset(): void {
    this.element.style.removeProperty('--tandem-font-size')
  }
}
