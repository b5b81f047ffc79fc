#!/usr/bin/env node
/**
 * `tandem-server`: runs a Tandem server from the command line.
 *
 *   tandem-server --port 1234 --host 127.0.0.1 --data ./data --log-level info
 *   tandem-server --postgres postgres://tandem@db/tandem --redis redis://cache:6379
 *   tandem-server token --room notes --role read --user ada --ttl 3600
 *   tandem-server --static apps/playground/dist   (the app at /, rooms under /ws/)
 *
 * Documents are kept in `<data>/tandem.sqlite`, or in PostgreSQL with `--postgres`. With
 * `--redis`, several processes share rooms (they must share the PostgreSQL store too). With
 * `--auth-secret` (or the environment variable TANDEM_AUTH_SECRET) every connection needs a
 * token signed under that secret, as `tandem-server token` mints them. SIGTERM or SIGINT
 * stops taking connections, stores every update already received, closes the connections,
 * the relay and the store, and exits.
 */
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import pino from 'pino'
import { tokenAuthorizer } from './auth/token-authorizer.js'
import { SECRET_VARIABLE, TOKEN_USAGE, tokenCommand, UsageError } from './auth/token-command.js'
import { checkSecret } from './auth/tokens.js'
import { RedisRelay } from './scale/redis-relay.js'
import type { Relay } from './scale/relay.js'
import { StaticSite } from './static-site.js'
import type { DocumentStore } from './storage/document-store.js'
import { PostgresStore } from './storage/postgres-store.js'
import { SqliteStore } from './storage/sqlite-store.js'
import { ROOM_PATH, TandemServer } from './tandem-server.js'

const USAGE = `usage: tandem-server [--port 1234] [--host 127.0.0.1] [--data ./data] [--log-level info]
                     [--auth-secret SECRET] [--static <dir>]
                     [--postgres <url> [--postgres-schema public]]
                     [--redis <url> [--redis-prefix tandem:]]   (needs --postgres)
                     [--max-connections-per-room 1000] [--max-connections-per-ip 100] [--trust-proxy]
                     [--max-message-bytes 33554432] [--max-messages-per-second 100]
                     [--max-bytes-per-second 1048576]
       tandem-server token --help`

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

/** The limit flag `name`: a positive integer or `Infinity`, undefined when not given. */
const limit = (values: Record<string, unknown>, name: string): number | undefined => {
  const text = values[name]
  if (text === undefined) return undefined
  const value = Number(text)
  if (value === Number.POSITIVE_INFINITY || (Number.isSafeInteger(value) && value > 0)) return value
  throw new Error(`--${name} must be a positive integer or Infinity, got ${text}`)
}

/** Parses the command line; exits with the usage on bad input. */
const readOptions = () => {
  try {
    const { values } = parseArgs({
      options: {
        port: { type: 'string', default: '1234' },
        host: { type: 'string', default: '127.0.0.1' },
        data: { type: 'string', default: './data' },
        'log-level': { type: 'string', default: 'info' },
        'auth-secret': { type: 'string' },
        postgres: { type: 'string' },
        'postgres-schema': { type: 'string' },
        redis: { type: 'string' },
        'redis-prefix': { type: 'string' },
        'max-connections-per-room': { type: 'string' },
        'max-connections-per-ip': { type: 'string' },
        'trust-proxy': { type: 'boolean', default: false },
        'max-message-bytes': { type: 'string' },
        'max-messages-per-second': { type: 'string' },
        'max-bytes-per-second': { type: 'string' },
        static: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    })
    if (values.help) {
      console.log(USAGE)
      process.exit(0)
    }
    const port = Number(values.port)
    if (!Number.isInteger(port) || port < 0 || port > 65_535) {
      throw new Error(`--port must be a port number, got ${values.port}`)
    }
    if (!LEVELS.includes(values['log-level'])) {
      throw new Error(`--log-level must be one of ${LEVELS.join(', ')}`)
    }
    const authSecret = values['auth-secret'] ?? process.env[SECRET_VARIABLE]
    if (authSecret !== undefined) checkSecret(authSecret)
    if (values.redis !== undefined && values.postgres === undefined) {
      throw new Error(
        '--redis needs --postgres: instances sharing rooms must share their storage too',
      )
    }
    if (values['postgres-schema'] !== undefined && values.postgres === undefined) {
      throw new Error('--postgres-schema needs --postgres')
    }
    if (values['redis-prefix'] !== undefined && values.redis === undefined) {
      throw new Error('--redis-prefix needs --redis')
    }
    return {
      port,
      host: values.host,
      data: values.data,
      logLevel: values['log-level'],
      authSecret,
      postgres: values.postgres,
      postgresSchema: values['postgres-schema'],
      redis: values.redis,
      redisPrefix: values['redis-prefix'],
      limits: {
        maxConnectionsPerRoom: limit(values, 'max-connections-per-room'),
        maxConnectionsPerIp: limit(values, 'max-connections-per-ip'),
        trustProxy: values['trust-proxy'],
        maxMessageBytes: limit(values, 'max-message-bytes'),
        rateLimits: {
          messagesPerSecond: limit(values, 'max-messages-per-second'),
          bytesPerSecond: limit(values, 'max-bytes-per-second'),
        },
      },
      static: values.static,
    }
  } catch (error) {
    console.error(`tandem-server: ${error instanceof Error ? error.message : error}\n${USAGE}`)
    process.exit(2)
  }
}

type Options = ReturnType<typeof readOptions>

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
  options: Options,
  logger: pino.Logger,
): Promise<{ store: DocumentStore; description: string }> => {
  if (options.postgres === undefined) {
    const file = join(options.data, 'tandem.sqlite')
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

const main = async () => {
  const options = readOptions()
  const logger = pino({ level: options.logLevel, base: { service: 'tandem-server' } })
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
  const authorize =
    options.authSecret === undefined ? {} : { authorize: tokenAuthorizer(options.authSecret) }
  const server = new TandemServer({ store, relay, logger, site, ...authorize, ...options.limits })
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
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'shutting down')
    await server.close()
    await relay?.close()
    await store.close()
    logger.info({}, 'stopped')
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
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

if (process.argv[2] === 'token') {
  token(process.argv.slice(3))
} else {
  main().catch((error: unknown) => {
    console.error(`tandem-server: ${error instanceof Error ? error.message : error}`)
    process.exit(1)
  })
}
