import { describe, expect, it } from 'vitest'
import { SELECTION_COMMANDS } from './editor-commands.js'
import { TextEditor } from './text-editor.js'

describe('the per-selection command table', () => {
  it('gives the editor one method per entry', () => {
    const editor = new TextEditor({ text: 'one\ntwo' })
    for (const name of Object.keys(SELECTION_COMMANDS)) {
      expect(typeof (editor as unknown as Record<string, unknown>)[name], name).toBe('function')
    }
  })

  it('refuses a count that is not a number, naming the command', () => {
    const editor = new TextEditor({ text: 'one\ntwo\nthree' })
    expect(() => editor.moveDown('2' as unknown as number)).toThrow(
      new TypeError('moveDown: the count must be a number, got 2'),
    )
    expect(() => editor.selectRight(Number.NaN)).toThrow(TypeError)
    expect(editor.getCursorBufferPosition().toArray()).toEqual([0, 0])
    editor.moveDown(2)
    expect(editor.getCursorBufferPosition().toArray()).toEqual([2, 0])
  })

  it('refuses options that are not an object, before changing anything', () => {
    const editor = new TextEditor({ text: 'abc' })
    editor.setCursorBufferPosition([0, 3])
    expect(() => editor.backspace(5 as never)).toThrow(
      new TypeError('backspace: options must be an object, got 5'),
    )
    expect(editor.getText()).toBe('abc')
  })

  it('checks read-only once per command and reports the operation', () => {
    const editor = new TextEditor({ text: 'a\nb\nc', readOnly: true })
    editor.setSelectedBufferRanges([
      [
        [0, 1],
        [0, 1],
      ],
      [
        [1, 1],
        [1, 1],
      ],
    ])
    const refused: string[] = []
    editor.onDidAttemptReadOnlyEdit(({ operation }) => refused.push(operation))
    editor.backspace()
    editor.toggleLineCommentsInSelection()
    expect(refused).toEqual(['backspace', 'toggleLineComments'])
    expect(editor.getText()).toBe('a\nb\nc')
    editor.backspace({ bypassReadOnly: true })
    expect(editor.getText()).toBe('\n\nc')
  })

  it('merges what an extension made meet into one selection, reversed when it grew backward', () => {
    const editor = new TextEditor({ text: 'one two three' })
    editor.setSelectedBufferRanges([
      [
        [0, 4],
        [0, 4],
      ],
      [
        [0, 7],
        [0, 7],
      ],
    ])
    editor.selectToBeginningOfLine()
    const [selection, ...rest] = editor.getSelections()
    expect(rest).toHaveLength(0)
    expect(selection!.getBufferRange().toString()).toBe('[(0, 0) - (0, 7)]')
    expect(selection!.isReversed()).toBe(true)
  })
})
