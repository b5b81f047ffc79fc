/**
 * What a client received from other clients, for tests of the durability promise. A stock test
 * client shares nothing with the others except through the server (`disableBc`), so whatever
 * its document holds that it did not make itself came through the server. Its own edits are
 * recorded as it makes them (local transactions); a snapshot of its document, less those, is
 * what it received.
 */
import * as Y from 'yjs'
import type { DeleteSet } from './stored.js'

/**
 * The edits a document made itself: every update of a local transaction, recorded from the
 * moment it is created until `dispose()`. Create it before the document makes any edit.
 *
 * @example const own = new OwnEdits(client.doc); ...; own.deletions() // what it deleted itself
 */
export class OwnEdits {
  /** Every update of a local transaction, in order. */
  readonly updates: Uint8Array[] = []
  readonly #clients = new Set<number>()
  #deleted: DeleteSet = Y.createDeleteSet()
  /** Delete sets of updates recorded since `#deleted` was last merged. */
  #unmerged: DeleteSet[] = []
  readonly #record = (update: Uint8Array, _origin: unknown, _doc: Y.Doc, tr: Y.Transaction) => {
    // Remote updates (applied by the provider) are not local transactions.
    if (!tr.local) return
    this.updates.push(update)
    const { structs, ds } = Y.decodeUpdate(update)
    for (const struct of structs) this.#clients.add(struct.id.client)
    this.#unmerged.push(ds)
  }

  constructor(readonly doc: Y.Doc) {
    this.#clients.add(doc.clientID)
    doc.on('update', this.#record)
  }

  /** The client ids this document has written under (Yjs changes it on a clash). */
  clients(): ReadonlySet<number> {
    this.#clients.add(this.doc.clientID)
    return this.#clients
  }

  /** Every deletion this document made itself, sorted and merged. */
  deletions(): DeleteSet {
    if (this.#unmerged.length > 0) {
      this.#deleted = Y.mergeDeleteSets([this.#deleted, ...this.#unmerged])
      this.#unmerged = []
    }
    return this.#deleted
  }

  /** Stops recording. */
  dispose(): void {
    this.doc.off('update', this.#record)
  }
}

/** A client's document at one moment, and which of its content is its own. */
export interface Received {
  /** The whole document then, as one update (for the text of what is missing). */
  readonly state: Uint8Array
  /**
   * The clock of every writer in the document: the content it shows. Updates Yjs keeps aside
   * until what they build on arrives are not part of it.
   */
  readonly stateVector: ReadonlyMap<number, number>
  /** The deletions in the document (of content it has). */
  readonly deletions: DeleteSet
  /** The client ids of its own edits: content under any other id was received. */
  readonly own: ReadonlySet<number>
  /** The deletions it made itself: any other deletion in `deletions` was received. */
  readonly ownDeletions: DeleteSet
}

/**
 * Snapshots what `own.doc` holds now. Take it before reading the store: whatever the client
 * received from others by then must already be stored.
 *
 * @example const received = snapshotReceived(own); const stored = await readStoredRooms(...)
 */
export const snapshotReceived = (own: OwnEdits): Received => {
  const { sv, ds } = Y.snapshot(own.doc)
  return {
    state: Y.encodeStateAsUpdate(own.doc),
    stateVector: sv,
    deletions: ds,
    own: new Set(own.clients()),
    ownDeletions: own.deletions(),
  }
}

/**
 * How many characters (UTF-16 units, Yjs's clock) written by other clients `received` holds,
 * deleted ones included.
 *
 * @example receivedCharacters(snapshotReceived(own)) // => 1234
 */
export const receivedCharacters = (received: Received): number => {
  let characters = 0
  for (const [client, clock] of received.stateVector) {
    if (!received.own.has(client)) characters += clock
  }
  return characters
}
