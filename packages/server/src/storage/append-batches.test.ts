/**
 * How `AppendBatches` cuts appends into batches and keeps several on their way. Each batch's
 * write here is a promise the test settles itself, so the order of events is the test's; the
 * writes to PostgreSQL are tested in postgres-batches.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { AppendBatches, type BatchedAppend } from './append-batches.js'
import type { LogSize } from './document-store.js'

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Batches whose writes wait for the test: `writes[i]` is the i-th batch written. */
const controlled = (maxInFlight: number) => {
  const writes: {
    batch: readonly BatchedAppend[]
    land(): void
    fail(error: Error): void
  }[] = []
  const batches = new AppendBatches(
    (batch) =>
      new Promise<LogSize[]>((resolve, reject) => {
        writes.push({
          batch,
          land: () => resolve(batch.map((_, i) => ({ updates: i + 1, bytes: 0 }))),
          fail: reject,
        })
      }),
    maxInFlight,
  )
  const rooms = (i: number) => writes[i]!.batch.map(({ room }) => room)
  return { batches, writes, rooms }
}

const bytes = new Uint8Array([0, 0])

describe('AppendBatches', () => {
  it('writes the appends of one turn together, and the next turn without waiting', async () => {
    const { batches, writes, rooms } = controlled(4)
    const first = [batches.append('a', bytes), batches.append('b', bytes)]
    expect(writes).toHaveLength(0)
    await nextTurn()
    expect(rooms(0)).toEqual(['a', 'b'])
    const second = batches.append('a', bytes)
    await nextTurn()
    expect(rooms(1)).toEqual(['a'])
    writes[1]!.land()
    expect(await second).toEqual({ updates: 1, bytes: 0 })
    writes[0]!.land()
    expect(await Promise.all(first)).toEqual([
      { updates: 1, bytes: 0 },
      { updates: 2, bytes: 0 },
    ])
  })

  it('keeps at most maxInFlight batches on their way; what waits goes as one batch', async () => {
    const { batches, writes, rooms } = controlled(2)
    const all: Promise<LogSize>[] = []
    for (const room of ['a', 'b', 'c', 'd']) {
      all.push(batches.append(room, bytes))
      await nextTurn()
    }
    expect(writes).toHaveLength(2)
    writes[0]!.land()
    await nextTurn()
    expect(writes).toHaveLength(3)
    expect(rooms(2)).toEqual(['c', 'd'])
    writes[1]!.land()
    writes[2]!.land()
    expect(await Promise.all(all)).toHaveLength(4)
  })

  it('rejects every append of a failed batch with its error, and writes the next', async () => {
    const { batches, writes } = controlled(2)
    const failed = [batches.append('a', bytes), batches.append('b', bytes)]
    await nextTurn()
    const later = batches.append('a', bytes)
    await nextTurn()
    writes[0]!.fail(new Error('disk full'))
    for (const append of failed) await expect(append).rejects.toThrow('disk full')
    writes[1]!.land()
    expect(await later).toEqual({ updates: 1, bytes: 0 })
  })

  it('drains: sends what waits at once and resolves once everything has settled', async () => {
    const { batches, writes } = controlled(1)
    const appended = batches.append('a', bytes)
    let drained = false
    const draining = batches.drain().then(() => {
      drained = true
    })
    expect(writes).toHaveLength(1)
    await nextTurn()
    expect(drained).toBe(false)
    writes[0]!.land()
    await draining
    expect(await appended).toEqual({ updates: 1, bytes: 0 })
    await batches.drain()
  })
})
