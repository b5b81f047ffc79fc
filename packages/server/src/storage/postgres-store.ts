/**
 * `DocumentStore` in PostgreSQL, shared by every server process pointed at the same database.
 *
 * Tables, in the configured schema:
 * - `updates(room, seq, data, author, at)`: each room's log, with who sent each update and
 *   when (null for merged rows); `seq` comes from one identity sequence, so ordering by it
 *   gives append order.
 * - `attributions(room, data)`: the authors of what compactions merged, encoded.
 * - `versions(id, room, kind, name, created_at, authors, length, state)`: kept versions.
 * - `rooms(room, updates, bytes)`: the size of each room's log, kept in step with `updates` by
 *   the same statement or transaction that changes the log, so `append` answers in one round trip.
 * - `sessions(room, user_id, data, updated_at)`, at most a cap of rows per room (saving a new
 *   user's session past it deletes the least recently saved), and `meta(room, key, value)`.
 * - `undo_histories(room, user_id, data, updated_at)`: each user's undo history, capped per
 *   room as sessions are.
 * - `program_changes(seq, room, id, data)`: the log of program changes, the last
 *   `MAX_PROGRAM_CHANGES_PER_ROOM` of each room, so every process can undo any of them.
 *
 * Appends are written in batches (see append-batches.ts): every append of one turn of the event
 * loop, of any room, goes in one statement, so one round trip and one commit, that inserts the
 * rows from arrays and adds to each room's counters; several batches are on their way at once.
 * A batch takes its rooms' counter rows in one fixed order of room names, so two batches
 * writing to the same rooms (from this process or another) wait for each other instead of
 * deadlocking.
 *
 * Compaction deletes a room's rows and reads them back in one statement, then inserts their
 * merge under the largest `seq` it deleted, all in one transaction: rows appended meanwhile (by
 * any process) are simply not part of the delete, so nothing is lost. Compactions of one room
 * are serialized across processes by a transaction-scoped advisory lock.
 */
import { Client, DatabaseError, Pool, type PoolClient, type QueryResultRow } from 'pg'
import type { Attribution } from '../history/attribution.js'
import { AppendBatches, type BatchedAppend } from './append-batches.js'
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

/** A row of the versions table, without the state (bigint columns come as text). */
interface VersionRow {
  readonly id: string
  readonly kind: VersionKind
  readonly name: string | null
  readonly created_at: string
  readonly authors: string
  readonly length: string
  readonly bytes: number
}

const versionOf = (row: VersionRow): VersionInfo => ({
  id: String(row.id),
  kind: row.kind,
  name: row.name,
  time: Number(row.created_at),
  authors: JSON.parse(row.authors) as string[],
  length: Number(row.length),
  bytes: Number(row.bytes),
})

/** A row of the log with who sent it (null for rows stored without, as a merged log). */
interface AuthoredRow {
  readonly data: Buffer
  readonly author: string | null
  readonly at: string | null
  readonly accepted_by: string | null
}

const authored = (rows: readonly AuthoredRow[]): AuthoredUpdate[] =>
  rows.map((row) => ({
    data: toBytes(row.data),
    user: row.author,
    time: row.at === null ? null : Number(row.at),
    acceptedBy: row.accepted_by,
  }))

/** How to reach the database, for `PostgresStore.open`. */
export interface PostgresStoreOptions {
  /** A libpq URL, e.g. `postgres://tandem@db.internal:5432/tandem`. */
  readonly connectionString: string
  /** The schema holding the tables, created if missing: `public` unless given. */
  readonly schema?: string
  /**
   * The most connections held open at once, and so the most batches of appends written at
   * once: 10 unless given.
   */
  readonly maxConnections?: number
  /** How long to wait for a connection before failing, in milliseconds: 10 000 unless given. */
  readonly connectTimeoutMs?: number
  /**
   * The most sessions kept per room: `DEFAULT_MAX_SESSIONS_PER_ROOM` unless given. Saving a new
   * user's session past it deletes the least recently saved ones.
   */
  readonly maxSessionsPerRoom?: number | undefined
  /**
   * Told when an idle connection breaks (the database restarted, say). The pool replaces it and
   * the next call reports any lasting problem itself; unless given, these go to `console.warn`.
   */
  readonly onIdleError?: (error: StorageError) => void
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/

/** The name of the prepared statement that appends a batch; each pool serves one schema. */
const APPEND_BATCH = 'tandem_append_batch'

/** Serializes schema creation across processes (an arbitrary, fixed advisory lock key). */
const SETUP_LOCK = 0x74616e64656d

/** Node's network error codes that mean the server could not be reached or went away. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
])

/** The SQL of a store whose tables live in `schema` (already validated). */
const statements = (schema: string) => {
  const s = `"${schema}"`
  return {
    createSchema: `CREATE SCHEMA IF NOT EXISTS ${s}`,
    schemaExists: 'SELECT 1 FROM pg_namespace WHERE nspname = $1',
    // The tables, and the columns added to `updates` since it was first made.
    tablesFound: `
      SELECT (SELECT count(*) FROM pg_tables
              WHERE schemaname = $1
                AND tablename IN ('updates', 'rooms', 'sessions', 'meta', 'attributions',
                                  'versions', 'undo_histories', 'program_changes'))
           + (SELECT count(*) FROM information_schema.columns
              WHERE table_schema = $1 AND table_name = 'updates'
                AND column_name IN ('author', 'at', 'accepted_by')) AS found`,
    createTables: [
      `CREATE TABLE IF NOT EXISTS ${s}.updates (
        room text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        data bytea NOT NULL,
        author text,
        at bigint,
        accepted_by text,
        PRIMARY KEY (room, seq)
      )`,
      `CREATE TABLE IF NOT EXISTS ${s}.rooms (
        room text PRIMARY KEY,
        updates bigint NOT NULL,
        bytes bigint NOT NULL
      )`,
      `CREATE TABLE IF NOT EXISTS ${s}.sessions (
        room text NOT NULL,
        user_id text NOT NULL,
        data text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (room, user_id)
      )`,
      `CREATE TABLE IF NOT EXISTS ${s}.meta (
        room text NOT NULL,
        key text NOT NULL,
        value text NOT NULL,
        PRIMARY KEY (room, key)
      )`,
      `CREATE TABLE IF NOT EXISTS ${s}.attributions (
        room text PRIMARY KEY,
        data bytea NOT NULL
      )`,
      `CREATE TABLE IF NOT EXISTS ${s}.versions (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        room text NOT NULL,
        kind text NOT NULL,
        name text,
        created_at bigint NOT NULL,
        authors text NOT NULL,
        length bigint NOT NULL,
        state bytea NOT NULL
      )`,
    ],
    // For a schema made before updates kept their authors (and who accepted a proposal).
    addColumns: [
      `ALTER TABLE ${s}.updates ADD COLUMN IF NOT EXISTS author text`,
      `ALTER TABLE ${s}.updates ADD COLUMN IF NOT EXISTS at bigint`,
      `ALTER TABLE ${s}.updates ADD COLUMN IF NOT EXISTS accepted_by text`,
      `CREATE TABLE IF NOT EXISTS ${s}.undo_histories (
        room text NOT NULL,
        user_id text NOT NULL,
        data bytea NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (room, user_id)
      )`,
      `CREATE TABLE IF NOT EXISTS ${s}.program_changes (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        room text NOT NULL,
        id text NOT NULL,
        data bytea NOT NULL,
        UNIQUE (room, id)
      )`,
    ],
    // Made with the tables; a schema made before it trims sessions without it, sorting the room's.
    createIndexes: [
      `CREATE INDEX IF NOT EXISTS sessions_by_age ON ${s}.sessions (room, updated_at)`,
      `CREATE INDEX IF NOT EXISTS versions_by_room ON ${s}.versions (room, id)`,
      `CREATE INDEX IF NOT EXISTS undo_histories_by_age ON ${s}.undo_histories (room, updated_at)`,
      `CREATE INDEX IF NOT EXISTS program_changes_by_room ON ${s}.program_changes (room, seq)`,
    ],
    load: `SELECT data FROM ${s}.updates WHERE room = $1 ORDER BY seq`,
    loadAuthored: `SELECT data, author, at, accepted_by FROM ${s}.updates WHERE room = $1 ORDER BY seq`,
    saveVersion: `
      INSERT INTO ${s}.versions (room, kind, name, created_at, authors, length, state)
      VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    listVersions: `
      SELECT id, kind, name, created_at, authors, length, octet_length(state) AS bytes
      FROM ${s}.versions WHERE room = $1 ORDER BY id`,
    loadVersion: `
      SELECT id, kind, name, created_at, authors, length, octet_length(state) AS bytes, state
      FROM ${s}.versions WHERE room = $1 AND id = $2`,
    deleteVersions: `DELETE FROM ${s}.versions WHERE room = $1 AND id = ANY($2::bigint[])`,
    loadAttribution: `SELECT data FROM ${s}.attributions WHERE room = $1`,
    saveAttribution: `
      INSERT INTO ${s}.attributions (room, data) VALUES ($1, $2)
      ON CONFLICT (room) DO UPDATE SET data = excluded.data`,
    // $1, $2, $6, $7, $8: each append's room, update, author, time and accepter, in order; $3,
    // $4, $5: each room's count of appends and their bytes, rooms in the order their counter
    // rows are taken.
    appendBatch: `
      WITH added AS (
        INSERT INTO ${s}.updates (room, data, author, at, accepted_by)
        SELECT room, data, author, at, accepted_by
        FROM unnest($1::text[], $2::bytea[], $6::text[], $7::bigint[], $8::text[])
          WITH ORDINALITY AS a(room, data, author, at, accepted_by, n)
        ORDER BY n
      )
      INSERT INTO ${s}.rooms AS r (room, updates, bytes)
      SELECT room, updates, bytes
      FROM unnest($3::text[], $4::bigint[], $5::bigint[]) WITH ORDINALITY AS g(room, updates, bytes, n)
      ORDER BY n
      ON CONFLICT (room) DO UPDATE
        SET updates = r.updates + excluded.updates, bytes = r.bytes + excluded.bytes
      RETURNING room, updates, bytes`,
    size: `SELECT updates, bytes FROM ${s}.rooms WHERE room = $1`,
    lockRoom: 'SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))',
    takeLog: `
      WITH taken AS (
        DELETE FROM ${s}.updates WHERE room = $1 RETURNING seq, data, author, at, accepted_by
      )
      SELECT seq, data, author, at, accepted_by FROM taken ORDER BY seq`,
    putMerged: `
      INSERT INTO ${s}.updates (room, seq, data) OVERRIDING SYSTEM VALUE
      VALUES ($1, $2, $3)`,
    shrink: `
      UPDATE ${s}.rooms
      SET updates = updates - $2 + 1, bytes = bytes - $3 + $4
      WHERE room = $1
      RETURNING updates, bytes`,
    saveSession: `
      INSERT INTO ${s}.sessions AS kept (room, user_id, data, updated_at)
      VALUES ($1, $2, $3, clock_timestamp())
      ON CONFLICT (room, user_id) DO UPDATE
        SET data = excluded.data, updated_at = excluded.updated_at
      RETURNING (kept.xmax = 0) AS inserted`,
    trimSessions: `
      DELETE FROM ${s}.sessions WHERE room = $1 AND user_id IN (
        SELECT user_id FROM ${s}.sessions WHERE room = $1
        ORDER BY updated_at DESC, user_id DESC OFFSET $2)`,
    loadSession: `SELECT data FROM ${s}.sessions WHERE room = $1 AND user_id = $2`,
    saveHistory: `
      INSERT INTO ${s}.undo_histories AS kept (room, user_id, data, updated_at)
      VALUES ($1, $2, $3, clock_timestamp())
      ON CONFLICT (room, user_id) DO UPDATE
        SET data = excluded.data, updated_at = excluded.updated_at
      RETURNING (kept.xmax = 0) AS inserted`,
    trimHistories: `
      DELETE FROM ${s}.undo_histories WHERE room = $1 AND user_id IN (
        SELECT user_id FROM ${s}.undo_histories WHERE room = $1
        ORDER BY updated_at DESC, user_id DESC OFFSET $2)`,
    deleteHistory: `DELETE FROM ${s}.undo_histories WHERE room = $1 AND user_id = $2`,
    loadHistory: `SELECT data FROM ${s}.undo_histories WHERE room = $1 AND user_id = $2`,
    saveChange: `
      INSERT INTO ${s}.program_changes AS kept (room, id, data) VALUES ($1, $2, $3)
      ON CONFLICT (room, id) DO UPDATE SET data = excluded.data
      RETURNING (kept.xmax = 0) AS inserted`,
    trimChanges: `
      DELETE FROM ${s}.program_changes WHERE room = $1 AND seq IN (
        SELECT seq FROM ${s}.program_changes WHERE room = $1 ORDER BY seq DESC OFFSET $2)`,
    loadChanges: `
      SELECT id, data FROM (
        SELECT seq, id, data FROM ${s}.program_changes WHERE room = $1 ORDER BY seq DESC LIMIT $2
      ) AS newest ORDER BY seq`,
    setMeta: `
      INSERT INTO ${s}.meta (room, key, value) VALUES ($1, $2, $3)
      ON CONFLICT (room, key) DO UPDATE SET value = excluded.value`,
    deleteMeta: `DELETE FROM ${s}.meta WHERE room = $1 AND key = $2`,
    getMeta: `SELECT value FROM ${s}.meta WHERE room = $1 AND key = $2`,
    listRooms: `SELECT room FROM ${s}.rooms WHERE updates > 0 ORDER BY room COLLATE "C"`,
  }
}

type Statements = ReturnType<typeof statements>

/** Throws a `TypeError` unless `schema` is a plain lower-case SQL identifier. */
const checkSchema = (schema: string): void => {
  if (typeof schema !== 'string' || !SCHEMA_NAME.test(schema)) {
    throw new TypeError(
      `a schema name must be 1 to 63 lower-case letters, digits or underscores, not starting with a digit, got ${JSON.stringify(schema)}`,
    )
  }
}

/** Throws a `TypeError` if `value` cannot be stored as PostgreSQL text (it holds a NUL). */
const checkText = (what: string, value: string): void => {
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string`)
  if (value.includes('\0')) throw new TypeError(`${what} cannot contain a NUL character`)
}

/** `checkRoom`, and PostgreSQL's own limit on text. */
const checkRoomName = (room: string): void => {
  checkRoom(room)
  checkText('a room name', room)
}

/** The host and port `connectionString` leads to, as pg itself resolves them, for messages. */
const addressOf = (connectionString: string): string => {
  const { host, port } = new Client({ connectionString })
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`
}

/** The message of `error`, including those inside an `AggregateError` (one per address tried). */
const describeError = (error: unknown): string => {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return error.errors.map(describeError).join('; ')
  }
  if (error instanceof DatabaseError) return `${error.message} (SQLSTATE ${error.code})`
  return error instanceof Error ? error.message : String(error)
}

/** Whether `error` means the database could not be reached, or dropped the connection. */
const isUnreachable = (error: unknown): boolean => {
  if (error instanceof DatabaseError) {
    const code = error.code ?? ''
    return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03'
  }
  if (!(error instanceof Error)) return false
  const code = (error as NodeJS.ErrnoException).code
  if (code !== undefined && NETWORK_CODES.has(code)) return true
  return /connection terminated|timeout exceeded when trying to connect|not queryable/i.test(
    error.message,
  )
}

/** A `StorageError` for a failure of the database: what failed, where, and why. */
const databaseError = (address: string, action: string, error: unknown): StorageError => {
  const why = describeError(error)
  const message = isUnreachable(error)
    ? `PostgreSQL at ${address} is unreachable: ${why}`
    : `PostgreSQL at ${address} failed to ${action}: ${why}`
  return new StorageError(message, { cause: error })
}

/** `error` as a caller sees it: the store's own errors as they are, the database's wrapped. */
const toStorageError = (address: string, action: string, error: unknown): Error =>
  error instanceof StorageError || error instanceof TypeError
    ? error
    : databaseError(address, action, error)

/** A `LogSize` from a row of bigint counters (which pg hands over as strings). */
const toSize = (row: { updates: string; bytes: string } | undefined): LogSize =>
  row === undefined
    ? { updates: 0, bytes: 0 }
    : { updates: Number(row.updates), bytes: Number(row.bytes) }

/** A plain copy of a `Buffer` pg returned, so callers never share pg's memory. */
const toBytes = (data: Buffer): Uint8Array => new Uint8Array(data)

/**
 * The parameters of `appendBatch` for `batch`. Rooms are sorted by their UTF-16 code units:
 * any order would do, as long as every batch uses the same one.
 */
const batchParameters = (batch: readonly BatchedAppend[]): unknown[] => {
  const perRoom = new Map<string, { updates: number; bytes: number }>()
  for (const { room, update } of batch) {
    const added = perRoom.get(room)
    if (added === undefined) perRoom.set(room, { updates: 1, bytes: update.length })
    else {
      added.updates++
      added.bytes += update.length
    }
  }
  const rooms = [...perRoom.keys()].sort()
  return [
    batch.map(({ room }) => room),
    batch.map(({ update }) => update),
    rooms,
    rooms.map((room) => perRoom.get(room)!.updates),
    rooms.map((room) => perRoom.get(room)!.bytes),
    batch.map(({ author }) => author?.user ?? null),
    batch.map(({ author }) => author?.time ?? null),
    batch.map(({ author }) => author?.acceptedBy ?? null),
  ]
}

/**
 * The log size after each append of `batch`, from each room's size after the whole batch:
 * walking back from the end, each append's size is the next one's less that next update.
 */
const sizesAfterEach = (
  batch: readonly BatchedAppend[],
  rows: readonly { room: string; updates: string; bytes: string }[],
): LogSize[] => {
  const after = new Map(rows.map((row) => [row.room, toSize(row)]))
  const sizes: LogSize[] = new Array(batch.length)
  for (let i = batch.length - 1; i >= 0; i--) {
    const { room, update } = batch[i]!
    const size = after.get(room)
    if (size === undefined) throw new Error(`the batch's counters lack room ${room}`)
    sizes[i] = size
    after.set(room, { updates: size.updates - 1, bytes: size.bytes - update.length })
  }
  return sizes
}

/**
 * Creates the schema and tables if any is missing, once, even with several processes racing.
 * When they all exist nothing is run, so a role without the CREATE privilege can use them.
 */
const createTables = async (client: PoolClient, schema: string, sql: Statements) => {
  const tables = await client.query<{ found: string }>(sql.tablesFound, [schema])
  if (Number(tables.rows[0]?.found) === sql.createTables.length + sql.addColumns.length) return
  await client.query('BEGIN')
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [SETUP_LOCK])
    const exists = await client.query(sql.schemaExists, [schema])
    if (exists.rowCount === 0) await client.query(sql.createSchema)
    for (const create of [...sql.createTables, ...sql.addColumns, ...sql.createIndexes]) {
      await client.query(create)
    }
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  }
}

/**
 * A `DocumentStore` in PostgreSQL: several server processes may share one database.
 *
 * @example
 * const store = await PostgresStore.open({ connectionString: 'postgres://tandem@db/tandem' })
 * await store.append('notes', update)
 */
export class PostgresStore implements DocumentStore {
  readonly #pool: Pool
  readonly #sql: Statements
  readonly #schema: string
  /** `host:port`, for messages. */
  readonly #address: string
  readonly #maxSessions: number
  /** Appends on their way, in batches of one turn each, up to one per connection at once. */
  readonly #appends: AppendBatches
  #closing: Promise<void> | null = null

  private constructor(
    pool: Pool,
    schema: string,
    address: string,
    limits: { readonly maxSessions: number; readonly maxConnections: number },
  ) {
    this.#pool = pool
    this.#schema = schema
    this.#sql = statements(schema)
    this.#address = address
    this.#maxSessions = limits.maxSessions
    this.#appends = new AppendBatches((batch) => this.#appendBatch(batch), limits.maxConnections)
  }

  /** Connects, creating the schema and tables if missing; rejects with a `StorageError`. */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const schema = options.schema ?? 'public'
    checkSchema(schema)
    const maxSessions = checkMaxSessions(
      options.maxSessionsPerRoom ?? DEFAULT_MAX_SESSIONS_PER_ROOM,
    )
    const address = addressOf(options.connectionString)
    const maxConnections = options.maxConnections ?? 10
    const pool = new Pool({
      connectionString: options.connectionString,
      max: maxConnections,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    })
    const onIdleError = options.onIdleError ?? ((error) => console.warn(error.message))
    pool.on('error', (error) => onIdleError(databaseError(address, 'keep a connection', error)))
    const store = new PostgresStore(pool, schema, address, { maxSessions, maxConnections })
    try {
      await store.#withClient('create its tables', (client) =>
        createTables(client, schema, store.#sql),
      )
    } catch (error) {
      await pool.end().catch(() => {})
      throw error
    }
    return store
  }

  async load(room: string): Promise<StoredDocument> {
    checkRoomName(room)
    const rows = await this.#query<{ data: Buffer }>('load a room', this.#sql.load, [room])
    const updates = rows.map((row) => toBytes(row.data))
    const bytes = updates.reduce((sum, update) => sum + update.length, 0)
    return { updates, size: { updates: updates.length, bytes } }
  }

  /**
   * Appends `update` together with every other append of this turn of the event loop, of any
   * room: one statement and one commit for them all. Resolves once that commit is done, with
   * the log's size after this update; when the batch fails, every append in it rejects.
   */
  async append(room: string, update: Uint8Array, author?: UpdateAuthor): Promise<LogSize> {
    checkRoomName(room)
    if (!(update instanceof Uint8Array)) throw new TypeError('an update must be a Uint8Array')
    checkAuthor(author)
    this.#checkOpen()
    return this.#appends.append(room, update, author)
  }

  async saveVersion(room: string, version: NewVersion): Promise<VersionInfo> {
    checkRoomName(room)
    checkVersion(version)
    const { kind, name, time, authors, length, state } = version
    const [row] = await this.#query<{ id: string }>('save a version', this.#sql.saveVersion, [
      room,
      kind,
      name,
      time,
      JSON.stringify(authors),
      length,
      state,
    ])
    return {
      id: String(row!.id),
      kind,
      name,
      time,
      authors: [...authors],
      length,
      bytes: state.length,
    }
  }

  async listVersions(room: string): Promise<VersionInfo[]> {
    checkRoomName(room)
    const rows = await this.#query<VersionRow>('list versions', this.#sql.listVersions, [room])
    return rows.map(versionOf)
  }

  async loadVersion(room: string, id: string): Promise<StoredVersion | null> {
    checkRoomName(room)
    if (!/^\d{1,15}$/.test(id)) return null
    const [row] = await this.#query<VersionRow & { state: Buffer }>(
      'load a version',
      this.#sql.loadVersion,
      [room, id],
    )
    return row === undefined ? null : { ...versionOf(row), state: toBytes(row.state) }
  }

  async deleteVersions(room: string, ids: readonly string[]): Promise<void> {
    checkRoomName(room)
    const usable = ids.filter((id) => /^\d{1,15}$/.test(id))
    if (usable.length === 0) return
    await this.#query('delete versions', this.#sql.deleteVersions, [room, usable])
  }

  async loadAttribution(room: string): Promise<Attribution> {
    checkRoomName(room)
    // The log first: a compaction between the two reads then moves its authors into the base,
    // read second, and an author counted twice is the same author.
    const log = await this.#query<AuthoredRow>('load authors', this.#sql.loadAuthored, [room])
    const [base] = await this.#query<{ data: Buffer }>(
      'load an attribution',
      this.#sql.loadAttribution,
      [room],
    )
    return attributionOf(room, base === undefined ? null : toBytes(base.data), authored(log))
  }

  async compact(room: string): Promise<LogSize> {
    checkRoomName(room)
    const [row] = await this.#query<{ updates: string; bytes: string }>(
      'read a log size',
      this.#sql.size,
      [room],
    )
    const size = toSize(row)
    if (size.updates <= 1) return size
    return this.#withClient('compact a room', (client) => this.#compactIn(client, room))
  }

  async saveSession(room: string, user: string, session: string): Promise<void> {
    checkRoomName(room)
    checkText('a user', user)
    checkText('a session', session)
    const [saved] = await this.#query<{ inserted: boolean }>(
      'save a session',
      this.#sql.saveSession,
      [room, user, session],
    )
    // Only a new user's session can bring the room over its cap.
    if (saved?.inserted && this.#maxSessions !== Number.POSITIVE_INFINITY) {
      await this.#query('trim the sessions', this.#sql.trimSessions, [room, this.#maxSessions])
    }
  }

  async loadSession(room: string, user: string): Promise<string | null> {
    checkRoomName(room)
    checkText('a user', user)
    const [row] = await this.#query<{ data: string }>('load a session', this.#sql.loadSession, [
      room,
      user,
    ])
    return row?.data ?? null
  }

  async saveUndoHistory(room: string, user: string, history: Uint8Array | null): Promise<void> {
    checkRoomName(room)
    checkText('a user', user)
    if (history === null) {
      await this.#query('delete an undo history', this.#sql.deleteHistory, [room, user])
      return
    }
    const [saved] = await this.#query<{ inserted: boolean }>(
      'save an undo history',
      this.#sql.saveHistory,
      [room, user, Buffer.from(history.buffer, history.byteOffset, history.byteLength)],
    )
    if (saved?.inserted && this.#maxSessions !== Number.POSITIVE_INFINITY) {
      await this.#query('trim the undo histories', this.#sql.trimHistories, [
        room,
        this.#maxSessions,
      ])
    }
  }

  async loadUndoHistory(room: string, user: string): Promise<Uint8Array | null> {
    checkRoomName(room)
    checkText('a user', user)
    const [row] = await this.#query<{ data: Buffer }>(
      'load an undo history',
      this.#sql.loadHistory,
      [room, user],
    )
    return row === undefined ? null : new Uint8Array(row.data)
  }

  async saveProgramChange(room: string, id: string, change: Uint8Array): Promise<void> {
    checkRoomName(room)
    checkProgramChange(id, change)
    const [saved] = await this.#query<{ inserted: boolean }>(
      'save a program change',
      this.#sql.saveChange,
      [room, id, Buffer.from(change.buffer, change.byteOffset, change.byteLength)],
    )
    // Only a new change can bring the room over its cap.
    if (saved?.inserted) {
      await this.#query('trim the program changes', this.#sql.trimChanges, [
        room,
        MAX_PROGRAM_CHANGES_PER_ROOM,
      ])
    }
  }

  async loadProgramChanges(room: string, limit: number): Promise<StoredProgramChange[]> {
    checkRoomName(room)
    checkChangeLimit(limit)
    const rows = await this.#query<{ id: string; data: Buffer }>(
      'load program changes',
      this.#sql.loadChanges,
      [room, limit],
    )
    return rows.map((row) => ({ id: row.id, change: new Uint8Array(row.data) }))
  }

  async setMeta(room: string, key: string, value: string | null): Promise<void> {
    checkRoomName(room)
    checkText('a metadata key', key)
    if (value === null) {
      await this.#query('delete metadata', this.#sql.deleteMeta, [room, key])
      return
    }
    checkText('a metadata value', value)
    await this.#query('set metadata', this.#sql.setMeta, [room, key, value])
  }

  async getMeta(room: string, key: string): Promise<string | null> {
    checkRoomName(room)
    checkText('a metadata key', key)
    const [row] = await this.#query<{ value: string }>('read metadata', this.#sql.getMeta, [
      room,
      key,
    ])
    return row?.value ?? null
  }

  async listRooms(): Promise<string[]> {
    const rows = await this.#query<{ room: string }>('list rooms', this.#sql.listRooms, [])
    return rows.map((row) => row.room)
  }

  /** Refuses new calls, waits for the appends already made to settle, then disconnects. */
  async close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.#appends.drain()
      await this.#pool.end()
    })()
    await this.#closing
  }

  /**
   * Writes one batch of appends in one statement (one round trip, one commit); resolves with
   * the log size after each. It may run while the store closes: the appends were accepted.
   */
  async #appendBatch(batch: readonly BatchedAppend[]): Promise<LogSize[]> {
    try {
      const { rows } = await this.#pool.query<{ room: string; updates: string; bytes: string }>(
        // Prepared once per connection: parsing and planning it anew for every batch cost
        // about 40% of the database's CPU time under load.
        { name: APPEND_BATCH, text: this.#sql.appendBatch, values: batchParameters(batch) },
      )
      return sizesAfterEach(batch, rows)
    } catch (error) {
      throw toStorageError(this.#address, 'append updates', error)
    }
  }

  /**
   * One compaction, in a transaction on `client`: take the room's rows out (deleting exactly
   * the rows read), put their merge back under the largest `seq` taken, and shrink the counters.
   */
  async #compactIn(client: PoolClient, room: string): Promise<LogSize> {
    await client.query('BEGIN')
    try {
      await client.query(this.#sql.lockRoom, [`${this.#schema}.compact`, room])
      const taken = await client.query<AuthoredRow & { seq: string }>(this.#sql.takeLog, [room])
      const last = taken.rows.at(-1)
      if (last === undefined) {
        const size = await client.query<{ updates: string; bytes: string }>(this.#sql.size, [room])
        await client.query('COMMIT')
        return toSize(size.rows[0])
      }
      const updates = taken.rows.map((row) => toBytes(row.data))
      const merged = mergeLog(room, updates)
      const base = await client.query<{ data: Buffer }>(this.#sql.loadAttribution, [room])
      const attribution = attributionOf(
        room,
        base.rows[0] === undefined ? null : toBytes(base.rows[0].data),
        authored(taken.rows),
      )
      const bytes = updates.reduce((sum, update) => sum + update.length, 0)
      await client.query(this.#sql.putMerged, [room, last.seq, merged])
      await client.query(this.#sql.saveAttribution, [room, attribution.encode()])
      const after = await client.query<{ updates: string; bytes: string }>(this.#sql.shrink, [
        room,
        updates.length,
        bytes,
        merged.length,
      ])
      await client.query('COMMIT')
      return toSize(after.rows[0])
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {})
      throw error
    }
  }

  /** Runs one statement on any pooled connection; its rows, or a `StorageError`. */
  async #query<Row extends QueryResultRow>(
    action: string,
    text: string,
    values: unknown[],
  ): Promise<Row[]> {
    this.#checkOpen()
    try {
      return (await this.#pool.query<Row>(text, values)).rows
    } catch (error) {
      throw toStorageError(this.#address, action, error)
    }
  }

  /** Runs `work` on one connection of its own (for a transaction), then gives it back. */
  async #withClient<T>(action: string, work: (client: PoolClient) => Promise<T>): Promise<T> {
    this.#checkOpen()
    let client: PoolClient
    try {
      client = await this.#pool.connect()
    } catch (error) {
      throw toStorageError(this.#address, action, error)
    }
    // Without a listener, a connection lost between two statements would crash the process;
    // the next statement on it fails instead, and that failure is reported.
    const ignore = () => {}
    client.on('error', ignore)
    let failure: unknown
    try {
      return await work(client)
    } catch (error) {
      failure = error
      throw toStorageError(this.#address, action, error)
    } finally {
      client.off('error', ignore)
      // A connection whose transaction failed may be broken: drop it rather than reuse it.
      client.release(failure instanceof Error ? failure : undefined)
    }
  }

  #checkOpen(): void {
    if (this.#closing !== null) {
      throw new StorageError(`this PostgresStore (${this.#address}) is closed`)
    }
  }
}
