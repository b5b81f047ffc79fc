import { describe, expect, it } from 'vitest'
import { TextBuffer } from './text-buffer.js'

const found = (buffer: TextBuffer, regex: RegExp, range = buffer.getRange()) =>
  buffer.findAllInRangeSync(regex, range).map((r) => r.toString())

describe('buffer search (Atom semantics)', () => {
  it('anchors ^ and $ at line ends, including CRLF, but not inside a CRLF', () => {
    const buffer = new TextBuffer('ab\r\n\r\ncd')
    expect(found(buffer, /^[\t ]*$/g)).toEqual(['[(1, 0) - (1, 0)]'])
    expect(found(buffer, /\w+$/g)).toEqual(['[(0, 0) - (0, 2)]', '[(2, 0) - (2, 2)]'])
  })

  it('lets ^ hold at the range start only at a line start, and $ at its end only at a line end', () => {
    const buffer = new TextBuffer('abc def')
    expect(
      found(
        buffer,
        /^\w+/g,
        buffer.clipRange([
          [0, 1],
          [0, 7],
        ]),
      ),
    ).toEqual([])
    expect(
      found(
        buffer,
        /\w+$/g,
        buffer.clipRange([
          [0, 0],
          [0, 6],
        ]),
      ),
    ).toEqual([])
    expect(
      found(
        buffer,
        /\w+$/g,
        buffer.clipRange([
          [0, 4],
          [0, 7],
        ]),
      ),
    ).toEqual(['[(0, 4) - (0, 7)]'])
  })

  it('reuses one RegExp across ranges with different line boundaries', () => {
    // The translated pattern is cached per RegExp and per kind of range ends.
    const buffer = new TextBuffer('ab cd\nef')
    const start = /^\w+/g
    const end = /\w+$/g
    const rows = buffer.getRange()
    const middle = buffer.clipRange([
      [0, 1],
      [0, 4],
    ])
    for (let round = 0; round < 2; round++) {
      expect(found(buffer, start, rows)).toEqual(['[(0, 0) - (0, 2)]', '[(1, 0) - (1, 2)]'])
      expect(found(buffer, start, middle)).toEqual([])
      expect(found(buffer, end, rows)).toEqual(['[(0, 3) - (0, 5)]', '[(1, 0) - (1, 2)]'])
      expect(found(buffer, end, middle)).toEqual([])
      expect(buffer.findInRangeSync(start, middle)).toBeNull()
      expect(buffer.findInRangeSync(end, rows)?.toString()).toBe('[(0, 3) - (0, 5)]')
    }
    expect(start.lastIndex).toBe(0)
  })

  it('keeps ^ and $ literal inside character classes', () => {
    const buffer = new TextBuffer('a^b$c')
    expect(found(buffer, /[\^$]/g)).toEqual(['[(0, 1) - (0, 2)]', '[(0, 3) - (0, 4)]'])
    expect(found(buffer, /[^a-c]+/g)).toEqual(['[(0, 1) - (0, 2)]', '[(0, 3) - (0, 4)]'])
  })

  it('treats \\s as ASCII whitespace only', () => {
    const buffer = new TextBuffer('a\u00a0b c')
    expect(found(buffer, /[^\s]+/g)).toEqual(['[(0, 0) - (0, 3)]', '[(0, 4) - (0, 5)]'])
  })

  it('steps over empty matches and reports one at the end only after a gap', () => {
    const buffer = new TextBuffer('ab\ncd')
    expect(found(buffer, /x*/g)).toHaveLength(6)
    expect(found(buffer, /\w*/g)).toEqual([
      '[(0, 0) - (0, 2)]',
      '[(0, 2) - (0, 2)]',
      '[(1, 0) - (1, 2)]',
    ])
  })
})
