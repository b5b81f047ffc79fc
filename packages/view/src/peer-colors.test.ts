import { describe, expect, it } from 'vitest'
import { DARK_LABEL_TEXT, labelTextOn } from './peer-colors.js'

describe('label text on a peer color', () => {
  it('is white on strong colors and dark on light ones, in hex or rgb()', () => {
    for (const strong of ['#cf222e', '#1a7f37', '#2563eb', '#e11d48', 'rgb(79, 70, 229)', '#000']) {
      expect(labelTextOn(strong), strong).toBeNull()
    }
    for (const light of ['#facc15', '#aceebb', '#fff', 'rgba(250, 204, 21, 0.9)', '#67e8f9cc']) {
      expect(labelTextOn(light), light).toBe(DARK_LABEL_TEXT)
    }
  })

  it('keeps the style sheet color for notations it does not read', () => {
    expect(labelTextOn('hsl(50 90% 60%)')).toBeNull()
    expect(labelTextOn('gold')).toBeNull()
  })
})
