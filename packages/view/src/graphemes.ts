/**
 * Grapheme cluster boundaries of a screen line: the places a caret or a click may land. A
 * cluster is what a reader sees as one character: a letter and its combining marks, an emoji
 * with its skin tone or its zero-width-joined parts, a flag's two regional indicators. The
 * model counts UTF-16 units as Atom does; the view never shows a caret inside a cluster.
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

/** A character from the combining marks on: text without one (nor a CR) is all boundaries. */
const COMPLEX_CHARACTER = /[\u0300-\uffff]/

/** Boundaries of recently asked lines: a keystroke asks about the same line several times. */
const cache = new Map<string, readonly number[]>()
const CACHE_SIZE = 64

/**
 * Every boundary of `text` in order, from 0 to `text.length` inclusive; for text where every
 * UTF-16 unit is its own cluster, null (every column is a boundary).
 *
 * @example graphemeBoundaries('a👍🏽b') // => [0, 1, 5, 6]
 */
export const graphemeBoundaries = (text: string): readonly number[] | null => {
  if (!COMPLEX_CHARACTER.test(text) && !text.includes('\r')) return null
  let boundaries = cache.get(text)
  if (boundaries !== undefined) return boundaries
  const found: number[] = []
  for (const { index } of segmenter.segment(text)) found.push(index)
  found.push(text.length)
  boundaries = found
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string)
  cache.set(text, boundaries)
  return boundaries
}

/** The index of the last boundary at or before `column` (binary search). */
const floorIndex = (boundaries: readonly number[], column: number): number => {
  let low = 0
  let high = boundaries.length - 1
  while (low < high) {
    const middle = (low + high + 1) >> 1
    if (boundaries[middle]! <= column) low = middle
    else high = middle - 1
  }
  return low
}

/**
 * The boundary at or before `column` (clipped to the text).
 *
 * @example graphemeStart('e\u0301x', 1) // => 0
 */
export const graphemeStart = (text: string, column: number): number => {
  const clipped = Math.max(0, Math.min(column, text.length))
  const boundaries = graphemeBoundaries(text)
  if (boundaries === null) return clipped
  return boundaries[floorIndex(boundaries, clipped)]!
}

/**
 * The boundary at or after `column` (clipped to the text).
 *
 * @example graphemeEnd('e\u0301x', 1) // => 2
 */
export const graphemeEnd = (text: string, column: number): number => {
  const clipped = Math.max(0, Math.min(column, text.length))
  const boundaries = graphemeBoundaries(text)
  if (boundaries === null) return clipped
  const index = floorIndex(boundaries, clipped)
  return boundaries[index] === clipped ? clipped : boundaries[index + 1]!
}

/**
 * Whether a caret may stand before `column` of `text`.
 *
 * @example isGraphemeBoundary('🇫🇷', 2) // => false
 */
export const isGraphemeBoundary = (text: string, column: number): boolean =>
  graphemeStart(text, column) === column
