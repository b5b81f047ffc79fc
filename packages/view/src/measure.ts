/// <reference lib="dom" />
/**
 * Character width and line height, read from a hidden probe in the editor's own font. The
 * view lays out every column at `column * characterWidth`, as a monospace editor does.
 */

/** The sizes the view lays text out with, in CSS pixels. */
export interface TextMetrics {
  /** Width of one character of the monospace font. */
  readonly characterWidth: number
  /** Height of one row. */
  readonly lineHeight: number
}

const PROBE_LENGTH = 64

/**
 * Measures the font of `container` with a probe of `PROBE_LENGTH` characters (averaging
 * rounding). Falls back to 8 x 16 when the container is not laid out (detached or hidden), so
 * a view in a hidden tab still works and measures again when it shows.
 *
 * @example const { characterWidth, lineHeight } = measureText(linesElement)
 */
export const measureText = (container: HTMLElement): TextMetrics => {
  const probe = container.ownerDocument.createElement('div')
  probe.className = 'tandem-measure'
  probe.textContent = 'x'.repeat(PROBE_LENGTH)
  container.appendChild(probe)
  const rect = probe.getBoundingClientRect()
  probe.remove()
  const characterWidth = rect.width / PROBE_LENGTH
  const lineHeight = Math.round(rect.height)
  if (!(characterWidth > 0) || !(lineHeight > 0)) return { characterWidth: 8, lineHeight: 16 }
  return { characterWidth, lineHeight }
}

/** Whether two measurements differ enough to lay out again. */
export const metricsDiffer = (a: TextMetrics, b: TextMetrics): boolean =>
  Math.abs(a.characterWidth - b.characterWidth) > 0.001 || a.lineHeight !== b.lineHeight
