/**
 * The font size steps of zooming, in Node.
 */
import { describe, expect, it } from 'vitest'
import { assertFontSize, MAX_FONT_SIZE, MIN_FONT_SIZE, zoomedFontSize } from './zoom.js'

describe('zoomedFontSize', () => {
  it("steps a pixel, as Atom's font size commands do, within the limits", () => {
    expect(zoomedFontSize(14, 'in')).toBe(15)
    expect(zoomedFontSize(14, 'out')).toBe(13)
    expect(zoomedFontSize(14.5, 'in')).toBe(15)
    expect(zoomedFontSize(14.5, 'out')).toBe(14)
    expect(zoomedFontSize(MIN_FONT_SIZE, 'out')).toBe(MIN_FONT_SIZE)
    expect(zoomedFontSize(MAX_FONT_SIZE, 'in')).toBe(MAX_FONT_SIZE)
  })

  it('refuses a size it cannot show, naming it', () => {
    expect(assertFontSize(16)).toBe(16)
    expect(() => assertFontSize(2)).toThrow(/got 2/)
    expect(() => assertFontSize(Number.NaN)).toThrow(RangeError)
    expect(() => assertFontSize('16')).toThrow(/got 16/)
  })
})
