/**
 * A server's history, for programs in the same process: who wrote what, and the versions of
 * every room. Each call loads the room if it is not in memory (and lets it unload again when
 * nobody is connected), so it works for any stored room, on any instance.
 *
 * @module
 */
import type { Room } from '../room.js'
import { checkRoom, type VersionInfo } from '../storage/document-store.js'
import type { OpenedVersion, RestoredVersion, VersionDiff } from './room-versions.js'
import type { AuthorRun } from './text-authors.js'

/** What a `ServerHistory` needs: a way to hold a room while it works on it. */
export interface RoomAccess {
  /** Loads (or finds) the room, runs `work`, and lets the room go. */
  withRoom<T>(room: string, work: (room: Room) => Promise<T>): Promise<T>
}

/**
 * Who wrote what and the versions of every room (`server.history`).
 *
 * @example const versions = await server.history.versions('notes')
 */
export class ServerHistory {
  constructor(private readonly rooms: RoomAccess) {}

  /**
   * Who inserted the text of `room` from offset `from` to `to` (UTF-16 units, clipped to the
   * text) as it reads now: runs of the same user and minute, in text order.
   *
   * @example await server.history.authorsOf('notes', 0, 100) // => [{ from: 0, to: 42, user: 'ada', time }, …]
   */
  authorsOf(room: string, from = 0, to = Number.MAX_SAFE_INTEGER): Promise<AuthorRun[]> {
    checkRoom(room)
    if (!(Number.isSafeInteger(from) && from >= 0 && Number.isSafeInteger(to) && to >= from)) {
      throw new RangeError(`authorsOf needs 0 <= from <= to, whole numbers; got ${from} and ${to}`)
    }
    return this.rooms.withRoom(room, (opened) => opened.authorsOf(from, to))
  }

  /**
   * The versions of `room`, oldest first: automatic ones and named ones.
   *
   * @example (await server.history.versions('notes')).map((v) => v.name ?? v.time)
   */
  versions(room: string): Promise<VersionInfo[]> {
    checkRoom(room)
    return this.rooms.withRoom(room, (opened) => opened.versions.list())
  }

  /**
   * Keeps `room` as it is now as a version named `name`, saved by `user`.
   *
   * @example await server.history.saveVersion('notes', 'Before the rewrite', 'ada')
   */
  saveVersion(room: string, name: string, user: string): Promise<VersionInfo> {
    checkRoom(room)
    return this.rooms.withRoom(room, (opened) => opened.versions.save('named', name, user))
  }

  /**
   * A version of `room` with its text, or null when there is no such version.
   *
   * @example (await server.history.openVersion('notes', '12'))?.text
   */
  openVersion(room: string, id: string): Promise<OpenedVersion | null> {
    checkRoom(room)
    return this.rooms.withRoom(room, (opened) => opened.versions.open(id))
  }

  /**
   * What changed in `room` from version `from` to version `to` (either may be `'now'`, the text as it is): the
   * text's runs, kept, inserted and deleted, with who inserted or deleted them, and the
   * changes from one text to the other; null when a version does not exist.
   *
   * @example await server.history.diff('notes', '12', 'now')
   */
  diff(room: string, from: string, to: string): Promise<VersionDiff | null> {
    checkRoom(room)
    return this.rooms.withRoom(room, (opened) => opened.versions.diff(from, to))
  }

  /**
   * Makes `room`'s text read as version `id` did, as a new change by `user` (stored,
   * attributed to them, relayed to everyone): the fewest edits, so everyone's carets and
   * selections on text both have stay where they are. Resolves with the version and the
   * changes made, or null when there is no such version.
   *
   * @example await server.history.restoreVersion('notes', '12', 'ada')
   */
  restoreVersion(room: string, id: string, user: string): Promise<RestoredVersion | null> {
    checkRoom(room)
    return this.rooms.withRoom(room, (opened) => opened.restoreVersion(id, user))
  }
}
