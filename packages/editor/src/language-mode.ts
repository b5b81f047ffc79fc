import type { BufferChange, TextBuffer } from '@tandem/buffer'
import { type Disposable, Point } from '@tandem/text'

/**
 * The scopes at a position, outermost first, as in Atom.
 *
 * @example new ScopeDescriptor(['text.plain.null-grammar']).getScopesArray()
 */
export class ScopeDescriptor {
  private readonly scopes: readonly string[]

  /** Makes a descriptor from scope names, outermost first. */
  constructor(scopes: readonly string[]) {
    this.scopes = Object.freeze([...scopes])
  }

  /** The scope names, outermost first. */
  getScopesArray(): string[] {
    return [...this.scopes]
  }

  /** The scopes as a CSS-like selector: `.source.js .string.quoted`. */
  getScopeChain(): string {
    return this.scopes.map((scope) => `.${scope.replace(/ /g, '.')}`).join(' ')
  }

  /** Same as `getScopeChain`. */
  toString(): string {
    return this.getScopeChain()
  }

  /** Whether both hold the same scopes. */
  isEqual(other: ScopeDescriptor): boolean {
    const theirs = other.getScopesArray()
    return theirs.length === this.scopes.length && theirs.every((s, i) => s === this.scopes[i])
  }
}

/** What the editor asks of a language. The plain-text mode answers for text with no grammar. */
export interface LanguageMode {
  /** The language's id (`text.plain.null-grammar` for plain text). */
  readonly id: string
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
   * the row just above even when it is blank.
   */
  suggestedIndentForBufferRow(
    row: number,
    tabLength: number,
    options?: { skipBlankLines?: boolean },
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
  /** Stops following the buffer. */
  destroy(): void
}

/** A language's comment delimiters; absent ones are undefined. */
export interface CommentStrings {
  commentStartString?: string
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

const PLAIN_TEXT_SCOPE = 'text.plain.null-grammar'

/**
 * Plain text: one scope everywhere, no comments, the editor's non-word characters.
 *
 * Atom's plain-text mode knows a row only once something asked for the scopes on it (a word
 * movement does, through the non-word characters); `isRowCommented` is false for such rows
 * and undefined for the others, and editing a row forgets it. Paragraph ranges stop where
 * that answer changes, so this mode keeps the same record to give the same paragraphs.
 *
 * @example new PlainTextMode(buffer).scopeDescriptorForPosition(new Point(0, 0)).getScopesArray()
 */
export class PlainTextMode implements LanguageMode {
  readonly id = PLAIN_TEXT_SCOPE
  private readonly descriptor = new ScopeDescriptor([PLAIN_TEXT_SCOPE])
  private readRows = new Set<number>()
  private readonly subscription: Disposable

  /** Follows `buffer`'s changes to forget edited rows. */
  constructor(private readonly buffer: TextBuffer) {
    this.subscription = buffer.onDidChange(({ changes }) => this.forgetEditedRows(changes))
  }

  scopeDescriptorForPosition(position: Point): ScopeDescriptor {
    this.readRows.add(this.buffer.clipPosition(position).row)
    return this.descriptor
  }

  syntaxTreeScopeDescriptorForPosition(): ScopeDescriptor {
    return this.descriptor
  }

  isRowCommented(row: number): boolean | undefined {
    return this.readRows.has(row) ? false : undefined
  }

  getNonWordCharacters(position: Point): string | undefined {
    this.scopeDescriptorForPosition(position)
    return undefined
  }

  /** Plain text keeps the indentation of the row above (the nearest non-blank one by default). */
  suggestedIndentForBufferRow(
    row: number,
    tabLength: number,
    options?: { skipBlankLines?: boolean },
  ): number {
    // Atom reads the row's scopes first, so the row counts as read.
    this.scopeDescriptorForPosition(new Point(row, 0))
    return this.indentOfRowAbove(row, tabLength, options?.skipBlankLines !== false)
  }

  suggestedIndentForLineAtBufferRow(row: number, _line: string, tabLength: number): number {
    return this.indentOfRowAbove(row, tabLength, true)
  }

  /** Plain text never outdents a row being typed on. */
  suggestedIndentForEditedBufferRow(): undefined {
    return undefined
  }

  commentStringsForPosition(): CommentStrings {
    return {}
  }

  destroy(): void {
    this.subscription.dispose()
  }

  private indentOfRowAbove(row: number, tabLength: number, skipBlankLines: boolean): number {
    const above = skipBlankLines ? this.buffer.previousNonBlankRow(row) : row - 1
    if (above === null || above < 0) return 0
    return indentLevelForLine(this.buffer.lineForRow(above) ?? '', tabLength)
  }

  private forgetEditedRows(changes: readonly BufferChange[]): void {
    if (this.readRows.size === 0) return
    for (let i = changes.length - 1; i >= 0; i--) {
      const { oldRange, newRange } = changes[i]!
      const start = oldRange.start.row
      const oldEnd = oldRange.end.row
      const delta = newRange.end.row - newRange.start.row - (oldEnd - start)
      if (delta === 0) {
        for (let row = start; row <= oldEnd; row++) this.readRows.delete(row)
        continue
      }
      const kept = new Set<number>()
      for (const row of this.readRows) {
        if (row < start) kept.add(row)
        else if (row > oldEnd) kept.add(row + delta)
      }
      this.readRows = kept
    }
  }
}
