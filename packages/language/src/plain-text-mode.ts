import type { BufferChange, TextBuffer } from '@tandem/buffer'
import { type Disposable, Point, type Range } from '@tandem/text'
import { IndentFolds } from './indent-folds.js'
import { type CommentStrings, indentLevelForLine, type LanguageMode } from './language-mode.js'
import { ScopeDescriptor } from './scope-descriptor.js'

/** The language id of plain text. */
export const PLAIN_TEXT = 'plaintext'

const PLAIN_TEXT_SCOPE = 'text.plain.null-grammar'

/**
 * Plain text: one scope everywhere, no comments, the editor's non-word characters.
 *
 * Atom's plain-text mode knows a row only once something asked for the scopes on it (a word
 * movement does, through the non-word characters); `isRowCommented` is false for such rows
 * and undefined for the others, and editing a row forgets it. Paragraph ranges stop where
 * that answer changes, so this mode keeps the same record to give the same paragraphs.
 *
 * Folds follow indentation (see `IndentFolds`); looking for a fold at a row reads the row,
 * as in Atom.
 *
 * @example new PlainTextMode(buffer).scopeDescriptorForPosition(new Point(0, 0)).getScopesArray()
 */
export class PlainTextMode implements LanguageMode {
  readonly id = PLAIN_TEXT
  private readonly descriptor = new ScopeDescriptor([PLAIN_TEXT_SCOPE])
  private readRows = new Set<number>()
  private readonly subscription: Disposable
  private readonly folds: IndentFolds

  /**
   * Follows `buffer`'s edits as each is made to forget edited rows (as Atom's mode does, so
   * that a row read later in the same transaction stays read).
   */
  constructor(private readonly buffer: TextBuffer) {
    this.subscription = buffer.followEdits({
      textDidChange: (changes) => this.forgetEditedRows(changes),
      textDidReset: () => this.readRows.clear(),
      transactionDidEnd: () => {},
    })
    this.folds = new IndentFolds(buffer, { didExamineRow: (row) => this.readRows.add(row) })
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

  /**
   * Plain text never outdents a row being typed on. Atom first reads the scopes of an
   * indented row to find its outdent pattern, so such a row counts as read.
   */
  suggestedIndentForEditedBufferRow(row: number, tabLength: number): undefined {
    const line = this.buffer.lineForRow(row)
    if (line !== undefined && indentLevelForLine(line, tabLength) !== 0) {
      this.scopeDescriptorForPosition(new Point(row, 0))
    }
    return undefined
  }

  /** Plain text has no comment syntax; Atom reads the scopes at `position` to find that out. */
  commentStringsForPosition(position: Point): CommentStrings {
    this.scopeDescriptorForPosition(position)
    return {}
  }

  getFoldableRangeContainingPoint(point: Point, tabLength: number): Range | null {
    return this.folds.getFoldableRangeContainingPoint(point, tabLength)
  }

  getFoldableRanges(tabLength: number): Range[] {
    return this.folds.getFoldableRanges(tabLength)
  }

  getFoldableRangesAtIndentLevel(level: number, tabLength: number): Range[] {
    return this.folds.getFoldableRangesAtIndentLevel(level, tabLength)
  }

  isFoldableAtRow(row: number): boolean {
    return this.folds.isFoldableAtRow(row)
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
