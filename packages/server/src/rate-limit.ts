/**
 * Per-connection rate limits: token buckets on messages, on bytes, and on updates refused
 * from a read-only connection. A bucket holds up to its burst and refills at its rate, so
 * short bursts (the initial sync, a paste) pass while a sustained flood does not.
 */

/** Rates (per second) and bursts of one connection's limits. `Infinity` turns one off. */
export interface RateLimits {
  /** Messages per second, sustained (default 100). */
  readonly messagesPerSecond?: number
  /** Messages at once after a quiet time (default 1000). */
  readonly messageBurst?: number
  /** Bytes per second, sustained (default 1 MiB). */
  readonly bytesPerSecond?: number
  /** Bytes at once after a quiet time (default, and at least, the largest message allowed). */
  readonly byteBurst?: number
  /**
   * Updates per second from a read-only connection, sustained (default 1). Every one counts,
   * refused or not: none is ever stored, and each costs a check against the document.
   */
  readonly refusedWritesPerSecond?: number
  /** Refused updates at once from a read-only connection (default 20). */
  readonly refusedWriteBurst?: number
  /** Refused changes to other connections' awareness states per second, sustained (default 1). */
  readonly refusedAwarenessPerSecond?: number
  /** Refused changes to other connections' awareness states at once (default 20). */
  readonly refusedAwarenessBurst?: number
  /** HTTP API requests per second from one client address, sustained (default 20). */
  readonly apiRequestsPerSecond?: number
  /** HTTP API requests at once from one client address (default 100). */
  readonly apiRequestBurst?: number
}

/**
 * Requests one client address may make by default, sustained per second and in a burst: past
 * them it gets 429 (`RateLimits.apiRequestsPerSecond` and `apiRequestBurst` set others). Every
 * request may load a room, so a flood from one address must not load them all.
 */
export const API_REQUESTS_PER_SECOND = 20
/** The burst of `API_REQUESTS_PER_SECOND`. */
export const API_REQUEST_BURST = 100

/** Which limit a connection went over. */
export type RateLimitKind = 'messages' | 'bytes' | 'refused_writes' | 'refused_awareness'

/** The reason a connection is closed with, per limit (close reasons fit in 123 bytes). */
export const RATE_LIMIT_REASON: Readonly<Record<RateLimitKind, string>> = {
  messages: 'rate limit: too many messages',
  bytes: 'rate limit: too many bytes',
  refused_writes: 'rate limit: too many refused updates from a read-only connection',
  refused_awareness: "rate limit: too many changes to other connections' awareness states",
}

/** A clock in milliseconds. */
export type Clock = () => number

const MiB = 1024 * 1024

/**
 * `limits` with every default filled in; `maxMessageBytes` is the burst floor, so that any
 * message the server accepts at all can pass. Throws a `RangeError` naming a bad value.
 *
 * @example const limits = rateLimitsWithDefaults({ messagesPerSecond: 50 }, 32 * 1024 * 1024)
 */
export const rateLimitsWithDefaults = (
  limits: RateLimits = {},
  maxMessageBytes: number,
): Required<RateLimits> => {
  const filled = {
    messagesPerSecond: limits.messagesPerSecond ?? 100,
    messageBurst: limits.messageBurst ?? 1000,
    bytesPerSecond: limits.bytesPerSecond ?? MiB,
    byteBurst: limits.byteBurst ?? maxMessageBytes,
    refusedWritesPerSecond: limits.refusedWritesPerSecond ?? 1,
    refusedWriteBurst: limits.refusedWriteBurst ?? 20,
    refusedAwarenessPerSecond: limits.refusedAwarenessPerSecond ?? 1,
    refusedAwarenessBurst: limits.refusedAwarenessBurst ?? 20,
    apiRequestsPerSecond: limits.apiRequestsPerSecond ?? API_REQUESTS_PER_SECOND,
    apiRequestBurst: limits.apiRequestBurst ?? API_REQUEST_BURST,
  }
  for (const [name, value] of Object.entries(filled)) {
    if (typeof value !== 'number' || Number.isNaN(value) || value <= 0) {
      throw new RangeError(`rateLimits.${name} must be a positive number, got ${value}`)
    }
  }
  if (filled.byteBurst < maxMessageBytes) {
    throw new RangeError(
      `rateLimits.byteBurst (${filled.byteBurst}) must be at least maxMessageBytes (${maxMessageBytes})`,
    )
  }
  return filled
}

/**
 * A token bucket: `take(cost)` succeeds while the bucket holds `cost` tokens. It starts full.
 *
 * @example const bucket = new TokenBucket(10, 50); if (!bucket.take(1)) refuse()
 */
export class TokenBucket {
  private tokens: number
  private last: number

  constructor(
    readonly perSecond: number,
    readonly burst: number,
    private readonly now: Clock = performance.now.bind(performance),
  ) {
    this.tokens = burst
    this.last = now()
  }

  /** Takes `cost` tokens if there are that many; false (taking none) otherwise. */
  take(cost: number): boolean {
    if (this.burst === Number.POSITIVE_INFINITY || this.perSecond === Number.POSITIVE_INFINITY) {
      return true
    }
    const now = this.now()
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond)
    this.last = now
    if (this.tokens < cost) return false
    this.tokens -= cost
    return true
  }
}

/**
 * The limits of one connection.
 *
 * @example
 * const limiter = new RateLimiter(rateLimitsWithDefaults({}, maxMessageBytes))
 * const over = limiter.message(data.length) // null, or the limit it went over
 */
export class RateLimiter {
  private readonly messages: TokenBucket
  private readonly bytes: TokenBucket
  private readonly refusedWrites: TokenBucket
  private readonly refusedAwareness: TokenBucket

  constructor(limits: Required<RateLimits>, now?: Clock) {
    this.messages = new TokenBucket(limits.messagesPerSecond, limits.messageBurst, now)
    this.bytes = new TokenBucket(limits.bytesPerSecond, limits.byteBurst, now)
    this.refusedWrites = new TokenBucket(
      limits.refusedWritesPerSecond,
      limits.refusedWriteBurst,
      now,
    )
    this.refusedAwareness = new TokenBucket(
      limits.refusedAwarenessPerSecond,
      limits.refusedAwarenessBurst,
      now,
    )
  }

  /** Counts a message of `bytes`: null when it is within the limits, else the limit it broke. */
  message(bytes: number): RateLimitKind | null {
    if (!this.messages.take(1)) return 'messages'
    if (!this.bytes.take(bytes)) return 'bytes'
    return null
  }

  /** Counts an update from a read-only connection: null when within the limit, else `'refused_writes'`. */
  readOnlyUpdate(): RateLimitKind | null {
    return this.refusedWrites.take(1) ? null : 'refused_writes'
  }

  /** Counts a refused awareness change: null when within the limit, else `'refused_awareness'`. */
  refusedAwarenessChange(): RateLimitKind | null {
    return this.refusedAwareness.take(1) ? null : 'refused_awareness'
  }
}
