/**
 * Requests made once: a program that retries a change (its connection dropped before the
 * answer came) sends the same `Idempotency-Key`, and gets the first answer instead of a
 * second change. Answers are kept for a day, at most `maxEntries` of them (the oldest go
 * first), in this server process.
 *
 * @module
 */

/** The longest idempotency key taken, in UTF-16 units. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 200

/** How long an answer is kept for its key: a day. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000

/** Whether `key` can be an idempotency key: 1 to 200 printable ASCII characters. */
export const isIdempotencyKey = (key: string): boolean =>
  key.length > 0 && key.length <= MAX_IDEMPOTENCY_KEY_LENGTH && /^[\x21-\x7e]+$/.test(key)

/**
 * The answers of requests made with a key, so that a repeat gets them again.
 *
 * @example const answer = await results.once(`${room}\0${key}`, () => applyChanges())
 */
export class IdempotentResults<T> {
  private readonly entries = new Map<string, { expires: number; result: Promise<T> }>()

  constructor(
    private readonly maxEntries = 10_000,
    private readonly ttlMs = IDEMPOTENCY_TTL_MS,
  ) {}

  /**
   * Runs `work` unless a request with `key` ran it already (or runs it now): then answers
   * what that one answered. A failed run is forgotten, so a retry runs again.
   */
  once(key: string, work: () => Promise<T>): Promise<T> {
    const now = Date.now()
    const kept = this.entries.get(key)
    if (kept !== undefined && kept.expires > now) return kept.result
    this.entries.delete(key)
    const result = work()
    this.entries.set(key, { expires: now + this.ttlMs, result })
    result.catch(() => {
      if (this.entries.get(key)?.result === result) this.entries.delete(key)
    })
    while (this.entries.size > this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as string)
    }
    return result
  }

  /** Answers kept now. */
  get size(): number {
    return this.entries.size
  }
}
