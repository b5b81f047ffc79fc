import { TextBuffer } from '@tandem/buffer'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { DisplayLayer } from './display-layer.js'

const texts = (display: DisplayLayer) => display.getScreenLines().map((line) => line.lineText)
const pt = (p: { row: number; column: number }) => [p.row, p.column]

describe('DisplayLayer: hard tabs', () => {
  const buffer = new TextBuffer('a\tb\n\t\tc')
  const display = new DisplayLayer(buffer, { tabLength: 4 })

  it('widens a tab to the next tab stop', () => {
    expect(texts(display)).toEqual(['a   b', '        c'])
    expect(display.lineLengthForScreenRow(0)).toBe(5)
    expect(pt(display.translateBufferPosition([0, 2]))).toEqual([0, 4])
    expect(pt(display.translateBufferPosition([1, 2]))).toEqual([1, 8])
  })

  it('clips a column inside a tab by direction, past the middle counting as after', () => {
    expect(pt(display.translateScreenPosition([0, 2]))).toEqual([0, 1])
    expect(pt(display.translateScreenPosition([0, 3]))).toEqual([0, 1])
    expect(pt(display.translateScreenPosition([1, 7]))).toEqual([1, 2])
    expect(pt(display.translateScreenPosition([1, 6]))).toEqual([1, 1])
    expect(pt(display.translateScreenPosition([0, 2], { clipDirection: 'backward' }))).toEqual([
      0, 1,
    ])
    expect(pt(display.translateScreenPosition([0, 2], { clipDirection: 'forward' }))).toEqual([
      0, 2,
    ])
  })

  it('clips past the end of a row to its end, or forward to the next row', () => {
    expect(pt(display.translateScreenPosition([0, 99]))).toEqual([0, 3])
    expect(pt(display.translateScreenPosition([0, 99], { clipDirection: 'forward' }))).toEqual([
      1, 0,
    ])
    expect(pt(display.translateScreenPosition([9, 0]))).toEqual([1, 3])
    expect(pt(display.translateScreenPosition([-1, 4]))).toEqual([0, 0])
  })
})

describe('DisplayLayer: atomic soft tabs', () => {
  it('moves leading spaces in whole tab lengths', () => {
    const buffer = new TextBuffer('      x  y')
    const display = new DisplayLayer(buffer, { tabLength: 4 })
    expect(pt(display.translateBufferPosition([0, 1]))).toEqual([0, 0])
    expect(pt(display.translateBufferPosition([0, 3]))).toEqual([0, 4])
    expect(pt(display.translateBufferPosition([0, 1], { clipDirection: 'forward' }))).toEqual([
      0, 4,
    ])
    // Only spaces up to the next tab stop count: (0, 5) sits before 'x' at column 6.
    expect(pt(display.translateBufferPosition([0, 5]))).toEqual([0, 5])
    expect(pt(display.translateBufferPosition([0, 9]))).toEqual([0, 9])
    display.reset({ atomicSoftTabs: false })
    expect(pt(display.translateBufferPosition([0, 1]))).toEqual([0, 1])
  })

  it('leaves the spaces at the end of a line alone', () => {
    const buffer = new TextBuffer('   ')
    const display = new DisplayLayer(buffer, { tabLength: 2 })
    expect(pt(display.translateBufferPosition([0, 3]))).toEqual([0, 3])
    expect(pt(display.translateBufferPosition([0, 1]))).toEqual([0, 0])
  })
})

describe('DisplayLayer: soft wrap', () => {
  it('breaks after spaces and keeps the trailing space on the row', () => {
    const buffer = new TextBuffer('hello world foo')
    const display = new DisplayLayer(buffer, { softWrapColumn: 8 })
    expect(texts(display)).toEqual(['hello ', 'world ', 'foo'])
    expect(pt(display.translateBufferPosition([0, 6]))).toEqual([1, 0])
    expect(pt(display.translateScreenPosition([0, 6]))).toEqual([0, 5])
    expect(pt(display.translateScreenPosition([1, 0]))).toEqual([0, 6])
    expect(display.screenLineForScreenRow(1).bufferRange.toString()).toBe('[(0, 6) - (0, 12)]')
  })

  it('indents wrapped rows like the line, plus the hanging indent', () => {
    const buffer = new TextBuffer('  aaa bbb ccc')
    const display = new DisplayLayer(buffer, { softWrapColumn: 7, softWrapHangingIndent: 1 })
    expect(texts(display)).toEqual(['  aaa ', '   bbb ', '   ccc'])
    expect(pt(display.translateBufferPosition([0, 6]))).toEqual([1, 3])
    expect(pt(display.translateScreenPosition([1, 1]))).toEqual([0, 6])
    expect(pt(display.translateScreenPosition([1, 1], { clipDirection: 'backward' }))).toEqual([
      0, 5,
    ])
    expect(
      pt(
        display.translateScreenPosition([1, 1], {
          clipDirection: 'backward',
          skipSoftWrapIndentation: true,
        }),
      ),
    ).toEqual([0, 6])
  })

  it('breaks inside a word with no break before it, and after - or /', () => {
    const buffer = new TextBuffer('abcdefghij\nab-cd/efgh')
    const display = new DisplayLayer(buffer, { softWrapColumn: 4 })
    expect(texts(display)).toEqual(['abcd', 'efgh', 'ij', 'ab-', 'cd/', 'efgh'])
  })

  it('counts East Asian wide characters as two columns and may break before each', () => {
    const buffer = new TextBuffer('漢字漢字a')
    const display = new DisplayLayer(buffer, { softWrapColumn: 4 })
    // 'a' overflows the second row, which breaks at its last break opportunity: before 字.
    expect(texts(display)).toEqual(['漢字', '漢', '字a'])
  })

  it('never splits a surrogate pair or a combining mark from its base', () => {
    const buffer = new TextBuffer('ab😀cd\nabe\u0301f')
    const display = new DisplayLayer(buffer, { softWrapColumn: 3 })
    expect(texts(display)).toEqual(['ab😀', 'cd', 'abe\u0301', 'f'])
    expect(pt(display.translateBufferPosition([0, 3]))).toEqual([0, 2])
    expect(pt(display.translateBufferPosition([0, 3], { clipDirection: 'forward' }))).toEqual([
      1, 0,
    ])
  })
})

describe('DisplayLayer: folds', () => {
  it('shows a fold as one character and maps positions inside it by direction', () => {
    const buffer = new TextBuffer('abc\ndef\nghi')
    const display = new DisplayLayer(buffer)
    const id = display.foldBufferRange([
      [0, 1],
      [1, 2],
    ])
    expect(texts(display)).toEqual(['a⋯f', 'ghi'])
    expect(pt(display.translateBufferPosition([1, 0]))).toEqual([0, 2])
    expect(pt(display.translateBufferPosition([0, 2]))).toEqual([0, 1])
    expect(pt(display.translateBufferPosition([1, 0], { clipDirection: 'backward' }))).toEqual([
      0, 1,
    ])
    expect(pt(display.translateScreenPosition([0, 1]))).toEqual([0, 1])
    expect(pt(display.translateScreenPosition([0, 2]))).toEqual([1, 2])
    expect(display.bufferRowForScreenRow(1)).toBe(2)
    expect(display.screenRowForBufferRow(2)).toBe(1)
    expect(display.isFoldedAtBufferRow(1)).toBe(true)
    expect(display.isFoldedAtBufferRow(2)).toBe(false)
    expect(display.bufferRangeForFold(id)?.toString()).toBe('[(0, 1) - (1, 2)]')
    display.destroyFold(id)
    expect(texts(display)).toEqual(['abc', 'def', 'ghi'])
  })

  it('merges overlapping and nested folds and keeps touching ones apart', () => {
    const buffer = new TextBuffer('0123456789')
    const display = new DisplayLayer(buffer)
    display.foldBufferRange([
      [0, 1],
      [0, 4],
    ])
    display.foldBufferRange([
      [0, 3],
      [0, 6],
    ])
    display.foldBufferRange([
      [0, 6],
      [0, 8],
    ])
    display.foldBufferRange([
      [0, 2],
      [0, 3],
    ])
    expect(texts(display)).toEqual(['0⋯⋯89'])
    expect(display.unfoldAll().length).toBe(4)
    expect(texts(display)).toEqual(['0123456789'])
  })

  it('expands tabs after a fold from the fold placeholder on', () => {
    const buffer = new TextBuffer('a\tb\nc\td')
    const display = new DisplayLayer(buffer, { tabLength: 4 })
    display.foldBufferRange([
      [0, 2],
      [1, 1],
    ])
    expect(texts(display)).toEqual(['a   ⋯   d'])
    expect(pt(display.translateBufferPosition([1, 2]))).toEqual([0, 8])
    expect(pt(display.translateScreenPosition([0, 6]))).toEqual([1, 1])
  })

  it('wraps a long line that folds join', () => {
    const buffer = new TextBuffer('aaa bbb\nccc ddd eee')
    const display = new DisplayLayer(buffer, { softWrapColumn: 8 })
    display.foldBufferRange([
      [0, 7],
      [1, 0],
    ])
    // The row after the fold has no character before column 0, so it cannot break there;
    // the first break comes at the last opportunity before the overflow: before 'bbb'.
    expect(texts(display)).toEqual(['aaa ', 'bbb⋯ccc ', 'ddd eee'])
  })

  it('destroys folds containing positions, with or without their ends', () => {
    const buffer = new TextBuffer('abcdef')
    const display = new DisplayLayer(buffer)
    display.foldBufferRange([
      [0, 1],
      [0, 3],
    ])
    expect(display.destroyFoldsContainingBufferPositions([[0, 3]], true)).toEqual([])
    expect(display.destroyFoldsContainingBufferPositions([[0, 3]]).length).toBe(1)
  })

  it('follows remote edits, and a remote delete of the whole fold removes it', () => {
    const docA = new Y.Doc()
    const docB = new Y.Doc()
    const a = new TextBuffer({ doc: docA, text: 'one\ntwo\nthree\nfour' })
    Y.applyUpdate(docB, Y.encodeStateAsUpdate(docA))
    const b = new TextBuffer({ doc: docB })
    const display = new DisplayLayer(a)
    display.foldBufferRange([
      [1, 1],
      [2, 2],
    ])
    expect(texts(display)).toEqual(['one', 't⋯ree', 'four'])
    const sync = () => Y.applyUpdate(docA, Y.encodeStateAsUpdate(docB, Y.encodeStateVector(docA)))
    b.insert([0, 0], 'zero\n')
    sync()
    expect(texts(display)).toEqual(['zero', 'one', 't⋯ree', 'four'])
    b.delete([
      [2, 0],
      [3, 5],
    ])
    sync()
    expect(a.getText()).toBe('zero\none\n\nfour')
    expect(display.foldLayer.getMarkerCount()).toBe(0)
    expect(texts(display)).toEqual(['zero', 'one', '', 'four'])
  })
})

describe('DisplayLayer: events and errors', () => {
  it('reports the screen rows a change replaced', () => {
    const buffer = new TextBuffer('aaa bbb\nccc')
    const display = new DisplayLayer(buffer, { softWrapColumn: 5 })
    const seen: string[] = []
    display.onDidChange((changes) => {
      for (const c of changes) seen.push(`${c.oldRange} -> ${c.newRange}`)
    })
    buffer.insert([2, 0], 'x')
    buffer.insert([0, 0], 'xxxx ')
    expect(seen).toEqual([
      '[(2, 0) - (3, 0)] -> [(2, 0) - (3, 0)]',
      '[(0, 0) - (2, 0)] -> [(0, 0) - (3, 0)]',
    ])
  })

  it('is right in the middle of a transaction and reports its rows once, at the end', () => {
    const buffer = new TextBuffer('aaaa\nbbbb\ncccc\ndddd')
    const display = new DisplayLayer(buffer, { softWrapColumn: 6 })
    const reports: string[][] = []
    display.onDidChange((changes) =>
      reports.push(changes.map((c) => `${c.oldRange} -> ${c.newRange}`)),
    )
    const seenInside: number[][] = []
    buffer.transact(() => {
      buffer.insert([3, 4], ' dddd dddd')
      seenInside.push(pt(display.translateBufferPosition([3, 14])))
      buffer.insert([0, 0], 'aaaa ')
      seenInside.push(pt(display.translateBufferPosition([3, 14])))
      expect(reports).toEqual([])
    })
    expect(seenInside).toEqual([
      [5, 4],
      [6, 4],
    ])
    expect(texts(display)).toEqual(['aaaa ', 'aaaa', 'bbbb', 'cccc', 'dddd ', 'dddd ', 'dddd'])
    expect(reports).toEqual([
      ['[(0, 0) - (1, 0)] -> [(0, 0) - (2, 0)]', '[(3, 0) - (4, 0)] -> [(4, 0) - (7, 0)]'],
    ])
  })

  it('takes in a remote transaction as one batch and reports it once', () => {
    const local = new TextBuffer('one\ntwo\nthree')
    const remote = new TextBuffer({ doc: new Y.Doc() })
    Y.applyUpdate(remote.doc, Y.encodeStateAsUpdate(local.doc))
    const display = new DisplayLayer(local, { softWrapColumn: 4 })
    const reports: number[] = []
    display.onDidChange((changes) => reports.push(changes.length))
    remote.transact(() => {
      remote.insert([2, 5], ' four')
      remote.insert([0, 0], 'zero ')
    })
    Y.applyUpdate(local.doc, Y.encodeStateAsUpdate(remote.doc, Y.encodeStateVector(local.doc)))
    expect(texts(display)).toEqual(['zero', ' one', 'two', 'thre', 'e ', 'four'])
    expect(reports).toEqual([2])
    display.checkInvariants()
  })

  it('rejects bad settings and positions with errors naming them', () => {
    const buffer = new TextBuffer('abc')
    expect(() => new DisplayLayer(buffer, { tabLength: 0 })).toThrow(/tabLength/)
    const display = new DisplayLayer(buffer)
    expect(() => display.translateScreenPosition([Number.NaN, 0])).toThrow(TypeError)
    expect(() => display.translateBufferPosition(['a' as unknown as number, 0])).toThrow(TypeError)
    expect(() => display.screenLineForScreenRow(5)).toThrow(RangeError)
  })
})

describe('DisplayLayer: row boundaries around folds', () => {
  const text = ['zero', 'one', 'two', 'three', 'four', 'five', 'six'].join('\n')

  it('finds the first row of a fold, and the row after it, as Atom does', () => {
    const display = new DisplayLayer(new TextBuffer(text), { tabLength: 2, softWrapColumn: 3 })
    display.foldBufferRange([
      [1, 2],
      [3, 1],
    ])
    display.foldBufferRange([
      [4, 0],
      [5, 4],
    ])
    expect([0, 1, 2, 3, 4, 5, 6].map((row) => display.findBoundaryPrecedingBufferRow(row))).toEqual(
      [0, 1, 1, 1, 4, 4, 6],
    )
    expect([0, 1, 2, 3, 4, 5, 6].map((row) => display.findBoundaryFollowingBufferRow(row))).toEqual(
      [0, 1, 4, 4, 4, 6, 6],
    )
    expect(display.findBoundaryFollowingBufferRow(7)).toBe(7)
    expect(display.findBoundaryPrecedingBufferRow(9)).toBe(9)
  })

  it('leaves rows alone without folds, soft wrap or not', () => {
    const display = new DisplayLayer(new TextBuffer(text), { tabLength: 2, softWrapColumn: 2 })
    for (let row = 0; row < 7; row++) {
      expect(display.findBoundaryPrecedingBufferRow(row)).toBe(row)
      expect(display.findBoundaryFollowingBufferRow(row)).toBe(row)
    }
  })
})
