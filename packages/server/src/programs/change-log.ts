/**
 * The log of the changes programs made in each room: every change made over the HTTP API
 * (`POST changes`, each stream as one change) and every transaction of a direct connection
 * marked as a program. Each entry keeps what undoing it needs: the Yjs ids it inserted, and the text
 * it deleted with a relative position for where that text was, both read before the deletion
 * was applied (a room's document collects deleted content, so it could not be read later).
 *
 * The log is kept in this server process's memory, bounded: the last `maxPerRoom` changes of
 * each room, and `maxBytes` in all (the oldest changes of any room go first). A change whose
 * deleted text alone is over `maxDeletedBytes` keeps none of it, and its undo cannot put it
 * back. Each change made or grown is also handed to `changed`, for `ServerPrograms` to keep it
 * in the document store; changes read back from there join the log through `merge`.
 *
 * @module
 */
import { randomUUID } from 'node:crypto'
import type { ProgramChangeJSON } from '@tandem/protocol'
import type * as Y from 'yjs'
import type { IdRange, IdRanges } from '../history/update-ids.js'

/** The longest message a change may carry, in UTF-16 units. */
export const MAX_CHANGE_MESSAGE_LENGTH = 500

/** Bounds on a `ProgramChangeLog`. */
export interface ChangeLogLimits {
  /** Changes kept per room (default 100). */
  readonly maxPerRoom: number
  /** Bytes kept in all, deleted text and ids counted (default 64 MiB). */
  readonly maxBytes: number
  /** The most deleted text one change keeps, in bytes (default 1 MiB). */
  readonly maxDeletedBytes: number
}

/** The default `ChangeLogLimits`. */
export const DEFAULT_CHANGE_LOG_LIMITS: ChangeLogLimits = {
  maxPerRoom: 100,
  maxBytes: 64 * 1024 * 1024,
  maxDeletedBytes: 1024 * 1024,
}

/** Text a change deleted, and where it was. */
export interface DeletedText {
  /** The characters deleted. */
  readonly text: string
  /** Where they were: at the first of them (assoc 0), which the document keeps as deleted. */
  readonly at: Y.RelativePosition
}

/** A program's change as the log lists it (the JSON `GET changes` answers). */
export type ProgramChangeInfo = ProgramChangeJSON

/** A change in the log, with what its undo needs. */
export interface LoggedChange {
  /** Its id. */
  readonly id: string
  /** Its room. */
  readonly room: string
  /** The program's user. */
  readonly user: string
  /** Its message, or null. */
  readonly message: string | null
  /** When it was made. */
  readonly time: number
  /** The ids it inserted, per client; a stream adds to them as it types. */
  readonly inserted: Map<number, IdRange[]>
  /** UTF-16 units inserted. */
  insertedLength: number
  /** What it deleted, in the order it deleted it. */
  deleted: readonly DeletedText[]
  /** UTF-16 units deleted. */
  deletedLength: number
  /** Whether its deleted text is kept. */
  restorable: boolean
  /** Who undid it, or null. */
  undoneBy: string | null
  /** Bytes it counts for in the log. */
  bytes: number
}

/** What a program's change is made of, to log it. */
export interface ChangeRecord {
  /** The program's user. */
  readonly user: string
  /** What it said the change is (cut to `MAX_CHANGE_MESSAGE_LENGTH`), or null. */
  readonly message?: string | null
  /** The ids it inserted. */
  readonly inserted: IdRanges
  /** What it deleted, read before the deletion. */
  readonly deleted: readonly DeletedText[]
}

const ENTRY_BYTES = 256
const RANGE_BYTES = 16
const DELETED_BYTES = 96

const lengthOf = (ids: IdRanges): number => {
  let length = 0
  for (const ranges of ids.values()) for (const range of ranges) length += range.length
  return length
}

const rangeCount = (ids: IdRanges): number => {
  let count = 0
  for (const ranges of ids.values()) count += ranges.length
  return count
}

/**
 * The program changes of every room, bounded (see the module's comment).
 *
 * @example const change = log.record('notes', { user: 'bot', inserted, deleted: [] }); log.list('notes')
 */
export class ProgramChangeLog {
  /** Every change kept, oldest first. */
  private readonly all = new Map<string, LoggedChange>()
  /** Each room's changes, oldest first. */
  private readonly rooms = new Map<string, Map<string, LoggedChange>>()
  private bytes = 0
  private readonly limits: ChangeLogLimits

  constructor(
    limits: Partial<ChangeLogLimits> = {},
    /** Called with each change logged, and each one grown, after the log took it. */
    private readonly changed: (change: LoggedChange) => void = () => {},
  ) {
    this.limits = { ...DEFAULT_CHANGE_LOG_LIMITS, ...limits }
  }

  /** Logs a change made in `room`; answers it, with its id. */
  record(room: string, record: ChangeRecord): LoggedChange {
    const deletedLength = record.deleted.reduce((sum, { text }) => sum + text.length, 0)
    const restorable = deletedLength * 2 <= this.limits.maxDeletedBytes
    const message =
      typeof record.message === 'string' && record.message !== ''
        ? record.message.slice(0, MAX_CHANGE_MESSAGE_LENGTH)
        : null
    const inserted = new Map<number, IdRange[]>()
    for (const [client, ranges] of record.inserted) inserted.set(client, [...ranges])
    const deleted = restorable ? record.deleted : []
    const change: LoggedChange = {
      id: randomUUID(),
      room,
      user: record.user,
      message,
      time: Date.now(),
      inserted,
      insertedLength: lengthOf(inserted),
      deleted,
      deletedLength,
      restorable,
      undoneBy: null,
      bytes: 0,
    }
    change.bytes = sizeOfChange(change)
    this.keep(room, [change])
    this.changed(change)
    return change
  }

  /**
   * Takes changes of `room` kept elsewhere (read from the store, oldest first): those the log
   * lacks join it in the order of their times, and one it holds that was undone elsewhere shows
   * as undone. The store is the truth across server processes.
   */
  merge(room: string, stored: readonly LoggedChange[]): void {
    const fresh: LoggedChange[] = []
    for (const change of stored) {
      const held = this.all.get(change.id)
      if (held === undefined) fresh.push(change)
      else if (held.room === room) this.refresh(held, change)
    }
    if (fresh.length > 0) this.keep(room, fresh)
  }

  /** Takes into `held` what its stored copy says more: who undid it, and parts added elsewhere. */
  private refresh(held: LoggedChange, stored: LoggedChange): void {
    if (stored.undoneBy !== null) held.undoneBy = stored.undoneBy
    if (stored.insertedLength + stored.deletedLength <= held.insertedLength + held.deletedLength) {
      return
    }
    held.inserted.clear()
    for (const [client, ranges] of stored.inserted) held.inserted.set(client, ranges)
    held.insertedLength = stored.insertedLength
    held.deleted = stored.deleted
    held.deletedLength = stored.deletedLength
    held.restorable = stored.restorable
    this.bytes += stored.bytes - held.bytes
    held.bytes = stored.bytes
    this.trim()
  }

  /** Adds what a change inserted later (a stream typing on). */
  addInserted(change: LoggedChange, ids: IdRanges): void {
    this.grow(change, ids)
    this.changed(change)
  }

  private grow(change: LoggedChange, ids: IdRanges): void {
    for (const [client, ranges] of ids) {
      const kept = change.inserted.get(client)
      if (kept === undefined) change.inserted.set(client, [...ranges])
      else kept.push(...ranges)
    }
    change.insertedLength += lengthOf(ids)
    const more = rangeCount(ids) * RANGE_BYTES
    change.bytes += more
    if (this.all.has(change.id)) {
      this.bytes += more
      this.trim()
    }
  }

  /**
   * Adds a later part to `change` (a program typing on within one burst): what that part
   * inserted, and what it deleted of text the change did not insert itself. A change whose
   * deleted text grows past `maxDeletedBytes` keeps none of it.
   */
  extend(change: LoggedChange, part: Pick<ChangeRecord, 'inserted' | 'deleted'>): void {
    this.grow(change, part.inserted)
    if (part.deleted.length > 0) this.growDeleted(change, part.deleted)
    this.changed(change)
  }

  private growDeleted(change: LoggedChange, deleted: readonly DeletedText[]): void {
    const added = deleted.reduce((sum, { text }) => sum + text.length, 0)
    const before = change.restorable
      ? change.deleted.reduce((sum, { text }) => sum + DELETED_BYTES + text.length * 2, 0)
      : 0
    change.deletedLength += added
    change.restorable = change.restorable && change.deletedLength * 2 <= this.limits.maxDeletedBytes
    change.deleted = change.restorable ? [...change.deleted, ...deleted] : []
    const after = change.deleted.reduce((sum, { text }) => sum + DELETED_BYTES + text.length * 2, 0)
    change.bytes += after - before
    if (this.all.has(change.id)) {
      this.bytes += after - before
      this.trim()
    }
  }

  /** The change `id` of `room`, or undefined when the log does not hold it. */
  find(room: string, id: string): LoggedChange | undefined {
    return this.rooms.get(room)?.get(id)
  }

  /** The last change `user` made in `room` that nobody undid, or undefined. */
  lastOf(room: string, user: string): LoggedChange | undefined {
    const changes = [...(this.rooms.get(room)?.values() ?? [])]
    for (let i = changes.length - 1; i >= 0; i--) {
      const change = changes[i]!
      if (change.user === user && change.undoneBy === null) return change
    }
    return undefined
  }

  /** The changes kept for `room`, newest first. */
  list(room: string): ProgramChangeInfo[] {
    return [...(this.rooms.get(room)?.values() ?? [])].reverse().map(infoOf)
  }

  /** Bytes kept now. */
  get size(): number {
    return this.bytes
  }

  /** Adds `changes` to `room`'s, which stay in the order of their times, oldest first. */
  private keep(room: string, changes: readonly LoggedChange[]): void {
    const kept = this.rooms.get(room) ?? new Map<string, LoggedChange>()
    let ordered = kept
    const [only] = changes
    if (changes.length === 1 && only!.time >= ([...kept.values()].at(-1)?.time ?? 0)) {
      kept.set(only!.id, only!)
    } else {
      ordered = new Map(
        [...kept.values(), ...changes]
          .sort((a, b) => a.time - b.time)
          .map((change) => [change.id, change]),
      )
    }
    this.rooms.set(room, ordered)
    for (const change of changes) {
      this.all.set(change.id, change)
      this.bytes += change.bytes
    }
    while (ordered.size > this.limits.maxPerRoom) this.drop(ordered.values().next().value!)
    this.trim()
  }

  private trim(): void {
    while (this.bytes > this.limits.maxBytes && this.all.size > 1) {
      this.drop(this.all.values().next().value!)
    }
  }

  private drop(change: LoggedChange): void {
    this.all.delete(change.id)
    this.bytes -= change.bytes
    const changes = this.rooms.get(change.room)
    changes?.delete(change.id)
    if (changes?.size === 0) this.rooms.delete(change.room)
  }
}

/**
 * The bytes `change` counts for in a log: its deleted text and ids, and a fixed part.
 *
 * @example sizeOfChange(change) > 0 // => true
 */
export const sizeOfChange = (change: LoggedChange): number =>
  ENTRY_BYTES +
  (change.message?.length ?? 0) * 2 +
  rangeCount(change.inserted) * RANGE_BYTES +
  change.deleted.reduce((sum, { text }) => sum + DELETED_BYTES + text.length * 2, 0)

/**
 * How the log lists `change`.
 *
 * @example infoOf(change).undone // => false
 */
export const infoOf = (change: LoggedChange): ProgramChangeInfo => ({
  id: change.id,
  user: change.user,
  message: change.message,
  time: change.time,
  undone: change.undoneBy !== null,
  undoneBy: change.undoneBy,
  inserted: change.insertedLength,
  deleted: change.deletedLength,
  restorable: change.restorable,
})
