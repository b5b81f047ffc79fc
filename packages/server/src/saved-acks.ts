/**
 * A room's saved acknowledgements: telling each connection that asked (see `savedRequest` in
 * `@tandem/protocol`) what the store now holds, so that its client can show its user that
 * nothing typed is only in the page any more.
 *
 * Only the author of stored updates is told: the other connections have nothing of their own
 * in those updates. A saved message carries the state vector of the room's document, which
 * holds only what the store holds (so it never claims more than the store has), and the
 * deletions of the connection's own updates that were stored since its last saved message
 * (a state vector does not show deletions).
 *
 * The cost stays bounded: a connection has at most one saved message waiting (a reply, built
 * when it is sent, which takes everything stored by then), and while more of its updates are
 * on their way to the store it is told at most once per `SAVED_INTERVAL_MS`, since the next
 * acknowledgement will cover this one's.
 */
import { type DeletedRange, savedMessage } from '@tandem/protocol'
import * as Y from 'yjs'
import type { StoredUpdate } from './append-queue.js'
import type { Peer } from './peer.js'

/**
 * How often, at most, a connection with more updates on their way to the store is told what
 * is stored; once none are left it is told at once.
 */
export const SAVED_INTERVAL_MS = 1_000

/** What a room owes one connection that asked for saved messages. */
interface Owed {
  /** Its updates on their way to the store. */
  waiting: number
  /** Deletions of its stored updates it has not been told of, by client. */
  deletions: Map<number, DeletedRange[]>
  /** Whether something was stored that it has not been told of. */
  due: boolean
  /** When it was last sent a saved message (`performance.now()`). */
  lastSent: number
}

/**
 * The saved acknowledgements of one room's connections.
 *
 * @example const acks = new SavedAcks(room.doc); acks.ask(peer); acks.stored(batch)
 */
export class SavedAcks {
  private readonly owed = new Map<Peer, Owed>()
  private disposed = false

  constructor(
    /** The room's document: what the store holds, no more. */
    private readonly doc: Y.Doc,
    private readonly intervalMs = SAVED_INTERVAL_MS,
  ) {}

  /** `peer` asked for saved messages: it is sent one now, and after its updates are stored. */
  ask(peer: Peer): void {
    let owed = this.owed.get(peer)
    if (owed === undefined) {
      owed = { waiting: 0, deletions: new Map(), due: true, lastSent: -Infinity }
      this.owed.set(peer, owed)
    }
    owed.due = true
    this.send(peer, owed)
  }

  /** One of `peer`'s updates went on its way to the store. */
  pushed(peer: Peer): void {
    const owed = this.owed.get(peer)
    if (owed !== undefined) owed.waiting++
  }

  /** `peer` sent `update`, which the document (so the store) already held. */
  held(peer: Peer, update: Uint8Array): void {
    const owed = this.owed.get(peer)
    if (owed === undefined) return
    addDeletions(owed, update)
    owed.due = true
    this.sendIfDue(peer, owed)
  }

  /** The store holds `batch` and the document has taken it in. */
  stored(batch: readonly StoredUpdate[]): void {
    const told = new Set<Peer>()
    for (const { update, origin, count } of batch) {
      const owed = this.owed.get(origin as Peer)
      if (owed === undefined) continue
      owed.waiting = Math.max(0, owed.waiting - count)
      addDeletions(owed, update)
      owed.due = true
      told.add(origin as Peer)
    }
    for (const peer of told) this.sendIfDue(peer, this.owed.get(peer)!)
  }

  /** `peer` left: nothing more is owed to it. */
  leave(peer: Peer): void {
    this.owed.delete(peer)
  }

  /** The room closed: nothing more is sent. */
  dispose(): void {
    this.disposed = true
    this.owed.clear()
  }

  private sendIfDue(peer: Peer, owed: Owed): void {
    if (!owed.due) return
    if (owed.waiting > 0 && performance.now() - owed.lastSent < this.intervalMs) return
    this.send(peer, owed)
  }

  private send(peer: Peer, owed: Owed): void {
    owed.due = false
    owed.lastSent = performance.now()
    // Built when sent: a connection with much unsent gets one message, covering all stored by then.
    peer.reply('saved', () => {
      if (this.disposed || this.owed.get(peer) !== owed) return null
      const deletions = owed.deletions
      owed.deletions = new Map()
      return savedMessage(Y.encodeStateVector(this.doc), normalize(deletions))
    })
  }
}

/** Adds the deletions `update` carries to what `owed` is to be told. */
const addDeletions = (owed: Owed, update: Uint8Array): void => {
  let ds: ReturnType<typeof Y.decodeUpdate>['ds']
  try {
    ds = Y.decodeUpdate(update).ds
  } catch {
    // It decoded when it arrived; a connection is never told of deletions that did not.
    return
  }
  for (const [client, items] of ds.clients) {
    if (items.length === 0) continue
    const ranges = owed.deletions.get(client) ?? []
    for (const { clock, len } of items) ranges.push({ clock, length: len })
    owed.deletions.set(client, ranges)
  }
}

/** Each client's ranges sorted, with touching and overlapping ones merged. */
const normalize = (deletions: ReadonlyMap<number, DeletedRange[]>): Map<number, DeletedRange[]> => {
  const merged = new Map<number, DeletedRange[]>()
  for (const [client, ranges] of deletions) {
    const sorted = [...ranges].sort((a, b) => a.clock - b.clock)
    const out: { clock: number; length: number }[] = []
    for (const { clock, length } of sorted) {
      const last = out.at(-1)
      if (last !== undefined && clock <= last.clock + last.length) {
        last.length = Math.max(last.length, clock + length - last.clock)
      } else out.push({ clock, length })
    }
    merged.set(client, out)
  }
  return merged
}
