/**
 * The command line of `tandem-server` (serving): its usage text and its parser, apart from the
 * process that acts on them, so the flags can be checked without starting a server.
 */
import { parseArgs } from 'node:util'
import { SECRET_VARIABLE, UsageError } from './auth/token-command.js'
import { checkSecret } from './auth/tokens.js'

/** How `tandem-server` is called. */
export const SERVER_USAGE = `usage: tandem-server [--port 1234] [--host 127.0.0.1] [--data ./data] [--log-level info]
                     [--auth-secret SECRET] [--static <dir>]
                     [--postgres <url> [--postgres-schema public]]
                     [--redis <url> [--redis-prefix tandem:]]   (needs --postgres)
                     [--max-connections-per-room 1000] [--max-connections-per-ip 100] [--trust-proxy]
                     [--max-message-bytes 33554432] [--max-messages-per-second 100]
                     [--max-bytes-per-second 1048576] [--max-api-requests-per-second 20]
                     [--headers-timeout-ms 10000] [--max-pending-sockets-per-ip 50]
                     [--hide-read-only-presence]
                     [--max-undo-steps 500] [--max-undo-bytes 524288]
                     [--version-pause-ms 60000] [--version-interval-ms 600000] [--manual-versions]
       tandem-server token --room ROOM --role read|write --user USER [--ttl 3600]
       tandem-server backup --data ./data --out FILE
       tandem-server token --help | tandem-server backup --help`

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

/** What the command line asks a serving process for. */
export interface ServerOptions {
  readonly port: number
  readonly host: string
  readonly data: string
  readonly logLevel: string
  readonly authSecret: string | undefined
  readonly postgres: string | undefined
  readonly postgresSchema: string | undefined
  readonly redis: string | undefined
  readonly redisPrefix: string | undefined
  readonly limits: {
    readonly maxConnectionsPerRoom: number | undefined
    readonly maxConnectionsPerIp: number | undefined
    readonly trustProxy: boolean
    readonly headersTimeoutMs: number | undefined
    readonly maxPendingSocketsPerIp: number | undefined
    readonly maxMessageBytes: number | undefined
    readonly hideReadOnlyPresence: boolean
    readonly rateLimits: {
      readonly messagesPerSecond: number | undefined
      readonly bytesPerSecond: number | undefined
      readonly apiRequestsPerSecond: number | undefined
    }
    /** Caps on each user's undo history per room; undefined ones take the defaults. */
    readonly undoHistoryLimits: {
      readonly maxSteps?: number
      readonly maxBytes?: number
    }
  }
  readonly static: string | undefined
  /** When rooms make versions by themselves; undefined values take the defaults. */
  readonly versions: {
    readonly manualOnly: boolean
    readonly pauseMs?: number
    readonly maxIntervalMs?: number
  }
}

/** `values` without its undefined entries (absent caps take their defaults). */
const definedOnly = <T extends Record<string, number | undefined>>(values: T) =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: number
  }

/** The limit flag `name`: a positive integer or `Infinity`, undefined when not given. */
const limit = (values: Record<string, unknown>, name: string): number | undefined => {
  const text = values[name]
  if (text === undefined) return undefined
  const value = Number(text)
  if (value === Number.POSITIVE_INFINITY || (Number.isSafeInteger(value) && value > 0)) return value
  throw new UsageError(`--${name} must be a positive integer or Infinity, got ${text}`)
}

/**
 * The options of `tandem-server <args>`, with the secret defaulting to
 * `env.TANDEM_AUTH_SECRET`, or `'help'` for `--help`. Throws a `UsageError` saying what is
 * wrong with a bad command line.
 *
 * @example parseServerArgs(['--port', '0', '--data', './data'], process.env).port // => 0
 */
export const parseServerArgs = (
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): ServerOptions | 'help' => {
  let values: ReturnType<typeof parse>['values']
  try {
    values = parse(args).values
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
  if (values.help) return 'help'
  const port = Number(values.port)
  if (!/^\d+$/.test(values.port) || port > 65_535) {
    throw new UsageError(`--port must be a port number, got ${values.port}`)
  }
  if (!LEVELS.includes(values['log-level'])) {
    throw new UsageError(`--log-level must be one of ${LEVELS.join(', ')}`)
  }
  const authSecret = values['auth-secret'] ?? env[SECRET_VARIABLE]
  if (authSecret !== undefined) {
    try {
      checkSecret(authSecret)
    } catch (error) {
      throw new UsageError((error as Error).message)
    }
  }
  if (values.redis !== undefined && values.postgres === undefined) {
    throw new UsageError(
      '--redis needs --postgres: instances sharing rooms must share their storage too',
    )
  }
  if (values['postgres-schema'] !== undefined && values.postgres === undefined) {
    throw new UsageError('--postgres-schema needs --postgres')
  }
  if (values['redis-prefix'] !== undefined && values.redis === undefined) {
    throw new UsageError('--redis-prefix needs --redis')
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
      headersTimeoutMs: limit(values, 'headers-timeout-ms'),
      maxPendingSocketsPerIp: limit(values, 'max-pending-sockets-per-ip'),
      maxMessageBytes: limit(values, 'max-message-bytes'),
      hideReadOnlyPresence: values['hide-read-only-presence'],
      rateLimits: {
        messagesPerSecond: limit(values, 'max-messages-per-second'),
        bytesPerSecond: limit(values, 'max-bytes-per-second'),
        apiRequestsPerSecond: limit(values, 'max-api-requests-per-second'),
      },
      undoHistoryLimits: definedOnly({
        maxSteps: limit(values, 'max-undo-steps'),
        maxBytes: limit(values, 'max-undo-bytes'),
      }),
    },
    static: values.static,
    versions: {
      manualOnly: values['manual-versions'],
      ...definedOnly({
        pauseMs: limit(values, 'version-pause-ms'),
        maxIntervalMs: limit(values, 'version-interval-ms'),
      }),
    },
  }
}

const parse = (args: readonly string[]) =>
  parseArgs({
    args: [...args],
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
      'hide-read-only-presence': { type: 'boolean', default: false },
      'headers-timeout-ms': { type: 'string' },
      'max-pending-sockets-per-ip': { type: 'string' },
      'max-message-bytes': { type: 'string' },
      'max-messages-per-second': { type: 'string' },
      'max-bytes-per-second': { type: 'string' },
      'max-api-requests-per-second': { type: 'string' },
      'max-undo-steps': { type: 'string' },
      'max-undo-bytes': { type: 'string' },
      'version-pause-ms': { type: 'string' },
      'version-interval-ms': { type: 'string' },
      'manual-versions': { type: 'boolean', default: false },
      static: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  })
