/**
 * The durability promise as a check: whatever a client received from other clients is in the
 * store. Insertions are compared by state vector (for every writer other than the client, the
 * store has at least the clock the client has), deletions by delete set (every deletion the
 * client holds and did not make itself is among the stored ones). What fails is named precisely:
 * the characters and deletions, whose they are, and their text.
 */
import * as Y from 'yjs'
import type { Received } from './received.js'
import type { StoredRoom } from './stored.js'

/** Characters a client received that the store lacks: one writer's run of clocks. */
export interface MissingCharacters {
  /** The client id that wrote them. */
  readonly writer: number
  /** The first clock of the run. */
  readonly clock: number
  /** How many (UTF-16 units). */
  readonly length: number
  /** Their text, as the client had it; null where the client has since dropped deleted content. */
  readonly text: string | null
}

/** A deletion a client received that the store lacks: a run of deleted ids of one writer. */
export interface MissingDeletion {
  /** The client id that wrote the deleted characters (not the one that deleted them). */
  readonly writer: number
  /** The first clock of the run. */
  readonly clock: number
  /** How many deleted characters (UTF-16 units). */
  readonly length: number
  /** The characters the deletion removed, as the store still has them; null if it lacks them. */
  readonly text: string | null
}

/** What the store lacks of what one client received; both lists empty when it lacks nothing. */
export interface Missing {
  readonly characters: readonly MissingCharacters[]
  readonly deletions: readonly MissingDeletion[]
}

/**
 * What of `received` (content and deletions from other clients) `stored` lacks.
 *
 * @example expect(missingFromStore(snapshotReceived(own), stored)).toEqual({ characters: [], deletions: [] })
 */
export const missingFromStore = (received: Received, stored: StoredRoom): Missing => ({
  characters: missingCharacters(received, stored),
  deletions: missingDeletions(received, stored),
})

/** Whether `missing` holds anything. */
export const isLoss = (missing: Missing): boolean =>
  missing.characters.length > 0 || missing.deletions.length > 0

/** The number of characters and of deleted characters in `missing`. */
export const lossSize = (missing: Missing): { characters: number; deletions: number } => ({
  characters: missing.characters.reduce((sum, run) => sum + run.length, 0),
  deletions: missing.deletions.reduce((sum, run) => sum + run.length, 0),
})

/**
 * `missing` in words, one line per run, each starting with `who` (room and client).
 *
 * @example describeMissing('room a, client 2', missing)
 * // => ['room a, client 2 received 3 characters of writer 7 (clocks 40..42) that the store lacks: "abc"']
 */
export const describeMissing = (who: string, missing: Missing): string[] => [
  ...missing.characters.map(
    (run) =>
      `${who} received ${run.length} characters of writer ${run.writer} (clocks ${run.clock}..${run.clock + run.length - 1}) that the store lacks: ${shownText(run.text)}`,
  ),
  ...missing.deletions.map(
    (run) =>
      `${who} received a deletion of ${run.length} characters of writer ${run.writer} (clocks ${run.clock}..${run.clock + run.length - 1}) that the store lacks: ${shownText(run.text)}`,
  ),
]

const shownText = (text: string | null): string =>
  text === null ? '(text unknown)' : JSON.stringify(text)

const missingCharacters = (received: Received, stored: StoredRoom): MissingCharacters[] => {
  const storedClocks = Y.decodeStateVector(Y.encodeStateVector(stored.doc))
  const runs: { writer: number; clock: number; length: number }[] = []
  for (const [writer, clock] of received.stateVector) {
    const storedClock = storedClocks.get(writer) ?? 0
    if (received.own.has(writer) || clock <= storedClock) continue
    runs.push({ writer, clock: storedClock, length: clock - storedClock })
  }
  if (runs.length === 0) return []
  // The text, from a copy of the client's document as it was (it may have changed since).
  const copy = new Y.Doc()
  Y.applyUpdate(copy, received.state)
  const missing = runs.map((run) => ({
    ...run,
    text: textAt(copy, run.writer, run.clock, run.length),
  }))
  copy.destroy()
  return missing
}

const missingDeletions = (received: Received, stored: StoredRoom): MissingDeletion[] => {
  const runs: MissingDeletion[] = []
  for (const [writer, ranges] of received.deletions.clients) {
    for (const { clock: start, len } of ranges) {
      for (let clock = start; clock < start + len; clock++) {
        const id = Y.createID(writer, clock)
        if (Y.isDeleted(received.ownDeletions, id) || Y.isDeleted(stored.deletions, id)) continue
        const last = runs.at(-1)
        if (last?.writer === writer && last.clock + last.length === clock) {
          runs[runs.length - 1] = { ...last, length: last.length + 1 }
        } else {
          runs.push({ writer, clock, length: 1, text: null })
        }
      }
    }
  }
  return runs.map((run) => ({
    ...run,
    text: textAt(stored.doc, run.writer, run.clock, run.length),
  }))
}

/**
 * The characters `doc` holds under the ids (writer, clock) to (writer, clock + length - 1), or
 * null if it lacks any of them or has dropped their content (deleted and collected).
 */
const textAt = (doc: Y.Doc, writer: number, clock: number, length: number): string | null => {
  const structs = doc.store.clients.get(writer)
  if (structs === undefined || clock + length > Y.getState(doc.store, writer)) return null
  let text = ''
  for (let at = clock; at < clock + length; ) {
    const struct = structs[Y.findIndexSS(structs, at)]
    if (!(struct instanceof Y.Item) || !(struct.content instanceof Y.ContentString)) return null
    const end = Math.min(struct.id.clock + struct.length, clock + length)
    text += struct.content.str.slice(at - struct.id.clock, end - struct.id.clock)
    at = end
  }
  return text
}
