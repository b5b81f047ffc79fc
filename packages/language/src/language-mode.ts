import type { Disposable, Point, Range } from '@tandem/text'
import type { ScopeDescriptor } from './scope-descriptor.js'
import type { TextMateToken, TokenizedRows } from './textmate.js'

/** What the editor asks of a language. The plain-text mode answers for text with no grammar. */
export interface LanguageMode {
  /** The language's id: a lower-case name (`javascript`), `plaintext` for plain text. */
  readonly id: string
  /**
   * Whether auto-indenting a range of rows re-indents them all in one transaction, so that
   * observers see one change when it is done (languages with a syntax tree, as Atom's
   * tree-sitter modes do), rather than one change per row.
   */
  readonly indentsRowsTogether?: boolean
  /** TextMate-style scopes at a position. */
  scopeDescriptorForPosition(position: Point): ScopeDescriptor
  /** Syntax-tree node types from the root to the position. */
  syntaxTreeScopeDescriptorForPosition(position: Point): ScopeDescriptor
  /**
   * Whether the row is a comment (paragraphs end where this answer changes). Undefined when
   * the language has not looked at the row yet.
   */
  isRowCommented(row: number): boolean | undefined
  /** Characters that are not part of words at a position (undefined: the editor's). */
  getNonWordCharacters(position: Point): string | undefined
  /**
   * The indent level the row should have. `skipBlankLines: false` takes the indentation from
   * the row just above even when it is blank. With `preserveLeadingWhitespace` (the row keeps
   * its whitespace and the answer is inserted before it), a language with a syntax tree
   * answers the level to add, which can be negative, as Atom's tree-sitter modes do.
   */
  suggestedIndentForBufferRow(
    row: number,
    tabLength: number,
    options?: { skipBlankLines?: boolean; preserveLeadingWhitespace?: boolean },
  ): number | undefined
  /** The indent level `line` should have if it were the text of `row`. */
  suggestedIndentForLineAtBufferRow(
    row: number,
    line: string,
    tabLength: number,
  ): number | undefined
  /** The indent level a row being typed on should drop to (undefined: leave it). */
  suggestedIndentForEditedBufferRow(row: number, tabLength: number): number | undefined
  /** Line and block comment delimiters at a position (none in plain text). */
  commentStringsForPosition(position: Point): CommentStrings
  /**
   * The tokens of buffer row `row` for syntax colours, covering the row from column 0 to its
   * end: tokenizes the rows up to it that need it (rows below stay untouched). Null while the
   * language has no grammar to tokenize with (plain text, or not loaded yet). A row outside
   * the buffer is a RangeError. Absent in modes that never highlight.
   *
   * @example mode.tokensForBufferRow?.(0)?.[0]?.scopes // => ['source.js', 'storage.type.js']
   */
  tokensForBufferRow?(row: number): readonly TextMateToken[] | null
  /**
   * Calls `callback` with each run of buffer rows just (re)tokenized, after an edit (local or
   * remote) or because a row was asked for: their colours may have changed. Rows whose
   * tokenization was not asked for are not reported until it is.
   *
   * @example mode.onDidTokenizeBufferRows?.(({ startRow, endRow }) => redraw(startRow, endRow))
   */
  onDidTokenizeBufferRows?(callback: (rows: TokenizedRows) => void): Disposable
  /**
   * Tokens to draw buffer row `row` with now, without tokenizing the rows above it: the row's
   * own when tokenized (kept through edits above it until it is tokenized again), else tokens
   * from a guessed starting state (a nearby row that starts at column 0), so a jump far into
   * a large file is coloured at once. Null while the language has no grammar. With `work`
   * false (a view out of time for this frame), nothing is tokenized or guessed: a row with no
   * tokens yet gives null, to draw plain and colour in a later frame.
   *
   * @example mode.highlightTokensForBufferRow?.(20_000)
   */
  highlightTokensForBufferRow?(row: number, work?: boolean): readonly TextMateToken[] | null
  /**
   * Tokenizes for about `milliseconds` at most, the rows up to `lastRow` first (default:
   * every row). Returns whether every row up to `lastRow` is tokenized, or true when there is
   * nothing to tokenize with.
   *
   * @example const step = () => mode.tokenizeBufferRowsFor?.(5) || requestIdleCallback(step)
   */
  tokenizeBufferRowsFor?(milliseconds: number, lastRow?: number): boolean
  /**
   * Calls `callback` when the colours of every row may have changed: a grammar was attached
   * (or failed to load).
   *
   * @example mode.onDidChangeHighlighting?.(() => redrawAll())
   */
  onDidChangeHighlighting?(callback: () => void): Disposable
  /**
   * The fold that folding at `point` makes: the one starting on its row when `point` is at the
   * end of the row (Atom asks with the column at Infinity), else the nearest one starting on a
   * row above that contains it. Null when there is none, or while the language cannot tell
   * yet (its syntax tree is not loaded). Absent in modes that never fold.
   *
   * @example mode.getFoldableRangeContainingPoint?.(new Point(3, Infinity), 2)
   */
  getFoldableRangeContainingPoint?(point: Point, tabLength: number): Range | null
  /**
   * Every fold the language finds, in buffer order, at most one starting on each row. Each
   * starts at the end of its first row (so the row stays readable) and ends where the
   * language says (the end of a row, or just before a closing bracket).
   *
   * @example mode.getFoldableRanges?.(2).map((range) => range.start.row)
   */
  getFoldableRanges?(tabLength: number): Range[]
  /**
   * The folds at nesting depth `level` (0: those inside no other fold). Plain text and
   * TextMate languages count the indentation of the fold's first row instead, as Atom does.
   *
   * @example mode.getFoldableRangesAtIndentLevel?.(1, 2)
   */
  getFoldableRangesAtIndentLevel?(level: number, tabLength: number): Range[]
  /**
   * Whether a fold starts on `row` (a row that starts a fold shows a fold toggle in Atom's
   * gutter).
   *
   * @example mode.isFoldableAtRow?.(0)
   */
  isFoldableAtRow?(row: number): boolean
  /** Stops following the buffer. */
  destroy(): void
}

/** A language's comment delimiters; absent ones are undefined. */
export interface CommentStrings {
  /** Starts a comment: the line comment when the language has one, else the block opener. */
  commentStartString?: string
  /** Ends a block comment; undefined for line comments. */
  commentEndString?: string
}

/**
 * The indent level of `line`: its leading spaces and tabs in columns (a tab reaches the next
 * tab stop), divided by `tabLength`.
 *
 * @example indentLevelForLine('\t  x', 4) // => 1.5
 */
export const indentLevelForLine = (line: string, tabLength: number): number => {
  let columns = 0
  for (let i = 0; i < line.length; i++) {
    const character = line[i]
    if (character === '\t') columns += tabLength - (columns % tabLength)
    else if (character === ' ') columns++
    else break
  }
  return columns / tabLength
}
