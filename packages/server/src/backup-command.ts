/**
 * `tandem-server backup`: a consistent copy of a data folder's SQLite database, taken while
 * the server may be running and writing to it.
 *
 * The database is in WAL mode, so the file alone is not the database while a server runs
 * (recent commits sit in `tandem.sqlite-wal`), and copying the two files one after the other
 * can catch a transaction half-way. SQLite's online backup reads every page within one read
 * transaction instead: the copy holds exactly the commits made before it started.
 */
import { existsSync, renameSync, rmSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import Database from 'better-sqlite3'
import { UsageError } from './auth/token-command.js'

/** The database file of a data folder, as `tandem-server --data` names it. */
export const DATABASE_FILE = 'tandem.sqlite'

/** How `tandem-server backup` is called. */
export const BACKUP_USAGE = `usage: tandem-server backup --data DIR --out FILE

Copies DIR/${DATABASE_FILE} to FILE, consistently, while a server may be running on DIR.
To restore, stop the server, delete DIR/${DATABASE_FILE}-wal and DIR/${DATABASE_FILE}-shm if
they are there, put FILE in place as DIR/${DATABASE_FILE}, and start the server again.
For PostgreSQL (--postgres), back up with pg_dump --schema instead.`

/** Pages to copy in one step: all of them, so the copy is taken in one read transaction. */
const ALL_PAGES = 0x7fffffff

/** What `backupDatabase` copied. */
export interface BackupSummary {
  readonly from: string
  readonly to: string
  readonly rooms: number
  readonly updates: number
  /** Versions of rooms kept in the copy (their history: see docs/history.md). */
  readonly versions: number
  readonly bytes: number
}

/**
 * The folder and file of `tandem-server backup <args>`, or `'help'` for `--help`. Throws a
 * `UsageError` for a bad command line.
 *
 * @example parseBackupArgs(['--data', './data', '--out', 'backup.sqlite'])
 */
export const parseBackupArgs = (
  args: readonly string[],
): { data: string; out: string } | 'help' => {
  let values: { data?: string; out?: string; help?: boolean }
  try {
    values = parseArgs({
      args: [...args],
      options: {
        data: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const postgres = args.some((arg) => arg.startsWith('--postgres'))
    throw new UsageError(
      postgres ? 'backup copies SQLite data folders; back up PostgreSQL with pg_dump' : message,
    )
  }
  if (values.help) return 'help'
  if (values.data === undefined || values.data === '') throw new UsageError('--data is needed')
  if (values.out === undefined || values.out === '') throw new UsageError('--out is needed')
  return { data: values.data, out: values.out }
}

/**
 * Copies the database of the data folder `data` to the file `out` (replacing it), with
 * SQLite's online backup, then checks the copy. The copy is written beside `out` and renamed
 * into place once checked, so `out` is never a partial copy. Throws an error naming the
 * folder or the file when either cannot be used.
 *
 * @example const { rooms } = await backupDatabase({ data: './data', out: 'backup.sqlite' })
 */
export const backupDatabase = async (options: {
  data: string
  out: string
}): Promise<BackupSummary> => {
  const from = join(options.data, DATABASE_FILE)
  const to = options.out
  if (!existsSync(options.data)) {
    throw new Error(`the data folder ${options.data} does not exist`)
  }
  if (!existsSync(from)) {
    throw new Error(
      `there is no database in ${options.data} (${from} is missing): give --data the folder the server runs with`,
    )
  }
  if (resolve(to) === resolve(from)) {
    throw new Error(`--out must not be the database itself (${from})`)
  }
  const folder = dirname(resolve(to))
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new Error(`cannot write ${to}: the folder ${dirname(to)} does not exist`)
  }
  if (existsSync(to) && statSync(to).isDirectory()) {
    throw new Error(`cannot write ${to}: it is a folder; give --out a file name`)
  }

  const partial = `${to}.partial-${process.pid}`
  try {
    const source = new Database(from, { readonly: true, fileMustExist: true })
    try {
      source.pragma('busy_timeout = 5000')
      await source.backup(partial, { progress: () => ALL_PAGES })
    } catch (error) {
      throw new Error(`cannot write ${to}: ${messageOf(error)}`, { cause: error })
    } finally {
      source.close()
    }
    const counts = checkCopy(partial)
    renameSync(partial, to)
    return { from, to, ...counts, bytes: statSync(to).size }
  } finally {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(partial + suffix, { force: true })
  }
}

/**
 * Checks the copy's pages, counts its rooms, updates and versions, and makes it one self-contained file
 * (rollback journal: no `-wal` beside it; the server turns WAL on again when it opens it).
 */
const checkCopy = (file: string): { rooms: number; updates: number; versions: number } => {
  const copy = new Database(file, { fileMustExist: true })
  try {
    copy.pragma('journal_mode = DELETE')
    const check = copy.pragma('quick_check', { simple: true })
    if (check !== 'ok') throw new Error(`the copy does not check out: ${check}`)
    const count = (table: string) =>
      (copy.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
    // A database from before versions were kept has no such table.
    const hasVersions =
      copy
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'versions'")
        .get() !== undefined
    return {
      rooms: count('rooms'),
      updates: count('updates'),
      versions: hasVersions ? count('versions') : 0,
    }
  } finally {
    copy.close()
  }
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error)
