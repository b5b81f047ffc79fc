/**
 * What programs did in a server's rooms, and how people overrule it (`server.programs`):
 * the log of program changes (see change-log.ts), undoing one of them as a forward change by
 * a person (see undo-change.ts), and the presence of programs that work over HTTP (see
 * program-presence.ts).
 *
 * With a store that keeps program changes, each change logged, grown or undone is saved there
 * too, and a room's stored changes join the log before it is listed or a change is undone: the
 * log survives a restart, and every server process sharing the store can undo any program's
 * change (who undid one is saved before the undo answers, and read back before undoing).
 *
 * @module
 */

import * as Y from 'yjs'
import type { RoomAccess } from '../history/server-history.js'
import type { IdRanges } from '../history/update-ids.js'
import { deletedTextOfIds, idsOfTransaction } from '../history/yjs-items.js'
import type { Room } from '../room.js'
import { checkAuthor, checkRoom, type DocumentStore } from '../storage/document-store.js'
import {
  type ChangeLogLimits,
  DEFAULT_CHANGE_LOG_LIMITS,
  type DeletedText,
  type LoggedChange,
  type ProgramChangeInfo,
  ProgramChangeLog,
} from './change-log.js'
import { decodeProgramChange, encodeProgramChange } from './change-log-codec.js'
import type { DirectConnection } from './direct-connection.js'
import { ProgramPresences, type RoomHolder } from './program-presence.js'
import { type UndoneChange, undoChange } from './undo-change.js'

/**
 * How close together (ms) a direct connection's transactions come to count as one change: a
 * program typing a paragraph through an editor makes one change, not one per keystroke.
 */
export const PROGRAM_CHANGE_GROUPING_MS = 1_000

/** Why a program's change cannot be undone: not in the log, or undone already. */
export class ProgramChangeError extends Error {
  /** Always `'ProgramChangeError'`. */
  override readonly name = 'ProgramChangeError'

  constructor(
    /** `unknown`: the log does not hold it (never made, or forgotten); `undone`: undone already. */
    readonly reason: 'unknown' | 'undone',
    message: string,
  ) {
    super(message)
  }
}

/** Options of `ServerPrograms`. */
export interface ServerProgramsOptions {
  /** Bounds on the change log (see `DEFAULT_CHANGE_LOG_LIMITS`). */
  readonly changeLog?: Partial<ChangeLogLimits>
  /** How long an HTTP program's presence stays after its last request, in ms (default 30 s). */
  readonly presenceTtlMs?: number
  /** The most HTTP programs shown at once in a room (default 16). */
  readonly maxPresencesPerRoom?: number
  /** The most HTTP programs shown at once in all rooms (default 1,000); each holds its room. */
  readonly maxPresences?: number
}

/** Where `ServerPrograms` keeps its log beside memory, and whom it tells when that fails. */
export interface ProgramChangeStorage {
  /** The store; its `saveProgramChange` and `loadProgramChanges`, when it has them, are used. */
  readonly store: DocumentStore
  /** Called when a change could not be saved or a room's changes could not be read. */
  readonly failed: (room: string, error: unknown) => void
}

/**
 * Program changes and their undo, for every room of a server.
 *
 * @example await server.programs.undoLast('notes', 'formatter-bot', 'ada')
 */
export class ServerPrograms {
  /**
   * The log of program changes.
   *
   * @internal
   */
  readonly log: ProgramChangeLog
  /**
   * HTTP programs' presence in rooms.
   *
   * @internal
   */
  readonly presences: ProgramPresences
  /** Each change's save under way (the last one queued), by id. */
  private readonly saving = new Map<string, Promise<void>>()
  /** Changes with a save queued and not started: it will save them as they are by then. */
  private readonly queued = new Set<string>()
  private readonly maxPerRoom: number

  constructor(
    private readonly rooms: RoomAccess & RoomHolder,
    options: ServerProgramsOptions = {},
    private readonly storage?: ProgramChangeStorage,
  ) {
    this.maxPerRoom = options.changeLog?.maxPerRoom ?? DEFAULT_CHANGE_LOG_LIMITS.maxPerRoom
    this.log = new ProgramChangeLog(options.changeLog, (change) => {
      void this.save(change)
    })
    this.presences = new ProgramPresences(
      rooms,
      options.presenceTtlMs,
      options.maxPresencesPerRoom,
      options.maxPresences,
    )
  }

  /**
   * The program changes kept for `room` (in the store, when it keeps them, and in this
   * process's memory), newest first.
   *
   * @example (await server.programs.changes('notes')).map((change) => change.message)
   */
  async changes(room: string): Promise<ProgramChangeInfo[]> {
    checkRoom(room)
    await this.loadStored(room)
    return this.log.list(room)
  }

  /**
   * Undoes the program change `id` of `room` as a change by `user`: what it inserted and is
   * still there goes, what it deleted comes back where it was; others' edits stay. Throws a
   * `ProgramChangeError` when the log does not hold it or it was undone already.
   *
   * @example await server.programs.undo('notes', changeId, 'ada')
   */
  async undo(room: string, id: string, user: string): Promise<UndoneChange> {
    checkRoom(room)
    checkAuthor({ user, time: 0 })
    await this.loadStored(room)
    const change = this.log.find(room, id)
    if (change === undefined) {
      throw new ProgramChangeError('unknown', `the room has no program change ${id.slice(0, 40)}`)
    }
    return this.undoLogged(change, user)
  }

  /**
   * Undoes the last change `program` made in `room` that nobody undid, as a change by `user`;
   * resolves null when there is none.
   *
   * @example await server.programs.undoLast('notes', 'formatter-bot', 'ada')
   */
  async undoLast(room: string, program: string, user: string): Promise<UndoneChange | null> {
    checkRoom(room)
    checkAuthor({ user, time: 0 })
    await this.loadStored(room)
    const change = this.log.lastOf(room, program)
    return change === undefined ? null : this.undoLogged(change, user)
  }

  /**
   * Logs each change the program on `connection` makes in its doc (each transaction that did
   * not come from the room): what it inserted, and what it deleted, read before Yjs collects
   * the deleted content.
   *
   * @internal
   */
  follow(
    connection: DirectConnection,
    room: Room,
    user: string,
    failed: (error: unknown) => void,
  ): void {
    const text = connection.doc.getText(room.textName)
    // The change the program's last transactions made, while they come close together.
    let burst: { change: LoggedChange; at: number } | null = null
    connection.doc.on('afterTransaction', (transaction: Y.Transaction) => {
      // What came from the room is not the program's; nor is a change beside the text (a
      // proposal it made: that becomes its change once a person accepts it).
      if (
        transaction.origin === connection ||
        !(transaction.changed as Map<unknown, unknown>).has(text)
      )
        return
      try {
        const { inserted, deleted } = idsOfTransaction(transaction)
        const now = Date.now()
        const current =
          burst !== null &&
          now - burst.at <= PROGRAM_CHANGE_GROUPING_MS &&
          burst.change.undoneBy === null &&
          this.log.find(room.name, burst.change.id) !== undefined
            ? burst.change
            : null
        const kept: DeletedText[] = deletedTextOfIds(text, deleted)
          .filter(({ client, clock }) => !holds(inserted, client, clock))
          // Text the burst typed and took back is no part of what its undo puts back.
          .filter(
            ({ client, clock }) => current === null || !holds(current.inserted, client, clock),
          )
          .map(({ client, clock, text: chars }) => ({
            text: chars,
            at: Y.createRelativePositionFromJSON({
              tname: room.textName,
              item: { client, clock },
              assoc: 0,
            }),
          }))
        if (inserted.size === 0 && kept.length === 0) return
        if (current !== null) this.log.extend(current, { inserted, deleted: kept })
        burst = {
          change: current ?? this.log.record(room.name, { user, inserted, deleted: kept }),
          at: now,
        }
      } catch (error) {
        failed(error)
      }
    })
  }

  /**
   * Resolves once the saves of changes under way now have settled (the server is closing, or
   * a change over HTTP answers only once another process could undo it).
   *
   * @internal
   */
  async saved(id?: string): Promise<void> {
    if (id !== undefined) await this.saving.get(id)
    else await Promise.all([...this.saving.values()])
  }

  /** Removes every HTTP program's presence (the server is closing). */
  dispose(): void {
    this.presences.dispose()
  }

  private async undoLogged(change: LoggedChange, user: string): Promise<UndoneChange> {
    if (change.undoneBy !== null) {
      throw new ProgramChangeError('undone', `the change ${change.id} was undone already`)
    }
    // Taken before the work, so that two undos at once undo it once; saved before it, so that
    // another process sharing the store does not undo it again.
    change.undoneBy = user
    try {
      await this.saveNow(change)
    } catch (error) {
      change.undoneBy = null
      throw error
    }
    try {
      return await this.rooms.withRoom(change.room, (room) => undoChange(room, change, user))
    } catch (error) {
      change.undoneBy = null
      void this.save(change)
      throw error
    }
  }

  /**
   * Queues a save of `change` after the saves of it under way, so that the last one written is
   * the newest; one queued and not started yet already takes what changed since. Failures go
   * to the storage's `failed`.
   */
  private save(change: LoggedChange): Promise<void> {
    const store = this.storage?.store
    if (store?.saveProgramChange === undefined) return Promise.resolve()
    const queued = this.saving.get(change.id)
    if (queued !== undefined && this.queued.has(change.id)) return queued
    this.queued.add(change.id)
    const saved: Promise<void> = (queued ?? Promise.resolve())
      .then(() => {
        this.queued.delete(change.id)
        return store.saveProgramChange!(change.room, change.id, encodeProgramChange(change))
      })
      .catch((error: unknown) => this.storage?.failed(change.room, error))
      .finally(() => {
        if (this.saving.get(change.id) === saved) this.saving.delete(change.id)
      })
    this.saving.set(change.id, saved)
    return saved
  }

  /** Saves `change` once the saves of it under way have settled; rejects when it fails. */
  private async saveNow(change: LoggedChange): Promise<void> {
    const store = this.storage?.store
    if (store?.saveProgramChange === undefined) return
    await this.saving.get(change.id)
    await store.saveProgramChange(change.room, change.id, encodeProgramChange(change))
  }

  /** Lets `room`'s stored changes join the log; a failure to read them leaves the log as it is. */
  private async loadStored(room: string): Promise<void> {
    const store = this.storage?.store
    if (store?.loadProgramChanges === undefined) return
    try {
      const stored = await store.loadProgramChanges(room, this.maxPerRoom)
      this.log.merge(
        room,
        stored.flatMap(({ change }) => decodeProgramChange(room, change) ?? []),
      )
    } catch (error) {
      this.storage?.failed(room, error)
    }
  }
}

/** Whether `ids` holds the id (`client`, `clock`). */
const holds = (ids: IdRanges, client: number, clock: number): boolean =>
  (ids.get(client) ?? []).some(
    (range) => clock >= range.clock && clock < range.clock + range.length,
  )
