/**
 * A room's attribution from what a store keeps: the attribution folded in by earlier
 * compactions, and the log's updates with their authors, oldest first. Both stores build it
 * the same way, at load and at compaction.
 *
 * @module
 */
import { Attribution } from '../history/attribution.js'
import { idsOfUpdate } from '../history/update-ids.js'
import { StorageError } from './document-store.js'

/** A stored update with who sent it (null for updates stored without, such as a merged log). */
export interface AuthoredUpdate {
  /** The update. */
  readonly data: Uint8Array
  /** The user who sent it, or null. */
  readonly user: string | null
  /** When the server took it (ms since the epoch), or null. */
  readonly time: number | null
  /** Who accepted it when it applied a proposal, else null. */
  readonly acceptedBy: string | null
}

/**
 * The attribution of `room`: `base` (an encoded `Attribution`, or null) with the authors of
 * `log` added in order. Throws a `StorageError` naming the room when either cannot be read.
 *
 * @example const attribution = attributionOf('notes', row?.data ?? null, logRows)
 */
export const attributionOf = (
  room: string,
  base: Uint8Array | null,
  log: readonly AuthoredUpdate[],
): Attribution => {
  try {
    const attribution = base === null ? new Attribution() : Attribution.decode(base)
    for (const { data, user, time, acceptedBy } of log) {
      if (user !== null && time !== null) {
        attribution.record(idsOfUpdate(data), user, time, acceptedBy)
      }
    }
    return attribution
  } catch (error) {
    throw new StorageError(
      `cannot read the attribution of room ${JSON.stringify(room)}: ${(error as Error).message}`,
      { cause: error },
    )
  }
}
