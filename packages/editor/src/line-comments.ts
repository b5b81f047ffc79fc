/**
 * Commenting and uncommenting rows with the language's comment tokens, as Atom's
 * `toggleLineCommentsForBufferRows` does.
 */
import { Point, Range } from '@tandem/text'
import type { EditorContext } from './editor-context.js'
import { indentLevelOf, indentString, lineText } from './indentation-edits.js'

const NON_WHITESPACE = /\S/
const LEADING_WHITESPACE = /^\s*/

/** The selection kept off new block-comment delimiters. */
export interface CommentedSelection {
  /** Its range now. */
  getBufferRange(): Range
  /** Moves it. */
  setBufferRange(range: Range, options: { autoscroll: boolean }): void
}

/** Comments or uncomments rows with the language's comment tokens (nothing without any). */
export function toggleRowComments(
  context: EditorContext,
  startRow: number,
  endRow: number,
  selection?: CommentedSelection,
): void {
  const { commentStartString, commentEndString } = context
    .languageMode()
    .commentStringsForPosition(new Point(startRow, 0))
  if (commentStartString === undefined) return
  toggleLineComments(context, startRow, endRow, commentStartString, commentEndString, selection)
}

/**
 * Comments rows `startRow`..`endRow`, or uncomments them, as Atom does. With a line comment
 * token: when every non-blank row starts with it, it is removed (with one space after it);
 * otherwise it is inserted with a space at the smallest indentation of the non-blank rows,
 * and blank rows become that indentation and the token. With block tokens: they are removed
 * when the first row starts with the opening one and the last row ends with the closing
 * one, else added around the rows, and `selection` is kept off the new delimiters.
 */
function toggleLineComments(
  context: EditorContext,
  startRow: number,
  endRow: number,
  start: string,
  end: string | undefined,
  selection?: CommentedSelection,
): void {
  const open = start.trim()
  const close = end?.trim()
  if (open === '') return
  if (close === undefined || close === '') {
    toggleLineCommentToken(context, startRow, endRow, open)
  } else {
    toggleBlockComment(context, startRow, endRow, open, close, selection)
  }
}

function toggleLineCommentToken(
  context: EditorContext,
  startRow: number,
  endRow: number,
  token: string,
): void {
  const buffer = context.buffer
  let commented = false
  let uncommented = false
  for (let row = startRow; row <= endRow; row++) {
    const line = lineText(context, row)
    if (!NON_WHITESPACE.test(line)) continue
    if (startDelimiterColumns(line, token) === null) uncommented = true
    else commented = true
  }
  if (commented && !uncommented) {
    for (let row = startRow; row <= endRow; row++) {
      const columns = startDelimiterColumns(lineText(context, row), token)
      if (columns !== null) buffer.delete(new Range([row, columns[0]], [row, columns[1]]))
    }
    return
  }
  let level = Number.POSITIVE_INFINITY
  let blankLevel = Number.POSITIVE_INFINITY
  for (let row = startRow; row <= endRow; row++) {
    const line = lineText(context, row)
    const rowLevel = indentLevelOf(context, line)
    if (NON_WHITESPACE.test(line)) level = Math.min(level, rowLevel)
    else blankLevel = Math.min(blankLevel, rowLevel)
  }
  if (!Number.isFinite(level)) level = Number.isFinite(blankLevel) ? blankLevel : 0
  const tabLength = context.tabLength()
  for (let row = startRow; row <= endRow; row++) {
    const line = lineText(context, row)
    if (NON_WHITESPACE.test(line)) {
      buffer.insert([row, columnForIndentLevel(line, level, tabLength)], `${token} `)
    } else {
      buffer.setTextInRange(
        new Range([row, 0], [row, line.length]),
        `${indentString(context, level)}${token} `,
      )
    }
  }
}

function toggleBlockComment(
  context: EditorContext,
  startRow: number,
  endRow: number,
  open: string,
  close: string,
  selection: CommentedSelection | undefined,
): void {
  const buffer = context.buffer
  const opening = startDelimiterColumns(lineText(context, startRow), open)
  if (opening !== null) {
    const closing = endDelimiterColumns(lineText(context, endRow), close)
    if (closing === null) return
    buffer.transact(() => {
      buffer.delete(new Range([endRow, closing[0]], [endRow, closing[1]]))
      buffer.delete(new Range([startRow, opening[0]], [startRow, opening[1]]))
    })
    return
  }
  buffer.transact(() => {
    const indent = LEADING_WHITESPACE.exec(lineText(context, startRow))![0].length
    buffer.insert([startRow, indent], `${open} `)
    buffer.insert([endRow, lineText(context, endRow).length], ` ${close}`)
    if (selection === undefined) return
    // Keep the selection inside the delimiters.
    const endLength = lineText(context, endRow).length
    const range = selection.getBufferRange()
    if (range.isEmpty()) {
      if (range.start.column === endLength) {
        const column = endLength - close.length - 1
        selection.setBufferRange(new Range([endRow, column], [endRow, column]), {
          autoscroll: false,
        })
      }
      return
    }
    const startShift = range.start.column === indent ? open.length + 1 : 0
    const endShift = range.end.column === endLength ? -close.length - 1 : 0
    selection.setBufferRange(range.translate([0, startShift], [0, endShift]), {
      autoscroll: false,
    })
  })
}

/** The columns of `token` (and one space after it) at the start of `line`'s text, if there. */
const startDelimiterColumns = (line: string, token: string): [number, number] | null => {
  const column = line.search(NON_WHITESPACE)
  if (column < 0 || !line.startsWith(token, column)) return null
  const end = column + token.length
  return [column, line[end] === ' ' ? end + 1 : end]
}

/** The columns of `token` (and one space before it) at the end of `line`, if there. */
const endDelimiterColumns = (line: string, token: string): [number, number] | null => {
  const column = line.lastIndexOf(token)
  if (column < 0) return null
  const end = column + token.length
  if (NON_WHITESPACE.test(line.slice(end))) return null
  return [line[column - 1] === ' ' ? column - 1 : column, end]
}

/** The column where `line`'s indentation reaches `level` (or its text starts, if sooner). */
const columnForIndentLevel = (line: string, level: number, tabLength: number): number => {
  const goal = level * tabLength
  let width = 0
  let column = 0
  while (width < goal) {
    const character = line[column]
    if (character === '\t') width += tabLength - (width % tabLength)
    else if (character === ' ') width++
    else break
    column++
  }
  return column
}
