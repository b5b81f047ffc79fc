/**
 * Every read of Yjs internals the server's history makes, in one place: walking a Y.Text's
 * items (its `_start`, each item's `right`, `deleted` and string content), which Yjs exports
 * no other way. The shapes are
 * Yjs 13.6's; `yjs-items.test.ts` checks them against what Yjs reports through its public API.
 *
 * @module
 */
import * as Y from 'yjs'

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
