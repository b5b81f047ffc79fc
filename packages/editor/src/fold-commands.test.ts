import { loadLanguage } from '@tandem/language'
import type { Range } from '@tandem/text'
import { beforeAll, describe, expect, it } from 'vitest'
import { TextEditor } from './text-editor.js'

const PLAIN = ['a', '  b', '    c', '    d', '  e', 'f', '  g'].join('\n')

const JS = [
  'function f(a) {', // 0
  '  if (a) {', //      1
  '    x()', //         2
  '  } else {', //      3
  '    y()', //         4
  '  }', //             5
  '}', //               6
  '/* one', //          7
  '   two */', //       8
].join('\n')

const rows = (ranges: readonly Range[]): number[][] =>
  ranges.map((range) => [range.start.row, range.end.row])

const foldedRows = (editor: TextEditor): number[][] => rows(editor.getFoldedBufferRanges())

beforeAll(() => loadLanguage('javascript'))

describe('fold commands in plain text', () => {
  it('foldCurrentRow folds the cursor row’s fold, else the one around it', () => {
    const editor = new TextEditor({ text: PLAIN })
    editor.setCursorBufferPosition([1, 0])
    expect(editor.foldCurrentRow()).toEqual(expect.any(Number))
    expect(foldedRows(editor)).toEqual([[1, 3]])
    expect(editor.isFoldedAtCursorRow()).toBe(true)
    expect(editor.getScreenLineCount()).toBe(5)
    editor.setCursorBufferPosition([5, 0])
    expect(editor.foldCurrentRow()).toEqual(expect.any(Number))
    expect(foldedRows(editor)).toEqual([
      [1, 3],
      [5, 6],
    ])
  })

  it('foldCurrentRow does nothing where no fold starts or reaches', () => {
    const editor = new TextEditor({ text: 'a\nb' })
    expect(editor.foldCurrentRow()).toBeUndefined()
    expect(editor.getFoldedBufferRanges()).toEqual([])
  })

  it('unfoldCurrentRow unfolds the folds containing the end of the cursor row', () => {
    const editor = new TextEditor({ text: PLAIN })
    editor.foldBufferRow(2)
    editor.foldBufferRow(2)
    expect(foldedRows(editor)).toEqual([
      [0, 4],
      [1, 3],
    ])
    editor.setCursorBufferPosition([0, 0])
    expect(rows(editor.unfoldCurrentRow())).toEqual([[0, 4]])
    expect(foldedRows(editor)).toEqual([[1, 3]])
  })

  it('foldBufferRow folds outwards when the fold is already folded', () => {
    const editor = new TextEditor({ text: PLAIN })
    editor.foldBufferRow(1)
    editor.foldBufferRow(1)
    editor.foldBufferRow(1)
    expect(foldedRows(editor)).toEqual([
      [0, 4],
      [1, 3],
    ])
    // Both folds contain the end of row 1.
    expect(rows(editor.unfoldBufferRow(1))).toEqual([
      [0, 4],
      [1, 3],
    ])
  })

  it('toggleFoldAtBufferRow folds, then unfolds', () => {
    const editor = new TextEditor({ text: PLAIN })
    expect(editor.toggleFoldAtBufferRow(5)).toBeUndefined()
    expect(editor.isFoldedAtBufferRow(5)).toBe(true)
    expect(rows(editor.toggleFoldAtBufferRow(5)!)).toEqual([[5, 6]])
    expect(editor.isFoldedAtBufferRow(5)).toBe(false)
  })

  it('foldAll and foldAllAtIndentLevel replace the folds there were', () => {
    const editor = new TextEditor({ text: PLAIN })
    editor.foldBufferRowRange(2, 3)
    editor.foldAll()
    expect(foldedRows(editor)).toEqual([
      [0, 4],
      [1, 3],
      [5, 6],
    ])
    editor.foldAllAtIndentLevel(1)
    expect(foldedRows(editor)).toEqual([[1, 3]])
    editor.foldAllAtIndentLevel(3)
    expect(foldedRows(editor)).toEqual([])
  })

  it('foldSelectedLines folds each selection and leaves a caret at its end', () => {
    const editor = new TextEditor({ text: PLAIN })
    editor.setSelectedBufferRanges([
      [
        [0, 1],
        [2, 2],
      ],
      [
        [5, 0],
        [5, 0],
      ],
    ])
    editor.foldSelectedLines()
    expect(editor.getFoldedBufferRanges().map((range) => range.serialize())).toEqual([
      [
        [0, 1],
        [2, 2],
      ],
    ])
    expect(editor.getCursorBufferPositions().map((point) => point.serialize())).toEqual([
      [2, 2],
      [5, 0],
    ])
    expect(editor.getSelections()[0]!.isEmpty()).toBe(true)
  })

  it('tell foldable rows by buffer and by screen row', () => {
    const editor = new TextEditor({ text: PLAIN })
    expect([0, 1, 2, 3, 4, 5, 6].map((row) => editor.isFoldableAtBufferRow(row))).toEqual([
      true,
      true,
      false,
      false,
      false,
      true,
      false,
    ])
    editor.foldBufferRow(1)
    // Screen row 2 shows buffer row 4 now.
    expect(editor.isFoldableAtScreenRow(2)).toBe(false)
    expect(editor.isFoldableAtScreenRow(3)).toBe(true)
  })

  it('fold in read-only editors too: folding changes no text', () => {
    const editor = new TextEditor({ text: PLAIN, readOnly: true })
    const refused: string[] = []
    editor.onDidAttemptReadOnlyEdit(({ operation }) => refused.push(operation))
    editor.foldAll()
    expect(foldedRows(editor)).toHaveLength(3)
    expect(refused).toEqual([])
  })
})

describe('fold commands in JavaScript', () => {
  it('foldAll folds what the fold query finds: each branch of an if, block comments', () => {
    const editor = new TextEditor({ text: JS, grammar: 'javascript' })
    editor.foldAll()
    expect(editor.getFoldedBufferRanges().map((range) => range.serialize())).toEqual([
      [
        [0, 15],
        [6, 0],
      ],
      [
        [1, 10],
        [2, 7],
      ],
      [
        [3, 10],
        [5, 2],
      ],
      [
        [7, 6],
        [8, 7],
      ],
    ])
    expect(editor.getScreenLineCount()).toBe(2)
  })

  it('foldAllAtIndentLevel counts nesting, not indentation', () => {
    const editor = new TextEditor({ text: JS, grammar: 'javascript' })
    editor.foldAllAtIndentLevel(1)
    expect(foldedRows(editor)).toEqual([
      [1, 2],
      [3, 5],
    ])
  })

  it('foldCurrentRow inside the else branch folds the else block', () => {
    const editor = new TextEditor({ text: JS, grammar: 'javascript' })
    editor.setCursorBufferPosition([4, 2])
    editor.foldCurrentRow()
    expect(foldedRows(editor)).toEqual([[3, 5]])
    expect(editor.isFoldedAtCursorRow()).toBe(true)
    editor.setCursorBufferPosition([0, 0])
    expect(editor.isFoldedAtCursorRow()).toBe(false)
  })
})
