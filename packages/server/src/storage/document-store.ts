/**
 * What the server keeps: per room, an append-only log of Yjs updates (merged now and then by
 * compaction) with who sent each, the authors of everything compacted, each user's last
 * editing session, and small metadata. Implemented by `SqliteStore` (embedded) and
 * `PostgresStore` (shared by several server processes).
 */
import type { Attribution } from '../history/attribution.js'

/** Who sent an update, and when the server took it: kept beside the update, for attribution. */
export interface UpdateAuthor {
  /** The user id (a token's user, else the awareness user id, else "anonymous"). */
  readonly user: string
  /** When the server took it, in ms since the epoch. */
  readonly time: number
  /** Who accepted it, when it applies a program's proposal a person accepted. */
  readonly acceptedBy?: string | undefined
}

/** The size of a room's update log, to decide when to compact it. */
export interface LogSize {
  /** Updates in the log. */
  readonly updates: number
  /** Their bytes. */
  readonly bytes: number
}

/** What kind of version: made by the server after a pause or a stretch of activity, or saved by a user. */
export type VersionKind = 'auto' | 'named'

/** A version of a room's document, as listed (without its content). */
export interface VersionInfo {
  /** The store's id for it, unique in the store. */
  readonly id: string
  /** `auto` (made by the server) or `named` (saved by a user). */
  readonly kind: VersionKind
  /** Its name: the one a user gave, null for an automatic version. */
  readonly name: string | null
  /** When it was made, in ms since the epoch. */
  readonly time: number
  /** The users whose changes it holds since the version before it (or since the start). */
  readonly authors: readonly string[]
  /** Its text's length, in UTF-16 units. */
  readonly length: number
  /** The bytes of its stored state. */
  readonly bytes: number
}

/** A version to store: its description and its state (`Y.encodeStateAsUpdate` of the document then). */
export interface NewVersion {
  /** `auto` or `named`. */
  readonly kind: VersionKind
  /** The name a user gave it; null for an automatic version. */
  readonly name: string | null
  /** When it was made, in ms since the epoch. */
  readonly time: number
  /** The users whose changes it holds since the version before it. */
  readonly authors: readonly string[]
  /** Its text's length, in UTF-16 units. */
  readonly length: number
  /** The whole document as it was, as one Yjs update. */
  readonly state: Uint8Array
}

/** A stored version with its state. */
export interface StoredVersion extends VersionInfo {
  /** The whole document as it was, as one Yjs update. */
  readonly state: Uint8Array
}

/** A room's stored state: its updates in the order they were appended. */
export interface StoredDocument {
  /** Apply them all (in any order: Yjs updates commute) to rebuild the document. */
  readonly updates: readonly Uint8Array[]
  /** How many updates the log holds and their bytes, to decide when to compact. */
  readonly size: LogSize
}

/** A program change as a store keeps it. */
export interface StoredProgramChange {
  /** Its id. */
  readonly id: string
  /** Its entry, as it was saved. */
  readonly change: Uint8Array
}

/** The program changes a store keeps per room: as many as the server's log keeps in memory. */
export const MAX_PROGRAM_CHANGES_PER_ROOM = 100

/**
 * Durable storage of rooms. Every method is safe to call concurrently for different rooms
 * and for the same room; `append` resolves only once the update is on disk (or committed in
 * the database), so the server can relay it knowing it cannot be lost.
 */
export interface DocumentStore {
  /** The room's updates (none for a room never written). */
  load(room: string): Promise<StoredDocument>
  /**
   * Appends one update durably, with who sent it when given; resolves with the log's size
   * after it.
   */
  append(room: string, update: Uint8Array, author?: UpdateAuthor): Promise<LogSize>
  /**
   * Replaces the updates stored so far by one merged update, atomically: a crash leaves either
   * the old log or the merged one, and updates appended meanwhile are kept. The authors of the
   * merged updates are folded into the room's attribution in the same transaction. Resolves
   * with the log's size after it.
   */
  compact(room: string): Promise<LogSize>
  /**
   * Who inserted and deleted each Yjs id stored for `room`: the attribution kept through
   * compactions, with the log's authors added. Updates appended without an author have none.
   */
  loadAttribution(room: string): Promise<Attribution>
  /**
   * Keeps `session` (an opaque JSON string) as `user`'s last session in `room`. A store keeps
   * a bounded number of sessions per room (`DEFAULT_MAX_SESSIONS_PER_ROOM` unless opened with
   * another cap): a new user's session past it drops the least recently saved ones.
   */
  saveSession(room: string, user: string, session: string): Promise<void>
  /** `user`'s last session in `room`, or null. */
  loadSession(room: string, user: string): Promise<string | null>
  /** Keeps a version of `room`; resolves with how it is listed. */
  saveVersion(room: string, version: NewVersion): Promise<VersionInfo>
  /** The versions of `room`, oldest first, without their states. */
  listVersions(room: string): Promise<VersionInfo[]>
  /** One version of `room` with its state, or null when the store has no such version. */
  loadVersion(room: string, id: string): Promise<StoredVersion | null>
  /** Deletes versions of `room` by id (ids it does not have are ignored). */
  deleteVersions(room: string, ids: readonly string[]): Promise<void>
  /**
   * Keeps `history` (opaque bytes: an encoded undo history, already within the server's caps)
   * as `user`'s undo history in `room`, or forgets it (null). A store keeps histories for as
   * many users per room as sessions (saving a new user's past the cap drops the least recently
   * saved). Optional: with a store that has no such methods, histories live only in the
   * server's memory while the room is open.
   */
  saveUndoHistory?(room: string, user: string, history: Uint8Array | null): Promise<void>
  /** `user`'s undo history in `room`, or null. */
  loadUndoHistory?(room: string, user: string): Promise<Uint8Array | null>
  /**
   * Keeps `change` (opaque bytes: one encoded entry of the log of program changes) as the
   * change `id` of `room`, replacing what it kept under that id. A store keeps the last
   * `MAX_PROGRAM_CHANGES_PER_ROOM` changes per room, by when each was first saved; saving a new
   * one past it drops the oldest. Optional: with a store that has no such methods, the log lives
   * only in each server process's memory.
   */
  saveProgramChange?(room: string, id: string, change: Uint8Array): Promise<void>
  /** The newest `limit` program changes kept for `room`, oldest first. */
  loadProgramChanges?(room: string, limit: number): Promise<StoredProgramChange[]>
  /** Sets a metadata value of `room` (e.g. a title); null deletes it. */
  setMeta(room: string, key: string, value: string | null): Promise<void>
  /** A metadata value of `room`, or null. */
  getMeta(room: string, key: string): Promise<string | null>
  /** Every room with stored updates, by name. */
  listRooms(): Promise<string[]>
  /** Releases the connection or file; the store is unusable afterwards. */
  close(): Promise<void>
}

/** A problem with the store itself (a bad file, a lost database), not with the caller's input. */
export class StorageError extends Error {
  /** Always `'StorageError'`. */
  override readonly name = 'StorageError'

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
  }
}

/**
 * The sessions a store keeps per room unless opened with another cap: enough for every user
 * a room sees in practice, few enough that a flood of made-up users cannot fill the disk.
 */
export const DEFAULT_MAX_SESSIONS_PER_ROOM = 10_000

/** Throws a `RangeError` unless `max` is a usable cap on sessions per room; returns it. */
export const checkMaxSessions = (max: number): number => {
  if (!(max === Number.POSITIVE_INFINITY || (Number.isSafeInteger(max) && max > 0))) {
    throw new RangeError(`maxSessionsPerRoom must be a positive integer or Infinity, got ${max}`)
  }
  return max
}

/** The longest user id kept as an update's author, in UTF-16 units. */
export const MAX_AUTHOR_LENGTH = 1024

/**
 * Throws a `TypeError` unless `author` is absent or a usable author: a user id (and accepter,
 * when there is one) of 1 to `MAX_AUTHOR_LENGTH` units of well-formed text without control characters (PostgreSQL's
 * text cannot hold NUL), and a time that is a non-negative safe integer.
 *
 * @example checkAuthor({ user: 'ada', time: Date.now() })
 */
export const checkAuthor = (author: UpdateAuthor | undefined): void => {
  if (author === undefined) return
  const { user, time, acceptedBy } = author ?? {}
  for (const [what, id] of [
    ['author', user],
    ['accepter', acceptedBy ?? 'nobody'],
  ] as const) {
    if (
      typeof id !== 'string' ||
      id === '' ||
      id.length > MAX_AUTHOR_LENGTH ||
      LONE_SURROGATE.test(id) ||
      CONTROL.test(id)
    ) {
      throw new TypeError(
        `an update's ${what} must be well-formed text of 1 to ${MAX_AUTHOR_LENGTH} characters without control characters, got ${shown(id)}`,
      )
    }
  }
  if (!(Number.isSafeInteger(time) && time >= 0)) {
    throw new TypeError(`an update's time must be ms since the epoch, got ${String(time)}`)
  }
}

/** The longest version name accepted, in UTF-16 units. */
export const MAX_VERSION_NAME_LENGTH = 200

/**
 * Throws a `TypeError` naming the problem unless `version` can be stored: a known kind, a name
 * (only for a named version) of 1 to `MAX_VERSION_NAME_LENGTH` units of well-formed text without
 * control characters, a time, usable authors, a length and a state.
 *
 * @example checkVersion({ kind: 'named', name: 'Draft 1', time: Date.now(), authors: ['ada'], length: 42, state })
 */
export const checkVersion = (version: NewVersion): void => {
  const { kind, name, time, authors, length, state } = version ?? ({} as NewVersion)
  if (kind !== 'auto' && kind !== 'named') {
    throw new TypeError(`a version's kind must be "auto" or "named", got ${shown(kind)}`)
  }
  if (kind === 'named') {
    if (
      typeof name !== 'string' ||
      name.trim() === '' ||
      name.length > MAX_VERSION_NAME_LENGTH ||
      LONE_SURROGATE.test(name) ||
      CONTROL.test(name)
    ) {
      throw new TypeError(
        `a version's name must be well-formed text of 1 to ${MAX_VERSION_NAME_LENGTH} characters without control characters, got ${shown(name)}`,
      )
    }
  } else if (name !== null) {
    throw new TypeError('an automatic version has no name')
  }
  if (!(Number.isSafeInteger(time) && time >= 0)) {
    throw new TypeError(`a version's time must be ms since the epoch, got ${String(time)}`)
  }
  if (!Array.isArray(authors)) throw new TypeError("a version's authors must be an array")
  for (const user of authors) checkAuthor({ user, time })
  if (!(Number.isSafeInteger(length) && length >= 0)) {
    throw new TypeError(`a version's length must be a whole number, got ${String(length)}`)
  }
  if (!(state instanceof Uint8Array)) throw new TypeError("a version's state must be a Uint8Array")
}

/** The longest room name accepted, in UTF-16 units. */
export const MAX_ROOM_LENGTH = 512

/** Half of a surrogate pair without its other half (pairs match as one code point). */
const LONE_SURROGATE = /\p{Cs}/u

/** Control characters (Unicode's Cc): C0 (U+0000 to U+001F), DEL (U+007F), C1 (U+0080 to U+009F). */
const CONTROL = /\p{Cc}/u

/** `room` quoted for a message, control characters escaped (JSON leaves DEL and C1 raw). */
const shown = (room: unknown): string =>
  (JSON.stringify(room) ?? String(room))
    .slice(0, 80)
    .replace(/\p{Cc}/gu, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)

/**
 * Throws a `TypeError` saying why unless `room` is a usable room name: well-formed text of 1
 * to `MAX_ROOM_LENGTH` UTF-16 units without control characters. Every store applies this one
 * rule, so a name one store takes every store takes.
 *
 * @example checkRoom('team/notes') // fine; checkRoom('a\u0000b') // throws
 */
export const checkRoom = (room: string): void => {
  // A lone surrogate would be stored as U+FFFD, making two names one room.
  if (
    typeof room !== 'string' ||
    room === '' ||
    room.length > MAX_ROOM_LENGTH ||
    LONE_SURROGATE.test(room)
  ) {
    throw new TypeError(
      `a room name must be well-formed text of 1 to ${MAX_ROOM_LENGTH} characters, got ${shown(room)}`,
    )
  }
  // PostgreSQL's text cannot hold NUL, and no name needs a control character: one rule for
  // every store, rather than names that open on SQLite and fail on PostgreSQL.
  if (CONTROL.test(room)) {
    throw new TypeError(
      `a room name cannot contain control characters (U+0000 to U+001F, U+007F to U+009F), got ${shown(room)}`,
    )
  }
}

/** The longest program change id accepted, in UTF-16 units. */
const MAX_CHANGE_ID_LENGTH = 64

/**
 * Throws a `TypeError` unless `id` and `change` can be kept as a program change: an id of 1 to
 * 64 characters without control characters, and bytes.
 *
 * @example checkProgramChange(change.id, encodeProgramChange(change))
 */
export const checkProgramChange = (id: string, change: Uint8Array): void => {
  if (
    typeof id !== 'string' ||
    id === '' ||
    id.length > MAX_CHANGE_ID_LENGTH ||
    LONE_SURROGATE.test(id) ||
    CONTROL.test(id)
  ) {
    throw new TypeError(
      `a program change's id must be 1 to ${MAX_CHANGE_ID_LENGTH} characters without control characters, got ${shown(id)}`,
    )
  }
  if (!(change instanceof Uint8Array)) throw new TypeError('a program change must be a Uint8Array')
}

/**
 * Throws a `RangeError` unless `limit` is a positive whole number of program changes to load.
 *
 * @example checkChangeLimit(MAX_PROGRAM_CHANGES_PER_ROOM)
 */
export const checkChangeLimit = (limit: number): void => {
  if (!(Number.isSafeInteger(limit) && limit > 0)) {
    throw new RangeError(`a count of program changes must be a positive integer, got ${limit}`)
  }
}
