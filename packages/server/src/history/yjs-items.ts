/**
 * Every read of Yjs internals the server's history makes, in one place: walking a Y.Text's
 * items (its `_start` and each item's `right`), which Yjs exports no other way. The shapes are
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
