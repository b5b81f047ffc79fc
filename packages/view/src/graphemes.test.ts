import { describe, expect, it } from 'vitest'
import { Random, seeds } from '../../../testing/random.js'
import { graphemeBoundaries, graphemeEnd, graphemeStart, isGraphemeBoundary } from './graphemes.js'

const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}'
const THUMB_MEDIUM = '\u{1F44D}\u{1F3FD}'
const FLAG_FR = '\u{1F1EB}\u{1F1F7}'
const E_ACUTE = 'e\u0301'

describe('grapheme boundaries', () => {
  it('has a boundary at every column of text without clusters', () => {
    expect(graphemeBoundaries('plain ascii, tabs\tand accents: café')).toBeNull()
    expect(graphemeStart('abc', 2)).toBe(2)
    expect(graphemeEnd('abc', 7)).toBe(3)
  })

  it('keeps ZWJ sequences, skin tones, flags, combining marks and CJK together', () => {
    const text = `a${FAMILY}${THUMB_MEDIUM}${FLAG_FR}${E_ACUTE}中文`
    const family = 1
    const thumb = family + FAMILY.length
    const flag = thumb + THUMB_MEDIUM.length
    const accent = flag + FLAG_FR.length
    const cjk = accent + E_ACUTE.length
    expect(graphemeBoundaries(text)).toEqual([0, 1, thumb, flag, accent, cjk, cjk + 1, cjk + 2])
    for (let column = family + 1; column < thumb; column++) {
      expect(isGraphemeBoundary(text, column)).toBe(false)
      expect(graphemeStart(text, column)).toBe(family)
      expect(graphemeEnd(text, column)).toBe(thumb)
    }
    expect(graphemeStart(text, flag + 2)).toBe(flag)
    expect(graphemeEnd(text, accent + 1)).toBe(cjk)
  })

  it('keeps a CR and LF together', () => {
    expect(graphemeBoundaries('a\r\nb')).toEqual([0, 1, 3, 4])
  })

  it('start <= column <= end, both boundaries, for random mixed text', () => {
    const pieces = ['a', ' ', '\t', '中', 'ｈ', FAMILY, THUMB_MEDIUM, FLAG_FR, E_ACUTE, '\u{1F600}']
    for (const seed of seeds(20)) {
      const random = new Random(seed)
      let text = ''
      const expected = [0]
      for (let i = random.int(0, 12); i > 0; i--) {
        text += random.pick(pieces)
        expected.push(text.length)
      }
      const boundaries = graphemeBoundaries(text) ?? [...Array(text.length + 1).keys()]
      expect(boundaries, `seed ${seed}`).toEqual(expected)
      for (let column = 0; column <= text.length; column++) {
        const start = graphemeStart(text, column)
        const end = graphemeEnd(text, column)
        expect(start).toBeLessThanOrEqual(column)
        expect(end).toBeGreaterThanOrEqual(column)
        expect(expected).toContain(start)
        expect(expected).toContain(end)
      }
    }
  })
})
