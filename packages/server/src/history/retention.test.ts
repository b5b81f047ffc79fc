import { describe, expect, it } from 'vitest'
import type { VersionInfo } from '../storage/document-store.js'
import { checkRetention, DEFAULT_RETENTION, versionsToDrop } from './retention.js'

const HOUR = 3_600_000
const DAY = 24 * HOUR
const now = Date.UTC(2026, 10, 27, 12)

const version = (id: string, age: number, kind: 'auto' | 'named' = 'auto'): VersionInfo => ({
  id,
  kind,
  name: kind === 'named' ? `v${id}` : null,
  time: now - age,
  authors: [],
  length: 0,
  bytes: 0,
})

describe('versionsToDrop', () => {
  it('keeps recent ones, then one an hour, then one a day, then none; named ones always', () => {
    const versions = [
      version('recent-1', 10 * 60_000),
      version('recent-2', 5 * HOUR),
      // Two in one hour, two days ago: the newer stays.
      version('hour-old', 2 * DAY + 50 * 60_000),
      version('hour-new', 2 * DAY + 10 * 60_000),
      // Two on one day, twenty days ago (days counted from the epoch, in UTC).
      version('day-old', 20 * DAY + 2 * HOUR),
      version('day-new', 20 * DAY + 1 * HOUR),
      version('ancient', 200 * DAY),
      version('named-ancient', 300 * DAY, 'named'),
    ]
    expect(versionsToDrop(versions, now).sort()).toEqual(['ancient', 'day-old', 'hour-old'])
  })

  it('keeps everything under a policy of forever', () => {
    const forever = checkRetention({
      keepAllForMs: Number.POSITIVE_INFINITY,
      hourlyForMs: Number.POSITIVE_INFINITY,
      dailyForMs: Number.POSITIVE_INFINITY,
    })
    const versions = Array.from({ length: 20 }, (_, i) => version(String(i), i * DAY))
    expect(versionsToDrop(versions, now, forever)).toEqual([])
  })

  it('refuses a policy whose ages are not numbers or shrink', () => {
    expect(() => checkRetention({ keepAllForMs: -1 })).toThrow(RangeError)
    expect(() => checkRetention({ hourlyForMs: Number.NaN })).toThrow(RangeError)
    expect(() => checkRetention({ keepAllForMs: 10 * DAY })).toThrow(/grow/)
    expect(checkRetention()).toEqual(DEFAULT_RETENTION)
  })
})
