/**
 * A room's updates on their way into the store, in the order they arrived. Nothing in the
 * queue is in the room's document yet: an update is handed on (applied, then relayed) only
 * once the store has it, so the document never holds what a crash could lose.
 *
 * What arrives together (the messages one turn of the event loop reads) is appended as one
 * batch, merged into one update per sender. A batch's append starts at once, even while
 * earlier batches are still on their way to disk, so an update never waits for another's
 * commit before its own starts; batches are handed on strictly in order all the same, each
 * once it and every batch before it are stored.
 */
import * as Y from 'yjs'
import {
  type DocumentStore,
  type LogSize,
  StorageError,
  type UpdateAuthor,
} from './storage/document-store.js'

/** An update the store holds, with who sent it. */
export interface StoredUpdate {
  /** One update, or several of one sender merged. */
  readonly update: Uint8Array
  /** The sender, as given to `push`. */
  readonly origin: unknown
  /** How many pushed updates it holds (more than one when merged). */
  readonly count: number
  /** Who the store was told sent it (see `AppendQueueHandlers.authorOf`). */
  readonly author?: UpdateAuthor | undefined
}

/** What an `AppendQueue` tells its room. */
export interface AppendQueueHandlers {
  /**
   * The store holds `batch` (in arrival order of each sender's first update), and every batch
   * before it; `size` is the largest log size the store reported for it.
   */
  stored(batch: readonly StoredUpdate[], size: LogSize): void
  /** An append failed: the queue drops what it holds and takes nothing more. */
  failed(error: unknown): void
  /** One received update of `bytes` is stored, `milliseconds` after it arrived (for metrics). */
  measured?(bytes: number, milliseconds: number): void
  /** `stored` or `measured` threw: reported here, and the queue goes on. */
  handlerFailed(error: unknown): void
  /** Who sent the updates of `origin`, for the store to keep beside them. */
  authorOf?(origin: unknown): UpdateAuthor | undefined
}

interface Queued {
  readonly update: Uint8Array
  readonly origin: unknown
  readonly received: number
}

/** Batches of one room on their way to the store at once, at most. */
const MAX_BATCHES_IN_FLIGHT = 8

/** Bytes of a room's updates that may wait for the store unless told otherwise: 64 MiB. */
export const DEFAULT_MAX_UNSTORED_BYTES = 64 * 1024 * 1024

/**
 * Appends a room's updates in batches, several on their way at once, handed on in order.
 *
 * @example
 * const queue = new AppendQueue('notes', store, { stored: (batch) => apply(batch), failed })
 * queue.push(update, peer)
 */
export class AppendQueue {
  private queued: Queued[] = []
  private cutting = false
  private inFlight = 0
  /** Resolves once the last batch cut is handed on (or dropped, when an append failed). */
  private handedOn: Promise<void> = Promise.resolve()
  private broken = false
  /** Bytes pushed and not yet handed on. */
  private unstored = 0

  constructor(
    private readonly room: string,
    private readonly store: DocumentStore,
    private readonly handlers: AppendQueueHandlers,
    /**
     * Past this many bytes waiting for the store, the store counts as failed: a store that
     * does not keep up (or hangs) must not fill the server's memory with what clients send.
     */
    private readonly maxUnstoredBytes = DEFAULT_MAX_UNSTORED_BYTES,
  ) {}

  /** Whether an append failed: nothing is stored or handed on any more. */
  get failed(): boolean {
    return this.broken
  }

  /** Queues `update` from `origin`; it is handed on once the store has it. */
  push(update: Uint8Array, origin: unknown): void {
    if (this.broken) return
    this.unstored += update.length
    if (this.unstored > this.maxUnstoredBytes) {
      this.fail(
        new StorageError(
          `the store is not keeping up: ${this.unstored} bytes of room ${JSON.stringify(this.room)} wait for it (limit ${this.maxUnstoredBytes})`,
        ),
      )
      return
    }
    this.queued.push({ update, origin, received: performance.now() })
    this.cutSoon()
  }

  /** Resolves once everything pushed so far is stored and handed on (or the store failed). */
  async flushed(): Promise<void> {
    for (;;) {
      this.cut({ evenIfBusy: true })
      const last = this.handedOn
      await last
      if (last === this.handedOn && (this.queued.length === 0 || this.broken)) return
    }
  }

  /** Cuts a batch once the messages being read now are all queued. */
  private cutSoon(): void {
    if (this.cutting) return
    this.cutting = true
    queueMicrotask(() => {
      this.cutting = false
      this.cut({ evenIfBusy: false })
    })
  }

  /** Starts appending what is queued, unless too many batches are on their way already. */
  private cut({ evenIfBusy }: { evenIfBusy: boolean }): void {
    if (this.broken || this.queued.length === 0) return
    if (!evenIfBusy && this.inFlight >= MAX_BATCHES_IN_FLIGHT) return
    const batch = this.queued
    this.queued = []
    const merged = mergeBySender(batch).map((stored) => ({
      ...stored,
      author: this.handlers.authorOf?.(stored.origin),
    }))
    this.inFlight++
    const appended = Promise.all(
      merged.map(({ update, author }) => this.store.append(this.room, update, author)),
    )
    // Its outcome is taken below, in turn; until then a failure must not count as unhandled.
    appended.catch(() => {})
    this.handedOn = this.handedOn
      .then(() => appended)
      .then(
        (sizes) => this.handOn(batch, merged, sizes),
        (error: unknown) => this.fail(error),
      )
      // A handler's failure must not stop the chain: later batches still need handing on.
      .catch((error: unknown) => this.handlers.handlerFailed(error))
      .finally(() => {
        this.inFlight--
        if (this.queued.length > 0) this.cutSoon()
      })
  }

  private handOn(batch: readonly Queued[], merged: readonly StoredUpdate[], sizes: LogSize[]) {
    // Stored after an earlier batch failed: reloading the room from the store brings it back.
    if (this.broken) return
    const now = performance.now()
    for (const { update } of batch) this.unstored -= update.length
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

  /** Only an append decides that storage failed; what the room does next is its own. */
  private fail(error: unknown): void {
    if (this.broken) return
    this.broken = true
    this.queued = []
    this.handlers.failed(error)
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
    if (updates.length === 1) return [{ origin, update: updates[0]!, count: 1 }]
    try {
      return [{ origin, update: Y.mergeUpdates(updates), count: updates.length }]
    } catch {
      // Each update decoded when it arrived; should they still not merge, store them apart.
      return updates.map((update) => ({ origin, update, count: 1 }))
    }
  })
}
