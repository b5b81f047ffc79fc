import { describe, expect, it } from 'vitest'
import { goToLine, type Point, TextEditor } from './index.js'

const pt = (point: Point | undefined) => point?.toArray()

const TEXT = ['first', '  second line', '\tthird', '', 'fifth'].join('\n')

describe('goToLine', () => {
  it('goes to the first non-blank character of a 1-based line', () => {
    const editor = new TextEditor({ text: TEXT })
    expect(pt(goToLine(editor, '2'))).toEqual([1, 2])
    expect(pt(editor.getCursorBufferPosition())).toEqual([1, 2])
    expect(pt(goToLine(editor, '3'))).toEqual([2, 1])
    expect(pt(goToLine(editor, '4'))).toEqual([3, 0])
  })

  it('goes to a 1-based column, clipped to the line', () => {
    const editor = new TextEditor({ text: TEXT })
    expect(pt(goToLine(editor, '2:5'))).toEqual([1, 4])
    expect(pt(goToLine(editor, '1:99'))).toEqual([0, 5])
    expect(pt(goToLine(editor, '2::1'))).toEqual([1, 0])
  })

  it('reads a missing line as the cursor line', () => {
    const editor = new TextEditor({ text: TEXT })
    editor.setCursorBufferPosition([4, 0])
    expect(pt(goToLine(editor, ':3'))).toEqual([4, 2])
    expect(pt(goToLine(editor, ':'))).toEqual([4, 0])
  })

  it('clips a line past the end to the last line and line 0 to the first', () => {
    const editor = new TextEditor({ text: TEXT })
    expect(pt(goToLine(editor, '78'))).toEqual([4, 0])
    expect(pt(goToLine(editor, '0:3'))).toEqual([0, 2])
  })

  it('returns undefined and stays for input it cannot read', () => {
    const editor = new TextEditor({ text: TEXT })
    editor.setCursorBufferPosition([1, 1])
    for (const input of ['', '  ', 'abc', '12a', '-3', '1 2', 'file.txt:3']) {
      expect(goToLine(editor, input), input).toBeUndefined()
    }
    expect(pt(editor.getCursorBufferPosition())).toEqual([1, 1])
    expect(pt(goToLine(editor, ' 5 '))).toEqual([4, 0])
  })

  it('leaves one cursor, unfolds the line and asks to center it', () => {
    const editor = new TextEditor({ text: TEXT })
    editor.addCursorAtBufferPosition([4, 1])
    editor.foldBufferRowRange(1, 3)
    const requests: Array<{ row: number; center: boolean }> = []
    editor.onDidRequestAutoscroll(({ screenRange, options }) =>
      requests.push({ row: screenRange.start.row, center: options.center === true }),
    )
    expect(pt(goToLine(editor, '3:2'))).toEqual([2, 1])
    expect(editor.getCursors()).toHaveLength(1)
    expect(editor.isFoldedAtBufferRow(2)).toBe(false)
    expect(requests.at(-1)).toEqual({ row: 2, center: true })
  })

  it('names a non-string input', () => {
    const editor = new TextEditor({ text: TEXT })
    expect(() => goToLine(editor, 3 as unknown as string)).toThrow(TypeError)
  })
})
