/// <reference lib="dom" />
/**
 * The line height and the average character width, read from a hidden probe in the editor's
 * own font. Rows are one line high; the average width only sizes soft wrap (positions in a
 * row are measured in the row itself, see row-geometry.ts).
 */

/** The sizes the view lays text out with, in CSS pixels. */
export interface TextMetrics {
  /** Average width of one character of the font (exact for a monospace font). */
  readonly characterWidth: number
  /** Height of one row. */
  readonly lineHeight: number
}

const PROBE_LENGTH = 64

/**
 * A hidden probe in the editor's own font, kept in `container`: it changes size whenever the
 * font, its size or the line height change, so observing it tells when to measure again.
 *
 * @example const probe = createMeasureProbe(linesElement); resizeObserver.observe(probe)
 */
export const createMeasureProbe = (container: HTMLElement): HTMLElement => {
  const probe = container.ownerDocument.createElement('div')
  probe.className = 'tandem-measure'
  probe.setAttribute('aria-hidden', 'true')
  probe.textContent = 'x'.repeat(PROBE_LENGTH)
  container.appendChild(probe)
  return probe
}

/**
 * Measures the font with the probe (averaging rounding over its `PROBE_LENGTH` characters).
 * Falls back to 8 x 16 when the probe is not laid out (detached or hidden), so a view in a
 * hidden tab still works and measures again when it shows.
 *
 * @example const { characterWidth, lineHeight } = measureText(probe)
 */
export const measureText = (probe: HTMLElement): TextMetrics => {
  const rect = probe.getBoundingClientRect()
  const characterWidth = rect.width / PROBE_LENGTH
  const lineHeight = Math.round(rect.height)
  if (!(characterWidth > 0) || !(lineHeight > 0)) return { characterWidth: 8, lineHeight: 16 }
  return { characterWidth, lineHeight }
}

/** Whether two measurements differ enough to lay out again. */
export const metricsDiffer = (a: TextMetrics, b: TextMetrics): boolean =>
  Math.abs(a.characterWidth - b.characterWidth) > 0.001 || a.lineHeight !== b.lineHeight
