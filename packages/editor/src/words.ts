import type { TextBuffer } from '@tandem/buffer'
import { Point, Range } from '@tandem/text'

/** Atom's default `editor.nonWordCharacters`. */
export const DEFAULT_NON_WORD_CHARACTERS = '/\\()"\':,.;<>~!@#$%^&*|+=[]{}`?-…'

/** Escapes the characters that mean something in a RegExp. */
export const escapeRegExp = (text: string): string => text.replace(/[-/\\^$*+?.()|[\]{}]/g, '\\$&')

/**
 * Atom's word pattern: a blank line, a run of word characters, or (unless
 * `includeNonWordCharacters` is false) a run of non-word characters.
 *
 * @example wordRegExp('.,', { includeNonWordCharacters: true }).source // => '^[\t ]*$|[^\s\.,]+|[\.,]+'
 */
export const wordRegExp = (
  nonWordCharacters: string,
  options: { includeNonWordCharacters?: boolean } = {},
): RegExp => {
  const escaped = escapeRegExp(nonWordCharacters)
  let source = `^[\t ]*$|[^\\s${escaped}]+`
  if (options.includeNonWordCharacters !== false) source += `|[${escaped}]+`
  return new RegExp(source, 'g')
}

const LOWERCASE = 'a-z\\u00DF-\\u00F6\\u00F8-\\u00FF'
const UPPERCASE = 'A-Z\\u00C0-\\u00D6\\u00D8-\\u00DE'

/**
 * Atom's subword pattern (camelCase humps, snake_case parts, digits, runs of non-word
 * characters with the whitespace before them, or after them when `backwards`).
 *
 * @example subwordRegExp('.', { backwards: true })
 */
export const subwordRegExp = (
  nonWordCharacters: string,
  options: { backwards?: boolean } = {},
): RegExp => {
  const camelSegment = `[${UPPERCASE}]?[${LOWERCASE}]+`
  const escaped = escapeRegExp(nonWordCharacters)
  const segments = ['^[\t ]+', '[\t ]+$', `[${UPPERCASE}]+(?![${LOWERCASE}])`, '\\d+']
  if (options.backwards) {
    segments.push(`${camelSegment}_*`, `[${escaped}]+\\s*`)
  } else {
    segments.push(`_*${camelSegment}`, `\\s*[${escaped}]+`)
  }
  segments.push('_+')
  return new RegExp(segments.join('|'), 'g')
}

/** Whether `position` starts a match of `regex` within the rest of its line. */
export const isInsideWord = (buffer: TextBuffer, position: Point, regex: RegExp): boolean => {
  const rest = buffer.getTextInRange(
    new Range(position, new Point(position.row, Number.POSITIVE_INFINITY)),
  )
  return rest.search(regex) === 0
}

/**
 * The previous word boundary before `position`: the start of the line when the last word
 * starts on an earlier row, else the end or start of the last word before it.
 */
export const previousWordBoundary = (buffer: TextBuffer, position: Point, regex: RegExp): Point => {
  const previousNonBlankRow = buffer.previousNonBlankRow(position.row)
  const scanRange = new Range(new Point(previousNonBlankRow ?? 0, 0), position)
  const ranges = buffer.findAllInRangeSync(regex, scanRange)
  const last = ranges[ranges.length - 1]
  if (last === undefined) return position
  if (last.start.row < position.row && position.column > 0) return new Point(position.row, 0)
  return position.isGreaterThan(last.end) ? last.end : last.start
}

/**
 * The next word boundary after `position`: the start of the row of the next word when it is
 * on a later row, else the start or end of the next word.
 */
export const nextWordBoundary = (buffer: TextBuffer, position: Point, regex: RegExp): Point => {
  const range = buffer.findInRangeSync(regex, new Range(position, buffer.getEndPosition()))
  if (range === null) return position
  if (range.start.row > position.row) return new Point(range.start.row, 0)
  return position.isLessThan(range.start) ? range.start : range.end
}

/**
 * Where the word at or before `position` starts. With `allowPrevious` (Atom's default) the
 * search reaches back one row and may return the previous word's start.
 */
export const beginningOfCurrentWord = (
  buffer: TextBuffer,
  position: Point,
  regex: RegExp,
  allowPrevious: boolean,
): Point => {
  const scanStart = new Point(allowPrevious ? position.row - 1 : position.row, 0)
  const ranges = buffer.findAllInRangeSync(regex, new Range(scanStart, position))
  let result: Point | null = null
  for (const range of ranges) {
    if (position.isLessThanOrEqual(range.start)) break
    if (allowPrevious || position.isLessThanOrEqual(range.end)) result = range.start
  }
  return result ?? (allowPrevious ? Point.ZERO : position)
}

/**
 * Where the word at or after `position` ends. With `allowNext` (Atom's default) the search
 * reaches two rows on and may return the next word's end.
 */
export const endOfCurrentWord = (
  buffer: TextBuffer,
  position: Point,
  regex: RegExp,
  allowNext: boolean,
): Point => {
  const scanEnd = allowNext
    ? new Point(position.row + 2, 0)
    : new Point(position.row, Number.POSITIVE_INFINITY)
  for (const range of buffer.findAllInRangeSync(regex, new Range(position, scanEnd))) {
    if (position.isLessThan(range.start) && !allowNext) break
    if (position.isLessThan(range.end)) return range.end
  }
  return allowNext ? buffer.getEndPosition() : position
}

/** The first match of `regex` at or after `from`, else `fallback`. */
export const beginningOfNextWord = (
  buffer: TextBuffer,
  from: Point,
  regex: RegExp,
  fallback: Point,
): Point =>
  buffer.findInRangeSync(regex, new Range(from, buffer.getEndPosition()))?.start ?? fallback

/** The word of `position`'s row that touches `position`, or an empty range there. */
export const currentWordRange = (buffer: TextBuffer, position: Point, regex: RegExp): Range => {
  const row = new Range(
    new Point(position.row, 0),
    new Point(position.row, Number.POSITIVE_INFINITY),
  )
  const found = buffer
    .findAllInRangeSync(regex, row)
    .find((range) => range.end.column >= position.column && range.start.column <= position.column)
  return found ?? new Range(position, position)
}

/** Patterns shared by `sharedPattern`, at most this many (then the cache starts over). */
const MAX_SHARED_PATTERNS = 64
const sharedPatterns = new Map<string, RegExp>()

/**
 * The pattern `make` builds, made once per `key`: word searches run at every cursor on every
 * keystroke with the same few patterns. Only for searches that read a pattern's source and
 * flags, or reset `lastIndex` themselves; a RegExp handed to callers must be their own.
 */
export const sharedPattern = (key: string, make: () => RegExp): RegExp => {
  let pattern = sharedPatterns.get(key)
  if (pattern === undefined) {
    if (sharedPatterns.size >= MAX_SHARED_PATTERNS) sharedPatterns.clear()
    pattern = make()
    sharedPatterns.set(key, pattern)
  }
  return pattern
}
