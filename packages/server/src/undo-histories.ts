/**
 * Undo histories: each user's undo and redo steps in a room, so that after a reload, a
 * reconnect or on another device the user can still undo their own changes.
 *
 * A client sends its whole history (encoded by `encodeUndoHistory` of `@tandem/protocol`) a
 * moment after its steps change, and asks for it when it connects. The server never reads the
 * steps' Yjs ids: it checks that the history decodes, cuts it to its caps (steps and bytes,
 * oldest steps first) and keeps it under the connection's user, in memory at once and in the
 * store shortly after, as sessions are kept (see sessions.ts).
 */
import {
  checkUndoHistoryLimits,
  DEFAULT_UNDO_HISTORY_LIMITS,
  decodeUndoHistory,
  encodeUndoHistory,
  trimUndoHistory,
  type UndoHistoryLimits,
} from '@tandem/protocol'
import { TokenBucket } from './rate-limit.js'
import type { DocumentStore } from './storage/document-store.js'

/** How long a changed history waits before it is written: a typing user's saves are one write. */
const SAVE_DELAY_MS = 1_000

/** History saves one connection may make at once, and per second sustained; more are dropped. */
export const UNDO_HISTORY_SAVE_BURST = 16
const UNDO_HISTORY_SAVES_PER_SECOND = 2

/**
 * Histories a room keeps in memory: the unsaved ones, and the most recently saved written ones
 * up to this many (the only ones, with a store that keeps no histories).
 */
const MAX_CACHED_HISTORIES = 64

/**
 * Caps on undo histories with the defaults filled in, checked (a `RangeError` for an unusable
 * one).
 *
 * @example undoHistoryLimitsWithDefaults({ maxSteps: 100 }).maxBytes // => 524288
 */
export const undoHistoryLimitsWithDefaults = (
  limits: Partial<UndoHistoryLimits> = {},
): UndoHistoryLimits => checkUndoHistoryLimits({ ...DEFAULT_UNDO_HISTORY_LIMITS, ...limits })

/** What a room's undo histories report (failed reads and writes are reported, never thrown). */
export interface UndoHistoryEvents {
  /** A history could not be read or written; the document is not affected. */
  undoHistoryStorageFailed?(room: string, error: unknown): void
  /** A history was over the caps: its `dropped` oldest steps were not kept. */
  undoHistoryTrimmed?(room: string, dropped: number): void
}

/**
 * One room's undo histories: the latest one per user, written to the store a moment after it
 * changes and when the room closes. A store without undo history methods keeps them in memory
 * only, while the room is open.
 *
 * @example histories.save('ada', bytes, connection); await histories.lookup('ada') // => bytes
 */
export class RoomUndoHistories {
  /** The latest history per user (null: forgotten), the most recently saved last. */
  private readonly latest = new Map<string, Uint8Array | null>()
  private readonly unsaved = new Set<string>()
  private readonly writers = new WeakMap<object, TokenBucket>()
  private timer: NodeJS.Timeout | null = null
  private writing: Promise<void> = Promise.resolve()
  private readonly limits: UndoHistoryLimits

  constructor(
    private readonly room: string,
    private readonly store: DocumentStore,
    limits: Partial<UndoHistoryLimits> = {},
    private readonly events: UndoHistoryEvents = {},
  ) {
    this.limits = undoHistoryLimitsWithDefaults(limits)
  }

  /**
   * Keeps `history` (an encoded undo history) as `user`'s, cut to the caps. Throws when it does
   * not decode (the caller closes that connection). Returns false when it is not kept: `by`
   * went over its save rate.
   */
  save(user: string, history: Uint8Array | null, by?: object): boolean {
    let kept: Uint8Array | null = null
    let dropped = 0
    if (history !== null) {
      const decoded = decodeUndoHistory(history)
      const trimmed = trimUndoHistory(decoded, this.limits)
      const left = trimmed.undo.length + trimmed.redo.length
      dropped = decoded.undo.length + decoded.redo.length - left
      kept = left === 0 ? null : trimmed === decoded ? history : encodeUndoHistory(trimmed)
    }
    if (by !== undefined && !this.unsaved.has(user) && !this.mayWrite(by)) return false
    if (dropped > 0) this.events.undoHistoryTrimmed?.(this.room, dropped)
    this.latest.delete(user)
    this.latest.set(user, kept)
    this.unsaved.add(user)
    this.forgetSaved()
    if (this.timer === null) {
      this.timer = setTimeout(() => void this.flush(), SAVE_DELAY_MS)
      this.timer.unref()
    }
    return true
  }

  /** `user`'s history: the latest seen here, else the stored one, else null. */
  async lookup(user: string): Promise<Uint8Array | null> {
    if (this.latest.has(user)) return this.latest.get(user) ?? null
    // Written ones come first: a read must not overtake a write of the same user's.
    await this.writing
    if (this.latest.has(user)) return this.latest.get(user) ?? null
    return (await this.store.loadUndoHistory?.(this.room, user)) ?? null
  }

  /** Writes every unsaved history now; resolves once they are stored (or failed and reported). */
  flush(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    const users = [...this.unsaved]
    this.unsaved.clear()
    this.writing = this.writing.then(() => this.write(users))
    return this.writing
  }

  /** Writes what is unsaved and stops the timer; call before the store closes. */
  async close(): Promise<void> {
    await this.flush()
  }

  private async write(users: readonly string[]): Promise<void> {
    const saveTo = this.store.saveUndoHistory?.bind(this.store)
    if (saveTo === undefined) return
    for (const user of users) {
      if (this.unsaved.has(user)) continue
      const history = this.latest.get(user)
      if (history === undefined) continue
      try {
        await saveTo(this.room, user, history)
      } catch (error) {
        this.events.undoHistoryStorageFailed?.(this.room, error)
      }
    }
    this.forgetSaved()
  }

  private mayWrite(by: object): boolean {
    let bucket = this.writers.get(by)
    if (bucket === undefined) {
      bucket = new TokenBucket(UNDO_HISTORY_SAVES_PER_SECOND, UNDO_HISTORY_SAVE_BURST)
      this.writers.set(by, bucket)
    }
    return bucket.take(1)
  }

  /** Drops the least recently saved written histories past the cap; the store has them. */
  private forgetSaved(): void {
    // Without a store to write to, the oldest go even unsaved: memory stays bounded.
    const durable = this.store.saveUndoHistory !== undefined
    for (const user of this.latest.keys()) {
      if (this.latest.size <= MAX_CACHED_HISTORIES) return
      if (!durable || !this.unsaved.has(user)) this.latest.delete(user)
    }
  }
}
