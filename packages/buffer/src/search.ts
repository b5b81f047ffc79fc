/**
 * Regular-expression search over a range of the buffer with Atom's semantics. Atom's buffer
 * searches with PCRE in multiline mode over just the text of the range, so a few things differ
 * from running a JavaScript RegExp over a string, and cursor movement depends on them:
 *
 * - `^` and `$` always work per line; `\n`, `\r` and `\r\n` end lines (never between the two
 *   characters of `\r\n`). `^` holds at the range's start only when it is a line's start,
 *   and `$` at its end only when it is a line's end.
 * - `\s` is ASCII whitespace (tab, line feed, vertical tab, form feed, return, space) and `.`
 *   is anything but a line ending.
 * - After an empty match the search goes on one column later, or at the next row's start when
 *   the match was at a line's end; an empty match at the range's end counts only when the
 *   previous match did not end there.
 */

/** How a pattern's line anchors behave at the two ends of the searched text. */
interface AnchorContext {
  /** The text starts at a line's start. */
  readonly startsLine: boolean
  /** The text ends at a line's end. */
  readonly endsLine: boolean
}

const ASCII_SPACE = '\\t\\n\\v\\f\\r '

/** Not between the `\r` and `\n` of a CRLF. */
const INSIDE_CRLF = '(?!(?<=\\r)\\n)'

/**
 * Rewrites a JavaScript RegExp source so that it behaves like Atom's search engine over a
 * range's text (see the module comment). Character classes keep their contents, with `\s`
 * spelled out; escapes other than `\s`, `\S` pass through.
 *
 * @example translatePattern('^\\s*$', { startsLine: false, endsLine: true })
 */
export const translatePattern = (source: string, context: AnchorContext): string => {
  const lineStart = `${context.startsLine ? '(?<![^\\r\\n])' : '(?<=[\\r\\n])'}${INSIDE_CRLF}`
  const lineEnd = `${context.endsLine ? '(?![^\\r\\n])' : '(?=[\\r\\n])'}${INSIDE_CRLF}`
  let out = ''
  let inClass = false
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!
    if (c === '\\') {
      const next = source[i + 1] ?? ''
      i++
      if (next === 's') out += inClass ? ASCII_SPACE : `[${ASCII_SPACE}]`
      else if (next === 'S' && !inClass) out += `[^${ASCII_SPACE}]`
      else out += `\\${next}`
      continue
    }
    if (inClass) {
      if (c === ']') inClass = false
      out += c
      continue
    }
    if (c === '[') {
      inClass = true
      out += c
      continue
    }
    if (c === '^') out += lineStart
    else if (c === '$') out += lineEnd
    else if (c === '.') out += '[^\\r\\n]'
    else out += c
  }
  return out
}

/** One match of `searchText`: offsets into the searched text. */
export interface TextMatch {
  readonly start: number
  readonly end: number
  readonly match: RegExpExecArray
}

/**
 * Every match of `regex` in `text`, first to last, with Atom's search semantics (see the
 * module comment). `context` says whether `text` starts and ends at line boundaries. Calls
 * `visit` per match; returning true stops the search.
 *
 * @example searchText(/\w+/g, 'ab cd', { startsLine: true, endsLine: true }, (m) => false)
 */
export const searchText = (
  regex: RegExp,
  text: string,
  context: AnchorContext,
  visit: (match: TextMatch) => boolean | undefined,
): void => {
  const pattern = translatedRegExp(regex, context)
  let lastEnd = -1
  let from = 0
  while (from <= text.length) {
    pattern.lastIndex = from
    const match = pattern.exec(text)
    if (match === null) return
    const start = match.index
    const end = start + match[0].length
    if (start === end && start === text.length && lastEnd === text.length) return
    if (visit({ start, end, match })) return
    lastEnd = end
    if (end > start) {
      from = end
    } else if (text[start] === '\r' && text[start + 1] === '\n') {
      from = start + 2
    } else {
      from = start + 1
    }
  }
}

/** Translated patterns kept for reuse by source, at most this many (then the cache starts over). */
const MAX_CACHED_PATTERNS = 256
const translatedBySource = new Map<string, RegExp>()
/** The same patterns by the RegExp they translate (its source and flags never change). */
const translatedByRegExp = new WeakMap<RegExp, (RegExp | undefined)[]>()

/**
 * `regex` translated for `context`, compiled once per source, flags and context: cursors
 * search with the same few word patterns thousands of times per keystroke. The RegExp is
 * shared, so its `lastIndex` is set before every use.
 */
const translatedRegExp = (regex: RegExp, context: AnchorContext): RegExp => {
  const slot = (context.startsLine ? 2 : 0) + (context.endsLine ? 1 : 0)
  let variants = translatedByRegExp.get(regex)
  const known = variants?.[slot]
  if (known !== undefined) return known
  const flags = `g${regex.ignoreCase ? 'i' : ''}${regex.unicode ? 'u' : ''}`
  const key = `${flags}${slot}${regex.source}`
  let pattern = translatedBySource.get(key)
  if (pattern === undefined) {
    if (translatedBySource.size >= MAX_CACHED_PATTERNS) translatedBySource.clear()
    pattern = new RegExp(translatePattern(regex.source, context), flags)
    translatedBySource.set(key, pattern)
  }
  if (variants === undefined) {
    variants = []
    translatedByRegExp.set(regex, variants)
  }
  variants[slot] = pattern
  return pattern
}
