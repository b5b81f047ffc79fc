import { TextEditor } from '@tandem/editor'
import { Point } from '@tandem/text'
import { describe, expect, it } from 'vitest'
import { Random, seeds } from '../../../testing/random.js'
import {
  classNameForScopes,
  type HighlightSegment,
  type HighlightSource,
  type HighlightToken,
  highlightScreenLine,
  sameHighlighting,
  screenLineLayout,
} from './highlight.js'

const ROOT = 'source.t'
const WORD = classNameForScopes(['word.t'])
const NUMBER = classNameForScopes(['constant.numeric.t'])

/** A tokenizer for tests: runs of letters are words, runs of digits numbers, the rest root. */
const tokenize = (line: string): HighlightToken[] => {
  const tokens: HighlightToken[] = []
  for (const match of line.matchAll(/[a-z]+|[0-9]+|[^a-z0-9]+/gi)) {
    const kind = /[a-z]/i.test(match[0])
      ? 'word.t'
      : /[0-9]/.test(match[0])
        ? 'constant.numeric.t'
        : null
    tokens.push({
      startIndex: match.index,
      endIndex: match.index + match[0].length,
      scopes: kind === null ? [ROOT] : [ROOT, kind],
    })
  }
  return tokens
}

const sourceFor = (editor: TextEditor, untokenized = new Set<number>()): HighlightSource => ({
  lineForRow: (row) => editor.lineTextForBufferRow(row) ?? '',
  tokensForRow: (row) =>
    untokenized.has(row) ? null : tokenize(editor.lineTextForBufferRow(row) ?? ''),
})

const segmentsOf = (editor: TextEditor, row: number, source = sourceFor(editor)) => {
  const display = editor.displayLayer
  const line = display.screenLineForScreenRow(row)
  const segments = highlightScreenLine(
    line,
    screenLineLayout(display, row, line),
    source,
    editor.getTabLength(),
  )
  expect(segments.map((segment) => segment.text).join('')).toBe(line.lineText)
  return segments
}

const pairs = (segments: readonly HighlightSegment[]) =>
  segments.map(({ text, className, fold }) => [text, fold ? 'fold' : className])

describe('classNameForScopes', () => {
  it("gives Atom's syntax-- class for every part of every scope, each once", () => {
    expect(classNameForScopes(['keyword.control.js'])).toBe(
      'syntax--keyword syntax--control syntax--js',
    )
    expect(classNameForScopes(['string.quoted.js', 'punctuation.definition.string.js'])).toBe(
      'syntax--string syntax--quoted syntax--js syntax--punctuation syntax--definition',
    )
    expect(classNameForScopes([])).toBe('')
  })
})

describe('highlightScreenLine', () => {
  it('widens tabs inside their token and keeps the classes on both sides', () => {
    const editor = new TextEditor({ text: 'ab\tcd 12\t3', tabLength: 4 })
    expect(pairs(segmentsOf(editor, 0))).toEqual([
      ['ab', WORD],
      ['  ', ''],
      ['cd', WORD],
      [' ', ''],
      ['12', NUMBER],
      ['   ', ''],
      ['3', NUMBER],
    ])
  })

  it('leaves soft-wrap indentation plain and colours the wrapped text after it', () => {
    const editor = new TextEditor({
      text: '    alpha beta 42 gamma delta',
      softWrapped: true,
      editorWidthInChars: 16,
    })
    expect(editor.lineTextForScreenRow(1)).toMatch(/^ {4}\S/)
    const rows = [0, 1, 2].map((row) => pairs(segmentsOf(editor, row)))
    expect(rows[0]).toEqual([
      ['    ', ''],
      ['alpha', WORD],
      [' ', ''],
      ['beta', WORD],
      [' ', ''],
    ])
    expect(rows[1]![0]).toEqual(['    ', ''])
    expect(rows[1]!.slice(1)).toEqual([
      ['42', NUMBER],
      [' ', ''],
      ['gamma', WORD],
      [' ', ''],
    ])
    expect(rows[2]!.slice(1)).toEqual([['delta', WORD]])
  })

  it('shows a fold spanning rows as one fold segment and goes on after its end', () => {
    const editor = new TextEditor({ text: 'one(\n  two 2\n)three 3' })
    editor.foldBufferRange([
      [0, 4],
      [2, 0],
    ])
    expect(editor.lineTextForScreenRow(0)).toBe('one(\uFEFF)three 3')
    expect(pairs(segmentsOf(editor, 0))).toEqual([
      ['one', WORD],
      ['(', ''],
      ['\uFEFF', 'fold'],
      [')', ''],
      ['three', WORD],
      [' ', ''],
      ['3', NUMBER],
    ])
  })

  it('draws rows that have no tokens yet as plain text', () => {
    const editor = new TextEditor({ text: 'abc 1\ndef 2' })
    const source = sourceFor(editor, new Set([1]))
    expect(pairs(segmentsOf(editor, 0, source))).toEqual([
      ['abc', WORD],
      [' ', ''],
      ['1', NUMBER],
    ])
    expect(pairs(segmentsOf(editor, 1, source))).toEqual([['def 2', '']])
    const empty = new TextEditor({ text: '' })
    expect(segmentsOf(empty, 0)).toEqual([])
  })

  it('tells when two rows draw the same', () => {
    const a = [{ text: 'ab', className: WORD }]
    expect(sameHighlighting(a, [{ text: 'cd', className: WORD }])).toBe(true)
    expect(sameHighlighting(a, [{ text: 'cd', className: NUMBER }])).toBe(false)
    expect(sameHighlighting(a, [{ text: 'abc', className: WORD }])).toBe(false)
  })

  for (const seed of seeds(6)) {
    it(`gives every screen character its buffer character's classes (seed ${seed})`, () => {
      const random = new Random(seed)
      const alphabet = ['a', 'b', '1', '2', ' ', ' ', '\t', '(', 'x']
      const lines = Array.from({ length: 12 }, () => random.string(random.int(0, 40), alphabet))
      const editor = new TextEditor({
        text: lines.join('\n'),
        tabLength: random.int(2, 4),
        softWrapped: random.chance(0.7),
        editorWidthInChars: random.int(8, 30),
      })
      for (let i = 0; i < 3; i++) {
        const row = random.int(0, 10)
        const start = [row, random.int(0, lines[row]!.length)] as const
        const endRow = random.int(row, 11)
        editor.foldBufferRange([start, [endRow, random.int(0, lines[endRow]!.length)]])
      }
      const display = editor.displayLayer
      for (let row = 0; row < display.getScreenLineCount(); row++) {
        const segments = segmentsOf(editor, row)
        const line = display.screenLineForScreenRow(row)
        const textStart = display.translateBufferPosition(line.bufferRange.start, {
          clipDirection: 'backward',
        })
        let column = 0
        for (const segment of segments) {
          for (let i = 0; i < segment.text.length; i++, column++) {
            const context = `seed ${seed}, screen row ${row}, column ${column}`
            if (segment.fold === true) {
              expect(editor.isFoldedAtScreenRow(row), context).toBe(true)
              continue
            }
            if (textStart.row === row && column < textStart.column) {
              expect(segment.className, context).toBe('')
              continue
            }
            const at = display.translateScreenPosition(new Point(row, column), {
              clipDirection: 'backward',
            })
            const character = editor.lineTextForBufferRow(at.row)![at.column]
            const expected = /[a-z]/i.test(character!)
              ? WORD
              : /[0-9]/.test(character!)
                ? NUMBER
                : ''
            expect(segment.className, context).toBe(expected)
          }
        }
      }
    })
  }
})
