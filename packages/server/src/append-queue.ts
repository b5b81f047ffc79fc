/**
 * A room's updates on their way into the store, in the order they arrived. Nothing in the
 * queue is in the room's document yet: an update is handed on (applied, then relayed) only
 * once the store has it, so the document never holds what a crash could lose.
 *
 * One batch is written at a time. What arrives while a batch is on its way to disk waits for
 * the next one, merged into one update per sender, so a busy room costs one write per round
 * trip, not one per keystroke.
 */
import * as Y from 'yjs'
import type { DocumentStore, LogSize } from './storage/document-store.js'

/** An update the store holds, with who sent it. */
export interface StoredUpdate {
  /** One update, or several of one sender merged. */
  readonly update: Uint8Array
  /** The sender, as given to `push`. */
  readonly origin: unknown
}

/** What an `AppendQueue` tells its room. */
export interface AppendQueueHandlers {
  /**
   * The store holds `batch` (in arrival order of each sender's first update); `size` is the
   * largest log size the store reported after it.
   */
  stored(batch: readonly StoredUpdate[], size: LogSize): void
  /** An append failed: the queue drops what it holds and takes nothing more. */
  failed(error: unknown): void
  /** One received update of `bytes` is stored, `milliseconds` after it arrived (for metrics). */
  measured?(bytes: number, milliseconds: number): void
  /** `stored` or `measured` threw: reported here, and the queue goes on. */
  handlerFailed(error: unknown): void
}

interface Queued {
  readonly update: Uint8Array
  readonly origin: unknown
  readonly received: number
}

/**
 * Appends a room's updates in batches, one batch at a time.
 *
 * @example
 * const queue = new AppendQueue('notes', store, { stored: (batch) => apply(batch), failed })
 * queue.push(update, peer)
 */
export class AppendQueue {
  private queued: Queued[] = []
  private writing: Promise<void> = Promise.resolve()
  private broken = false

  constructor(
    private readonly room: string,
    private readonly store: DocumentStore,
    private readonly handlers: AppendQueueHandlers,
  ) {}

  /** Whether an append failed: nothing is stored or handed on any more. */
  get failed(): boolean {
    return this.broken
  }

  /** Queues `update` from `origin`; it is handed on once the store has it. */
  push(update: Uint8Array, origin: unknown): void {
    if (this.broken) return
    this.queued.push({ update, origin, received: performance.now() })
    if (this.queued.length === 1) {
      // A handler's failure must not stop the chain: later batches still need writing.
      this.writing = this.writing
        .then(() => this.writeQueued())
        .catch((error: unknown) => this.handlers.handlerFailed(error))
    }
  }

  /** Resolves once everything pushed so far is stored and handed on (or the store failed). */
  flushed(): Promise<void> {
    return this.writing
  }

  private async writeQueued(): Promise<void> {
    const batch = this.queued
    this.queued = []
    if (this.broken || batch.length === 0) return
    const merged = mergeBySender(batch)
    let sizes: LogSize[]
    try {
      sizes = await Promise.all(merged.map(({ update }) => this.store.append(this.room, update)))
    } catch (error) {
      // Only the append decides that storage failed; what the room does next is its own.
      this.broken = true
      this.queued = []
      this.handlers.failed(error)
      return
    }
    const now = performance.now()
    try {
      for (const { update, received } of batch) {
        this.handlers.measured?.(update.length, now - received)
      }
    } catch (error) {
      this.handlers.handlerFailed(error)
    }
    this.handlers.stored(
      merged,
      sizes.reduce((a, b) => (b.updates > a.updates ? b : a)),
    )
  }
}

/** One update per sender, in the order of each sender's first update in `batch`. */
const mergeBySender = (batch: readonly Queued[]): StoredUpdate[] => {
  const bySender = new Map<unknown, Uint8Array[]>()
  for (const { update, origin } of batch) {
    const updates = bySender.get(origin)
    if (updates) updates.push(update)
    else bySender.set(origin, [update])
  }
  return [...bySender].flatMap(([origin, updates]) => {
    if (updates.length === 1) return [{ origin, update: updates[0]! }]
    try {
      return [{ origin, update: Y.mergeUpdates(updates) }]
    } catch {
      // Each update decoded when it arrived; should they still not merge, store them apart.
      return updates.map((update) => ({ origin, update }))
    }
  })
}
