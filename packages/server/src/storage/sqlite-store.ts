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
import {
  checkMaxSessions,
  checkRoom,
  DEFAULT_MAX_SESSIONS_PER_ROOM,
  type DocumentStore,
  type LogSize,
  StorageError,
  type StoredDocument,
} from './document-store.js'
import { mergeLog } from './merge-log.js'

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS updates (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    room TEXT NOT NULL,
    data BLOB NOT NULL
  );
  CREATE INDEX IF NOT EXISTS updates_by_room ON updates (room, seq);
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
      insert: db.prepare('INSERT INTO updates (room, data) VALUES (?, ?)'),
      grow: db.prepare(
        `INSERT INTO rooms (room, updates, bytes) VALUES (?, 1, ?)
         ON CONFLICT (room) DO UPDATE SET updates = updates + 1, bytes = bytes + excluded.bytes
         RETURNING updates, bytes`,
      ),
      load: db.prepare('SELECT seq, data FROM updates WHERE room = ? ORDER BY seq'),
      size: db.prepare('SELECT updates, bytes FROM rooms WHERE room = ?'),
      dropUpTo: db.prepare('DELETE FROM updates WHERE room = ? AND seq <= ?'),
      insertAt: db.prepare('INSERT INTO updates (seq, room, data) VALUES (?, ?, ?)'),
      resize: db.prepare(
        `UPDATE rooms SET updates = (SELECT count(*) FROM updates WHERE room = @room),
           bytes = (SELECT coalesce(sum(length(data)), 0) FROM updates WHERE room = @room)
         WHERE room = @room RETURNING updates, bytes`,
      ),
      rooms: db.prepare('SELECT room FROM rooms ORDER BY room'),
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
  async append(room: string, update: Uint8Array): Promise<LogSize> {
    checkRoom(room)
    checkUpdate(update)
    if (!this.db.open) throw new StorageError(`the SQLite store at ${this.file} is closed`)
    return new Promise<LogSize>((resolve, reject) => {
      this.uncommitted.push({ room, update, resolve, reject })
      if (this.uncommitted.length === 1) setImmediate(() => this.commit())
    })
  }

  async compact(room: string): Promise<LogSize> {
    checkRoom(room)
    // One synchronous transaction: nothing else can append in between, and a crash leaves
    // either the old rows or the merged one.
    return this.run(
      this.db.transaction(() => {
        const rows = this.statements.load.all(room) as { seq: number; data: Buffer }[]
        if (rows.length <= 1) return this.sizeOf(room)
        const merged = mergeLog(
          room,
          rows.map((row) => toBytes(row.data)),
        )
        const last = rows[rows.length - 1]!.seq
        this.statements.dropUpTo.run(room, last)
        this.statements.insertAt.run(last, room, merged)
        return this.statements.resize.get({ room }) as LogSize
      }),
    )
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
          appends.map(({ room, update }) => {
            this.statements.insert.run(room, update)
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
  resolve(size: LogSize): void
  reject(error: unknown): void
}

const checkUpdate = (update: Uint8Array): void => {
  if (!(update instanceof Uint8Array)) {
    throw new TypeError(`an update must be a Uint8Array, got ${typeof update}`)
  }
}

/** The bytes of a BLOB, as a plain Uint8Array (better-sqlite3 gives Buffers). */
const toBytes = (blob: Buffer): Uint8Array =>
  new Uint8Array(blob.buffer, blob.byteOffset, blob.byteLength)

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error)
