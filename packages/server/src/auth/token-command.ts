/**
 * `tandem-server token`: mints a signed token from the command line.
 */
import { parseArgs } from 'node:util'
import { checkSecret, MAX_TOKEN_LIFETIME_SECONDS, signToken } from './tokens.js'

/** The environment variable both `tandem-server` and `tandem-server token` take the secret from. */
export const SECRET_VARIABLE = 'TANDEM_AUTH_SECRET'

/** How `tandem-server token` is called. */
export const TOKEN_USAGE = `usage: tandem-server token --room ROOM --role read|write --user USER [--ttl 3600] [--secret SECRET]

Prints a token that opens the rooms matching ROOM (each * matches any run of characters)
with the given role, for USER, for --ttl seconds (at most 2592000, 30 days, which is the
longest lifetime servers accept). The secret is taken from the environment
variable ${SECRET_VARIABLE} unless --secret is given; it must have at least 32 bytes.`

/** A mistake in the command line: the caller prints it with the usage and exits with 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

/**
 * What `tandem-server token <args>` prints: a token signed with the secret of `--secret` or of
 * `env.TANDEM_AUTH_SECRET`, issued at `now` (seconds since the epoch), or the usage for
 * `--help`. Throws a `UsageError` for a bad command line.
 *
 * @example tokenCommand(['--room', 'notes', '--role', 'read', '--user', 'ada'], process.env)
 */
export const tokenCommand = (
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  now = Math.floor(Date.now() / 1000),
): string => {
  let values: Record<string, string | boolean | undefined>
  try {
    values = parseArgs({
      args: [...args],
      options: {
        secret: { type: 'string' },
        room: { type: 'string' },
        role: { type: 'string' },
        user: { type: 'string' },
        ttl: { type: 'string', default: '3600' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
  if (values.help) return TOKEN_USAGE
  const { room, role, user, ttl } = values as Record<string, string | undefined>
  const secret = (values.secret as string | undefined) ?? env[SECRET_VARIABLE]
  if (secret === undefined) {
    throw new UsageError(
      `a secret is needed: --secret or the environment variable ${SECRET_VARIABLE}`,
    )
  }
  try {
    checkSecret(secret)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  if (room === undefined || room === '') throw new UsageError('--room is needed')
  if (role !== 'read' && role !== 'write') {
    throw new UsageError(`--role must be read or write, got ${role ?? 'nothing'}`)
  }
  if (user === undefined || user === '') throw new UsageError('--user is needed')
  const seconds = Number(ttl)
  if (!/^\d+$/.test(ttl ?? '') || !Number.isSafeInteger(seconds) || seconds <= 0) {
    throw new UsageError(`--ttl must be a positive whole number of seconds, got ${ttl}`)
  }
  if (seconds > MAX_TOKEN_LIFETIME_SECONDS) {
    throw new UsageError(
      `--ttl must be at most ${MAX_TOKEN_LIFETIME_SECONDS} seconds (30 days): servers refuse longer-lived tokens, got ${ttl}`,
    )
  }
  try {
    return signToken({ room, role, sub: user, iat: now, exp: now + seconds }, secret)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}
