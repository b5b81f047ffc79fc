/**
 * Which automatic versions to keep as they age: every one while recent, then one per hour,
 * then one per day, then none. Named versions are always kept. A pure rule over the list, so
 * it is the same on every instance and easy to test.
 *
 * @module
 */
import type { VersionInfo } from '../storage/document-store.js'

/** How automatic versions are thinned with age (all in milliseconds). */
export interface RetentionPolicy {
  /** Keep every automatic version younger than this (default one day). */
  readonly keepAllForMs: number
  /** Then keep the newest of each hour, up to this age (default a week). */
  readonly hourlyForMs: number
  /** Then the newest of each day, up to this age (default 90 days); older ones go. */
  readonly dailyForMs: number
}

const HOUR = 3_600_000
const DAY = 24 * HOUR

/** The retention a server uses unless told otherwise. */
export const DEFAULT_RETENTION: RetentionPolicy = {
  keepAllForMs: DAY,
  hourlyForMs: 7 * DAY,
  dailyForMs: 90 * DAY,
}

/**
 * Throws a `RangeError` unless `policy` is usable: non-negative ages (or Infinity), each at
 * least the one before. Returns it with defaults filled in.
 *
 * @example checkRetention({ keepAllForMs: 3_600_000 })
 */
export const checkRetention = (policy: Partial<RetentionPolicy> = {}): RetentionPolicy => {
  const full = { ...DEFAULT_RETENTION, ...policy }
  for (const [name, value] of Object.entries(full)) {
    if (!(value === Number.POSITIVE_INFINITY || (Number.isSafeInteger(value) && value >= 0))) {
      throw new RangeError(
        `retention ${name} must be a whole number of ms or Infinity, got ${value}`,
      )
    }
  }
  if (full.hourlyForMs < full.keepAllForMs || full.dailyForMs < full.hourlyForMs) {
    throw new RangeError('retention ages must grow: keepAllForMs <= hourlyForMs <= dailyForMs')
  }
  return full
}

/**
 * The ids of the automatic versions `policy` no longer keeps at time `now`: past
 * `keepAllForMs`, all but the newest of each hour; past `hourlyForMs`, all but the newest of
 * each day; past `dailyForMs`, all.
 *
 * @example versionsToDrop(await store.listVersions(room), Date.now(), DEFAULT_RETENTION)
 */
export const versionsToDrop = (
  versions: readonly VersionInfo[],
  now: number,
  policy: RetentionPolicy = DEFAULT_RETENTION,
): string[] => {
  const drop: string[] = []
  const kept = new Set<string>()
  // Newest first: the first version seen in a bucket is the one it keeps.
  const automatic = versions.filter((v) => v.kind === 'auto').sort((a, b) => b.time - a.time)
  for (const version of automatic) {
    const age = now - version.time
    let bucket: string | null
    if (age < policy.keepAllForMs) bucket = `all:${version.id}`
    else if (age < policy.hourlyForMs) bucket = `hour:${Math.floor(version.time / HOUR)}`
    else if (age < policy.dailyForMs) bucket = `day:${Math.floor(version.time / DAY)}`
    else bucket = null
    if (bucket === null || kept.has(bucket)) drop.push(version.id)
    else kept.add(bucket)
  }
  return drop
}
