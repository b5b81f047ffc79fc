/**
 * Editing sessions: where each user last had their selections in a room, so that a client
 * coming back can put its user where they were, even after others edited.
 *
 * A session is taken from the user's awareness state, whose `selections` (or, from editors
 * that publish one selection, `cursor`) hold Yjs relative positions: they name characters,
 * not offsets, so they stay on the same text whatever others insert or delete meanwhile.
 * The server keeps them as they are, in a small JSON document `{"selections": [...]}`
 * (`sessionFromState` of `@tandem/protocol`, which also defines the messages that ask for one).
 */
import { TokenBucket } from './rate-limit.js'
import type { DocumentStore } from './storage/document-store.js'

/** How long a changed session waits before it is written, so a moving caret is one write. */
const SAVE_DELAY_MS = 2_000

/**
 * Session writes one connection may cause at once: as many as the awareness clients it may
 * speak for (itself and the tabs relaying through it), each a user of its own.
 */
export const SESSION_WRITE_BURST = 64

/**
 * Session writes one connection may cause per second, sustained. A user moving their caret
 * causes one write per save delay (0.5 a second); without a bound, a connection claiming a
 * new `user.id` in every awareness update wrote thousands of rows a second, and every room
 * of the server waited on those writes.
 */
export const SESSION_WRITES_PER_SECOND = 2

/** The sessions a room keeps in memory (all unsaved ones, and the latest saved ones). */
export const MAX_CACHED_SESSIONS = 1_000

/** What a room's sessions report (failed writes are logged, never thrown). */
export interface SessionEvents {
  /** A session could not be read or written; the document is not affected. */
  sessionStorageFailed?(room: string, error: unknown): void
  /**
   * A session of `by`'s (a connection's) was not kept: that connection went over its session
   * write rate. `first` is true for its first such drop, to log once per connection.
   */
  sessionWritesDropped?(room: string, by: object, first: boolean): void
}

/**
 * One room's sessions: the latest one seen per user, written to the store shortly after it
 * changes, when its connection leaves, and when the room closes. Each connection may cause
 * `SESSION_WRITE_BURST` writes at once and `SESSION_WRITES_PER_SECOND` after that; what goes
 * over is not kept. At most `MAX_CACHED_SESSIONS` saved sessions stay in memory.
 *
 * @example sessions.record('ada', json, connection); await sessions.lookup('ada') // => json
 */
export class RoomSessions {
  /** The latest session seen per user, written or not, the most recently recorded last. */
  private readonly latest = new Map<string, string>()
  /** Each connection's session writes, and whether it has gone over them yet. */
  private readonly writers = new WeakMap<object, { bucket: TokenBucket; over: boolean }>()
  /** Users whose latest session is not yet written. */
  private readonly unsaved = new Set<string>()
  /** Users handed to a write not done yet, with how many: kept in memory until written. */
  private readonly writing = new Map<string, number>()
  /** Users whose stored session is being read: a write would race the read. */
  private readonly reading = new Map<string, number>()
  private timer: NodeJS.Timeout | null = null
  private saving: Promise<void> = Promise.resolve()

  constructor(
    private readonly room: string,
    private readonly store: DocumentStore,
    private readonly events: SessionEvents = {},
  ) {}

  /**
   * Notes `session` as `user`'s latest, seen on the connection `by`; it is written within a
   * few seconds. Returns false when it is not kept: it would be one write more than `by`
   * may cause now (a session already waiting to be written costs nothing more).
   */
  record(user: string, session: string, by?: object): boolean {
    if (this.latest.get(user) === session) return true
    if (by !== undefined && !this.unsaved.has(user) && !this.mayWrite(by)) return false
    // Deleted first, so that the map's order is the order of recording.
    this.latest.delete(user)
    this.latest.set(user, session)
    this.unsaved.add(user)
    this.forgetSaved()
    if (this.timer === null) {
      this.timer = setTimeout(() => void this.flush(), SAVE_DELAY_MS)
      this.timer.unref()
    }
    return true
  }

  /** How many sessions this room holds in memory. */
  get cached(): number {
    return this.latest.size
  }

  /**
   * `user`'s session as it was when asked: the latest seen in this room, else the stored one,
   * else null.
   */
  async lookup(user: string): Promise<string | null> {
    const seen = this.latest.get(user)
    if (seen !== undefined) return seen
    this.reading.set(user, (this.reading.get(user) ?? 0) + 1)
    try {
      return await this.store.loadSession(this.room, user)
    } finally {
      const left = (this.reading.get(user) ?? 1) - 1
      if (left === 0) this.reading.delete(user)
      else this.reading.set(user, left)
    }
  }

  /** Writes every unsaved session now; resolves once they are stored (or failed and logged). */
  flush(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    const users = [...this.unsaved].filter((user) => !this.reading.has(user))
    if (users.length < this.unsaved.size) {
      // A lookup of the others is in flight: write them on the next round.
      this.timer = setTimeout(() => void this.flush(), SAVE_DELAY_MS)
      this.timer.unref()
    }
    for (const user of users) {
      this.unsaved.delete(user)
      this.writing.set(user, (this.writing.get(user) ?? 0) + 1)
    }
    this.saving = this.saving.then(() => this.write(users))
    return this.saving
  }

  /** Writes what is unsaved and stops the timer; call before the store closes. */
  async close(): Promise<void> {
    this.reading.clear()
    await this.flush()
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
  }

  /** Takes one write from `by`'s allowance; false (and reported) when it has none left. */
  private mayWrite(by: object): boolean {
    let writer = this.writers.get(by)
    if (writer === undefined) {
      writer = {
        bucket: new TokenBucket(SESSION_WRITES_PER_SECOND, SESSION_WRITE_BURST),
        over: false,
      }
      this.writers.set(by, writer)
    }
    if (writer.bucket.take(1)) return true
    this.events.sessionWritesDropped?.(this.room, by, !writer.over)
    writer.over = true
    return false
  }

  /** Drops the least recently recorded saved sessions past the cap; the store has them. */
  private forgetSaved(): void {
    if (this.latest.size <= MAX_CACHED_SESSIONS) return
    for (const user of this.latest.keys()) {
      if (this.latest.size <= MAX_CACHED_SESSIONS) return
      if (!this.unsaved.has(user) && !this.writing.has(user) && !this.reading.has(user)) {
        this.latest.delete(user)
      }
    }
  }

  private async write(users: readonly string[]): Promise<void> {
    for (const user of users) {
      const session = this.latest.get(user)
      try {
        if (session !== undefined) await this.store.saveSession(this.room, user, session)
      } catch (error) {
        this.events.sessionStorageFailed?.(this.room, error)
      } finally {
        const left = (this.writing.get(user) ?? 1) - 1
        if (left > 0) this.writing.set(user, left)
        else this.writing.delete(user)
      }
    }
  }
}
