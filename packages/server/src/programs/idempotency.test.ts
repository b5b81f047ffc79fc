/**
 * The answers kept for idempotency keys: bounded by count and by bytes, the oldest going
 * first and the newest kept however large; a failed run is not kept.
 */
import { describe, expect, it } from 'vitest'
import { IdempotentResults } from './idempotency.js'

describe('IdempotentResults', () => {
  it('answers a repeat with the first answer, and runs again after a failure', async () => {
    const results = new IdempotentResults<string>()
    let runs = 0
    const work = async () => `answer ${++runs}`
    expect(await results.once('a', work)).toBe('answer 1')
    expect(await results.once('a', work)).toBe('answer 1')
    await expect(
      results.once('b', () => Promise.reject(new Error('store failed'))),
    ).rejects.toThrow()
    expect(await results.once('b', work)).toBe('answer 2')
  })

  it('keeps at most so many bytes of answers, the oldest going first', async () => {
    const results = new IdempotentResults<string>(1_000, 60_000, (answer) => answer.length, 10)
    for (const [key, answer] of [
      ['a', 'xxxx'],
      ['b', 'yyyy'],
      ['c', 'zzzz'],
    ] as const) {
      await results.once(key, async () => answer)
    }
    // 12 bytes were over 10: the oldest answer went, and its key runs again.
    expect(results.size).toBe(2)
    expect(results.keptBytes).toBe(8)
    expect(await results.once('a', async () => 'again')).toBe('again')
    expect(await results.once('c', async () => 'again')).toBe('zzzz')
    // An answer over the bound alone is kept, as the only one.
    await results.once('huge', async () => 'h'.repeat(50))
    expect(results.size).toBe(1)
    expect(results.keptBytes).toBe(50)
    expect(await results.once('huge', async () => 'again')).toBe('h'.repeat(50))
  })
})
