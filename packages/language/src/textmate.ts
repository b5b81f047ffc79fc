/**
 * TextMate tokenization of a `TextBuffer`, row by row, kept in step with every edit to it,
 * local or remote.
 *
 * Edits only invalidate: the rows they touch are dropped and the first row needing work is
 * noted. Rows are tokenized when asked for (`scopesAt`, `tokensForRow`) or in bounded chunks
 * (`tokenizeSome`), from the first invalid row on, and re-tokenizing stops as soon as a row
 * ends in the state it ended in before the edit: the rows after it cannot have changed.
 */
import type { BufferChange, TextBuffer } from '@tandem/buffer'
import { CompositeDisposable, type Disposable, Emitter, type PointLike } from '@tandem/text'
import type { StateStack } from 'vscode-textmate'
import textmate from 'vscode-textmate'
import type { TextMateGrammar } from './textmate-grammar.js'

/**
 * One token of a row: columns `[startIndex, endIndex)` in UTF-16 units, and its scope names,
 * outermost first, starting with the grammar's root scope.
 *
 * @example { startIndex: 10, endIndex: 13, scopes: ['source.js', 'string.quoted.double.js'] }
 */
export interface TextMateToken {
  /** Start column of the token in its row. */
  readonly startIndex: number
  /** End column of the token in its row (exclusive). */
  readonly endIndex: number
  /** The scopes of the token, outermost first. */
  readonly scopes: readonly string[]
}

/**
 * Rows just (re)tokenized, `startRow` to `endRow` inclusive: their highlighting may have
 * changed.
 *
 * @example tokenizer.onDidTokenize(({ startRow, endRow }) => view.redrawRows(startRow, endRow))
 */
export interface TokenizedRows {
  /** The first row tokenized. */
  readonly startRow: number
  /** The last row tokenized. */
  readonly endRow: number
}

/** How a `TextMateTokenizer` is made; see its constructor. */
export interface TextMateTokenizerOptions {
  /**
   * Milliseconds one line may take (default 500). A line that takes longer is cut where the
   * tokenizer stopped: the rest of it gets only the root scope, and the next line starts in
   * the state this one started in, so one pathological line cannot turn the rest of the file
   * into a string or a comment. `0` means no limit.
   */
  lineTimeLimit?: number
}

interface Events {
  'did-tokenize': TokenizedRows
}

const DEFAULT_LINE_TIME_LIMIT = 500

/** Well below the number of arguments a JavaScript engine takes in one call. */
const MAX_SPLICE_ARGUMENTS = 10_000

/** Rows tokenized between two looks at the clock in `tokenizeFor`. */
const ROWS_PER_CLOCK_CHECK = 8

/** How far above a row a guess may start, looking for a row that starts at column 0. */
const GUESS_LOOKBEHIND = 40

/** How many rows one guess tokenizes from its start (a screenful and some). */
const GUESS_ROWS = 120

/**
 * Tokenizes a buffer with a TextMate grammar, lazily and incrementally, following its edits.
 *
 * Per row it keeps the row's tokens and the state (rule stack) at the row's end. A row whose
 * tokens are `null` must be tokenized again; every other row was tokenized from the state
 * its previous row holds, so the rows before the first `null` are right.
 *
 * @example
 * const buffer = new TextBuffer({ text: 'const s = "hi"' })
 * const tokenizer = new TextMateTokenizer(await loadTextMateGrammar('javascript'), buffer)
 * tokenizer.scopesAt([0, 11]) // => ['source.js', 'meta.var.expr.js', 'string.quoted.double.js']
 */
export class TextMateTokenizer {
  /** Tokens of each row, `null` for a row to (re)tokenize. */
  private tokens: Array<readonly TextMateToken[] | null> = []
  /**
   * The state at the end of each row. For a row to retokenize it is the state the row ended in
   * before the edit (`null` when unknown), to compare the new one with.
   */
  private states: Array<StateStack | null> = []
  /** The first row with `null` tokens, or the row count when all are tokenized. */
  private firstInvalidRow = 0
  /**
   * Tokens of rows not tokenized yet, from a guessed starting state (`tokensForDisplay`),
   * shifted through edits like `tokens` and dropped as rows are tokenized for real.
   */
  private guesses: Array<readonly TextMateToken[] | null> = []
  private readonly rootScopes: readonly string[]
  private readonly lineTimeLimit: number
  private readonly emitter = new Emitter<Events>()
  private readonly subscriptions = new CompositeDisposable()
  private destroyed = false

  /**
   * Starts following `buffer`'s edits; nothing is tokenized until asked for.
   *
   * @example new TextMateTokenizer(grammar, buffer, { lineTimeLimit: 100 })
   */
  constructor(
    /** The grammar the rows are tokenized with. */
    readonly grammar: TextMateGrammar,
    /** The buffer tokenized and followed. */
    readonly buffer: TextBuffer,
    options: TextMateTokenizerOptions = {},
  ) {
    const limit = options.lineTimeLimit ?? DEFAULT_LINE_TIME_LIMIT
    if (typeof limit !== 'number' || !(limit >= 0)) {
      throw new RangeError(`lineTimeLimit must be a number of milliseconds >= 0, got ${limit}`)
    }
    this.lineTimeLimit = limit
    this.rootScopes = [grammar.scopeName]
    this.invalidateAll()
    this.subscriptions.add(
      buffer.followEdits({
        textDidChange: (changes) => this.invalidate(changes),
        textDidReset: () => this.invalidateAll(),
        // Nothing to do: edits were taken in as they came, and tokenizing waits to be asked.
        transactionDidEnd: () => {},
      }),
      buffer.onDidDestroy(() => this.destroy()),
    )
  }

  /**
   * The scope names at `position` (clipped to the buffer), outermost first, from the root
   * scope on: those of the token holding the character after the position, or of the one
   * before at the end of a non-empty line (as Atom does). Tokenizes up to its row if needed.
   *
   * @example tokenizer.scopesAt([0, 0]) // 'if (a)' => ['source.js', 'keyword.control.conditional.js']
   */
  scopesAt(position: PointLike): string[] {
    const { row, column } = this.buffer.clipPosition(position)
    const tokens = this.tokensForRow(row)
    const lineLength = this.buffer.lineLengthForRow(row) ?? 0
    const at = column > 0 && column === lineLength ? column - 1 : column
    const token = tokenAtColumn(tokens, at)
    return token === undefined ? [...this.rootScopes] : [...token.scopes]
  }

  /**
   * The tokens of `row`, covering the line from column 0 to its end (an empty line has one
   * empty token). Tokenizes up to the row if needed. Throws a `RangeError` for a row outside
   * the buffer.
   *
   * @example tokenizer.tokensForRow(0)[0].scopes // => ['source.js', 'storage.type.js']
   */
  tokensForRow(row: number): readonly TextMateToken[] {
    this.assertAlive()
    if (!Number.isInteger(row) || row < 0 || row >= this.tokens.length) {
      throw new RangeError(
        `row must be a row of the buffer (0 to ${this.tokens.length - 1}), got ${row}`,
      )
    }
    this.tokenizeRows(row, Number.POSITIVE_INFINITY)
    return this.tokens[row]!
  }

  /**
   * Tokenizes every invalid row up to `row` (clipped to the buffer; `Infinity` for all).
   *
   * @example tokenizer.tokenizeUntil(editor.getLastVisibleRow())
   */
  tokenizeUntil(row: number): void {
    this.assertAlive()
    if (typeof row !== 'number' || Number.isNaN(row)) {
      throw new TypeError(`row must be a number, got ${String(row)}`)
    }
    this.tokenizeRows(Math.min(row, this.tokens.length - 1), Number.POSITIVE_INFINITY)
  }

  /**
   * Tokenizes at most `maxRows` invalid rows, from the first one on, for tokenizing ahead in
   * idle time. Returns whether every row is now tokenized.
   *
   * @example const step = () => tokenizer.tokenizeSome(200) || requestIdleCallback(step)
   */
  tokenizeSome(maxRows: number): boolean {
    this.assertAlive()
    if (typeof maxRows !== 'number' || !(maxRows >= 0)) {
      throw new RangeError(`maxRows must be a number >= 0, got ${String(maxRows)}`)
    }
    this.tokenizeRows(this.tokens.length - 1, maxRows)
    return this.isFullyTokenized()
  }

  /**
   * Tokenizes invalid rows up to `lastRow` (`Infinity` for all) for about `milliseconds` at
   * most, for tokenizing a little at a time without holding up a frame. Returns whether every
   * row up to `lastRow` is tokenized.
   *
   * @example const step = () => tokenizer.tokenizeFor(5) || requestIdleCallback(step)
   */
  tokenizeFor(milliseconds: number, lastRow: number = Number.POSITIVE_INFINITY): boolean {
    this.assertAlive()
    if (typeof milliseconds !== 'number' || !(milliseconds >= 0)) {
      throw new RangeError(`milliseconds must be a number >= 0, got ${String(milliseconds)}`)
    }
    if (typeof lastRow !== 'number' || Number.isNaN(lastRow)) {
      throw new TypeError(`lastRow must be a number, got ${String(lastRow)}`)
    }
    const last = Math.min(lastRow, this.tokens.length - 1)
    const deadline = performance.now() + milliseconds
    while (this.firstInvalidRow <= last) {
      this.tokenizeRows(last, ROWS_PER_CLOCK_CHECK)
      if (performance.now() >= deadline) break
    }
    return this.firstInvalidRow > last
  }

  /**
   * Tokens to draw `row` with now, without tokenizing the rows above it: its own when it is
   * tokenized (or was, before an edit above it that may change it: those are kept until the
   * row is tokenized again), else tokens from a guessed start: a row at most
   * `GUESS_LOOKBEHIND` rows above that starts at column 0, tokenized from the grammar's
   * initial state, with the rows after it. A row just below the tokenized ones is tokenized
   * for real. Bounded: at most `GUESS_LOOKBEHIND + GUESS_ROWS` rows per guess. With `work`
   * false, nothing is tokenized: a row with neither tokens nor a guess yet gives null.
   *
   * @example tokenizer.tokensForDisplay(editor.getLastVisibleRow())
   */
  tokensForDisplay(row: number, work?: true): readonly TextMateToken[]
  tokensForDisplay(row: number, work: boolean): readonly TextMateToken[] | null
  tokensForDisplay(row: number, work = true): readonly TextMateToken[] | null {
    this.assertAlive()
    if (!Number.isInteger(row) || row < 0 || row >= this.tokens.length) {
      throw new RangeError(
        `row must be a row of the buffer (0 to ${this.tokens.length - 1}), got ${row}`,
      )
    }
    const own = this.tokens[row]
    if (own !== null && own !== undefined) return own
    const guess = this.guesses[row]
    if (guess !== null && guess !== undefined) return guess
    if (!work) return null
    if (row - this.firstInvalidRow <= GUESS_LOOKBEHIND) return this.tokensForRow(row)
    this.guessFrom(row)
    return this.guesses[row] ?? this.tokensForRow(row)
  }

  /** Whether every row is tokenized (until the next edit). @example tokenizer.isFullyTokenized() */
  isFullyTokenized(): boolean {
    return this.firstInvalidRow >= this.tokens.length
  }

  /**
   * Calls `callback` with each run of rows just (re)tokenized, after they are.
   *
   * @example tokenizer.onDidTokenize(({ startRow, endRow }) => view.redrawRows(startRow, endRow))
   */
  onDidTokenize(callback: (rows: TokenizedRows) => void): Disposable {
    return this.emitter.on('did-tokenize', callback)
  }

  /** Stops following the buffer and drops the tokens. Safe to call twice. */
  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    this.subscriptions.dispose()
    this.emitter.dispose()
    this.tokens = []
    this.states = []
    this.guesses = []
  }

  /** Whether `destroy` was called (directly, or by destroying the buffer). */
  isDestroyed(): boolean {
    return this.destroyed
  }

  private assertAlive(): void {
    if (this.destroyed) throw new Error('the TextMateTokenizer is destroyed')
  }

  private invalidateAll(): void {
    const rowCount = this.buffer.getLineCount()
    this.tokens = new Array<readonly TextMateToken[] | null>(rowCount).fill(null)
    this.states = new Array<StateStack | null>(rowCount).fill(null)
    this.guesses = new Array<readonly TextMateToken[] | null>(rowCount).fill(null)
    this.firstInvalidRow = 0
  }

  /**
   * Replaces the rows each change touched with rows to retokenize. The changes are sorted and
   * apart, so applied in order each starts at its `newRange.start` row, and its old text spans
   * as many rows as it did before the transaction.
   */
  private invalidate(changes: readonly BufferChange[]): void {
    for (const { oldRange, newRange } of changes) {
      const startRow = newRange.start.row
      const removed = oldRange.end.row - oldRange.start.row + 1
      const added = newRange.end.row - startRow + 1
      // The last new row ends with the text the last old row ended with: if it ends in the
      // same state, the rows after it still hold.
      const lastOldState = this.states[startRow + removed - 1] ?? null
      const states = new Array<StateStack | null>(added).fill(null)
      states[added - 1] = lastOldState
      this.states = replaceRows(this.states, startRow, removed, states)
      this.tokens = replaceRows(this.tokens, startRow, removed, new Array<null>(added).fill(null))
      this.guesses = replaceRows(this.guesses, startRow, removed, new Array<null>(added).fill(null))
      if (startRow < this.firstInvalidRow) this.firstInvalidRow = startRow
    }
  }

  /** Tokenizes invalid rows up to `lastRow`, at most `maxRows` of them, then reports them. */
  private tokenizeRows(lastRow: number, maxRows: number): void {
    const runs: TokenizedRows[] = []
    let runStart = -1
    let previous = -1
    let count = 0
    while (this.firstInvalidRow <= lastRow && count < maxRows) {
      const row = this.firstInvalidRow
      if (row !== previous + 1 && runStart >= 0) {
        runs.push({ startRow: runStart, endRow: previous })
        runStart = -1
      }
      if (runStart < 0) runStart = row
      this.tokenizeRow(row)
      previous = row
      count++
    }
    if (runStart >= 0) runs.push({ startRow: runStart, endRow: previous })
    for (const rows of runs) this.emitter.emit('did-tokenize', rows)
  }

  /**
   * Tokenizes from a guessed state for `row`: from the nearest row above it (within
   * `GUESS_LOOKBEHIND`) that starts with a non-blank character, where code usually starts
   * afresh, in the grammar's initial state; keeps the guesses for `row` and the rows after it.
   */
  private guessFrom(row: number): void {
    let start = row
    for (let above = row; above >= Math.max(0, row - GUESS_LOOKBEHIND); above--) {
      const line = this.buffer.lineForRow(above) ?? ''
      if (line.length > 0 && line[0] !== ' ' && line[0] !== '\t') {
        start = above
        break
      }
    }
    const end = Math.min(this.tokens.length, row + GUESS_ROWS)
    let state = textmate.INITIAL
    for (let at = start; at < end; at++) {
      const line = this.buffer.lineForRow(at) ?? ''
      const result = this.grammar.compiled.tokenizeLine(line, state, this.lineTimeLimit)
      state = result.stoppedEarly ? state : result.ruleStack
      if (at < row || this.tokens[at] !== null) continue
      this.guesses[at] = result.stoppedEarly
        ? completeCutLine(result.tokens, line.length, this.rootScopes)
        : fitToLine(result.tokens, line.length)
    }
  }

  private tokenizeRow(row: number): void {
    const line = this.buffer.lineForRow(row) ?? ''
    const startState = row === 0 ? textmate.INITIAL : this.states[row - 1]!
    let result = this.grammar.compiled.tokenizeLine(line, startState, this.lineTimeLimit)
    // A grammar compiles each pattern the first time a line needs it, on the line's clock: on
    // a busy machine the first lines can run out of time for that alone. The patterns are
    // compiled now, so a cut line gets one more try; a truly slow line is cut again.
    if (result.stoppedEarly) {
      result = this.grammar.compiled.tokenizeLine(line, startState, this.lineTimeLimit)
    }
    let tokens: readonly TextMateToken[] = result.tokens
    let endState = result.ruleStack
    if (result.stoppedEarly) {
      tokens = completeCutLine(result.tokens, line.length, this.rootScopes)
      endState = startState
    } else {
      tokens = fitToLine(tokens, line.length)
    }
    const oldEndState = this.states[row] ?? null
    this.tokens[row] = tokens
    this.guesses[row] = null
    this.states[row] = endState
    const next = row + 1
    if (next < this.tokens.length && (oldEndState === null || !endState.equals(oldEndState))) {
      this.tokens[next] = null
    }
    const nextInvalid = this.tokens.indexOf(null, next)
    this.firstInvalidRow = nextInvalid < 0 ? this.tokens.length : nextInvalid
  }
}

/**
 * `rows` with `count` rows from `start` replaced by `replacement`: in place, or as a new array
 * when the replacement is too long to pass as arguments to `splice`.
 */
const replaceRows = <Row>(rows: Row[], start: number, count: number, replacement: Row[]): Row[] => {
  if (replacement.length <= MAX_SPLICE_ARGUMENTS) {
    rows.splice(start, count, ...replacement)
    return rows
  }
  return rows.slice(0, start).concat(replacement, rows.slice(start + count))
}

/** The last token starting at or before `column` (tokens are sorted and cover the line). */
const tokenAtColumn = (
  tokens: readonly TextMateToken[],
  column: number,
): TextMateToken | undefined => {
  let low = 0
  let high = tokens.length - 1
  while (low < high) {
    const middle = (low + high + 1) >> 1
    if (tokens[middle]!.startIndex <= column) low = middle
    else high = middle - 1
  }
  return tokens[low]
}

/**
 * The tokenizer sees each line with a line feed added: on an empty line its token ends past
 * the line. Trims that token to the line.
 */
const fitToLine = (
  tokens: readonly TextMateToken[],
  lineLength: number,
): readonly TextMateToken[] => {
  const last = tokens[tokens.length - 1]
  if (last === undefined || last.endIndex <= lineLength) return tokens
  const fitted = tokens.slice(0, -1)
  fitted.push({ startIndex: last.startIndex, endIndex: lineLength, scopes: last.scopes })
  return fitted
}

/** The tokens of a line cut short by the time limit, with the rest of the line in one root token. */
const completeCutLine = (
  tokens: readonly TextMateToken[],
  lineLength: number,
  rootScopes: readonly string[],
): readonly TextMateToken[] => {
  const covered = fitToLine(tokens, lineLength)
  const end = covered[covered.length - 1]?.endIndex ?? 0
  if (end >= lineLength && covered.length > 0) return covered
  return [...covered, { startIndex: end, endIndex: lineLength, scopes: rootScopes }]
}
