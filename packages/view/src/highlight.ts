/**
 * Syntax colours for one screen row: the row's text cut into segments, each carrying the
 * `syntax--` classes of the token its characters come from.
 *
 * A screen row is not a buffer row: tabs are widened to spaces, a wrapped row starts with
 * indentation that is in no buffer row, and a fold shows a whole buffer range as one
 * character. The segments follow the row's own text, so they always add up to exactly that
 * text; tokens are looked up through the buffer positions the row shows.
 */
import type { DisplayLayer, ScreenLine } from '@tandem/display'
import type { TextEditor } from '@tandem/editor'
import { Point, Range } from '@tandem/text'

/**
 * One token of a buffer row, as a language mode gives it: columns `[startIndex, endIndex)`
 * and its scopes, outermost (the grammar's root scope) first.
 *
 * @example { startIndex: 0, endIndex: 5, scopes: ['source.js', 'storage.type.js'] }
 */
export interface HighlightToken {
  /** First column of the token in its row. */
  readonly startIndex: number
  /** Column after its last character. */
  readonly endIndex: number
  /** Its scope names, outermost first. */
  readonly scopes: readonly string[]
}

/**
 * A piece of a screen row's text and the classes it is drawn with (`''` for plain text). A
 * fold's placeholder is one segment of its own, with `fold` set.
 *
 * @example { text: 'const', className: 'syntax--storage syntax--type syntax--js' }
 */
export interface HighlightSegment {
  /** The characters, taken from the screen row's text. */
  readonly text: string
  /** Space-separated classes of the token's scopes (the root scope left out). */
  readonly className: string
  /** Whether this is a fold's placeholder. */
  readonly fold?: boolean
}

/**
 * Where a screen row's text does not come straight from the buffer: the width of its
 * soft-wrap indentation, and the buffer ranges its folds hide, in order.
 *
 * @example { wrapIndent: 2, folds: [new Range([3, 9], [7, 1])] }
 */
export interface ScreenLineLayout {
  /** Leading columns that are soft-wrap indentation (0 on a row that starts a buffer row). */
  readonly wrapIndent: number
  /** The buffer range behind each fold placeholder of the row, left to right. */
  readonly folds: readonly Range[]
}

/** What a row's segments are made from: the buffer's lines and their tokens. */
export interface HighlightSource {
  /** The text of buffer row `row`. */
  lineForRow(row: number): string
  /** The tokens of buffer row `row`, or null when it has none (yet): drawn plain. */
  tokensForRow(row: number): readonly HighlightToken[] | null
}

/**
 * What a screen row shows: its text and, when the language colours it, its segments.
 *
 * @example { text: 'let a', highlightKey: [tokens], segments: () => highlightScreenLine(...) }
 */
export interface RowContent {
  /** The screen line's text. */
  readonly text: string
  /**
   * What the row's colours are made from (the token lists of the buffer rows it shows): while
   * the text is the same and every item is the same object as at the last fill, the colours
   * are too, and `segments` is not called.
   */
  readonly highlightKey: readonly unknown[]
  /** The row's segments (their texts join to `text`); absent: plain text with fold markers. */
  readonly segments?: () => readonly HighlightSegment[]
}

const classesByScopes = new Map<string, string>()

/**
 * Atom's classes for scopes: each scope `a.b.c` gives `syntax--a syntax--b syntax--c`, in
 * order, outermost scope first, each class once.
 *
 * @example classNameForScopes(['string.quoted.js', 'punctuation.js']) // => 'syntax--string syntax--quoted syntax--js syntax--punctuation'
 */
export const classNameForScopes = (scopes: readonly string[]): string => {
  const key = scopes.join(' ')
  let className = classesByScopes.get(key)
  if (className === undefined) {
    const classes = new Set<string>()
    for (const scope of scopes) {
      for (const part of scope.split('.')) if (part !== '') classes.add(`syntax--${part}`)
    }
    className = [...classes].join(' ')
    classesByScopes.set(key, className)
  }
  return className
}

/**
 * The layout of screen row `row` (whose line is `line`) in `display`: its soft-wrap
 * indentation and the buffer ranges of its folds, found by translating its positions.
 *
 * @example screenLineLayout(editor.displayLayer, 3, editor.displayLayer.screenLineForScreenRow(3))
 */
export const screenLineLayout = (
  display: DisplayLayer,
  row: number,
  line: ScreenLine,
): ScreenLineLayout => {
  const { lineText } = line
  // A wrap point maps to the start of the wrapped row's text, just after its indentation.
  let wrapIndent = 0
  if (lineText.startsWith(' ')) {
    const start = display.translateBufferPosition(line.bufferRange.start, {
      clipDirection: 'backward',
    })
    if (start.row === row) wrapIndent = Math.min(start.column, leadingSpaces(lineText))
  }
  const folds: Range[] = []
  const { foldCharacter } = display.getSettings()
  for (let column = lineText.indexOf(foldCharacter); column >= 0; ) {
    const start = display.translateScreenPosition(new Point(row, column), {
      clipDirection: 'backward',
    })
    const end = display.translateScreenPosition(new Point(row, column + foldCharacter.length), {
      clipDirection: 'forward',
    })
    folds.push(new Range(start, start.isLessThan(end) ? end : start))
    column = lineText.indexOf(foldCharacter, column + foldCharacter.length)
  }
  return { wrapIndent, folds }
}

/**
 * The segments of a screen line: its text, cut where the classes of the buffer characters
 * behind it change. Tab widths, wrap indentation and folds come from the line's text and
 * `layout`; buffer rows with no tokens are plain. The segments' texts always join to exactly
 * `line.lineText`.
 *
 * @example highlightScreenLine(line, { wrapIndent: 0, folds: [] }, source, 4)[0] // => { text: 'const', className: 'syntax--storage ...' }
 */
export const highlightScreenLine = (
  line: ScreenLine,
  layout: ScreenLineLayout,
  source: HighlightSource,
  tabLength: number,
): HighlightSegment[] => {
  const text = line.lineText
  const segments: HighlightSegment[] = []
  let screen = 0
  const take = (end: number, className: string) => {
    const stop = Math.min(end, text.length)
    if (stop <= screen) return
    const last = segments[segments.length - 1]
    const piece = text.slice(screen, stop)
    if (last !== undefined && last.className === className && last.fold !== true) {
      segments[segments.length - 1] = { text: last.text + piece, className }
    } else {
      segments.push({ text: piece, className })
    }
    screen = stop
  }
  take(layout.wrapIndent, '')
  const end = line.bufferRange.end
  let { row, column } = line.bufferRange.start
  let foldIndex = 0
  while (screen < text.length) {
    const fold = layout.folds[foldIndex]
    if (fold !== undefined && fold.start.row === row && fold.start.column <= column) {
      segments.push({ text: text.slice(screen, screen + 1), className: '', fold: true })
      screen += 1
      row = fold.end.row
      column = fold.end.column
      foldIndex++
      continue
    }
    const lineText = source.lineForRow(row)
    let stop = lineText.length
    if (fold !== undefined && fold.start.row === row) stop = Math.min(stop, fold.start.column)
    if (row === end.row) stop = Math.min(stop, end.column)
    if (column >= stop) break
    const tokens = source.tokensForRow(row)
    let index = tokens === null ? -1 : firstTokenEndingAfter(tokens, column)
    while (column < stop) {
      const token = index < 0 ? undefined : tokens?.[index++]
      const tokenEnd = token === undefined ? stop : Math.min(Math.max(token.endIndex, column), stop)
      if (token === undefined) index = -1
      if (tokenEnd === column) continue
      const className = token === undefined ? '' : classNameForScopes(token.scopes.slice(1))
      take(screen + screenWidth(lineText, column, tokenEnd, screen, tabLength), className)
      column = tokenEnd
    }
  }
  take(text.length, '')
  return segments
}

/**
 * What screen row `row` of `editor` (whose line is `line`) shows: its text and, when the
 * language mode gives tokens, its colours from the tokens of the buffer rows it shows. Those
 * are asked for without tokenizing the rows above them (a row not tokenized yet is coloured
 * from a guessed start), so drawing a row far down a large file takes no longer than others.
 * Given `plainRows`, nothing is tokenized at all: a buffer row with no tokens yet is drawn
 * plain and added to `plainRows`, for a later update to colour.
 *
 * @example rowContent(editor, 0, editor.displayLayer.screenLineForScreenRow(0)).text
 */
export const rowContent = (
  editor: TextEditor,
  row: number,
  line: ScreenLine | undefined,
  plainRows?: number[],
): RowContent => {
  if (line === undefined) return { text: '', highlightKey: [] }
  const mode = editor.getLanguageMode()
  const tokensFor = mode.highlightTokensForBufferRow ?? mode.tokensForBufferRow
  if (tokensFor === undefined) return { text: line.lineText, highlightKey: [] }
  const display = editor.displayLayer
  const folded = line.lineText.includes(display.getSettings().foldCharacter)
  const layout = folded ? screenLineLayout(display, row, line) : null
  // The rows it shows text of: where it starts, and where each of its folds ends.
  const tokens = new Map<number, readonly HighlightToken[] | null>()
  const rows = [line.bufferRange.start.row, ...(layout?.folds ?? []).map((fold) => fold.end.row)]
  for (const bufferRow of rows) {
    if (tokens.has(bufferRow)) continue
    const found = tokensFor.call(mode, bufferRow, plainRows === undefined)
    if (found === null && plainRows !== undefined) plainRows.push(bufferRow)
    tokens.set(bufferRow, found)
  }
  const buffer = editor.getBuffer()
  return {
    text: line.lineText,
    highlightKey: [...tokens.values()],
    segments: () =>
      highlightScreenLine(
        line,
        layout ?? screenLineLayout(display, row, line),
        {
          lineForRow: (bufferRow) => buffer.lineForRow(bufferRow) ?? '',
          tokensForRow: (bufferRow) => tokens.get(bufferRow) ?? null,
        },
        editor.getTabLength(),
      ),
  }
}

/**
 * Whether two rows' segments draw the same: the same classes over the same lengths.
 *
 * @example sameHighlighting([{ text: 'a', className: '' }], [{ text: 'b', className: '' }]) // => true
 */
export const sameHighlighting = (
  a: readonly HighlightSegment[],
  b: readonly HighlightSegment[],
): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!
    const y = b[i]!
    if (x.className !== y.className || x.text.length !== y.text.length || x.fold !== y.fold) {
      return false
    }
  }
  return true
}

/** Columns buffer text `[from, to)` of `line` takes on screen when it starts at `screen`. */
const screenWidth = (
  line: string,
  from: number,
  to: number,
  screen: number,
  tabLength: number,
): number => {
  const tab = line.indexOf('\t', from)
  if (tab < 0 || tab >= to) return to - from
  let width = 0
  for (let i = from; i < to; i++) {
    width += line.charCodeAt(i) === 9 ? tabLength - ((screen + width) % tabLength) : 1
  }
  return width
}

/** The index of the first token ending after `column` (tokens are sorted and cover the row). */
const firstTokenEndingAfter = (tokens: readonly HighlightToken[], column: number): number => {
  let low = 0
  let high = tokens.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (tokens[middle]!.endIndex <= column) low = middle + 1
    else high = middle
  }
  return low
}

const leadingSpaces = (text: string): number => {
  let count = 0
  while (text.charCodeAt(count) === 32) count++
  return count
}
