/**
 * Requests made once: a program that retries a change (its connection dropped before the
 * answer came) sends the same `Idempotency-Key`, and gets the first answer instead of a
 * second change. Answers are kept for a day, at most `maxEntries` of them and `maxBytes` in
 * all as `sizeOf` counts them (the oldest go first; the newest stays however large), in this
 * server process.
 *
 * @module
 */

/** The longest idempotency key taken, in UTF-16 units. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 200

/** How long an answer is kept for its key: a day. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000

/** The most bytes of answers kept, as `sizeOf` counts them: 32 MiB. */
export const MAX_IDEMPOTENT_BYTES = 32 * 1024 * 1024

/** Whether `key` can be an idempotency key: 1 to 200 printable ASCII characters. */
export const isIdempotencyKey = (key: string): boolean =>
  key.length > 0 && key.length <= MAX_IDEMPOTENCY_KEY_LENGTH && /^[\x21-\x7e]+$/.test(key)

/**
 * The answers of requests made with a key, so that a repeat gets them again.
 *
 * @example const answer = await results.once(`${room}\0${key}`, () => applyChanges())
 */
export class IdempotentResults<T> {
  private readonly entries = new Map<
    string,
    { expires: number; result: Promise<T>; bytes: number }
  >()
  private bytes = 0

  constructor(
    private readonly maxEntries = 10_000,
    private readonly ttlMs = IDEMPOTENCY_TTL_MS,
    /** Roughly the bytes an answer holds (default: none counted). */
    private readonly sizeOf: (result: T) => number = () => 0,
    private readonly maxBytes = MAX_IDEMPOTENT_BYTES,
  ) {}

  /**
   * Runs `work` unless a request with `key` ran it already (or runs it now): then answers
   * what that one answered. A failed run is forgotten, so a retry runs again.
   */
  once(key: string, work: () => Promise<T>): Promise<T> {
    const now = Date.now()
    const kept = this.entries.get(key)
    if (kept !== undefined && kept.expires > now) return kept.result
    this.forget(key)
    const result = work()
    const entry = { expires: now + this.ttlMs, result, bytes: 0 }
    this.entries.set(key, entry)
    result.then(
      (answer) => {
        if (this.entries.get(key) !== entry) return
        entry.bytes = this.sizeOf(answer)
        this.bytes += entry.bytes
        while (this.bytes > this.maxBytes && this.entries.size > 1) {
          const oldest = this.entries.keys().next().value as string
          if (oldest === key) break
          this.forget(oldest)
        }
      },
      () => {
        if (this.entries.get(key) === entry) this.forget(key)
      },
    )
    while (this.entries.size > this.maxEntries) {
      this.forget(this.entries.keys().next().value as string)
    }
    return result
  }

  /** Bytes of the answers kept now, as `sizeOf` counts them. */
  get keptBytes(): number {
    return this.bytes
  }

  private forget(key: string): void {
    const entry = this.entries.get(key)
    if (entry === undefined) return
    this.bytes -= entry.bytes
    this.entries.delete(key)
  }

  /** Answers kept now. */
  get size(): number {
    return this.entries.size
  }
}
