/**
 * The PostgreSQL and Redis the storage and scale-out tests run against (`TANDEM_POSTGRES_URL` and
 * `TANDEM_REDIS_URL`, by default on 127.0.0.1), and names of their own for each run. When a
 * service is unreachable the tests are skipped, except in CI, where that is a failure.
 */
import { Redis } from 'ioredis'
import { Client } from 'pg'

/** The PostgreSQL database the tests use. */
export const POSTGRES_URL =
  process.env.TANDEM_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/** The Redis the tests use. */
export const REDIS_URL = process.env.TANDEM_REDIS_URL ?? 'redis://127.0.0.1:6379'

const describeError = (error: unknown): string =>
  error instanceof Error ? error.message || String(error) : String(error)

/** `url` without its password, for messages. */
const shown = (url: string): string => {
  try {
    const parsed = new URL(url)
    parsed.password = ''
    return parsed.toString()
  } catch {
    return 'an unparsable URL'
  }
}

/** Why PostgreSQL cannot be used, or null when it can. */
const probePostgres = async (): Promise<string | null> => {
  const client = new Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2_000 })
  client.on('error', () => {})
  try {
    await client.connect()
    await client.query('SELECT 1')
    return null
  } catch (error) {
    return `PostgreSQL at ${shown(POSTGRES_URL)} is unreachable (${describeError(error)})`
  } finally {
    await client.end().catch(() => {})
  }
}

/** Why Redis cannot be used, or null when it can. */
const probeRedis = async (): Promise<string | null> => {
  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2_000,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  })
  let failure: unknown
  redis.on('error', (error: unknown) => {
    failure ??= error
  })
  try {
    await redis.connect()
    await redis.ping()
    return null
  } catch (error) {
    return `Redis at ${shown(REDIS_URL)} is unreachable (${describeError(failure ?? error)})`
  } finally {
    redis.disconnect()
  }
}

/**
 * Why the tests named `what` must be skipped (null when every service they need answers). In
 * CI (`CI=true`) an unreachable service throws instead.
 *
 * @example const skip = await neededServices('the PostgresStore tests', { postgres: true })
 */
export const neededServices = async (
  what: string,
  needs: { readonly postgres?: boolean; readonly redis?: boolean },
): Promise<string | null> => {
  const probes = [needs.postgres ? probePostgres() : null, needs.redis ? probeRedis() : null]
  const reasons = (await Promise.all(probes)).filter((reason) => reason !== null)
  if (reasons.length === 0) return null
  const reason = reasons.join('; ')
  const names = [needs.postgres ? 'PostgreSQL' : null, needs.redis ? 'Redis' : null]
    .filter((name) => name !== null)
    .join(' and ')
  if (process.env.CI === 'true') throw new Error(`${reason}. CI needs ${names} to run ${what}.`)
  console.warn(
    `Skipping ${what}: ${reason}. Start ${names} on 127.0.0.1 (PostgreSQL with trust auth and a "test" database), or set TANDEM_POSTGRES_URL and TANDEM_REDIS_URL.`,
  )
  return reason
}

/**
 * Why the scale-out tests named `what` (PostgreSQL and Redis) must be skipped, or null.
 *
 * @example const skip = await scaleOutServices('the RedisRelay tests'); describe.skipIf(skip !== null)
 */
export const scaleOutServices = (what: string): Promise<string | null> =>
  neededServices(what, { postgres: true, redis: true })

/** A PostgreSQL schema and a Redis prefix no other run uses. */
export const uniqueNames = (label: string): { schema: string; prefix: string } => {
  const id = `${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`
  return { schema: `tandem_${label}_${id}`, prefix: `tandem-test-${label}-${id}:` }
}

/** Drops `schema` and everything in it. */
export const dropSchema = async (schema: string): Promise<void> => {
  const client = new Client({ connectionString: POSTGRES_URL })
  client.on('error', () => {})
  await client.connect()
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
  } finally {
    await client.end()
  }
}
