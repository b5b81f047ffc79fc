/**
 * Characters beyond the Basic Multilingual Plane (emoji, rare CJK) are two UTF-16 units, a
 * surrogate pair. Commands that move or rewrite characters take them whole: Yjs turns half a
 * pair into U+FFFD on every peer.
 */

import type { TextBuffer } from '@tandem/buffer'
import { Point, Range } from '@tandem/text'
import type { Selection } from './selection.js'

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff

/** UTF-16 units of the character ending at `column` of `line`: 2 for a surrogate pair. */
export const widthBefore = (line: string, column: number): number =>
  column >= 2 &&
  isLowSurrogate(line.charCodeAt(column - 1)) &&
  isHighSurrogate(line.charCodeAt(column - 2))
    ? 2
    : 1

/** UTF-16 units of the character starting at `column` of `line`: 2 for a surrogate pair. */
export const widthAt = (line: string, column: number): number =>
  isHighSurrogate(line.charCodeAt(column)) && isLowSurrogate(line.charCodeAt(column + 1)) ? 2 : 1

/** Whether `column` of `line` falls between the halves of a surrogate pair. */
const splitsPair = (line: string, column: number): boolean =>
  isLowSurrogate(line.charCodeAt(column)) && isHighSurrogate(line.charCodeAt(column - 1))

/**
 * `range` widened so that neither end falls inside a surrogate pair: the edits that read a
 * selection's text and write it back must not write half a pair (Yjs would turn it into
 * U+FFFD on every peer).
 */
export const wholeCharacters = (editor: { readonly buffer: TextBuffer }, range: Range): Range => {
  const { start, end } = range
  const startLine = editor.buffer.lineForRow(start.row) ?? ''
  const endLine = editor.buffer.lineForRow(end.row) ?? ''
  const from = splitsPair(startLine, start.column) ? new Point(start.row, start.column - 1) : start
  const to = splitsPair(endLine, end.column) ? new Point(end.row, end.column + 1) : end
  return from === start && to === end ? range : new Range(from, to)
}

/** Widens a selection whose end falls inside a surrogate pair over the whole pair. */
export const keepWholeCharacters = (
  editor: { readonly buffer: TextBuffer },
  selection: Selection,
): void => {
  const range = selection.getBufferRange()
  const whole = wholeCharacters(editor, range)
  if (whole !== range) selection.setBufferRange(whole, { reversed: selection.isReversed() })
}
