/**
 * Which of a document's updates made in this page the server's store does not hold yet: the
 * truth behind `connection.saved`.
 *
 * Each update made here (every transaction whose origin is not the connection's provider:
 * edits, and what the offline store loads) is kept as what it added (for each client, the
 * clock its items reach) and what it deleted (clock ranges). It stays unsaved until a saved
 * message from the server covers both: a state vector that reaches its items, and deletions,
 * echoed by the server for this connection's stored updates, that contain its own. Nothing
 * else counts: not the socket being open, nor the server having relayed it.
 */
import type { DeletedRange, SavedState } from '@tandem/protocol'
import type * as Y from 'yjs'

/** Whether everything made in this page is stored by the server, and how many updates are not. */
export interface SavedStatus {
  /** True when no update made in this page is missing from the server's store. */
  readonly saved: boolean
  /** Updates made in this page that the server's store is not known to hold yet. */
  readonly unsavedUpdates: number
}

interface Unsaved {
  /** How many updates it stands for (more than one once merged, see `MAX_KEPT`). */
  count: number
  /** For each client, the clock its items in the updates reach; emptied once stored. */
  reach: Map<number, number>
  /** The ranges the updates deleted that the server has not echoed yet. */
  deleted: Map<number, DeletedRange[]>
}

/**
 * Unsaved updates kept apart at most; past it the newest two are merged into one, which is
 * saved once both are. Without a server that sends saved messages nothing is ever saved, and
 * memory must not grow with every keystroke. Merging never makes an update look saved early:
 * it can only keep the count up a little longer.
 */
const MAX_KEPT = 256

/**
 * The unsaved updates of `doc`, told to `changed` as their number changes. Updates whose
 * origin `fromServer` says came from the server (or through it) are not counted.
 *
 * @example const unsaved = new UnsavedUpdates(doc, (origin) => origin === provider, update)
 */
export class UnsavedUpdates {
  private readonly pending: Unsaved[] = []
  private unsaved = 0
  private readonly onTransaction = (transaction: Y.Transaction) => this.track(transaction)

  constructor(
    private readonly doc: Y.Doc,
    private readonly fromServer: (origin: unknown) => boolean,
    private readonly changed: (status: SavedStatus) => void,
  ) {
    doc.on('afterTransaction', this.onTransaction)
  }

  get status(): SavedStatus {
    return { saved: this.unsaved === 0, unsavedUpdates: this.unsaved }
  }

  /** The server's store holds what `state` says: the updates it covers are saved. */
  acknowledge(state: SavedState): void {
    const before = this.unsaved
    for (let i = this.pending.length - 1; i >= 0; i--) {
      const unsaved = this.pending[i]!
      if (reaches(state.stateVector, unsaved.reach)) unsaved.reach.clear()
      removeContained(unsaved.deleted, state.deletions)
      if (unsaved.reach.size > 0 || unsaved.deleted.size > 0) continue
      this.pending.splice(i, 1)
      this.unsaved -= unsaved.count
    }
    if (this.unsaved !== before) this.changed(this.status)
  }

  dispose(): void {
    this.doc.off('afterTransaction', this.onTransaction)
  }

  private track(transaction: Y.Transaction): void {
    if (this.fromServer(transaction.origin)) return
    const reach = new Map<number, number>()
    for (const [client, clock] of transaction.afterState) {
      if (clock > (transaction.beforeState.get(client) ?? 0)) reach.set(client, clock)
    }
    const deleted = new Map<number, DeletedRange[]>()
    for (const [client, items] of transaction.deleteSet.clients) {
      const ranges = items
        .filter(({ len }) => len > 0)
        .map(({ clock, len }) => ({ clock, length: len }))
      if (ranges.length > 0) deleted.set(client, ranges)
    }
    if (reach.size === 0 && deleted.size === 0) return
    this.pending.push({ count: 1, reach, deleted })
    this.unsaved++
    if (this.pending.length > MAX_KEPT)
      merge(this.pending[this.pending.length - 2]!, this.pending.pop()!)
    this.changed(this.status)
  }
}

/** Makes `into` stand for `from` too. */
const merge = (into: Unsaved, from: Unsaved): void => {
  into.count += from.count
  for (const [client, clock] of from.reach) {
    into.reach.set(client, Math.max(clock, into.reach.get(client) ?? 0))
  }
  for (const [client, ranges] of from.deleted) {
    into.deleted.set(client, [...(into.deleted.get(client) ?? []), ...ranges])
  }
}

/** Whether `stateVector` reaches every clock of `reach`. */
const reaches = (stateVector: ReadonlyMap<number, number>, reach: ReadonlyMap<number, number>) => {
  for (const [client, clock] of reach) if ((stateVector.get(client) ?? 0) < clock) return false
  return true
}

/** Removes from `deleted` every range that lies inside one of `echoed`'s. */
const removeContained = (
  deleted: Map<number, DeletedRange[]>,
  echoed: ReadonlyMap<number, readonly DeletedRange[]>,
): void => {
  for (const [client, ranges] of deleted) {
    const stored = echoed.get(client)
    if (stored === undefined) continue
    const left = ranges.filter(
      ({ clock, length }) =>
        !stored.some((s) => s.clock <= clock && clock + length <= s.clock + s.length),
    )
    if (left.length === 0) deleted.delete(client)
    else deleted.set(client, left)
  }
}
