/**
 * Every read of Yjs internals the server's history makes, in one place: walking a Y.Text's
 * items (its `_start`, each item's `right`, `deleted` and string content), which Yjs exports
 * no other way. The shapes are
 * Yjs 13.6's; `yjs-items.test.ts` checks them against what Yjs reports through its public API.
 *
 * @module
 */
import * as Y from 'yjs'
import type { IdRanges } from './update-ids.js'

/**
 * Calls `visit` with each stretch of text a reader of `text` sees, first to last: the id of
 * its first character (client and clock) and its length in UTF-16 units. Deleted items and
 * content that is not a string (embeds, formatting) are skipped. The walk stops when `visit`
 * returns false.
 *
 * @example forEachVisibleRun(ytext, (client, clock, length) => { runs.push([client, clock, length]) })
 */
export const forEachVisibleRun = (
  text: Y.Text,
  visit: (client: number, clock: number, length: number) => boolean | undefined,
): void => {
  for (let item = text._start; item !== null; item = item.right) {
    if (!item.deleted && item.content instanceof Y.ContentString) {
      if (visit(item.id.client, item.id.clock, item.length) === false) return
    }
  }
}

/**
 * Calls `visit` with each visible stretch of `text`, first to last, as `forEachVisibleRun`
 * does, with the stretch's characters too.
 *
 * @example forEachVisibleString(ytext, (client, clock, chars) => pieces.push(chars))
 */
export const forEachVisibleString = (
  text: Y.Text,
  visit: (client: number, clock: number, chars: string) => void,
): void => {
  for (let item = text._start; item !== null; item = item.right) {
    if (!item.deleted && item.content instanceof Y.ContentString) {
      visit(item.id.client, item.id.clock, item.content.str)
    }
  }
}

/**
 * Calls `visit` with every item of `text` holding text, deleted ones included, first to
 * last: its first id and its length. A document made with `gc: false` keeps them all, so the
 * walk gives every character the text ever had, in document order.
 *
 * @example forEachTextItem(ytext, (client, clock, length) => …)
 */
export const forEachTextItem = (
  text: Y.Text,
  visit: (client: number, clock: number, length: number) => void,
): void => {
  for (let item = text._start; item !== null; item = item.right) {
    const { content } = item
    if (content instanceof Y.ContentString || content instanceof Y.ContentDeleted) {
      visit(item.id.client, item.id.clock, item.length)
    }
  }
}

/** Visible text whose characters have some given ids: where it starts now, and what it reads. */
export interface VisibleStretch {
  /** Its offset in the text as it reads now (UTF-16 units). */
  readonly from: number
  /** Its characters. */
  readonly text: string
}

/**
 * The visible text of `text` whose characters' ids are in `ids`, as stretches in text order
 * (touching ones joined): what of a change's insertions is still there, or what an update
 * that deletes `ids` would take away, read before it is applied.
 *
 * @example visibleTextOfIds(ytext, idsOfUpdate(update).inserted) // => [{ from: 4, text: 'abc' }]
 */
export const visibleTextOfIds = (text: Y.Text, ids: IdRanges): VisibleStretch[] => {
  const stretches: { from: number; text: string }[] = []
  let offset = 0
  for (let item = text._start; item !== null; item = item.right) {
    if (item.deleted || !(item.content instanceof Y.ContentString)) continue
    const { client, clock } = item.id
    const chars = item.content.str
    for (const range of ids.get(client) ?? []) {
      const start = Math.max(clock, range.clock)
      const end = Math.min(clock + chars.length, range.clock + range.length)
      if (start >= end) continue
      const from = offset + start - clock
      const piece = chars.slice(start - clock, end - clock)
      const last = stretches.at(-1)
      if (last !== undefined && last.from + last.text.length === from) last.text += piece
      else stretches.push({ from, text: piece })
    }
    offset += chars.length
  }
  return stretches
}
