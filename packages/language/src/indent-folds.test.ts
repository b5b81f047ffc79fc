import { TextBuffer } from '@tandem/buffer'
import { Point, type Range } from '@tandem/text'
import { describe, expect, it } from 'vitest'
import { Random, seeds } from '../../../testing/random.js'
import { IndentFolds } from './indent-folds.js'
import { indentLevelForLine } from './language-mode.js'
import { PlainTextMode } from './plain-text-mode.js'

const rows = (ranges: readonly (Range | null)[]): Array<[number, number] | null> =>
  ranges.map((range) => (range === null ? null : [range.start.row, range.end.row]))

const foldsOf = (lines: readonly string[]) => new IndentFolds(new TextBuffer(lines.join('\n')))

describe('IndentFolds', () => {
  const lines = [
    'a', //        0: folds rows 1-4
    '  b', //      1: folds rows 2-3
    '    c',
    '',
    '    d', //    4 (the blank row 3 inside is skipped)
    '  e',
    'f', //        6: nothing deeper follows
    '',
  ]

  it('fold a row over the rows below it indented deeper, blank rows inside included', () => {
    const folds = foldsOf(lines)
    expect(rows(folds.getFoldableRanges(2))).toEqual([
      [0, 5],
      [1, 4],
    ])
    const [outer] = folds.getFoldableRanges(2)
    expect(outer!.start).toEqual(new Point(0, 1))
    expect(outer!.end).toEqual(new Point(5, 3))
  })

  it('stop before trailing blank rows and at a row back at the start’s indentation', () => {
    const folds = foldsOf(['a', '  b', '', '', 'c', '  d', '', ''])
    expect(rows(folds.getFoldableRanges(2))).toEqual([
      [0, 1],
      [4, 5],
    ])
  })

  it('find the fold of a row at its end, else the nearest one above that reaches it', () => {
    const folds = foldsOf(lines)
    const around = (row: number, column: number) =>
      rows([folds.getFoldableRangeContainingPoint(new Point(row, column), 2)])[0]
    expect(around(1, Number.POSITIVE_INFINITY)).toEqual([1, 4])
    expect(around(1, 0)).toEqual([0, 5])
    expect(around(2, 5)).toEqual([1, 4])
    expect(around(6, 1)).toBeNull()
    // A row past the last has none, and no fold reaches it.
    expect(around(8, Number.POSITIVE_INFINITY)).toBeNull()
  })

  it('fold at an indent level: the outermost folds starting on rows at that depth', () => {
    const folds = foldsOf(['a', '  b', '    c', '  d', '    e', 'f', '  g'])
    expect(rows(folds.getFoldableRangesAtIndentLevel(0, 2))).toEqual([
      [0, 4],
      [5, 6],
    ])
    expect(rows(folds.getFoldableRangesAtIndentLevel(1, 2))).toEqual([
      [1, 2],
      [3, 4],
    ])
    expect(folds.getFoldableRangesAtIndentLevel(2, 2)).toEqual([])
  })

  it('count a tab as one column when asked only whether a row folds', () => {
    // With tab length 2 the tab and the two spaces are one level; counted as one column each,
    // the spaces are deeper.
    const folds = foldsOf(['\ta', '  b'])
    expect(folds.getFoldableRanges(2)).toEqual([])
    expect(folds.isFoldableAtRow(0)).toBe(true)
  })

  it('fold runs of comment rows together, and include a closing row matching the end pattern', () => {
    const buffer = new TextBuffer(
      ['# one', '# two', '# three', 'x', 'if a', '  b', 'end'].join('\n'),
    )
    const folds = new IndentFolds(buffer, {
      isRowCommented: (row) => buffer.lineForRow(row)?.startsWith('#'),
      foldEndPattern: /^end\b/,
    })
    expect(rows(folds.getFoldableRanges(2))).toEqual([
      [0, 2],
      [4, 6],
    ])
    expect(folds.isFoldableAtRow(1)).toBe(false)
  })

  it('match a simple reference on random indented text (seeded)', () => {
    for (const seed of seeds(50)) {
      const random = new Random(seed)
      const text = Array.from({ length: random.int(1, 25) }, () =>
        random.chance(0.2) ? random.pick(['', '  ', '\t']) : `${' '.repeat(random.int(0, 6))}x`,
      )
      const folds = foldsOf(text)
      const reference: Array<[number, number]> = []
      for (let row = 0; row < text.length; row++) {
        const line = text[row]!
        if (line.trim() === '') continue
        const level = indentLevelForLine(line, 2)
        let end = -1
        for (let next = row + 1; next < text.length; next++) {
          if (text[next]!.trim() === '') continue
          if (indentLevelForLine(text[next]!, 2) <= level) break
          end = next
        }
        if (end !== -1) reference.push([row, end])
      }
      expect(rows(folds.getFoldableRanges(2)), `seed ${seed}: ${JSON.stringify(text)}`).toEqual(
        reference,
      )
    }
  })
})

describe('plain text folds', () => {
  it('come from indentation, and looking for one reads the row as Atom does', () => {
    const mode = new PlainTextMode(new TextBuffer('a\n  b\n\nc'))
    expect(rows(mode.getFoldableRanges(2))).toEqual([[0, 1]])
    expect(mode.isFoldableAtRow(0)).toBe(true)
    // Rows looked at for a fold count as read (paragraph boundaries depend on that); the blank
    // row is never looked at.
    expect(mode.isRowCommented(0)).toBe(false)
    expect(mode.isRowCommented(2)).toBeUndefined()
  })
})
