/**
 * Text on a peer's color: name labels are white on the peer's color unless that color is so
 * light that dark text reads better (a yellow, a pale green), which users pick too.
 */

/** The dark text used on light peer colors. */
export const DARK_LABEL_TEXT = '#1f2328'

/** Red, green and blue (0-255) of a hex or `rgb()` color; null for any other notation. */
const channelsOf = (color: string): [number, number, number] | null => {
  const hex = /^#([\da-f]{3,4}|[\da-f]{6}|[\da-f]{8})$/i.exec(color.trim())
  if (hex !== null) {
    const digits = hex[1]!
    const wide = digits.length > 4
    const channel = (i: number) =>
      wide
        ? Number.parseInt(digits.slice(2 * i, 2 * i + 2), 16)
        : Number.parseInt(digits[i]!.repeat(2), 16)
    return [channel(0), channel(1), channel(2)]
  }
  const rgb = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/i.exec(color.trim())
  return rgb === null ? null : [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])]
}

/** WCAG relative luminance of sRGB channels (0-255). */
const luminance = ([r, g, b]: [number, number, number]): number => {
  const linear = (v: number) => {
    const c = Math.min(255, Math.max(0, v)) / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

/**
 * The text color for a label on `color`: `DARK_LABEL_TEXT` when it contrasts more than white
 * does, else null (the style sheet's `--tandem-remote-label-text`, white by default). Colors
 * in other notations than hex and `rgb()` keep the style sheet's.
 *
 * @example labelTextOn('#facc15') // '#1f2328'; labelTextOn('#cf222e') // null
 */
export const labelTextOn = (color: string): string | null => {
  const channels = channelsOf(color)
  if (channels === null) return null
  const background = luminance(channels)
  const onWhite = 1.05 / (background + 0.05)
  const onDark = (background + 0.05) / (luminance([31, 35, 40]) + 0.05)
  return onDark > onWhite ? DARK_LABEL_TEXT : null
}

/** Colors far enough apart to tell authors by, each readable as a light background on white. */
const AUTHOR_COLORS = [
  '#2563eb',
  '#dc2626',
  '#16a34a',
  '#9333ea',
  '#ea580c',
  '#0891b2',
  '#c026d3',
  '#ca8a04',
  '#4f46e5',
  '#059669',
] as const

/**
 * A color for user `id`, the same in every view and every session: a hash of the id (FNV-1a
 * over its UTF-16 units) picks one of ten colors.
 *
 * @example colorForUser('ada') === colorForUser('ada') // => true
 */
export const colorForUser = (id: string): string => {
  let hash = 0x811c9dc5
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return AUTHOR_COLORS[hash % AUTHOR_COLORS.length]!
}
