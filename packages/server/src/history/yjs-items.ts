/**
 * Every read of Yjs internals the server's history makes, in one place: walking a Y.Text's
 * items (its `_start`, each item's `right`, `deleted` and string content), which Yjs exports
 * no other way. The shapes are
 * Yjs 13.6's; `yjs-items.test.ts` checks them against what Yjs reports through its public API.
 *
 * @module
 */
import * as Y from 'yjs'
import type { IdRange, IdRanges } from './update-ids.js'

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

/**
 * The ids `transaction` inserted (clocks from its before state to its after state) and the
 * ones it deleted (its delete set). Read in an `afterTransaction` handler.
 *
 * @example doc.on('afterTransaction', (tr) => idsOfTransaction(tr).deleted)
 */
export const idsOfTransaction = (
  transaction: Y.Transaction,
): { inserted: IdRanges; deleted: IdRanges } => {
  const inserted = new Map<number, IdRange[]>()
  for (const [client, after] of transaction.afterState) {
    const before = transaction.beforeState.get(client) ?? 0
    if (after > before) inserted.set(client, [{ clock: before, length: after - before }])
  }
  const deleted = new Map<number, IdRange[]>()
  for (const [client, items] of transaction.deleteSet.clients) {
    const ranges = items.map(({ clock, len }) => ({ clock, length: len }))
    ranges.sort((a, b) => a.clock - b.clock)
    if (ranges.length > 0) deleted.set(client, ranges)
  }
  return { inserted, deleted }
}

/** Text a transaction deleted: the id of its first character, and its characters. */
export interface DeletedStretch {
  /** The client of its first character. */
  readonly client: number
  /** The clock of its first character. */
  readonly clock: number
  /** Its characters. */
  readonly text: string
}

/**
 * The characters of `text` with ids in `ids` that are deleted but whose content Yjs still
 * holds: what a transaction deleted, read in its `afterTransaction` handler, before Yjs
 * collects deleted content. In text order, one stretch per run of consecutive ids.
 *
 * @example deletedTextOfIds(ytext, idsOfTransaction(tr).deleted)
 */
export const deletedTextOfIds = (text: Y.Text, ids: IdRanges): DeletedStretch[] => {
  const stretches: { client: number; clock: number; text: string }[] = []
  for (let item = text._start; item !== null; item = item.right) {
    if (!item.deleted || !(item.content instanceof Y.ContentString)) continue
    const { client, clock } = item.id
    const chars = item.content.str
    for (const range of ids.get(client) ?? []) {
      const start = Math.max(clock, range.clock)
      const end = Math.min(clock + chars.length, range.clock + range.length)
      if (start >= end) continue
      const piece = chars.slice(start - clock, end - clock)
      const last = stretches.at(-1)
      if (last?.client === client && last.clock + last.text.length === start) last.text += piece
      else stretches.push({ client, clock: start, text: piece })
    }
  }
  return stretches
}
