import type { TextBuffer } from '@tandem/buffer'
import { type Disposable, Emitter, Point, type Range } from '@tandem/text'
import { IndentFolds } from './indent-folds.js'
import { type CommentStrings, indentLevelForLine, type LanguageMode } from './language-mode.js'
import type { LanguageSettings } from './languages.js'
import { ScopeDescriptor } from './scope-descriptor.js'
import type { SyntaxNode } from './syntax-node.js'
import type { TextMateToken, TokenizedRows } from './textmate.js'

/** Scope names at positions, kept in step with the buffer (a TextMate tokenizer). */
export interface ScopeSource {
  /** The scopes at `position`, outermost first, the grammar's root scope included. */
  scopesAt(position: Point): string[]
  /** The tokens of `row`, tokenizing up to it as needed (a `TextMateTokenizer` has this). */
  tokensForRow?(row: number): readonly TextMateToken[]
  /** Calls `callback` with each run of rows just (re)tokenized. */
  onDidTokenize?(callback: (rows: TokenizedRows) => void): Disposable
  /**
   * Tokens to draw `row` with now, without tokenizing the rows above it; with `work` false,
   * only those it has already (else null).
   */
  tokensForDisplay?(row: number, work: boolean): readonly TextMateToken[] | null
  /** Tokenizes rows up to `lastRow` for about `milliseconds`; true when they all are. */
  tokenizeFor?(milliseconds: number, lastRow?: number): boolean
  /** Stops following the buffer. */
  destroy(): void
}

/** Syntax-tree node types at positions, kept in step with the buffer (a tree-sitter tree). */
export interface SyntaxSource {
  /** The types of the nodes containing `position`, from the root to the smallest. */
  nodeTypesAt(position: Point): string[]
  /** The smallest node containing `position`, with its ancestors (for indentation rules). */
  nodeAt?(position: Point): SyntaxNode
  /** Stops following the buffer. */
  destroy(): void
}

/** Where a language folds, kept in step with the buffer (a syntax tree's fold query). */
export interface FoldSource {
  /** The fold starting on `point`'s row when `point` ends it, else the nearest one around it. */
  getFoldableRangeContainingPoint(point: Point): Range | null
  /** Every fold, in buffer order, one at most per row. */
  getFoldableRanges(): Range[]
  /** The folds nested in exactly `level` others. */
  getFoldableRangesAtIndentLevel(level: number): Range[]
  /** Whether a fold starts on `row`. */
  isFoldableAtRow(row: number): boolean
}

// Where a row's text starts, for the comment test. Atom's tree-sitter modes search with the
// buffer's engine, whose `\S` is anything but ASCII whitespace (a no-break space is text
// there, and no comment starts on it); its TextMate modes skip tabs and spaces only.
const FIRST_NON_ASCII_SPACE = /[^\t\n\v\f\r ]/
const FIRST_NON_TAB_OR_SPACE = /[^\t ]/

const DEFAULT_COMMENT_NODE_TYPES: readonly string[] = ['comment']

/**
 * Atom's TextMate test for a comment scope: `comment` begins one of the scope's words, so
 * `comment.line.double-slash.js` and `punctuation.definition.comment.go` both count.
 */
const COMMENT_SCOPE = /\bcomment/
const isCommentScope = (scope: string): boolean => COMMENT_SCOPE.test(scope)

/**
 * A language with a grammar: scopes from its TextMate grammar, node types from its
 * tree-sitter grammar, comment tokens, indentation patterns and non-word characters from its
 * settings. The parsers come when they are loaded (`attach`), so the mode can be made at
 * once: until then it answers from its settings alone, and `onDidChangeHighlighting` tells
 * when scopes become available.
 *
 * Indentation follows Atom's rules: a row gets the indentation of the nearest non-blank row
 * above, one level more when that row matches the increase pattern (and is not a comment),
 * one level less when the row itself matches the decrease pattern.
 *
 * Folds come from the syntax tree's fold query where the language has one (none until it is
 * attached), else from indentation, runs of comment rows folding together.
 *
 * @example const mode = new GrammarLanguageMode(buffer, languageSettings('javascript'))
 */
export class GrammarLanguageMode implements LanguageMode {
  readonly id: string
  readonly indentsRowsTogether: boolean
  private scopes: ScopeSource | null = null
  private scopesSubscription: Disposable | null = null
  private syntax: SyntaxSource | null = null
  private folds: FoldSource | null = null
  /** Folds by indentation, for languages without a fold query. */
  private readonly indentFolds: IndentFolds | null
  private destroyed = false
  private loadError: Error | null = null
  private readonly emitter = new Emitter<{
    'did-change-highlighting': undefined
    'did-tokenize-buffer-rows': TokenizedRows
  }>()

  /** A mode for `settings`' language over `buffer`, without parsers yet. */
  constructor(
    private readonly buffer: TextBuffer,
    /** The language's settings: comments, indentation, word characters. */
    readonly settings: LanguageSettings,
  ) {
    this.id = settings.id
    this.indentsRowsTogether = settings.treeSitter !== undefined
    this.indentFolds =
      settings.foldQuery === undefined
        ? new IndentFolds(buffer, { isRowCommented: (row) => this.isRowCommented(row) })
        : null
  }

  /**
   * Starts using parsers made for this mode's buffer (they then belong to the mode, which
   * destroys them with itself), and the folds read from its syntax tree. Fires
   * `onDidChangeHighlighting`.
   */
  attach(parsers: {
    scopes?: ScopeSource | null
    syntax?: SyntaxSource | null
    folds?: FoldSource | null
  }): void {
    if (this.destroyed) {
      parsers.scopes?.destroy()
      parsers.syntax?.destroy()
      return
    }
    if (parsers.scopes) {
      this.scopesSubscription?.dispose()
      this.scopes?.destroy()
      this.scopes = parsers.scopes
      this.scopesSubscription =
        parsers.scopes.onDidTokenize?.((rows) =>
          this.emitter.emit('did-tokenize-buffer-rows', rows),
        ) ?? null
    }
    if (parsers.syntax) {
      this.syntax?.destroy()
      this.syntax = parsers.syntax
      // Folds read the old tree: they go with it unless new ones come.
      this.folds = null
    }
    if (parsers.folds) this.folds = parsers.folds
    this.emitter.emit('did-change-highlighting')
  }

  /** Whether the mode is destroyed. */
  isDestroyed(): boolean {
    return this.destroyed
  }

  /** Why loading its parsers failed, if it did (it then keeps answering from its settings). */
  getLoadError(): Error | null {
    return this.loadError
  }

  /** Records that its parsers could not be loaded, and tells highlighting listeners. */
  didFailToLoad(error: unknown): void {
    this.loadError = error instanceof Error ? error : new Error(String(error))
    if (!this.destroyed) this.emitter.emit('did-change-highlighting')
  }

  /** Whether a TextMate grammar answers scope queries (false until it is loaded). */
  hasScopes(): boolean {
    return this.scopes !== null
  }

  /** Whether a syntax tree answers node-type queries. */
  hasSyntaxTree(): boolean {
    return this.syntax !== null
  }

  /** Calls `callback` when the answers about scopes may have changed (a parser was attached). */
  onDidChangeHighlighting(callback: () => void): Disposable {
    return this.emitter.on('did-change-highlighting', callback)
  }

  /**
   * The tokens of buffer row `row` from the TextMate grammar (tokenizing the rows up to it
   * that need it), or null until the grammar is attached. A row outside the buffer is a
   * RangeError.
   *
   * @example mode.tokensForBufferRow(0)?.map((token) => token.scopes.at(-1))
   */
  tokensForBufferRow(row: number): readonly TextMateToken[] | null {
    if (this.scopes?.tokensForRow === undefined) return null
    return this.scopes.tokensForRow(row)
  }

  /**
   * Tokens to draw buffer row `row` with now (see `LanguageMode.highlightTokensForBufferRow`),
   * or null until the grammar is attached, or when `work` is false and the row has none yet.
   *
   * @example mode.highlightTokensForBufferRow(20_000)
   */
  highlightTokensForBufferRow(row: number, work = true): readonly TextMateToken[] | null {
    const scopes = this.scopes
    if (scopes === null) return null
    if (scopes.tokensForDisplay !== undefined) return scopes.tokensForDisplay(row, work)
    return work ? (scopes.tokensForRow?.(row) ?? null) : null
  }

  /**
   * Tokenizes rows for about `milliseconds` at most, those up to `lastRow` first; true when
   * every row up to `lastRow` is tokenized or there is no grammar yet.
   *
   * @example mode.tokenizeBufferRowsFor(5, lastVisibleRow)
   */
  tokenizeBufferRowsFor(milliseconds: number, lastRow?: number): boolean {
    return this.scopes?.tokenizeFor?.(milliseconds, lastRow) ?? true
  }

  /**
   * Calls `callback` with each run of buffer rows the grammar just (re)tokenized: an edited
   * row and the rows after it whose starting state changed, once someone asks for them.
   *
   * @example mode.onDidTokenizeBufferRows(({ startRow, endRow }) => redraw(startRow, endRow))
   */
  onDidTokenizeBufferRows(callback: (rows: TokenizedRows) => void): Disposable {
    return this.emitter.on('did-tokenize-buffer-rows', callback)
  }

  scopeDescriptorForPosition(position: Point): ScopeDescriptor {
    if (this.scopes === null) return new ScopeDescriptor([this.settings.scopeName])
    return new ScopeDescriptor(this.scopes.scopesAt(this.buffer.clipPosition(position)))
  }

  syntaxTreeScopeDescriptorForPosition(position: Point): ScopeDescriptor {
    const types = this.syntax?.nodeTypesAt(this.buffer.clipPosition(position)) ?? []
    return new ScopeDescriptor([this.settings.scopeName, ...types])
  }

  /**
   * Whether `row` is a comment row, as Atom's language modes decide: its first non-blank
   * character lies in a comment (blank rows are not comments). A language with a tree-sitter
   * grammar answers from its syntax tree, as Atom's tree-sitter modes do, counting only the
   * node types its highlights scope as comments (`commentNodeTypes`); one with only a
   * TextMate grammar answers from the scopes there. Undefined until a parser is attached.
   *
   * @example mode.isRowCommented(0) // '  // note' => true, 'f() // note' => false
   */
  isRowCommented(row: number): boolean | undefined {
    const line = this.buffer.lineForRow(row) ?? ''
    if (this.syntax !== null && this.settings.treeSitter !== undefined) {
      const column = line.search(FIRST_NON_ASCII_SPACE)
      if (column < 0) return false
      const commentTypes = this.settings.commentNodeTypes ?? DEFAULT_COMMENT_NODE_TYPES
      const types = this.syntax.nodeTypesAt(new Point(row, column))
      return types.some((type) => commentTypes.includes(type))
    }
    if (this.scopes !== null) {
      const column = line.search(FIRST_NON_TAB_OR_SPACE)
      if (column < 0) return false
      return this.scopes.scopesAt(new Point(row, column)).some(isCommentScope)
    }
    return undefined
  }

  getNonWordCharacters(): string | undefined {
    return this.settings.nonWordCharacters
  }

  suggestedIndentForBufferRow(
    row: number,
    tabLength: number,
    options?: { skipBlankLines?: boolean; preserveLeadingWhitespace?: boolean },
  ): number {
    const line = this.buffer.lineForRow(row) ?? ''
    const level = this.indentFor(row, line, tabLength, options)
    if (!options?.preserveLeadingWhitespace || !this.indentsRowsTogether) return level
    // The row keeps its whitespace and the answer goes before it. Atom's tree-sitter modes
    // then answer the difference in whole levels, never below zero; but compared with an
    // empty first row they find no syntax layer and subtract all of it, fractions and all.
    // (A TextMate mode, as Atom's, answers the whole level.)
    const existing = indentLevelForLine(line, tabLength)
    if (row > 0 && this.comparesWithEmptyFirstRow(row, options)) return level - existing
    return Math.max(level - Math.floor(existing), 0)
  }

  /** Whether Atom's tree-sitter indentation compares `row` with row 0, and row 0 is empty. */
  private comparesWithEmptyFirstRow(row: number, options: { skipBlankLines?: boolean }): boolean {
    let comparison = row - 1
    if (options.skipBlankLines !== false) {
      while (comparison > 0 && this.buffer.isRowBlank(comparison)) comparison--
    }
    return comparison === 0 && this.buffer.lineLengthForRow(0) === 0
  }

  suggestedIndentForLineAtBufferRow(row: number, line: string, tabLength: number): number {
    // Atom's tree-sitter modes cannot parse text that is not in the buffer yet, so they answer
    // for the row as it is (a closing bracket already there dedents what is pasted before it).
    const text = this.indentsRowsTogether ? (this.buffer.lineForRow(row) ?? '') : line
    return this.indentFor(row, text, tabLength)
  }

  /**
   * A row being typed on that now matches the decrease pattern drops one level below the row
   * above (or to its level when that one opened a block); undefined when it should stay.
   */
  suggestedIndentForEditedBufferRow(row: number, tabLength: number): number | undefined {
    const { increaseIndentPattern, decreaseIndentPattern } = this.settings
    const line = this.buffer.lineForRow(row) ?? ''
    const current = indentLevelForLine(line, tabLength)
    if (current === 0 || row === 0) return undefined
    // A tree-sitter language answers for every edited row, keeping its level when nothing
    // dedents it, so the editor rewrites the row's indentation in its own unit (Atom's
    // tree-sitter modes do so); a TextMate one answers only when the row dedents.
    const keep = this.indentsRowsTogether ? current : undefined
    // A closer typed alone on its row lines up with its opener's row, as Atom's `@match`.
    const matched = this.openerLevel(row, line, tabLength)
    if (matched !== undefined && line.trim().length === 1) return matched
    if (decreaseIndentPattern === undefined || !decreaseIndentPattern.test(line)) return keep
    const above = this.buffer.previousNonBlankRow(row)
    if (above === null) return keep
    const aboveLine = this.buffer.lineForRow(above) ?? ''
    let level = indentLevelForLine(aboveLine, tabLength)
    if (increaseIndentPattern !== undefined && !increaseIndentPattern.test(aboveLine)) level -= 1
    if (level < 0) return 0
    return level < current ? level : keep
  }

  commentStringsForPosition(): CommentStrings {
    const { line, blockStart, blockEnd } = this.settings.comments
    if (line !== undefined) return { commentStartString: line }
    if (blockStart !== undefined)
      return { commentStartString: blockStart, commentEndString: blockEnd }
    return {}
  }

  getFoldableRangeContainingPoint(point: Point, tabLength: number): Range | null {
    if (this.indentFolds !== null) {
      return this.indentFolds.getFoldableRangeContainingPoint(point, tabLength)
    }
    return this.folds?.getFoldableRangeContainingPoint(point) ?? null
  }

  getFoldableRanges(tabLength: number): Range[] {
    if (this.indentFolds !== null) return this.indentFolds.getFoldableRanges(tabLength)
    return this.folds?.getFoldableRanges() ?? []
  }

  getFoldableRangesAtIndentLevel(level: number, tabLength: number): Range[] {
    if (this.indentFolds !== null) {
      return this.indentFolds.getFoldableRangesAtIndentLevel(level, tabLength)
    }
    return this.folds?.getFoldableRangesAtIndentLevel(level) ?? []
  }

  isFoldableAtRow(row: number): boolean {
    if (this.indentFolds !== null) return this.indentFolds.isFoldableAtRow(row)
    return this.folds?.isFoldableAtRow(row) ?? false
  }

  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    this.scopesSubscription?.dispose()
    this.scopes?.destroy()
    this.syntax?.destroy()
    this.scopes = null
    this.syntax = null
    this.folds = null
    this.emitter.dispose()
  }

  private indentFor(
    row: number,
    line: string,
    tabLength: number,
    options?: { skipBlankLines?: boolean },
  ): number {
    const { increaseIndentPattern, decreaseIndentPattern } = this.settings
    if (row > 0 && line === this.buffer.lineForRow(row)) {
      const matched = this.openerLevel(row, line, tabLength)
      if (matched !== undefined) return matched
    }
    const above = options?.skipBlankLines === false ? row - 1 : this.buffer.previousNonBlankRow(row)
    if (above === null || above < 0) return 0
    const aboveLine = this.buffer.lineForRow(above) ?? ''
    let level = indentLevelForLine(aboveLine, tabLength)
    if (increaseIndentPattern === undefined) return level
    if (this.isRowCommented(above) !== true && increaseIndentPattern.test(aboveLine)) level += 1
    if (!this.buffer.isRowBlank(above) && decreaseIndentPattern?.test(line)) level -= 1
    return Math.max(level, 0)
  }

  /**
   * When `row` starts with a closer that `closersMatchOpener` names (a block's `}`), the
   * indent level of the row where the node it closes starts; undefined otherwise, or when
   * there is no syntax tree to tell.
   */
  private openerLevel(row: number, line: string, tabLength: number): number | undefined {
    const closers = this.settings.closersMatchOpener
    if (closers === undefined || this.syntax?.nodeAt === undefined) return undefined
    const column = line.search(FIRST_NON_TAB_OR_SPACE)
    if (column < 0 || closers[line[column]!] === undefined) return undefined
    const node = this.syntax.nodeAt(new Point(row, column))
    const parent = node.parent
    if (parent === null || !closers[node.type]?.includes(parent.type)) return undefined
    if (node.startPosition.row !== row || node.startPosition.column !== column) return undefined
    const openerRow = parent.startPosition.row
    if (openerRow >= row) return undefined
    return indentLevelForLine(this.buffer.lineForRow(openerRow) ?? '', tabLength)
  }
}
