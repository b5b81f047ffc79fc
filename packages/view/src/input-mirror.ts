/**
 * What the hidden textarea holds, so that a screen reader reads the editor as it reads a text
 * field: the lines of the last selection (the current line for a caret), or a window of a
 * long line around the caret, with the textarea's selection on the editor's. Typing changes
 * the textarea; `textInputOf` tells what the change was, against what the textarea held
 * before, so it can be made through the editor.
 */
import type { TextEditor } from '@tandem/editor'
import { Point } from '@tandem/text'

/** At most this many rows go in the textarea (a longer selection: its head's row only). */
const MAX_ROWS = 20
/** At most this many characters go in the textarea (a longer line: a window round the caret). */
const MAX_CHARACTERS = 4_000

/** The textarea's contents for one editor state. */
export interface InputMirror {
  readonly value: string
  readonly selectionStart: number
  readonly selectionEnd: number
  readonly backward: boolean
  /** The buffer position of the value's first character. */
  readonly origin: Point
}

/**
 * The textarea's contents showing `editor`'s last selection.
 *
 * @example mirrorOf(editor).value // 'the current line'
 */
export const mirrorOf = (editor: TextEditor): InputMirror => {
  const selection = editor.getLastSelection()
  const range = selection.getBufferRange()
  const backward = selection.isReversed()
  const head = backward ? range.start : range.end
  const buffer = editor.getBuffer()
  let startRow = range.start.row
  let endRow = range.end.row
  if (endRow - startRow >= MAX_ROWS) startRow = endRow = head.row
  let lines: string[] = []
  for (let row = startRow; row <= endRow; row++) lines.push(buffer.lineForRow(row) ?? '')
  let startColumn = 0
  if (lines.reduce((sum, line) => sum + line.length + 1, 0) > MAX_CHARACTERS) {
    startRow = endRow = head.row
    const line = buffer.lineForRow(head.row) ?? ''
    startColumn = Math.max(
      0,
      Math.min(head.column - MAX_CHARACTERS / 2, line.length - MAX_CHARACTERS),
    )
    lines = [line.slice(startColumn, startColumn + MAX_CHARACTERS)]
  }
  const value = lines.join('\n')
  const origin = new Point(startRow, startColumn)
  const offsetOf = (point: Point): number => {
    if (point.row < startRow) return 0
    if (point.row > endRow) return value.length
    let offset = 0
    for (let row = startRow; row < point.row; row++) offset += lines[row - startRow]!.length + 1
    const column = point.column - (point.row === startRow ? startColumn : 0)
    return offset + Math.max(0, Math.min(column, lines[point.row - startRow]!.length))
  }
  return {
    value,
    selectionStart: offsetOf(range.start),
    selectionEnd: offsetOf(range.end),
    backward,
    origin,
  }
}

/**
 * The buffer position of `offset` in `mirror`'s value.
 *
 * @example bufferPositionInMirror(mirror, mirror.selectionStart)
 */
export const bufferPositionInMirror = (mirror: InputMirror, offset: number): Point => {
  const before = mirror.value.slice(0, offset).split('\n')
  const rows = before.length - 1
  const column = before[rows]!.length + (rows === 0 ? mirror.origin.column : 0)
  return new Point(mirror.origin.row + rows, column)
}

/** A change of the textarea: its range in the old value and the text now there. */
export interface TextInputChange {
  readonly from: number
  readonly to: number
  readonly text: string
}

/**
 * What replaced what in the textarea, from `mirror` to `value`: the change is placed at the
 * old selection when it can be (typing over a selection, or at a caret among equal letters).
 *
 * @example textInputOf(mirror, textarea.value) // { from: 3, to: 3, text: 'a' }
 */
export const textInputOf = (mirror: InputMirror, value: string): TextInputChange => {
  const old = mirror.value
  let prefix = 0
  const prefixLimit = Math.min(old.length, value.length, mirror.selectionStart)
  while (prefix < prefixLimit && old[prefix] === value[prefix]) prefix++
  let suffix = 0
  // A change that starts at the selection is taken to cover it; one made before it is not.
  const atSelection = prefix === mirror.selectionStart
  const suffixLimit = Math.min(
    old.length - prefix,
    value.length - prefix,
    atSelection ? old.length - mirror.selectionEnd : Number.POSITIVE_INFINITY,
  )
  while (
    suffix < suffixLimit &&
    old[old.length - 1 - suffix] === value[value.length - 1 - suffix]
  ) {
    suffix++
  }
  return { from: prefix, to: old.length - suffix, text: value.slice(prefix, value.length - suffix) }
}
