/**
 * Surrogate pairs as Yjs treats them: a lone surrogate is sent to other peers as U+FFFD, and
 * an edit that splits a pair inside one item turns both halves into U+FFFD. Local edits are
 * kept from splitting pairs (`wellFormed`, `splitsPairAt`); changes taken in from Yjs are
 * widened over a pair they split (`repairSplitSurrogates`).
 *
 * @module
 */
import type { Point } from '@tandem/text'
import type { ItemIndex, TextChange } from './item-index.js'
import type { LineStore } from './line-store.js'

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
const HAS_SURROGATE = /[\uD800-\uDFFF]/

/** `text` with every lone surrogate replaced by U+FFFD, as Yjs encodes it for other peers. */
export const wellFormed = (text: string): string =>
  HAS_SURROGATE.test(text) ? text.replace(LONE_SURROGATE, '\uFFFD') : text

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff

/** Whether `offset` falls between the two halves of a surrogate pair. */
const splitsPair = (lines: LineStore, offset: number): boolean =>
  offset > 0 &&
  offset < lines.length &&
  isLowSurrogate(lines.getTextInOffsets(offset, offset + 1).charCodeAt(0)) &&
  isHighSurrogate(lines.getTextInOffsets(offset - 1, offset).charCodeAt(0))

/** Whether the clipped `point` falls between the two halves of a surrogate pair. */
export const splitsPairAt = (lines: LineStore, point: Point): boolean => {
  const column = point.column
  if (column === 0) return false
  const line = lines.lineForRow(point.row)
  return (
    column < line.length &&
    isLowSurrogate(line.charCodeAt(column)) &&
    isHighSurrogate(line.charCodeAt(column - 1))
  )
}

/**
 * Yjs replaces both halves of a surrogate pair with U+FFFD when an edit splits the pair
 * inside one item, without reporting it as a change. Where a change's edge splits a pair in
 * the line store, widen the change over that pair and take the characters Yjs now holds.
 */
export const repairSplitSurrogates = (
  changes: TextChange[],
  lines: LineStore,
  index: ItemIndex,
): void => {
  for (const c of changes) {
    const splitsAt = (offset: number) => splitsPair(lines, offset)
    if (splitsAt(c.oldStart)) {
      c.oldStart -= 1
      c.newStart -= 1
      c.text = index.charAt(c.newStart) + c.text
      c.oldText = lines.getTextInOffsets(c.oldStart, c.oldStart + 1) + c.oldText
    }
    if (splitsAt(c.oldEnd)) {
      c.oldEnd += 1
      c.newEnd += 1
      c.text += index.charAt(c.newEnd - 1)
      c.oldText += lines.getTextInOffsets(c.oldEnd - 1, c.oldEnd)
    }
  }
}
