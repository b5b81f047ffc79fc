/**
 * Seeded material for marker suites, the same for every implementation: a document of
 * lines of words, markers on it, edits in rows and columns, and marker queries. Marker ends
 * and edit positions fall on word starts, so edits often land exactly on a marker's end,
 * where exclusive and inclusive markers differ.
 */
import * as prng from 'lib0/prng'
import type { AtomFindParams, AtomMarkOptions, PointTuple, RangeTuple } from './atom-text-buffer.js'

/** Longest non-empty marker, in characters. */
export const MAX_MARKER_LENGTH = 200

/** A marker to make: its ends as offsets and as a range, and its options. */
export interface MarkerSpec {
  readonly start: number
  readonly end: number
  readonly range: RangeTuple
  readonly options: AtomMarkOptions
}

/** One edit: replace `range` (in the text before it) with `text`. */
export interface Edit {
  readonly range: RangeTuple
  readonly text: string
}

/** Seeded edits and the text they leave. */
export interface EditScript {
  readonly edits: readonly Edit[]
  readonly endText: string
}

const STRATEGIES = ['overlap', 'never', 'surround', 'inside', 'touch'] as const

/**
 * A seeded text of exactly `length` characters: lines of 0 to 80 characters of words.
 * Example: `markerDocument(prng.create(1), 100_000).length === 100_000`.
 */
export function markerDocument(gen: prng.PRNG, length: number): string {
  const lines: string[] = []
  let total = 0
  while (total < length) {
    const line = wordsOf(gen, prng.int32(gen, 0, 80))
    lines.push(line)
    total += line.length + 1
  }
  return lines.join('\n').slice(0, length)
}

/**
 * `count` seeded markers on `text`: every other one empty, the rest 1 to
 * {@link MAX_MARKER_LENGTH} characters long, both ends on word starts. Non-empty markers mix
 * the default, exclusive and inclusive, and every invalidation strategy; empty ones mix the
 * default (inclusive, as made by `markRange`) and exclusive.
 */
export function markerSpecs(gen: prng.PRNG, text: string, count: number): MarkerSpec[] {
  const pointAt = pointLookup(text)
  const specs: MarkerSpec[] = []
  for (let i = 0; i < count; i++) {
    const start = wordStartAtOrBefore(text, prng.int32(gen, 0, text.length))
    let end = start
    let options: AtomMarkOptions
    if (i % 2 === 0) {
      options = prng.int32(gen, 0, 3) === 0 ? { exclusive: true } : {}
    } else {
      const wanted = Math.min(start + prng.int32(gen, 1, MAX_MARKER_LENGTH), text.length)
      end = Math.max(start, wordStartAtOrBefore(text, wanted))
      const exclusive = [undefined, true, false][prng.int32(gen, 0, 2)]
      const invalidate = STRATEGIES[prng.int32(gen, 0, STRATEGIES.length - 1)]!
      options = exclusive === undefined ? { invalidate } : { exclusive, invalidate }
    }
    specs.push({ start, end, range: [pointAt(start), pointAt(end)], options })
  }
  return specs
}

/**
 * `count` seeded edits applied in turn to `text`, each at a word start: typing (40%), pasting
 * a block of 100 to 600 characters (10%), deleting 1 to 20 characters (25%), deleting a block
 * of 100 to 600 that swallows markers (10%), and replacing up to 30 characters (15%).
 */
export function editScript(gen: prng.PRNG, text: string, count: number): EditScript {
  const edits: Edit[] = []
  let current = text
  for (let i = 0; i < count; i++) {
    const at = wordStartAtOrBefore(current, prng.int32(gen, 0, current.length))
    const roll = prng.int32(gen, 0, 99)
    let removed = 0
    let inserted = ''
    if (roll < 40) inserted = insertedText(gen, prng.int32(gen, 1, 12))
    else if (roll < 50) inserted = insertedText(gen, prng.int32(gen, 100, 600))
    else if (roll < 75) removed = prng.int32(gen, 1, 20)
    else if (roll < 85) removed = prng.int32(gen, 100, 600)
    else {
      removed = prng.int32(gen, 1, 30)
      inserted = insertedText(gen, prng.int32(gen, 1, 12))
    }
    const end = Math.min(at + removed, current.length)
    edits.push({ range: [pointIn(current, at), pointIn(current, end)], text: inserted })
    current = current.slice(0, at) + inserted + current.slice(end)
  }
  return { edits, endText: current }
}

/**
 * `count` seeded queries on `text`, in turn `containsPoint` at a point, `intersectsRange` of
 * up to 100 characters and `startsInRange` of up to 500.
 */
export function markerQueries(gen: prng.PRNG, text: string, count: number): AtomFindParams[] {
  const pointAt = pointLookup(text)
  const queries: AtomFindParams[] = []
  for (let i = 0; i < count; i++) {
    const start = prng.int32(gen, 0, text.length)
    const span = (end: number): RangeTuple => [pointAt(start), pointAt(Math.min(end, text.length))]
    switch (i % 3) {
      case 0:
        queries.push({ containsPoint: pointAt(start) })
        break
      case 1:
        queries.push({ intersectsRange: span(start + prng.int32(gen, 0, 100)) })
        break
      default:
        queries.push({ startsInRange: span(start + prng.int32(gen, 0, 500)) })
    }
  }
  return queries
}

/** Converts offsets in `text` to `[row, column]` by binary search over its line starts. */
export function pointLookup(text: string): (offset: number) => PointTuple {
  const starts = [0]
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  return (offset) => {
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const mid = (low + high + 1) >>> 1
      if (starts[mid]! <= offset) low = mid
      else high = mid - 1
    }
    return [low, offset - starts[low]!]
  }
}

/** `[row, column]` of `offset` in `text`, by scanning; for a text that changes every call. */
function pointIn(text: string, offset: number): PointTuple {
  let row = 0
  let lineStart = 0
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    row++
    lineStart = i + 1
  }
  return [row, offset - lineStart]
}

/** The start of the word `offset` is in (or right after a space or line break). */
function wordStartAtOrBefore(text: string, offset: number): number {
  if (offset === 0) return 0
  return Math.max(text.lastIndexOf(' ', offset - 1), text.lastIndexOf('\n', offset - 1)) + 1
}

/** About `length` characters of words; one line break in ten pieces. */
function insertedText(gen: prng.PRNG, length: number): string {
  let text = ''
  while (text.length < length)
    text += prng.int32(gen, 0, 9) === 0 ? '\n' : `${prng.word(gen, 1, 8)} `
  return text.slice(0, length)
}

/** Up to `length` characters of space-separated words. */
function wordsOf(gen: prng.PRNG, length: number): string {
  let line = ''
  while (line.length < length) line += `${prng.word(gen, 1, 9)} `
  return line.slice(0, length)
}
