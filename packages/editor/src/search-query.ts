/**
 * What a find bar asks for, and the RegExp that answers it, with the options of Atom's
 * find-and-replace: a literal or a regular expression, case sensitivity, whole words.
 *
 * Atom has no smart case: a search is case-insensitive unless `caseSensitive` is set, whatever
 * letters the pattern holds. Patterns run with the buffer's search semantics (`^` and `$` per
 * line, `.` never a line ending; see `TextBuffer.scanInRange`).
 */

/**
 * A search as a find bar states it. Options left out are off, as in Atom's defaults.
 *
 * @example const query: SearchQuery = { text: 'colou?r', regex: true, wholeWord: true }
 */
export interface SearchQuery {
  /** The text to find, or the pattern when `regex` is set. Empty finds nothing. */
  text: string
  /** Read `text` as a JavaScript regular expression (default false: a literal). */
  regex?: boolean
  /** Letters must match in case (default false; there is no smart case, as in Atom). */
  caseSensitive?: boolean
  /** Only matches with no word character right before and after them (`\b` on each side). */
  wholeWord?: boolean
  /** Only inside the selections that are not empty when the search starts. */
  inSelection?: boolean
}

/** A query turned into what the scan needs. */
export interface CompiledQuery {
  /** The pattern, flags `g`, `m`, `i` unless case-sensitive, `u` for non-ASCII patterns. */
  readonly regex: RegExp
  /**
   * How many line breaks a match can cross: the literal's own, or `MULTI_LINE_ROWS` for a
   * pattern that may match a line break. The scan overlaps its chunks by this many rows.
   */
  readonly rowSpan: number
}

/**
 * The most rows a match of a pattern that can match line breaks may cover and still be found:
 * the scan reads this many rows past each chunk. A longer match is missed (Atom's own
 * re-search after edits has no bound, but scans the whole buffer at once).
 */
export const MULTI_LINE_ROWS = 32

/** Atom's escape: dashes stay, since `\-` is an error outside classes with the `u` flag. */
const escapePattern = (text: string): string => text.replace(/[/\\^$*+?.()|[\]{}]/g, '\\$&')

const LINE_BREAKS = /\r\n|\r|\n/g

/**
 * Escapes and constructs that may match `\n` or `\r`, or look at characters beyond a line
 * (a line break typed into the pattern, octal escapes and back references among them): a
 * pattern without any of them matches within one line. Conservative by design.
 */
const MAY_CROSS_LINES = /[\r\n]|\\[nrsSWDpPuxc0-9]|\[\^|\(\?<?[=!]/

/**
 * The RegExp for `query`, or the reason there is none (the message of the SyntaxError the
 * pattern raises). An empty `text` compiles to null: nothing to find.
 *
 * @example compileSearchQuery({ text: 'a.b' }) // => { regex: /a\.b/gmi, rowSpan: 0 }
 */
export const compileSearchQuery = (query: SearchQuery): CompiledQuery | string | null => {
  if (query.text === '') return null
  let source = query.regex === true ? query.text : escapePattern(query.text)
  if (query.wholeWord === true) source = `\\b(?:${source})\\b`
  // As Atom: a pattern with characters beyond ASCII runs in unicode mode.
  const unicode = /[^\0-\x80]/.test(query.text)
  const flags = `gm${query.caseSensitive === true ? '' : 'i'}${unicode ? 'u' : ''}`
  let regex: RegExp
  try {
    regex = new RegExp(source, flags)
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
  const rowSpan =
    query.regex === true
      ? MAY_CROSS_LINES.test(query.text)
        ? MULTI_LINE_ROWS
        : 0
      : (query.text.match(LINE_BREAKS)?.length ?? 0)
  return { regex, rowSpan }
}

/**
 * Whether `value` has the shape of a `SearchQuery`; throws a `TypeError` naming the bad field.
 * Called at the public boundary.
 */
export const assertSearchQuery = (value: unknown): SearchQuery => {
  if (value === null || typeof value !== 'object') {
    throw new TypeError(`query must be an object, got ${String(value)}`)
  }
  const query = value as Record<string, unknown>
  if (typeof query.text !== 'string') {
    throw new TypeError(`query.text must be a string, got ${typeof query.text}`)
  }
  for (const key of ['regex', 'caseSensitive', 'wholeWord', 'inSelection']) {
    if (query[key] !== undefined && typeof query[key] !== 'boolean') {
      throw new TypeError(`query.${key} must be a boolean, got ${String(query[key])}`)
    }
  }
  return value as SearchQuery
}

/** The escapes Atom turns into characters in a regex replacement (`\n`, `\r`, `\t`, `\\`). */
const unescapeReplacement = (text: string): string =>
  text.replace(/\\(.)/g, (whole, char: string) => {
    if (char === 'n') return '\n'
    if (char === 'r') return '\r'
    if (char === 't') return '\t'
    if (char === '\\') return '\\'
    return whole
  })

/**
 * The text that replaces `match`: the template as written for a literal query; for a regex
 * query, the template with `\n`, `\r`, `\t`, `\\` unescaped (as Atom does) and then `$$`, `$&`,
 * `$1`..`$99` and `$<name>` filled in as `String.prototype.replace` fills them.
 *
 * @example expandReplacement({ text: '(\\w+)@', regex: true }, /(\w+)@/.exec('me@')!, '$1 at')
 * // => 'me at'
 */
export const expandReplacement = (
  query: SearchQuery,
  match: RegExpExecArray,
  template: string,
): string => {
  if (query.regex !== true) return template
  const groupCount = match.length - 1
  return unescapeReplacement(template).replace(
    /\$(\$|&|<([^>]*)>|(\d\d?))/g,
    (whole, token: string, name: string | undefined, digits: string | undefined) => {
      if (token === '$') return '$'
      if (token === '&') return match[0]
      if (name !== undefined) {
        if (match.groups === undefined) return whole
        return match.groups[name] ?? ''
      }
      // Two digits name a group when that group exists, else the first digit does.
      let number = Number(digits)
      let rest = ''
      if (number > groupCount && digits!.length === 2) {
        number = Number(digits![0])
        rest = digits![1]!
      }
      if (number === 0 || number > groupCount) return whole
      return (match[number] ?? '') + rest
    },
  )
}
