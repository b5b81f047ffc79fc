/**
 * What Atom's bracket-matcher package does to an editor, as a model: typed brackets and
 * quotes close themselves, a typed closer steps over the one that was put in for it, a typed
 * opener wraps the selections, Backspace and Enter treat an empty pair as one thing, and the
 * bracket next to the cursor knows its partner (for a view to highlight, and for the go-to,
 * select-inside and remove commands).
 */
import { CompositeDisposable, type Disposable, Emitter, Point, Range } from '@tandem/text'
import {
  BracketPairs,
  bracketPairsForLanguage,
  DEFAULT_BRACKET_PAIRS,
  DEFAULT_PAIRS_WITH_EXTRA_NEWLINE,
  isQuote,
} from './bracket-pairs.js'
import type { DisplayMarker, DisplayMarkerLayer } from './display-marker.js'
import { contextOf } from './editor-context.js'
import type { WillInsertTextEvent } from './editor-options.js'
import {
  type BracketMatch,
  type BracketText,
  editorBracketText,
  findBracketPair,
  findEnclosingOpener,
  findMatchingCloser,
  findMatchingOpener,
} from './matching-brackets.js'
import type { Selection } from './selection.js'
import { TextEditor } from './text-editor.js'

/** Settings of a `BracketMatcher`, Atom's bracket-matcher settings by other names. */
export interface BracketMatcherOptions {
  /**
   * Typing an opener inserts its closer too, and Backspace in an empty pair deletes both
   * (Atom's `autocompleteBrackets`). Default true.
   */
  autoClose?: boolean
  /** Typing an opener with text selected wraps the selections (`wrapSelectionsInBrackets`). Default true. */
  wrapSelections?: boolean
  /**
   * Typing a closer just before the same closer always steps over it, not only over closers
   * that were put in for a typed opener (`alwaysSkipClosingPairs`). Default false.
   */
  alwaysSkipClosingPairs?: boolean
  /** The pairs, as two-character strings (`autocompleteCharacters`). Default `DEFAULT_BRACKET_PAIRS`. */
  pairs?: readonly string[]
  /** Pairs for particular languages, by language id, instead of `pairs` (Atom's scoped settings). */
  languagePairs?: Readonly<Record<string, readonly string[]>>
  /** The pairs Enter splits onto three lines. Default `DEFAULT_PAIRS_WITH_EXTRA_NEWLINE`. */
  pairsWithExtraNewline?: readonly string[]
  /**
   * Complete openers typed inside a string or a comment too. Default false: there a typed
   * bracket or quote is usually prose or closes the string. Atom's bracket-matcher completes
   * them everywhere; pass true for its behaviour.
   */
  closeInStringsAndComments?: boolean
}

const WORD_CHARACTER = /\w/
/** A TextMate scope of a string or a comment (`string.quoted.double.js`, `comment.line`). */
const LITERAL_SCOPE = /^(string|comment)(?:\.|$)/
/** How many typed closers are remembered for stepping over, at least (more with many cursors). */
const MAX_REMEMBERED_CLOSERS = 256
const TRAILING_BACKSLASHES = /(\\+)$/
const BACKSLASHES_THEN_ONE = /(\\+)[^\\]$/

/** An odd run of backslashes ends `text`: the next character typed is escaped. */
const endsWithEscapeCharacter = (text: string): boolean => {
  const backslashes = TRAILING_BACKSLASHES.exec(text)
  return backslashes !== null && backslashes[1]!.length % 2 === 1
}

/** `text` ends with a complete escape: an even run of backslashes, or an odd one and a character. */
const endsWithEscapeSequence = (text: string): boolean => {
  const escaped = BACKSLASHES_THEN_ONE.exec(text)
  if (escaped !== null && escaped[1]!.length % 2 === 1) return true
  const backslashes = TRAILING_BACKSLASHES.exec(text)
  return backslashes !== null && backslashes[1]!.length % 2 === 0
}

/** The text around one cursor that the typing rules look at. */
interface CursorContext {
  readonly selection: Selection
  readonly position: Point
  /** The row up to the cursor. */
  readonly before: string
  /** The character just before the cursor ('' at the start of a row). */
  readonly previous: string
  /** The character just after the cursor ('' at the end of a row). */
  readonly next: string
}

/**
 * Atom's bracket-matcher over one editor. Typing is watched through the editor's
 * `onWillInsertText`: a single opener or closer given to `insertText` (which typing and
 * programs call alike) may be turned into a pair, a step over a closer, or a wrap, each one
 * undo step. Pastes, text inserted with `select` or `undo: 'skip'` (IME composition) and
 * text of more than one character are left alone, as in Atom. Backspace and Enter are not
 * events of the editor: a view calls `backspace()` and `newline()` first and does the plain
 * edit when they return false.
 *
 * With several cursors, a typing rule applies when it applies at every cursor (then at each),
 * else the text is inserted as typed; Atom's package stands aside whenever there is more than
 * one cursor.
 *
 * @example
 * const editor = new TextEditor({ text: 'f' })
 * const brackets = new BracketMatcher(editor)
 * editor.moveToEndOfLine()
 * editor.insertText('(') // the text is now 'f()', the cursor between the brackets
 */
export class BracketMatcher {
  private readonly editor: TextEditor
  private readonly autoClose: boolean
  private readonly closeInStringsAndComments: boolean
  private readonly wrapSelections: boolean
  private readonly alwaysSkipClosingPairs: boolean
  private readonly pairStrings: readonly string[]
  private readonly languagePairs: Readonly<Record<string, readonly string[]>>
  private readonly extraNewlinePairs: readonly string[]
  private pairs: BracketPairs
  /** The closers put in for typed openers: a closer typed just before one steps over it. */
  private readonly closers: DisplayMarkerLayer
  /** The markers of `closers`, oldest first. */
  private closerMarkers: DisplayMarker[] = []
  private readonly emitter = new Emitter<{ 'did-change-match': undefined }>()
  private readonly subscriptions = new CompositeDisposable()
  private languageSubscriptions = new CompositeDisposable()
  /** The pair `selectMatchingBrackets` selected: typing a bracket over it changes its kind. */
  private selectedPair: readonly [Range, Range] | undefined
  /** The last answer of `matchingBracketRanges`; null when it must be found again. */
  private match: BracketMatch | undefined | null = null
  /** While the matcher edits or searches: its own insertions and tokenizing are not news. */
  private busy = false
  private destroyed = false

  /** Starts matching and completing brackets in `editor` (until `destroy`, or the editor's). */
  constructor(editor: TextEditor, options: BracketMatcherOptions = {}) {
    if (!(editor instanceof TextEditor)) {
      throw new TypeError(`editor must be a TextEditor, got ${String(editor)}`)
    }
    this.editor = editor
    this.autoClose = options.autoClose ?? true
    this.wrapSelections = options.wrapSelections ?? true
    this.alwaysSkipClosingPairs = options.alwaysSkipClosingPairs ?? false
    this.pairStrings = options.pairs ?? DEFAULT_BRACKET_PAIRS
    this.languagePairs = options.languagePairs ?? {}
    this.extraNewlinePairs = options.pairsWithExtraNewline ?? DEFAULT_PAIRS_WITH_EXTRA_NEWLINE
    this.closeInStringsAndComments = options.closeInStringsAndComments ?? false
    this.pairs = this.pairsForLanguage()
    this.closers = editor.addMarkerLayer()
    const lastCursorChanged = () => this.matchMayHaveChanged()
    this.subscriptions.add(
      editor.onWillInsertText((event) => this.willInsertText(event)),
      editor.onDidChangeCursorPosition((event) => {
        if (event.cursor === editor.getLastCursor()) lastCursorChanged()
      }),
      editor.onDidChangeSelectionRange((event) => {
        if (event.selection === editor.getLastSelection()) lastCursorChanged()
      }),
      editor.onDidAddCursor(lastCursorChanged),
      editor.onDidRemoveCursor(lastCursorChanged),
      editor.getBuffer().onDidChange(lastCursorChanged),
      editor.onDidChangeGrammar(() => {
        this.pairs = this.pairsForLanguage()
        this.watchLanguage()
        this.matchMayHaveChanged()
      }),
      editor.onDidDestroy(() => this.destroy()),
    )
    this.watchLanguage()
  }

  /** The pairs in use now (they follow the editor's language). */
  getPairs(): BracketPairs {
    return this.pairs
  }

  /**
   * The bracket next to the last cursor and its match (Atom's rule: the character after the
   * cursor, else before it), or undefined: no bracket there, no match for it within
   * `MAX_ROWS_TO_SCAN` rows, or the last selection is not empty. Brackets in comments and
   * strings neither match nor count.
   *
   * @example new BracketMatcher(new TextEditor({ text: '(a)' })).matchingBracketRanges() // => [[0,0]-[0,1], [0,2]-[0,3]]
   */
  matchingBracketRanges(): readonly [Range, Range] | undefined {
    if (this.destroyed) return undefined
    if (this.match === null) {
      const selection = this.editor.getLastSelection()
      this.match = selection.isEmpty()
        ? this.quietly(() =>
            findBracketPair(
              editorBracketText(this.editor),
              this.pairs,
              selection.getHeadBufferPosition(),
            ),
          )
        : undefined
    }
    return this.match === undefined ? undefined : [this.match.bracket, this.match.match]
  }

  /** Fires when matchingBracketRanges() may have changed (cursor moves, edits). */
  onDidChangeMatch(callback: () => void): Disposable {
    return this.emitter.on('did-change-match', callback)
  }

  /**
   * Moves every cursor to the partner of the bracket next to it: from before a bracket to
   * after its partner, from after a bracket to before its partner. A cursor next to no
   * matched bracket (or with text selected) goes to the bracket enclosing it. Atom's ctrl-m.
   */
  goToMatchingBracket(): void {
    const text = editorBracketText(this.editor)
    this.quietly(() =>
      this.editor.moveCursors((cursor) => {
        const position = cursor.getBufferPosition()
        const pair =
          (cursor.selection?.isEmpty() ?? true)
            ? findBracketPair(text, this.pairs, position)
            : undefined
        let target: Point | undefined
        if (pair !== undefined) {
          const match = pair.match.start
          target = pair.bracket.start.isEqual(position)
            ? new Point(match.row, match.column + 1)
            : match
        } else {
          target = findEnclosingOpener(text, this.pairs, position)
        }
        if (target !== undefined) cursor.setBufferPosition(target)
      }),
    )
  }

  /**
   * Moves every cursor to the bracket enclosing it: the nearest opener before it that is not
   * closed before it. Atom's go-to-enclosing-bracket (no key by default).
   */
  goToEnclosingBracket(): void {
    const text = editorBracketText(this.editor)
    this.quietly(() =>
      this.editor.moveCursors((cursor) => {
        const target = findEnclosingOpener(text, this.pairs, cursor.getBufferPosition())
        if (target !== undefined) cursor.setBufferPosition(target)
      }),
    )
  }

  /**
   * Selects the text between the bracket next to each cursor and its partner, or else
   * between the brackets enclosing the cursor. Atom's ctrl-alt-, (ctrl-cmd-m on macOS).
   */
  selectInsideBrackets(): void {
    const text = editorBracketText(this.editor)
    this.quietly(() =>
      this.editor.expandSelectionsForward((selection) => {
        const position = selection.getHeadBufferPosition()
        const pair = selection.isEmpty() ? findBracketPair(text, this.pairs, position) : undefined
        let inside: Range | undefined
        if (pair !== undefined) {
          const [first, second] =
            pair.bracket.compare(pair.match) < 0
              ? [pair.bracket, pair.match]
              : [pair.match, pair.bracket]
          inside = new Range(first.end, second.start)
        } else {
          const opener = findEnclosingOpener(text, this.pairs, position)
          if (opener !== undefined) {
            const bracket = this.editor.getTextInBufferRange(charAt(opener))
            const closer = this.pairs.closerFor(bracket)!
            const match = findMatchingCloser(text, opener, bracket, closer)
            if (match !== undefined) inside = new Range(charAt(opener).end, match)
          }
        }
        if (inside !== undefined) selection.setBufferRange(inside)
      }),
    )
  }

  /**
   * Deletes the bracket before each cursor (or the selected bracket) together with its
   * partner; where there is none, does what Backspace does. One undo step. Atom's
   * remove-matching-brackets (ctrl-alt-backspace; ctrl-backspace on macOS).
   */
  removeBrackets(): void {
    if (!contextOf(this.editor).mayEdit('removeBrackets')) return
    const text = editorBracketText(this.editor)
    const buffer = this.editor.getBuffer()
    const deletions: Range[] = []
    const backspacing: Selection[] = []
    this.quietly(() => {
      for (const selection of this.editor.getSelections()) {
        let range = selection.getBufferRange()
        if (range.isEmpty() && range.start.column > 0) {
          range = new Range(range.start.translate([0, -1]), range.start)
        }
        const partner = this.partnerOf(text, range)
        if (partner !== undefined) deletions.push(range, partner)
        else backspacing.push(selection)
      }
    })
    if (deletions.length === 0) {
      this.editor.backspace()
      return
    }
    deletions.sort((a, b) => b.start.compare(a.start))
    this.editor.mergeIntersectingSelections(() =>
      this.editor.transact(() => {
        let previous: Range | undefined
        for (const range of deletions) {
          // Two cursors may name the same character; delete it once.
          if (previous !== undefined && range.end.compare(previous.start) > 0) continue
          buffer.delete(range)
          previous = range
        }
        for (const selection of backspacing) selection.backspace()
      }),
    )
  }

  /**
   * Selects the bracket next to the last cursor and its partner (the pair
   * `matchingBracketRanges` gives), so that typing a bracket next changes the pair's kind:
   * `(a)` becomes `[a]` by typing `[` or `]`. Atom's select-matching-brackets (no key by
   * default).
   */
  selectMatchingBrackets(): void {
    const pair = this.matchingBracketRanges()
    if (pair === undefined) return
    this.editor.setSelectedBufferRanges(pair)
    this.selectedPair = pair
  }

  /**
   * Removes the brackets around each selection that starts with an opener and ends with its
   * closer (`"text"`, `(a, b)`), keeping the text inside selected. Returns whether any were
   * removed (a view lets the key do something else when not). Atom's ctrl-].
   */
  removeBracketsFromSelection(): boolean {
    if (!contextOf(this.editor).mayEdit('removeBracketsFromSelection')) return false
    let removed = false
    this.editor.mutateSelectedText((selection) => {
      const selected = selection.getText()
      if (selected.length < 2) return
      if (this.pairs.closerFor(selected[0]!) !== selected[selected.length - 1]) return
      const range = selection.getBufferRange()
      const reversed = selection.isReversed()
      selection.insertText(selected.slice(1, -1))
      const end = range.end.translate([0, range.isSingleLine() ? -2 : -1])
      selection.setBufferRange(new Range(range.start, end), { reversed })
      removed = true
    })
    return removed
  }

  /**
   * Typing backspace: deletes an empty auto-closed pair around each cursor in one step; returns false when it does not apply (the caller then does a normal backspace).
   * As in Atom, any empty pair counts (`(|)`), typed together or not, unless the opener is
   * escaped; it does not apply with text selected, with `autoClose` off, or in a read-only
   * editor (whose own backspace then reports the attempt).
   *
   * @example if (!brackets.backspace()) editor.backspace()
   */
  backspace(): boolean {
    if (!this.autoClose || this.editor.isReadOnly()) return false
    const contexts = this.cursorContexts()
    const applies = contexts?.every(
      (c) =>
        c.next !== '' &&
        this.pairs.closerFor(c.previous) === c.next &&
        !endsWithEscapeCharacter(c.before),
    )
    if (contexts === undefined || !applies) return false
    this.quietly(() =>
      this.editor.mutateSelectedText((selection) => {
        const at = selection.getHeadBufferPosition()
        selection.setBufferRange(
          new Range(new Point(at.row, at.column - 1), new Point(at.row, at.column + 1)),
        )
        selection.delete()
      }),
    )
    return true
  }

  /**
   * Typing enter between a pair like {|}: puts the closer on its own line, indented (pairsWithExtraNewline); returns false when it does not apply.
   * The cursor goes to the empty line between, indented as the language says when the editor
   * auto-indents. One undo step. It does not apply with text selected or in a read-only editor.
   *
   * @example if (!brackets.newline()) editor.insertNewline()
   */
  newline(): boolean {
    if (this.editor.isReadOnly()) return false
    const contexts = this.cursorContexts()
    const applies = contexts?.every(
      (c) => this.pairs.takesExtraNewline(c.previous, c.next) && !endsWithEscapeCharacter(c.before),
    )
    if (contexts === undefined || !applies) return false
    this.quietly(() =>
      this.editor.transact(() => {
        this.editor.insertText('\n\n')
        this.editor.moveCursors((cursor) => cursor.moveUp())
        if (this.editor.shouldAutoIndent()) {
          for (const cursor of this.editor.getCursors()) {
            const row = cursor.getBufferRow()
            this.editor.autoIndentBufferRows(row, row + 1)
          }
        }
      }),
    )
    return true
  }

  /** Stops watching the editor; its closers are forgotten. Safe to call twice. */
  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    this.subscriptions.dispose()
    this.languageSubscriptions.dispose()
    this.closers.destroy()
    this.emitter.dispose()
  }

  private willInsertText(event: WillInsertTextEvent): void {
    if (this.busy || this.destroyed || event.source !== 'insertText') return
    const { text, options } = event
    // Most keys are neither an opener nor a closer: leave them at once, whatever the cursors.
    if (!this.pairs.isOpener(text) && !this.pairs.isCloser(text)) return
    if (options.select || options.undo === 'skip') return
    const forwarded = { bypassReadOnly: options.bypassReadOnly, autoscroll: options.autoscroll }
    if (this.changeSelectedPair(text, forwarded)) {
      event.cancel()
      return
    }
    if (this.wrapSelectedText(text, forwarded)) {
      event.cancel()
      return
    }
    const contexts = this.cursorContexts(true)
    if (contexts === undefined) return
    if (this.pairs.isCloser(text) && contexts.every((c) => this.stepsOver(text, c))) {
      event.cancel()
      for (const context of contexts) this.closerAt(context.position)?.destroy()
      this.editor.moveCursors((cursor) => cursor.moveRight(1, { moveToEndOfSelection: true }))
      return
    }
    const closer = this.pairs.closerFor(text)
    if (closer !== undefined && contexts.every((c) => this.closes(text, c))) {
      event.cancel()
      this.quietly(() =>
        this.editor.transact(() => {
          this.editor.insertText(text + closer, forwarded)
          this.editor.moveCursors((cursor) => cursor.moveLeft(1, { moveToEndOfSelection: true }))
        }),
      )
      this.rememberClosers(closer.length)
    }
  }

  /**
   * Marks the closers just put in after the cursors, and forgets old ones: those deleted or
   * stepped over, and the oldest beyond a bound, so that every edit does not carry the
   * markers of a whole session (Atom kept them all).
   */
  private rememberClosers(length: number): void {
    const cursors = this.editor.getCursors()
    for (const cursor of cursors) {
      const at = cursor.getBufferPosition()
      const range = new Range(at, new Point(at.row, at.column + length))
      this.closerMarkers.push(this.closers.markBufferRange(range, { exclusive: true }))
    }
    const bound = Math.max(MAX_REMEMBERED_CLOSERS, 2 * cursors.length)
    let excess = this.closerMarkers.length - bound
    this.closerMarkers = this.closerMarkers.filter((marker) => {
      const keep =
        excess <= 0 &&
        !marker.isDestroyed() &&
        marker.isValid() &&
        !marker.getBufferRange().isEmpty()
      excess--
      if (!keep) marker.destroy()
      return keep
    })
  }

  /** Atom's rule for completing an opener typed at a cursor. */
  private closes(opener: string, context: CursorContext): boolean {
    if (!this.autoClose || WORD_CHARACTER.test(context.next)) return false
    if (endsWithEscapeCharacter(context.before)) return false
    // Inside a string or a comment a bracket is prose, except the `{` of an interpolation.
    const interpolation = opener === '{' && context.previous === '$'
    if (
      !this.closeInStringsAndComments &&
      !interpolation &&
      this.isInsideStringOrComment(context.position)
    ) {
      return false
    }
    if (!isQuote(opener)) return true
    return !(
      WORD_CHARACTER.test(context.previous) ||
      (isQuote(context.previous) && context.previous === opener) ||
      endsWithEscapeSequence(context.before)
    )
  }

  /**
   * Whether `position` lies inside a string or a comment: the characters on both sides of it
   * are in one (after a closing quote or before an opening one, it is outside).
   */
  private isInsideStringOrComment(position: Point): boolean {
    const { row, column } = position
    const buffer = this.editor.getBuffer()
    if (column > 0 && column === buffer.lineLengthForRow(row)) {
      // At the end of a row there is no character after: inside when the last one is in a
      // line comment, or in the middle of a string or comment that goes on (not its closer).
      const scopes = this.editor
        .scopeDescriptorForBufferPosition(new Point(row, column - 1))
        .getScopesArray()
      if (scopes.some((scope) => scope.startsWith('comment.line'))) return true
      const literal = scopes.some((scope) => LITERAL_SCOPE.test(scope))
      return literal && !scopes.some((scope) => scope.startsWith('punctuation.definition'))
    }
    const after = this.literalKindAt(position)
    if (after === undefined) return false
    if (column === 0 && row === 0) return false
    const before =
      column > 0
        ? new Point(row, column - 1)
        : new Point(row - 1, buffer.lineLengthForRow(row - 1) ?? 0)
    return this.literalKindAt(before) === after
  }

  /** `string` or `comment` when the character at `position` has such a scope. */
  private literalKindAt(position: Point): string | undefined {
    const scopes = this.editor.scopeDescriptorForBufferPosition(position).getScopesArray()
    for (let i = scopes.length - 1; i >= 0; i--) {
      const kind = LITERAL_SCOPE.exec(scopes[i]!)?.[1]
      if (kind !== undefined) return kind
    }
    return undefined
  }

  /** Atom's rule for stepping over the closer just after a cursor instead of typing another. */
  private stepsOver(closer: string, context: CursorContext): boolean {
    if (context.next !== closer || endsWithEscapeCharacter(context.before)) return false
    return this.alwaysSkipClosingPairs || this.closerAt(context.position) !== undefined
  }

  /** A closer put in for a typed opener that starts at `position` and is still there. */
  private closerAt(position: Point) {
    return this.closers
      .findMarkers({ startPosition: position })
      .find((marker) => marker.isValid() && !marker.getBufferRange().isEmpty())
  }

  /**
   * Replaces the pair `selectMatchingBrackets` selected (if it is still what is selected) by
   * the pair of the bracket typed, as Atom's change-brackets mode does.
   */
  private changeSelectedPair(typed: string, options: { bypassReadOnly?: boolean }): boolean {
    const pair = this.selectedPair
    this.selectedPair = undefined
    if (pair === undefined) return false
    const selected = this.editor.getSelectedBufferRanges()
    const still =
      selected.length === 2 && pair.every((range) => selected.some((other) => other.isEqual(range)))
    const opener = this.pairs.openerFor(typed) ?? typed
    const closer = this.pairs.closerFor(opener)
    if (!still || closer === undefined) return false
    this.quietly(() =>
      this.editor.mutateSelectedText((selection) => {
        const old = selection.getText()
        if (this.pairs.isOpener(old)) selection.insertText(opener, options)
        else if (this.pairs.isCloser(old)) selection.insertText(closer, options)
      }),
    )
    return true
  }

  /** Wraps the non-empty selections in the pair `opener` starts, keeping them selected. */
  private wrapSelectedText(opener: string, options: { bypassReadOnly?: boolean }): boolean {
    const closer = this.pairs.closerFor(opener)
    if (closer === undefined || !this.wrapSelections) return false
    if (this.editor.getSelections().every((selection) => selection.isEmpty())) return false
    this.quietly(() =>
      this.editor.mutateSelectedText((selection) => {
        if (selection.isEmpty()) return
        const range = selection.getBufferRange()
        const reversed = selection.isReversed()
        selection.insertText(`${opener}${selection.getText()}${closer}`, options)
        const start = range.start.translate([0, opener.length])
        const end = range.isSingleLine() ? range.end.translate([0, opener.length]) : range.end
        selection.setBufferRange(new Range(start, end), { reversed })
      }),
    )
    return true
  }

  /**
   * The text around each cursor, in buffer order. With `allowSelections` false, undefined
   * when any selection is not empty (Backspace and Enter then do their plain edit).
   */
  private cursorContexts(allowSelections = false): CursorContext[] | undefined {
    const contexts: CursorContext[] = []
    for (const selection of this.editor.getSelectionsOrderedByBufferPosition()) {
      if (!allowSelections && !selection.isEmpty()) return undefined
      const position = selection.getHeadBufferPosition()
      const line = this.editor.lineTextForBufferRow(position.row) ?? ''
      const before = line.slice(0, position.column)
      contexts.push({
        selection,
        position,
        before,
        previous: before.slice(-1),
        next: line.slice(position.column, position.column + 1),
      })
    }
    return contexts
  }

  /** The partner of the one bracket in `range`, as a range, if it has one. */
  private partnerOf(text: BracketText, range: Range): Range | undefined {
    if (!range.isSingleLine() || range.end.column - range.start.column !== 1) return undefined
    const character = this.editor.getTextInBufferRange(range)
    const closer = this.pairs.closerFor(character)
    const opener = this.pairs.openerFor(character)
    const partner =
      closer !== undefined
        ? findMatchingCloser(text, range.start, character, closer)
        : opener !== undefined
          ? findMatchingOpener(text, range.start, opener, character)
          : undefined
    return partner === undefined ? undefined : charAt(partner)
  }

  private pairsForLanguage(): BracketPairs {
    const strings = bracketPairsForLanguage(
      this.editor.getGrammar(),
      this.languagePairs,
      this.pairStrings,
    )
    return BracketPairs.from(strings, this.extraNewlinePairs)
  }

  /** Follows the language's tokenizing: scopes decide which brackets are code. */
  private watchLanguage(): void {
    this.languageSubscriptions.dispose()
    this.languageSubscriptions = new CompositeDisposable()
    const mode = this.editor.getLanguageMode()
    const changed = () => {
      if (!this.busy) this.matchMayHaveChanged()
    }
    const tokenized = mode.onDidTokenizeBufferRows?.(changed)
    const highlighted = mode.onDidChangeHighlighting?.(changed)
    if (tokenized !== undefined) this.languageSubscriptions.add(tokenized)
    if (highlighted !== undefined) this.languageSubscriptions.add(highlighted)
  }

  private matchMayHaveChanged(): void {
    if (this.destroyed) return
    this.match = null
    this.emitter.emit('did-change-match')
  }

  /**
   * Runs a search or an edit of the matcher's own: the tokenizing it causes is not news, and
   * its `insertText` calls are not typing.
   */
  private quietly<T>(fn: () => T): T {
    const wasBusy = this.busy
    this.busy = true
    try {
      return fn()
    } finally {
      this.busy = wasBusy
    }
  }
}

const charAt = (position: Point): Range =>
  new Range(position, new Point(position.row, position.column + 1))
