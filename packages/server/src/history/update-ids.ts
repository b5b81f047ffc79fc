/**
 * The Yjs ids a stored update holds: the clock ranges it inserted, per client, and the ones
 * it deleted. These are what the server attributes to the update's author (the shape of the
 * id maps Yjs 14 keeps for attribution: a client id and ranges of its clocks).
 *
 * @module
 */
import * as Y from 'yjs'

/** A run of one client's clocks: `clock` to `clock + length - 1`. */
export interface IdRange {
  /** The first clock. */
  readonly clock: number
  /** How many clocks (for text, UTF-16 units). */
  readonly length: number
}

/** Clock ranges per client id, each client's sorted by clock and never overlapping. */
export type IdRanges = ReadonlyMap<number, readonly IdRange[]>

/** The ids an update inserted and deleted. */
export interface UpdateIds {
  /** What it made: every struct it carries (content deleted since included). */
  readonly inserted: IdRanges
  /** What it deleted, as its delete set says. */
  readonly deleted: IdRanges
}

/**
 * The ids `update` (Yjs update format 1) inserts and deletes. Throws when it does not decode.
 *
 * @example idsOfUpdate(Y.encodeStateAsUpdate(doc)).inserted.get(doc.clientID) // => [{ clock: 0, length: 5 }]
 */
export const idsOfUpdate = (update: Uint8Array): UpdateIds => {
  const { structs, ds } = Y.decodeUpdate(update)
  const inserted = new Map<number, IdRange[]>()
  for (const struct of structs) {
    if (struct instanceof Y.Skip) continue
    addRange(inserted, struct.id.client, struct.id.clock, struct.length)
  }
  const deleted = new Map<number, IdRange[]>()
  for (const [client, items] of ds.clients) {
    for (const { clock, len } of items) addRange(deleted, client, clock, len)
  }
  for (const ranges of inserted.values()) normalize(ranges)
  for (const ranges of deleted.values()) normalize(ranges)
  return { inserted, deleted }
}

/** Whether `ids` holds no range at all. */
export const isEmptyIds = (ids: UpdateIds): boolean =>
  ids.inserted.size === 0 && ids.deleted.size === 0

const addRange = (into: Map<number, IdRange[]>, client: number, clock: number, length: number) => {
  if (length <= 0) return
  const ranges = into.get(client)
  if (ranges === undefined) into.set(client, [{ clock, length }])
  else ranges.push({ clock, length })
}

/** Sorts `ranges` by clock and joins the ones that touch or overlap, in place. */
const normalize = (ranges: IdRange[]): void => {
  ranges.sort((a, b) => a.clock - b.clock)
  let kept = 0
  for (const range of ranges) {
    const last = kept > 0 ? ranges[kept - 1]! : null
    if (last !== null && range.clock <= last.clock + last.length) {
      const end = Math.max(last.clock + last.length, range.clock + range.length)
      ranges[kept - 1] = { clock: last.clock, length: end - last.clock }
    } else {
      ranges[kept++] = range
    }
  }
  ranges.length = kept
}
