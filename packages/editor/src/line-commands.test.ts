import { describe, expect, it } from 'vitest'
import { type Range, TextEditor } from './index.js'
import { connectedEditors } from './testing/peers.js'

const ranges = (editor: TextEditor) =>
  editor.getSelectedBufferRanges().map((r: Range) => r.serialize())

/** Each command with a text and selection where it changes the text. */
const COMMANDS = [
  [
    'moveLineUp',
    'a\nb\nc',
    [
      [1, 0],
      [1, 0],
    ],
  ],
  [
    'moveLineDown',
    'a\nb\nc',
    [
      [1, 0],
      [1, 0],
    ],
  ],
  [
    'moveSelectionLeft',
    'abc',
    [
      [0, 1],
      [0, 2],
    ],
  ],
  [
    'moveSelectionRight',
    'abc',
    [
      [0, 1],
      [0, 2],
    ],
  ],
  [
    'duplicateLines',
    'a\nb',
    [
      [0, 0],
      [0, 0],
    ],
  ],
  [
    'insertNewlineAbove',
    'a\nb',
    [
      [1, 0],
      [1, 0],
    ],
  ],
  [
    'insertNewlineBelow',
    'a\nb',
    [
      [0, 0],
      [0, 0],
    ],
  ],
  [
    'transpose',
    'ab',
    [
      [0, 1],
      [0, 1],
    ],
  ],
  [
    'upperCase',
    'word',
    [
      [0, 1],
      [0, 1],
    ],
  ],
  [
    'lowerCase',
    'WORD',
    [
      [0, 1],
      [0, 1],
    ],
  ],
] as const

describe('line commands', () => {
  for (const [name, text, range] of COMMANDS) {
    it(`${name} is one undo step, refused when read-only unless bypassed`, () => {
      const editor = new TextEditor({ text })
      editor.setSelectedBufferRange(range)
      editor[name]()
      const changed = editor.getText()
      expect(changed).not.toBe(text)
      editor.undo()
      expect(editor.getText()).toBe(text)
      expect(ranges(editor)).toEqual([range])

      const readOnly = new TextEditor({ text, readOnly: true })
      const attempts: string[] = []
      readOnly.onDidAttemptReadOnlyEdit(({ operation }) => attempts.push(operation))
      readOnly.setSelectedBufferRange(range)
      readOnly[name]()
      expect(readOnly.getText()).toBe(text)
      expect(attempts).toEqual([name])
      readOnly[name]({ bypassReadOnly: true })
      expect(readOnly.getText()).toBe(changed)
    })
  }

  it('moves a fold with its lines, and over a fold as over one line', () => {
    const editor = new TextEditor({ text: 'top\nif\n  a\n  b\nend\nlast' })
    editor.foldBufferRowRange(1, 3)
    editor.setCursorBufferPosition([4, 0])
    editor.moveLineUp()
    expect(editor.getText()).toBe('top\nend\nif\n  a\n  b\nlast')
    expect(editor.getFoldedBufferRanges().map((r) => r.serialize())).toEqual([
      [
        [2, 2],
        [4, 3],
      ],
    ])
    editor.setCursorBufferPosition([2, 0])
    editor.moveLineDown()
    // As Atom: moving rows below the last one ends the buffer with a line break.
    expect(editor.getText()).toBe('top\nend\nlast\nif\n  a\n  b\n')
    expect(editor.getFoldedBufferRanges().map((r) => r.serialize())).toEqual([
      [
        [3, 2],
        [5, 3],
      ],
    ])
  })

  it('keeps surrogate pairs whole when reversing a selection', () => {
    const editor = new TextEditor({ text: 'a😀b' })
    editor.selectAll()
    editor.transpose()
    expect(editor.getText()).toBe('b😀a')
  })

  it('changes case by Unicode rules, selecting the result', () => {
    const editor = new TextEditor({ text: 'straße' })
    editor.setCursorBufferPosition([0, 2])
    editor.upperCase()
    expect(editor.getText()).toBe('STRASSE')
    expect(ranges(editor)).toEqual([
      [
        [0, 0],
        [0, 7],
      ],
    ])
  })

  it('splits selections into one per line', () => {
    const editor = new TextEditor({ text: 'one\ntwo\nthree' })
    editor.setSelectedBufferRange([
      [0, 1],
      [2, 2],
    ])
    editor.splitSelectionsIntoLines()
    expect(ranges(editor)).toEqual([
      [
        [0, 1],
        [0, 3],
      ],
      [
        [1, 0],
        [1, 3],
      ],
      [
        [2, 0],
        [2, 2],
      ],
    ])
  })

  it('moves a line while a peer types elsewhere, and both converge; undo keeps the peer’s text', () => {
    const { a, b } = connectedEditors('one\ntwo\nthree\n')
    a.setCursorBufferPosition([1, 1])
    b.setCursorBufferPosition([2, 5])
    a.moveLineUp()
    b.insertText('!')
    expect(a.getText()).toBe(b.getText())
    expect(a.getText()).toBe('two\none\nthree!\n')
    expect(a.getCursorBufferPosition().serialize()).toEqual([0, 1])
    a.undo()
    expect(a.getText()).toBe(b.getText())
    expect(a.getText()).toBe('one\ntwo\nthree!\n')
  })
})

describe('TextEditor.setTextInBufferRange', () => {
  it('replaces a range as one undo step, refused when read-only unless bypassed', () => {
    const editor = new TextEditor({ text: 'hello world' })
    const range = editor.setTextInBufferRange(
      [
        [0, 6],
        [0, 11],
      ],
      'there',
    )
    expect(range?.serialize()).toEqual([
      [0, 6],
      [0, 11],
    ])
    expect(editor.getText()).toBe('hello there')
    editor.undo()
    expect(editor.getText()).toBe('hello world')

    const readOnly = new TextEditor({ text: 'a', readOnly: true })
    expect(
      readOnly.setTextInBufferRange(
        [
          [0, 0],
          [0, 1],
        ],
        'b',
      ),
    ).toBeUndefined()
    expect(readOnly.getText()).toBe('a')
    readOnly.setTextInBufferRange(
      [
        [0, 0],
        [0, 1],
      ],
      'b',
      { bypassReadOnly: true },
    )
    expect(readOnly.getText()).toBe('b')
  })
})
