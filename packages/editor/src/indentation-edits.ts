/**
 * Indentation as the editor's settings and language see it: indent levels, indentation
 * strings, and re-indenting rows as the language suggests. Free functions over an
 * `EditorContext`, shared by the editor's methods and the selections' edits.
 */
import { indentLevelForLine } from '@tandem/language'
import { Point, Range } from '@tandem/text'
import type { EditorContext } from './editor-context.js'

const LEADING_WHITESPACE = /^\s*/

/** A buffer row's text without its line ending ('' past the end). */
export const lineText = (context: EditorContext, row: number): string =>
  context.buffer.lineForRow(row) ?? ''

/** The indent level of a line of text with the editor's tab length. */
export const indentLevelOf = (context: EditorContext, line: string): number =>
  indentLevelForLine(line, context.tabLength())

/** Indentation for `level` levels (soft or hard tabs), less what `column` already covers. */
export function indentString(context: EditorContext, level: number, column = 0): string {
  const tabLength = context.tabLength()
  if (context.softTabs()) {
    return ' '.repeat(Math.max(0, Math.floor(level * tabLength) - (column % tabLength)))
  }
  const spaces = ' '.repeat(Math.max(0, Math.round((level - Math.floor(level)) * tabLength)))
  return '\t'.repeat(Math.max(0, Math.floor(level))) + spaces
}

/** Sets a row's indentation to `level`, replacing its leading whitespace (or inserting before it). */
export function setRowIndentation(
  context: EditorContext,
  row: number,
  level: number,
  options: { preserveLeadingWhitespace?: boolean } = {},
): void {
  const end = options.preserveLeadingWhitespace
    ? 0
    : LEADING_WHITESPACE.exec(lineText(context, row))![0].length
  context.buffer.setTextInRange(
    new Range(new Point(row, 0), new Point(row, end)),
    indentString(context, level),
  )
}

/** The indent level the language suggests for a row. */
export const suggestedRowIndent = (
  context: EditorContext,
  row: number,
  options?: { skipBlankLines?: boolean },
): number | undefined =>
  context.languageMode().suggestedIndentForBufferRow(row, context.tabLength(), options)

/** The indent level the language suggests for `line` placed at `row`. */
export const suggestedLineIndent = (
  context: EditorContext,
  row: number,
  line: string,
): number | undefined =>
  context.languageMode().suggestedIndentForLineAtBufferRow(row, line, context.tabLength())

/** Indents a row as the language suggests. */
export function autoIndentRow(
  context: EditorContext,
  row: number,
  options?: { preserveLeadingWhitespace?: boolean; skipBlankLines?: boolean },
): void {
  const level = suggestedRowIndent(context, row, options)
  if (level !== undefined) setRowIndentation(context, row, level, options)
}

/** Indents rows `startRow` to `endRow` as the language suggests. */
export function autoIndentRows(context: EditorContext, startRow: number, endRow: number): void {
  const indentRows = () => {
    for (let row = startRow; row <= endRow; row++) autoIndentRow(context, row)
  }
  if (context.languageMode().indentsRowsTogether === true) context.buffer.transact(indentRows)
  else indentRows()
}

/** Outdents a row being typed on when the language says so (a closing bracket). */
export function autoDecreaseRowIndent(context: EditorContext, row: number): void {
  const level = context.languageMode().suggestedIndentForEditedBufferRow(row, context.tabLength())
  if (level === undefined) return
  // Typing on a row asks this at every keystroke, mostly for the level the row has: an
  // identical rewrite would churn the shared text (and move peers' carets in it) for nothing.
  const current = LEADING_WHITESPACE.exec(lineText(context, row))![0]
  if (current === indentString(context, level)) return
  setRowIndentation(context, row, level)
}
