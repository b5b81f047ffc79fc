import type { TextChangeJSON } from '@tandem/protocol'
import { describe, expect, it } from 'vitest'
import { textChanges } from './text-changes.js'

/** A small seeded generator (mulberry32), so a failing case can be replayed from its seed. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const apply = (text: string, changes: readonly TextChangeJSON[]): string => {
  let result = ''
  let at = 0
  for (const { from, to, insert } of changes) {
    expect(from).toBeGreaterThanOrEqual(at)
    expect(to).toBeGreaterThanOrEqual(from)
    result += text.slice(at, from) + insert
    at = to
  }
  return result + text.slice(at)
}

const splitsPair = (text: string, offset: number) =>
  offset > 0 &&
  offset < text.length &&
  /[\uD800-\uDBFF]/.test(text[offset - 1]!) &&
  /[\uDC00-\uDFFF]/.test(text[offset]!)

const ALPHABET = ['a', 'b', 'c', ' ', '\n', '\u6587', '\u{1F600}', '\u{1F601}', '\u{1F44D}']

describe('textChanges', () => {
  it('keeps what both texts share and says the rest in few changes', () => {
    // Characters both words share stay: "wo[r]ld" and "the[r]e".
    expect(textChanges('hello world', 'hello there')).toEqual([
      { from: 6, to: 8, insert: 'the' },
      { from: 9, to: 11, insert: 'e' },
    ])
    expect(textChanges('same', 'same')).toEqual([])
    expect(textChanges('', 'new')).toEqual([{ from: 0, to: 0, insert: 'new' }])
    expect(textChanges('one two three', 'one three')).toEqual([{ from: 5, to: 9, insert: '' }])
    expect(textChanges('a1b2c', 'aXbYc')).toHaveLength(2)
  })

  it('never cuts an emoji in two', () => {
    expect(textChanges('x\u{1F600}y', 'x\u{1F601}y')).toEqual([
      { from: 1, to: 3, insert: '\u{1F601}' },
    ])
  })

  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`turns one text into the other, whole characters only (seed ${seed})`, () => {
      const next = random(seed)
      const word = (length: number) =>
        Array.from({ length }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join('')
      for (let round = 0; round < 60; round++) {
        const before = word(Math.floor(next() * 60))
        let after = before
        for (let edits = Math.floor(next() * 5); edits > 0; edits--) {
          const chars = [...after]
          const at = Math.floor(next() * (chars.length + 1))
          const removed = Math.floor(next() * 3)
          chars.splice(at, removed, ...[...word(Math.floor(next() * 4))])
          after = chars.join('')
        }
        const changes = textChanges(before, after)
        expect(apply(before, changes), `seed ${seed}, round ${round}`).toBe(after)
        for (const { from, to, insert } of changes) {
          expect(splitsPair(before, from) || splitsPair(before, to)).toBe(false)
          expect(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(insert)).toBe(false)
        }
      }
    })
  }

  it('replaces the middle whole when two long texts differ nearly everywhere', () => {
    const before = 'a'.repeat(3_000)
    const after = 'b'.repeat(3_000)
    expect(textChanges(before, after)).toEqual([{ from: 0, to: 3_000, insert: after }])
  })
})
