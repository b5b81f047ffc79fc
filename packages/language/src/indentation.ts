/**
 * Guessing how a file is indented from its text: spaces or tabs, and how many columns one
 * level is. Pure functions over lines, so an editor can run them on the first rows of a
 * document however it got them (opened, set, or synced from a peer).
 *
 * Soft or hard tabs follow Atom's `TextEditor.usesSoftTabs()`: the first row among the first
 * `MAX_DETECTION_ROWS` that is not a comment and starts with a space or a tab decides. Atom
 * asks its language mode which rows are comments; here comment rows are found from the
 * language's comment tokens (a row starting with the line comment or a block comment's start,
 * and rows inside a block comment), so guessing never needs a parse of the document.
 *
 * The tab length is the indentation step: among rows indented with spaces only, each row
 * indented deeper than the previous such row (blank and comment rows skipped) adds its
 * increase, up to `MAX_INDENT_STEP` columns, to a tally; the most frequent increase wins, the
 * smaller one on a tie, provided the increases that are multiples of it are more than half
 * of all of them. Alignment rows (a continuation lined up under a parenthesis) are rare next
 * to the block structure, so they seldom win; rows that disagree give no answer.
 */
import type { CommentTokens, IndentationSettings } from './languages.js'

/** Rows looked at, from the first: Atom's `usesSoftTabs` looks at rows 0 to 1000. */
export const MAX_DETECTION_ROWS = 1001

/** Increases of indentation above this many columns are alignment, not a step. */
export const MAX_INDENT_STEP = 8

/** Atom's default indentation: two columns of spaces. */
export const ATOM_DEFAULT_INDENTATION: IndentationSettings = { softTabs: true, tabLength: 2 }

/**
 * What the text says about its indentation; a field is undefined when the text does not say
 * (no indented rows, or only tab-indented ones for `tabLength`).
 */
export interface IndentationGuess {
  /** Whether the first indented row that is not a comment starts with a space. */
  readonly softTabs?: boolean
  /** The most frequent indentation step of the rows indented with spaces. */
  readonly tabLength?: number
}

/** Recognises comment rows from a language's comment tokens, row after row. */
class CommentRows {
  private readonly line: string | undefined
  private readonly blockStart: string | undefined
  private readonly blockEnd: string | undefined
  private inBlock = false

  constructor(tokens: CommentTokens | undefined) {
    this.line = nonEmpty(tokens?.line?.trim())
    this.blockStart = nonEmpty(tokens?.blockStart?.trim())
    this.blockEnd = nonEmpty(tokens?.blockEnd?.trim())
  }

  /** Whether `line`, the row after the previous one given, is a comment row. */
  isComment(line: string): boolean {
    const { blockStart, blockEnd } = this
    const text = line.replace(LEADING_TABS_AND_SPACES, '')
    if (this.inBlock) {
      this.inBlock = blockEnd === undefined || !line.includes(blockEnd)
      return true
    }
    if (this.line !== undefined && text.startsWith(this.line)) return true
    if (blockStart === undefined || blockEnd === undefined) return false
    const start = text.indexOf(blockStart)
    if (start < 0) return false
    // A block comment left open runs on into the rows below.
    this.inBlock = !text.includes(blockEnd, start + blockStart.length)
    return start === 0
  }
}

const LEADING_TABS_AND_SPACES = /^[\t ]+/
const BLANK = /^[\t ]*$/

const nonEmpty = (text: string | undefined): string | undefined =>
  text === undefined || text === '' ? undefined : text

/**
 * Guesses the indentation of a text from its first `MAX_DETECTION_ROWS` lines (the rest is
 * ignored), skipping comment rows found from `comments` (none: no row is a comment, as in
 * plain text).
 *
 * @example detectIndentation(['def f():', '    return 1'], { line: '# ' }) // => { softTabs: true, tabLength: 4 }
 */
export const detectIndentation = (
  lines: readonly string[],
  comments?: CommentTokens,
): IndentationGuess => {
  const commentRows = new CommentRows(comments)
  const steps = new Array<number>(MAX_INDENT_STEP + 1).fill(0)
  let softTabs: boolean | undefined
  // The indentation of the previous code row when it was spaces only; undefined after tabs.
  let previous: number | undefined = 0
  const end = Math.min(lines.length, MAX_DETECTION_ROWS)
  for (let row = 0; row < end; row++) {
    const line = lines[row]!
    if (commentRows.isComment(line)) continue
    // As Atom, a row of spaces alone decides too.
    if (softTabs === undefined && line[0] === ' ') softTabs = true
    else if (softTabs === undefined && line[0] === '\t') softTabs = false
    if (BLANK.test(line)) continue
    const indent = leadingSpaces(line)
    if (indent === undefined) {
      previous = undefined
      continue
    }
    if (previous !== undefined && indent > previous && indent - previous <= MAX_INDENT_STEP) {
      steps[indent - previous]!++
    }
    previous = indent
  }
  return { softTabs, tabLength: commonStep(steps) }
}

/**
 * The most frequent increase (the smaller on a tie), when the increases that are whole
 * multiples of it (a row two levels deeper) make more than half of them all; otherwise the
 * rows disagree too much to say.
 */
const commonStep = (steps: readonly number[]): number | undefined => {
  let best = 0
  let total = 0
  for (let step = 1; step <= MAX_INDENT_STEP; step++) {
    total += steps[step]!
    if (steps[step]! > steps[best]!) best = step
  }
  if (best === 0) return undefined
  let agreeing = 0
  for (let step = best; step <= MAX_INDENT_STEP; step += best) agreeing += steps[step]!
  return agreeing * 2 > total ? best : undefined
}

/** The number of leading spaces of `line`, or undefined when its indentation has a tab. */
const leadingSpaces = (line: string): number | undefined => {
  let column = 0
  while (column < line.length) {
    const character = line[column]
    if (character === '\t') return undefined
    if (character !== ' ') break
    column++
  }
  return column
}

/**
 * The indentation to use: each field from `explicit` when given, else from `guess`, else from
 * `fallback` (a language's default).
 *
 * @example resolveIndentation({}, { softTabs: true }, { softTabs: false, tabLength: 4 }) // => { softTabs: true, tabLength: 4 }
 */
export const resolveIndentation = (
  explicit: Partial<IndentationSettings>,
  guess: IndentationGuess,
  fallback: IndentationSettings,
): IndentationSettings => ({
  softTabs: explicit.softTabs ?? guess.softTabs ?? fallback.softTabs,
  tabLength: explicit.tabLength ?? guess.tabLength ?? fallback.tabLength,
})
