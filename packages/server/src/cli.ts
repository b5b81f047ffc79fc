#!/usr/bin/env node
/**
 * `tandem-server`: runs a Tandem server from the command line.
 *
 *   tandem-server --port 1234 --host 127.0.0.1 --data ./data --log-level info
 *   tandem-server --postgres postgres://tandem@db/tandem --redis redis://cache:6379
 *   tandem-server token --room notes --role read --user ada --ttl 3600
 *   tandem-server backup --data ./data --out backups/tandem.sqlite
 *   tandem-server --static apps/playground/dist   (the app at /, rooms under /ws/)
 *
 * Documents are kept in `<data>/tandem.sqlite`, or in PostgreSQL with `--postgres`. With
 * `--redis`, several processes share rooms (they must share the PostgreSQL store too). With
 * `--auth-secret` (or the environment variable TANDEM_AUTH_SECRET) every connection needs a
 * token signed under that secret, as `tandem-server token` mints them. `tandem-server backup`
 * copies the SQLite database consistently while a server runs on it. SIGTERM or SIGINT
 * stops taking connections, stores every update already received, closes the connections,
 * the relay and the store, and exits, whatever became of standard output (a closed pipe, a
 * reader that stopped reading): logging never holds the process up.
 */
import { join } from 'node:path'
import pino from 'pino'
import { tokenAuth } from './auth/token-authorizer.js'
import { TOKEN_USAGE, tokenCommand, UsageError } from './auth/token-command.js'
import { BACKUP_USAGE, backupDatabase, DATABASE_FILE, parseBackupArgs } from './backup-command.js'
import { parseServerArgs, SERVER_USAGE, type ServerOptions } from './cli-options.js'
import { LogOutput } from './log-output.js'
import { RedisRelay } from './scale/redis-relay.js'
import type { Relay } from './scale/relay.js'
import { StaticSite } from './static-site.js'
import type { DocumentStore } from './storage/document-store.js'
import { PostgresStore } from './storage/postgres-store.js'
import { SqliteStore } from './storage/sqlite-store.js'
import { ROOM_PATH, TandemServer } from './tandem-server.js'

/** Parses the command line; exits with the usage on bad input. */
const readOptions = (): ServerOptions => {
  try {
    const options = parseServerArgs(process.argv.slice(2), process.env)
    if (options !== 'help') return options
    console.log(SERVER_USAGE)
    process.exit(0)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    console.error(`tandem-server: ${error.message}\n${SERVER_USAGE}`)
    process.exit(2)
  }
}

/** `host:port` of a database URL, for logs (never its password). */
const addressOf = (url: string): string => {
  try {
    const { hostname, port } = new URL(url)
    return `${hostname}:${port || '5432'}`
  } catch {
    return 'an unparsable URL'
  }
}

/** The store the options ask for, and how to name it in logs. */
const openStore = async (
  options: ServerOptions,
  logger: pino.Logger,
): Promise<{ store: DocumentStore; description: string }> => {
  if (options.postgres === undefined) {
    const file = join(options.data, DATABASE_FILE)
    return { store: SqliteStore.open({ file }), description: `sqlite ${file}` }
  }
  const schema = options.postgresSchema ?? 'public'
  const store = await PostgresStore.open({
    connectionString: options.postgres,
    schema,
    onIdleError: (error) => logger.warn({ err: error }, 'PostgreSQL connection lost'),
  })
  return { store, description: `postgres ${addressOf(options.postgres)} schema ${schema}` }
}

/** How long a stopping process gives its last log lines to reach a reader. */
const LOG_FLUSH_MS = 1_000

const main = async () => {
  const options = readOptions()
  // Not pino's default destination, whose exit hook retries a write to a closed pipe forever.
  const output = new LogOutput(process.stdout)
  const logger = pino({ level: options.logLevel, base: { service: 'tandem-server' } }, output)
  // Before the store opens, so a missing build fails fast with nothing to close.
  const site = options.static === undefined ? undefined : await StaticSite.open(options.static)
  const { store, description } = await openStore(options, logger)
  let relay: Relay | undefined
  if (options.redis !== undefined) {
    try {
      relay = await RedisRelay.connect({
        url: options.redis,
        prefix: options.redisPrefix,
        logger,
      })
    } catch (error) {
      await store.close()
      throw error
    }
  }
  // Both hooks: tokens are checked when a connection opens and when a fresh one is handed over.
  const auth = options.authSecret === undefined ? {} : tokenAuth(options.authSecret)
  const server = new TandemServer({
    store,
    relay,
    logger,
    site,
    ...auth,
    ...options.limits,
    versions: options.versions,
  })
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'shutting down')
    let code = 0
    try {
      await server.close()
      await relay?.close()
      await store.close()
      logger.info({}, 'stopped')
    } catch (error) {
      logger.error({ err: error }, 'could not stop cleanly')
      code = 1
    }
    // The last lines get a moment to reach their reader; a reader that is gone or stuck does
    // not hold the exit.
    await output.flush(LOG_FLUSH_MS)
    process.exit(code)
  }
  // Before the `listening` line: whoever waits for it may signal at once.
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
  const port = await server.listen(options.port, options.host)
  const host = options.host.includes(':') ? `[${options.host}]` : options.host
  logger.info(
    {
      url: `ws://${host}:${port}${site ? ROOM_PATH.slice(0, -1) : ''}`,
      app: site ? `http://${host}:${port}/` : undefined,
      store: description,
      relay: relay?.description ?? 'none',
      instance: relay?.instance,
      auth: options.authSecret === undefined ? 'none' : 'signed tokens',
    },
    'listening',
  )
}

/** `tandem-server token ...`: prints a token, or the usage with exit code 2. */
const token = (args: string[]) => {
  try {
    console.log(tokenCommand(args, process.env))
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    console.error(`tandem-server token: ${error.message}\n${TOKEN_USAGE}`)
    process.exit(2)
  }
}

/** `tandem-server backup ...`: copies the database, or prints why not (exit 2 or 1). */
const backup = async (args: string[]) => {
  try {
    const parsed = parseBackupArgs(args)
    if (parsed === 'help') return console.log(BACKUP_USAGE)
    const { from, to, rooms, updates, versions, bytes } = await backupDatabase(parsed)
    console.log(
      `backed up ${from} to ${to}: ${rooms} rooms, ${updates} updates, ${versions} versions, ${bytes} bytes`,
    )
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`tandem-server backup: ${error.message}\n${BACKUP_USAGE}`)
      process.exit(2)
    }
    console.error(`tandem-server backup: ${error instanceof Error ? error.message : error}`)
    process.exit(1)
  }
}

const fail = (error: unknown) => {
  console.error(`tandem-server: ${error instanceof Error ? error.message : error}`)
  process.exit(1)
}

if (process.argv[2] === 'token') {
  token(process.argv.slice(3))
} else if (process.argv[2] === 'backup') {
  backup(process.argv.slice(3)).catch(fail)
} else {
  main().catch(fail)
}
