/**
 * Finding a bracket's partner, as Atom's bracket-matcher does without a syntax tree: count
 * brackets of the same pair outward from it, skipping those inside comments and strings,
 * for at most `MAX_ROWS_TO_SCAN` rows. Free functions over a small view of the text
 * (`BracketText`), so they can be tested and reused without an editor.
 */
import { PlainTextMode } from '@tandem/language'
import { Point, Range } from '@tandem/text'
import type { BracketPairs } from './bracket-pairs.js'
import type { TextEditor } from './text-editor.js'

/**
 * How many rows a search for a partner bracket reads beyond the bracket's row, each way, as
 * in Atom: a bracket whose partner is farther has none.
 */
export const MAX_ROWS_TO_SCAN = 10_000

/** The text a bracket search reads, and which characters are code. */
export interface BracketText {
  /** The text of a row without its line ending; undefined past the last row. */
  lineForRow(row: number): string | undefined
  /** How many rows there are. */
  getLineCount(): number
  /** Whether the character at `row`, `column` is in a comment or a string (not code). */
  isCommentOrString(row: number, column: number): boolean
}

/** A bracket next to a position and its partner, as one-character buffer ranges. */
export interface BracketMatch {
  /** The bracket next to the position. */
  readonly bracket: Range
  /** Its partner. */
  readonly match: Range
}

/**
 * Atom's rule for scopes (innermost first): a scope naming embedded code makes the position
 * code; one naming a comment or a string makes it not code. Takes TextMate scopes
 * (`string.quoted.double.js`) or syntax-node types (`template_substitution`, `comment`).
 *
 * @example isCommentOrStringScope(['source.js', 'string.quoted.single.js']) // => true
 */
export const isCommentOrStringScope = (scopes: readonly string[]): boolean => {
  for (let i = scopes.length - 1; i >= 0; i--) {
    const parts = scopes[i]!.split(/[._]/)
    // Atom's grammars named embedded code `source.x.embedded`; tm-grammars name it
    // `meta.embedded.*`, and tree-sitter `template_substitution` or `interpolation`.
    if (
      parts.includes('embedded') ||
      parts.includes('substitution') ||
      parts.includes('interpolation')
    ) {
      return false
    }
    if (parts.includes('comment') || parts.includes('string') || parts.includes('regex')) {
      return true
    }
  }
  return false
}

/**
 * The text of `editor` for bracket searches. Whether a character is in a comment or string
 * comes from the language's TextMate tokens (each row tokenized once per view), else from
 * its syntax tree; plain text has neither, so every character is code.
 */
export const editorBracketText = (editor: TextEditor): BracketText => {
  const mode = editor.getLanguageMode()
  const buffer = editor.getBuffer()
  if (mode instanceof PlainTextMode) {
    return {
      lineForRow: (row) => buffer.lineForRow(row),
      getLineCount: () => buffer.getLineCount(),
      isCommentOrString: () => false,
    }
  }
  let lastRow = -1
  let lastTokens: ReturnType<NonNullable<typeof mode.tokensForBufferRow>> = null
  return {
    lineForRow: (row) => buffer.lineForRow(row),
    getLineCount: () => buffer.getLineCount(),
    isCommentOrString(row, column) {
      if (mode.tokensForBufferRow !== undefined) {
        if (row !== lastRow) {
          lastRow = row
          lastTokens = mode.tokensForBufferRow(row)
        }
        if (lastTokens !== null) {
          const token = lastTokens.find((t) => t.startIndex <= column && column < t.endIndex)
          return token !== undefined && isCommentOrStringScope(token.scopes)
        }
      }
      const types = mode.syntaxTreeScopeDescriptorForPosition(new Point(row, column))
      return isCommentOrStringScope(types.getScopesArray())
    },
  }
}

/**
 * Where the closer matching the opener at `position` is, counting nested pairs of the same
 * kind and skipping comments and strings; undefined when there is none within
 * `MAX_ROWS_TO_SCAN` rows, when the opener is itself in a comment or string, or when the pair
 * opens and closes with the same character (quotes cannot be told apart).
 *
 * @example findMatchingCloser(text, new Point(0, 0), '(', ')') // '(a(b))' => Point(0, 5)
 */
export const findMatchingCloser = (
  text: BracketText,
  position: Point,
  opener: string,
  closer: string,
): Point | undefined => {
  if (opener === closer || text.isCommentOrString(position.row, position.column)) return undefined
  const lastRow = Math.min(text.getLineCount() - 1, position.row + MAX_ROWS_TO_SCAN)
  let depth = 0
  for (let row = position.row; row <= lastRow; row++) {
    const line = text.lineForRow(row) ?? ''
    let column = row === position.row ? position.column + 1 : 0
    // indexOf skips the text between brackets natively: most rows hold none of the pair.
    let nextOpener = line.indexOf(opener, column)
    let nextCloser = line.indexOf(closer, column)
    while (nextOpener >= 0 || nextCloser >= 0) {
      const opens = nextOpener >= 0 && (nextCloser < 0 || nextOpener < nextCloser)
      column = opens ? nextOpener : nextCloser
      if (opens) nextOpener = line.indexOf(opener, column + 1)
      else nextCloser = line.indexOf(closer, column + 1)
      if (text.isCommentOrString(row, column)) continue
      if (opens) depth++
      else if (depth-- === 0) return new Point(row, column)
    }
  }
  return undefined
}

/**
 * Where the opener matching the closer at `position` is: `findMatchingCloser` backwards.
 *
 * @example findMatchingOpener(text, new Point(0, 5), '(', ')') // '(a(b))' => Point(0, 0)
 */
export const findMatchingOpener = (
  text: BracketText,
  position: Point,
  opener: string,
  closer: string,
): Point | undefined => {
  if (opener === closer || text.isCommentOrString(position.row, position.column)) return undefined
  const firstRow = Math.max(0, position.row - MAX_ROWS_TO_SCAN)
  let depth = 0
  for (let row = position.row; row >= firstRow; row--) {
    const line = text.lineForRow(row) ?? ''
    const start = row === position.row ? position.column - 1 : line.length - 1
    if (start < 0) continue
    let previousOpener = line.lastIndexOf(opener, start)
    let previousCloser = line.lastIndexOf(closer, start)
    while (previousOpener >= 0 || previousCloser >= 0) {
      const closes = previousCloser > previousOpener
      const column = closes ? previousCloser : previousOpener
      if (closes) previousCloser = column > 0 ? line.lastIndexOf(closer, column - 1) : -1
      else previousOpener = column > 0 ? line.lastIndexOf(opener, column - 1) : -1
      if (text.isCommentOrString(row, column)) continue
      if (closes) depth++
      else if (depth-- === 0) return new Point(row, column)
    }
  }
  return undefined
}

/**
 * The nearest opener before `position` that is not closed before it (any kind of bracket,
 * skipping comments and strings; quote pairs are not brackets here), within
 * `MAX_ROWS_TO_SCAN` rows: the bracket enclosing the position.
 *
 * @example findEnclosingOpener(text, pairs, new Point(0, 4)) // 'f(a, b)' => Point(0, 1)
 */
export const findEnclosingOpener = (
  text: BracketText,
  pairs: BracketPairs,
  position: Point,
): Point | undefined => {
  const firstRow = Math.max(0, position.row - MAX_ROWS_TO_SCAN)
  let depth = 0
  for (let row = position.row; row >= firstRow; row--) {
    const line = text.lineForRow(row) ?? ''
    const start =
      row === position.row ? Math.min(position.column, line.length) - 1 : line.length - 1
    for (let column = start; column >= 0; column--) {
      const character = line[column]!
      const closes = pairs.openerFor(character)
      const opens = pairs.closerFor(character)
      if (closes === character || opens === character) continue
      if (closes === undefined && opens === undefined) continue
      if (text.isCommentOrString(row, column)) continue
      if (closes !== undefined) depth++
      else if (depth-- === 0) return new Point(row, column)
    }
  }
  return undefined
}

/**
 * The bracket next to `position` and its partner, by Atom's rule: an opener after the
 * position, else an opener before it, else a closer before it, else a closer after it (so
 * between `((` the inner pair wins, and between `))` too). Pairs that open and close with the
 * same character (quotes) are passed over. Undefined when the bracket found has no partner.
 *
 * @example findBracketPair(text, pairs, new Point(0, 1)) // '(a)' => bracket [0,0]-[0,1], match [0,2]-[0,3]
 */
export const findBracketPair = (
  text: BracketText,
  pairs: BracketPairs,
  position: Point,
): BracketMatch | undefined => {
  const line = text.lineForRow(position.row) ?? ''
  const after = position.column < line.length ? line[position.column]! : ''
  const before =
    position.column > 0 && position.column <= line.length ? line[position.column - 1]! : ''
  const beforePosition = new Point(position.row, position.column - 1)
  let found: { at: Point; match: Point | undefined } | undefined
  const closerOfAfter = pairs.closerFor(after)
  const closerOfBefore = pairs.closerFor(before)
  const openerOfBefore = pairs.openerFor(before)
  const openerOfAfter = pairs.openerFor(after)
  if (closerOfAfter !== undefined && closerOfAfter !== after) {
    found = { at: position, match: findMatchingCloser(text, position, after, closerOfAfter) }
  } else if (closerOfBefore !== undefined && closerOfBefore !== before) {
    found = {
      at: beforePosition,
      match: findMatchingCloser(text, beforePosition, before, closerOfBefore),
    }
  } else if (openerOfBefore !== undefined && openerOfBefore !== before) {
    found = {
      at: beforePosition,
      match: findMatchingOpener(text, beforePosition, openerOfBefore, before),
    }
  } else if (openerOfAfter !== undefined && openerOfAfter !== after) {
    found = { at: position, match: findMatchingOpener(text, position, openerOfAfter, after) }
  }
  if (found?.match === undefined) return undefined
  return { bracket: characterRange(found.at), match: characterRange(found.match) }
}

/** The range of the one character at `position`. */
export const characterRange = (position: Point): Range =>
  new Range(position, new Point(position.row, position.column + 1))
