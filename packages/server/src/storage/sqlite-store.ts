/**
 * `SqliteStore`: the embedded store, one SQLite file (WAL mode) through `better-sqlite3`.
 *
 * Statements run synchronously on the server's thread; each is short (one row in, or one
 * room's rows out), and WAL with `synchronous = FULL` makes a committed append survive a
 * power loss, not only a process crash.
 */
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import type { Attribution } from '../history/attribution.js'
import { type AuthoredUpdate, attributionOf } from './attribution-log.js'
import {
  checkAuthor,
  checkChangeLimit,
  checkMaxSessions,
  checkProgramChange,
  checkRoom,
  checkVersion,
  DEFAULT_MAX_SESSIONS_PER_ROOM,
  type DocumentStore,
  type LogSize,
  MAX_PROGRAM_CHANGES_PER_ROOM,
  type NewVersion,
  StorageError,
  type StoredDocument,
  type StoredProgramChange,
  type StoredVersion,
  type UpdateAuthor,
  type VersionInfo,
  type VersionKind,
} from './document-store.js'
import { mergeLog } from './merge-log.js'

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS updates (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    room TEXT NOT NULL,
    data BLOB NOT NULL,
    author TEXT,
    at INTEGER,
    accepted_by TEXT
  );
  CREATE INDEX IF NOT EXISTS updates_by_room ON updates (room, seq);
  CREATE TABLE IF NOT EXISTS attributions (
    room TEXT PRIMARY KEY,
    data BLOB NOT NULL
  );
  CREATE TABLE IF NOT EXISTS versions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    room TEXT NOT NULL,
    kind TEXT NOT NULL,
    name TEXT,
    created_at INTEGER NOT NULL,
    authors TEXT NOT NULL,
    length INTEGER NOT NULL,
    state BLOB NOT NULL
  );
  CREATE INDEX IF NOT EXISTS versions_by_room ON versions (room, id);
  CREATE TABLE IF NOT EXISTS rooms (
    room TEXT PRIMARY KEY,
    updates INTEGER NOT NULL,
    bytes INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS sessions (
    room TEXT NOT NULL,
    user_id TEXT NOT NULL,
    data TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (room, user_id)
  );
  CREATE INDEX IF NOT EXISTS sessions_by_age ON sessions (room, updated_at);
  CREATE TABLE IF NOT EXISTS undo_histories (
    room TEXT NOT NULL,
    user_id TEXT NOT NULL,
    data BLOB NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (room, user_id)
  );
  CREATE INDEX IF NOT EXISTS undo_histories_by_age ON undo_histories (room, updated_at);
  CREATE TABLE IF NOT EXISTS program_changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    room TEXT NOT NULL,
    id TEXT NOT NULL,
    data BLOB NOT NULL,
    UNIQUE (room, id)
  );
  CREATE INDEX IF NOT EXISTS program_changes_by_room ON program_changes (room, seq);
  CREATE TABLE IF NOT EXISTS meta (
    room TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (room, key)
  );
`

const EMPTY: LogSize = { updates: 0, bytes: 0 }

/**
 * A `DocumentStore` in one SQLite file.
 *
 * @example const store = SqliteStore.open({ file: './data/tandem.sqlite' })
 */
export class SqliteStore implements DocumentStore {
  /** Appends waiting for the next commit (see `append`). */
  private uncommitted: PendingAppend[] = []
  /** The `updated_at` of the last session saved: each later one gets a later time. */
  private lastSessionTime = 0

  private readonly statements

  private constructor(
    private readonly db: Database.Database,
    /** The SQLite file. */
    readonly file: string,
    /** The most sessions kept per room; saving a new user's drops the least recently saved. */
    readonly maxSessionsPerRoom: number,
  ) {
    this.statements = {
      insert: db.prepare(
        'INSERT INTO updates (room, data, author, at, accepted_by) VALUES (?, ?, ?, ?, ?)',
      ),
      grow: db.prepare(
        `INSERT INTO rooms (room, updates, bytes) VALUES (?, 1, ?)
         ON CONFLICT (room) DO UPDATE SET updates = updates + 1, bytes = bytes + excluded.bytes
         RETURNING updates, bytes`,
      ),
      load: db.prepare('SELECT seq, data FROM updates WHERE room = ? ORDER BY seq'),
      loadAuthored: db.prepare(
        'SELECT seq, data, author, at, accepted_by FROM updates WHERE room = ? ORDER BY seq',
      ),
      loadAttribution: db.prepare('SELECT data FROM attributions WHERE room = ?'),
      saveAttribution: db.prepare(
        `INSERT INTO attributions (room, data) VALUES (?, ?)
         ON CONFLICT (room) DO UPDATE SET data = excluded.data`,
      ),
      size: db.prepare('SELECT updates, bytes FROM rooms WHERE room = ?'),
      dropUpTo: db.prepare('DELETE FROM updates WHERE room = ? AND seq <= ?'),
      insertAt: db.prepare('INSERT INTO updates (seq, room, data) VALUES (?, ?, ?)'),
      resize: db.prepare(
        `UPDATE rooms SET updates = (SELECT count(*) FROM updates WHERE room = @room),
           bytes = (SELECT coalesce(sum(length(data)), 0) FROM updates WHERE room = @room)
         WHERE room = @room RETURNING updates, bytes`,
      ),
      rooms: db.prepare('SELECT room FROM rooms ORDER BY room'),
      saveVersion: db.prepare(
        `INSERT INTO versions (room, kind, name, created_at, authors, length, state)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      listVersions: db.prepare(
        `SELECT id, kind, name, created_at, authors, length, length(state) AS bytes
         FROM versions WHERE room = ? ORDER BY id`,
      ),
      loadVersion: db.prepare(
        `SELECT id, kind, name, created_at, authors, length, length(state) AS bytes, state
         FROM versions WHERE room = ? AND id = ?`,
      ),
      deleteVersion: db.prepare('DELETE FROM versions WHERE room = ? AND id = ?'),
      updateSession: db.prepare(
        'UPDATE sessions SET data = ?, updated_at = ? WHERE room = ? AND user_id = ?',
      ),
      insertSession: db.prepare(
        'INSERT INTO sessions (room, user_id, data, updated_at) VALUES (?, ?, ?, ?)',
      ),
      trimSessions: db.prepare(
        `DELETE FROM sessions WHERE room = @room AND rowid IN (
           SELECT rowid FROM sessions WHERE room = @room
           ORDER BY updated_at DESC, rowid DESC LIMIT -1 OFFSET @keep)`,
      ),
      loadSession: db.prepare('SELECT data FROM sessions WHERE room = ? AND user_id = ?'),
      updateHistory: db.prepare(
        'UPDATE undo_histories SET data = ?, updated_at = ? WHERE room = ? AND user_id = ?',
      ),
      insertHistory: db.prepare(
        'INSERT INTO undo_histories (room, user_id, data, updated_at) VALUES (?, ?, ?, ?)',
      ),
      trimHistories: db.prepare(
        `DELETE FROM undo_histories WHERE room = @room AND rowid IN (
           SELECT rowid FROM undo_histories WHERE room = @room
           ORDER BY updated_at DESC, rowid DESC LIMIT -1 OFFSET @keep)`,
      ),
      deleteHistory: db.prepare('DELETE FROM undo_histories WHERE room = ? AND user_id = ?'),
      loadHistory: db.prepare('SELECT data FROM undo_histories WHERE room = ? AND user_id = ?'),
      saveChange: db.prepare(
        `INSERT INTO program_changes (room, id, data) VALUES (?, ?, ?)
         ON CONFLICT (room, id) DO UPDATE SET data = excluded.data`,
      ),
      trimChanges: db.prepare(
        `DELETE FROM program_changes WHERE room = @room AND seq IN (
           SELECT seq FROM program_changes WHERE room = @room
           ORDER BY seq DESC LIMIT -1 OFFSET @keep)`,
      ),
      loadChanges: db.prepare(
        `SELECT id, data FROM (
           SELECT seq, id, data FROM program_changes WHERE room = ? ORDER BY seq DESC LIMIT ?
         ) ORDER BY seq`,
      ),
      setMeta: db.prepare(
        `INSERT INTO meta (room, key, value) VALUES (?, ?, ?)
         ON CONFLICT (room, key) DO UPDATE SET value = excluded.value`,
      ),
      deleteMeta: db.prepare('DELETE FROM meta WHERE room = ? AND key = ?'),
      getMeta: db.prepare('SELECT value FROM meta WHERE room = ? AND key = ?'),
    }
  }

  /**
   * Opens (creating it and its folder if needed) the SQLite file `file`, or an in-memory
   * database for `':memory:'`, keeping at most `maxSessionsPerRoom` sessions per room
   * (default `DEFAULT_MAX_SESSIONS_PER_ROOM`). Throws a `StorageError` when the file cannot be
   * opened, and a `RangeError` for an unusable cap.
   */
  static open(options: { file: string; maxSessionsPerRoom?: number | undefined }): SqliteStore {
    const { file } = options
    if (typeof file !== 'string' || file === '') {
      throw new TypeError(`SqliteStore needs a file path, got ${JSON.stringify(file)}`)
    }
    const maxSessions = checkMaxSessions(
      options.maxSessionsPerRoom ?? DEFAULT_MAX_SESSIONS_PER_ROOM,
    )
    try {
      if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
      const db = new Database(file)
      db.pragma('journal_mode = WAL')
      db.pragma('synchronous = FULL')
      db.pragma('busy_timeout = 5000')
      db.exec(SCHEMA)
      addAuthorColumns(db)
      return new SqliteStore(db, file, maxSessions)
    } catch (error) {
      throw new StorageError(`cannot open the SQLite store at ${file}: ${messageOf(error)}`, {
        cause: error,
      })
    }
  }

  async load(room: string): Promise<StoredDocument> {
    checkRoom(room)
    return this.run(() => {
      const rows = this.statements.load.all(room) as { data: Buffer }[]
      return { updates: rows.map((row) => toBytes(row.data)), size: this.sizeOf(room) }
    })
  }

  /**
   * Appends `update` in the next commit: every append of one turn of the event loop (of any
   * room) is committed in one transaction, so a burst of updates costs one sync to disk, not
   * one each. Resolves once that commit is on disk.
   */
  async append(room: string, update: Uint8Array, author?: UpdateAuthor): Promise<LogSize> {
    checkRoom(room)
    checkUpdate(update)
    checkAuthor(author)
    if (!this.db.open) throw new StorageError(`the SQLite store at ${this.file} is closed`)
    return new Promise<LogSize>((resolve, reject) => {
      this.uncommitted.push({ room, update, author, resolve, reject })
      if (this.uncommitted.length === 1) setImmediate(() => this.commit())
    })
  }

  async compact(room: string): Promise<LogSize> {
    checkRoom(room)
    // One synchronous transaction: nothing else can append in between, and a crash leaves
    // either the old rows or the merged one.
    return this.run(
      this.db.transaction(() => {
        const rows = this.statements.loadAuthored.all(room) as AuthoredRow[]
        if (rows.length <= 1) return this.sizeOf(room)
        const updates = rows.map((row) => toBytes(row.data))
        const merged = mergeLog(room, updates)
        const attribution = attributionOf(room, this.baseAttribution(room), authored(rows))
        const last = rows[rows.length - 1]!.seq
        this.statements.dropUpTo.run(room, last)
        this.statements.insertAt.run(last, room, merged)
        this.statements.saveAttribution.run(room, attribution.encode())
        return this.statements.resize.get({ room }) as LogSize
      }),
    )
  }

  async loadAttribution(room: string): Promise<Attribution> {
    checkRoom(room)
    return this.run(() => {
      const rows = this.statements.loadAuthored.all(room) as AuthoredRow[]
      return attributionOf(room, this.baseAttribution(room), authored(rows))
    })
  }

  /**
   * Keeps `session` as `user`'s in `room`; a new user's session past the room's cap drops the
   * least recently saved ones, in the same transaction.
   */
  async saveSession(room: string, user: string, session: string): Promise<void> {
    checkRoom(room)
    // Strictly later than the last one, so that "least recently saved" is never a tie.
    const now = Math.max(Date.now(), this.lastSessionTime + 1)
    this.lastSessionTime = now
    this.run(
      this.db.transaction(() => {
        if (this.statements.updateSession.run(session, now, room, user).changes > 0) return
        this.statements.insertSession.run(room, user, session, now)
        if (this.maxSessionsPerRoom !== Number.POSITIVE_INFINITY) {
          this.statements.trimSessions.run({ room, keep: this.maxSessionsPerRoom })
        }
      }),
    )
  }

  async loadSession(room: string, user: string): Promise<string | null> {
    checkRoom(room)
    return this.run(() => {
      const row = this.statements.loadSession.get(room, user) as { data: string } | undefined
      return row?.data ?? null
    })
  }

  async saveVersion(room: string, version: NewVersion): Promise<VersionInfo> {
    checkRoom(room)
    checkVersion(version)
    return this.run(() => {
      const { kind, name, time, authors, length, state } = version
      const authorsJson = JSON.stringify(authors)
      const id = this.statements.saveVersion.run(
        room,
        kind,
        name,
        time,
        authorsJson,
        length,
        state,
      ).lastInsertRowid
      return {
        id: String(id),
        kind,
        name,
        time,
        authors: [...authors],
        length,
        bytes: state.length,
      }
    })
  }

  async listVersions(room: string): Promise<VersionInfo[]> {
    checkRoom(room)
    return this.run(() => (this.statements.listVersions.all(room) as VersionRow[]).map(versionOf))
  }

  async loadVersion(room: string, id: string): Promise<StoredVersion | null> {
    checkRoom(room)
    if (!/^\d{1,15}$/.test(id)) return null
    return this.run(() => {
      const row = this.statements.loadVersion.get(room, Number(id)) as
        | (VersionRow & { state: Buffer })
        | undefined
      return row === undefined ? null : { ...versionOf(row), state: toBytes(row.state) }
    })
  }

  async deleteVersions(room: string, ids: readonly string[]): Promise<void> {
    checkRoom(room)
    this.run(
      this.db.transaction(() => {
        for (const id of ids) {
          if (/^\d{1,15}$/.test(id)) this.statements.deleteVersion.run(room, Number(id))
        }
      }),
    )
  }

  /**
   * Keeps `history` as `user`'s undo history in `room` (null forgets it); a new user's past the
   * room's cap drops the least recently saved ones, in the same transaction.
   */
  async saveUndoHistory(room: string, user: string, history: Uint8Array | null): Promise<void> {
    checkRoom(room)
    const now = Math.max(Date.now(), this.lastSessionTime + 1)
    this.lastSessionTime = now
    this.run(
      this.db.transaction(() => {
        if (history === null) {
          this.statements.deleteHistory.run(room, user)
          return
        }
        const data = Buffer.from(history.buffer, history.byteOffset, history.byteLength)
        if (this.statements.updateHistory.run(data, now, room, user).changes > 0) return
        this.statements.insertHistory.run(room, user, data, now)
        if (this.maxSessionsPerRoom !== Number.POSITIVE_INFINITY) {
          this.statements.trimHistories.run({ room, keep: this.maxSessionsPerRoom })
        }
      }),
    )
  }

  async loadUndoHistory(room: string, user: string): Promise<Uint8Array | null> {
    checkRoom(room)
    return this.run(() => {
      const row = this.statements.loadHistory.get(room, user) as { data: Buffer } | undefined
      return row === undefined ? null : new Uint8Array(row.data)
    })
  }

  async saveProgramChange(room: string, id: string, change: Uint8Array): Promise<void> {
    checkRoom(room)
    checkProgramChange(id, change)
    this.run(
      this.db.transaction(() => {
        const data = Buffer.from(change.buffer, change.byteOffset, change.byteLength)
        this.statements.saveChange.run(room, id, data)
        this.statements.trimChanges.run({ room, keep: MAX_PROGRAM_CHANGES_PER_ROOM })
      }),
    )
  }

  async loadProgramChanges(room: string, limit: number): Promise<StoredProgramChange[]> {
    checkRoom(room)
    checkChangeLimit(limit)
    return this.run(() =>
      (this.statements.loadChanges.all(room, limit) as { id: string; data: Buffer }[]).map(
        (row) => ({ id: row.id, change: new Uint8Array(row.data) }),
      ),
    )
  }

  async setMeta(room: string, key: string, value: string | null): Promise<void> {
    checkRoom(room)
    this.run(() =>
      value === null
        ? this.statements.deleteMeta.run(room, key)
        : this.statements.setMeta.run(room, key, value),
    )
  }

  async getMeta(room: string, key: string): Promise<string | null> {
    checkRoom(room)
    return this.run(() => {
      const row = this.statements.getMeta.get(room, key) as { value: string } | undefined
      return row?.value ?? null
    })
  }

  async listRooms(): Promise<string[]> {
    return this.run(() => (this.statements.rooms.all() as { room: string }[]).map((r) => r.room))
  }

  async close(): Promise<void> {
    this.commit()
    if (this.db.open) this.db.close()
  }

  /** Commits the appends waiting, in one transaction; each learns its outcome. */
  private commit(): void {
    const appends = this.uncommitted
    if (appends.length === 0) return
    this.uncommitted = []
    let sizes: LogSize[]
    try {
      sizes = this.run(
        this.db.transaction(() =>
          appends.map(({ room, update, author }) => {
            this.statements.insert.run(
              room,
              update,
              author?.user ?? null,
              author?.time ?? null,
              author?.acceptedBy ?? null,
            )
            return this.statements.grow.get(room, update.length) as LogSize
          }),
        ),
      )
    } catch (error) {
      for (const { reject } of appends) reject(error)
      return
    }
    appends.forEach(({ resolve }, i) => {
      resolve(sizes[i]!)
    })
  }

  /** The attribution earlier compactions folded in, encoded; null before the first. */
  private baseAttribution(room: string): Uint8Array | null {
    const row = this.statements.loadAttribution.get(room) as { data: Buffer } | undefined
    return row === undefined ? null : toBytes(row.data)
  }

  private sizeOf(room: string): LogSize {
    return (this.statements.size.get(room) as LogSize | undefined) ?? EMPTY
  }

  /** Runs `work`, turning the database's failures into `StorageError`s. */
  private run<T>(work: () => T): T {
    if (!this.db.open) throw new StorageError(`the SQLite store at ${this.file} is closed`)
    try {
      return work()
    } catch (error) {
      throw new StorageError(`the SQLite store at ${this.file} failed: ${messageOf(error)}`, {
        cause: error,
      })
    }
  }
}

/** An append waiting for its commit. */
interface PendingAppend {
  readonly room: string
  readonly update: Uint8Array
  readonly author: UpdateAuthor | undefined
  resolve(size: LogSize): void
  reject(error: unknown): void
}

const checkUpdate = (update: Uint8Array): void => {
  if (!(update instanceof Uint8Array)) {
    throw new TypeError(`an update must be a Uint8Array, got ${typeof update}`)
  }
}

/** A row of the versions table, without the state. */
interface VersionRow {
  readonly id: number
  readonly kind: VersionKind
  readonly name: string | null
  readonly created_at: number
  readonly authors: string
  readonly length: number
  readonly bytes: number
}

const versionOf = (row: VersionRow): VersionInfo => ({
  id: String(row.id),
  kind: row.kind,
  name: row.name,
  time: row.created_at,
  authors: JSON.parse(row.authors) as string[],
  length: row.length,
  bytes: row.bytes,
})

/** A row of the log with who sent it (null for rows stored without, as a merged log). */
interface AuthoredRow {
  readonly seq: number
  readonly data: Buffer
  readonly author: string | null
  readonly at: number | null
  readonly accepted_by: string | null
}

const authored = (rows: readonly AuthoredRow[]): AuthoredUpdate[] =>
  rows.map((row) => ({
    data: toBytes(row.data),
    user: row.author,
    time: row.at,
    acceptedBy: row.accepted_by,
  }))

/**
 * Adds the author columns to an `updates` table made before the store kept authors (or who
 * accepted a proposal).
 */
const addAuthorColumns = (db: Database.Database): void => {
  const columns = new Set(
    (db.prepare('PRAGMA table_info(updates)').all() as { name: string }[]).map((c) => c.name),
  )
  if (!columns.has('author')) db.exec('ALTER TABLE updates ADD COLUMN author TEXT')
  if (!columns.has('at')) db.exec('ALTER TABLE updates ADD COLUMN at INTEGER')
  if (!columns.has('accepted_by')) db.exec('ALTER TABLE updates ADD COLUMN accepted_by TEXT')
}

/** The bytes of a BLOB, as a plain Uint8Array (better-sqlite3 gives Buffers). */
const toBytes = (blob: Buffer): Uint8Array =>
  new Uint8Array(blob.buffer, blob.byteOffset, blob.byteLength)

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error)
