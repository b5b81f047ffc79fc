/**
 * Appends gathered per turn of the event loop and written in batches, several batches on their
 * way at once.
 *
 * A store over a network (PostgreSQL) pays a round trip and a commit, which waits for the disk,
 * for every write. One write per update makes a busy server queue for connections: 200
 * clients typing six keys a second are 1,200 commits a second. Writing every append of a turn
 * together, whatever its room, turns that into one commit per turn; starting the next batch
 * without waiting for the previous one's commit keeps a slow disk from adding up across
 * batches, and the database flushes the commits that arrive together in one go.
 */
import type { LogSize, UpdateAuthor } from './document-store.js'

/** One append in a batch. */
export interface BatchedAppend {
  readonly room: string
  readonly update: Uint8Array
  /** Who sent it, when known. */
  readonly author?: UpdateAuthor | undefined
}

/**
 * Writes a batch atomically and durably: resolves once it is committed, with the log size after
 * each append, in the batch's order; rejects when nothing of it was stored.
 */
export type WriteBatch = (batch: readonly BatchedAppend[]) => Promise<readonly LogSize[]>

/** An append waiting for its batch to be written. */
interface Waiting extends BatchedAppend {
  resolve(size: LogSize): void
  reject(error: unknown): void
}

/**
 * Batches of appends: each `append` joins the batch of the current turn, written at the end of
 * the turn by `write`, with at most `maxInFlight` batches written at once. Appends made while
 * that many are on their way wait, and all of them go in the next batch as soon as one lands.
 *
 * @example
 * const batches = new AppendBatches((batch) => writeAll(batch), 8)
 * const size = await batches.append('notes', update)
 */
export class AppendBatches {
  #waiting: Waiting[] = []
  #scheduled = false
  #inFlight = 0
  /** Callers of `drain`, told when nothing waits and nothing is on its way. */
  #idle: (() => void)[] = []

  constructor(
    private readonly write: WriteBatch,
    private readonly maxInFlight: number,
  ) {
    if (!(Number.isInteger(maxInFlight) && maxInFlight >= 1)) {
      throw new RangeError(`maxInFlight must be a positive integer, got ${maxInFlight}`)
    }
  }

  /**
   * Adds `update` (sent by `author`, when known) to the current turn's batch; resolves once its batch is committed, with the
   * room's log size after it, or rejects with the batch's error.
   */
  append(room: string, update: Uint8Array, author?: UpdateAuthor): Promise<LogSize> {
    return new Promise<LogSize>((resolve, reject) => {
      this.#waiting.push({ room, update, author, resolve, reject })
      if (this.#scheduled) return
      this.#scheduled = true
      // After the turn: whatever else arrives in it joins this batch.
      setImmediate(() => {
        this.#scheduled = false
        this.#send()
      })
    })
  }

  /** Sends what waits at once, and resolves once every append made so far has settled. */
  drain(): Promise<void> {
    this.#send()
    if (this.#isIdle()) return Promise.resolve()
    return new Promise((resolve) => this.#idle.push(resolve))
  }

  /** Sends every waiting append as one batch, unless enough batches are on their way. */
  #send(): void {
    if (this.#waiting.length === 0 || this.#inFlight >= this.maxInFlight) return
    const batch = this.#waiting
    this.#waiting = []
    this.#inFlight++
    void this.#writeBatch(batch).finally(() => {
      this.#inFlight--
      // Appends that waited for a free slot have waited long enough: no need for a turn's end.
      this.#send()
      if (this.#isIdle()) {
        for (const resolve of this.#idle.splice(0)) resolve()
      }
    })
  }

  /** Writes `batch` and tells each of its appends the outcome; never rejects. */
  async #writeBatch(batch: readonly Waiting[]): Promise<void> {
    let sizes: readonly LogSize[]
    try {
      sizes = await this.write(batch)
      if (sizes.length !== batch.length) {
        throw new Error(
          `a batch of ${batch.length} appends was answered with ${sizes.length} sizes`,
        )
      }
    } catch (error) {
      for (const append of batch) append.reject(error)
      return
    }
    batch.forEach((append, i) => {
      append.resolve(sizes[i]!)
    })
  }

  #isIdle(): boolean {
    return this.#waiting.length === 0 && this.#inFlight === 0
  }
}
