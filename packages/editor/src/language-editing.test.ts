/**
 * Comment toggling and indentation per language, through the editor as a user drives it:
 * `toggleLineComments` on a selection, typing a newline or a closing bracket (the editor
 * auto-indents by default), `autoIndentSelectedRows`, and pasting.
 */
import { describe, expect, it } from 'vitest'
import { TextEditor } from './text-editor.js'

type Position = [number, number]

/** An editor in `grammar` holding `text`, with the selection `[start, end]`. */
const editorWith = (grammar: string, text: string, start: Position, end: Position = start) => {
  const editor = new TextEditor({ text, grammar })
  editor.setSelectedBufferRange([start, end])
  return editor
}

/** Toggles comments on the selected rows and returns the text. */
const toggled = (editor: TextEditor): string => {
  editor.getLastSelection().toggleLineComments()
  return editor.getText()
}

/** Types each piece at the cursor (a newline through `insertNewline`) and returns the text. */
const typed = (editor: TextEditor, ...pieces: string[]): string => {
  for (const piece of pieces) {
    if (piece === '\n') editor.insertNewline()
    else editor.insertText(piece)
  }
  return editor.getText()
}

describe('comment toggling per language', () => {
  it('TypeScript: line comments at the rows smallest indentation, and back', () => {
    const editor = editorWith(
      'typescript',
      'interface A {\n  x: number\n    y?: string\n}',
      [1, 0],
      [2, 3],
    )
    expect(toggled(editor)).toBe('interface A {\n  // x: number\n  //   y?: string\n}')
    expect(toggled(editor)).toBe('interface A {\n  x: number\n    y?: string\n}')
  })

  it('TSX: line comments around JSX rows', () => {
    const editor = editorWith('tsx', 'const a = (\n  <div>\n    <b/>\n  </div>\n)', [1, 0], [3, 8])
    expect(toggled(editor)).toBe('const a = (\n  // <div>\n  //   <b/>\n  // </div>\n)')
    expect(toggled(editor)).toBe('const a = (\n  <div>\n    <b/>\n  </div>\n)')
  })

  it('Markdown: an HTML block comment around the rows, and unwrapped again', () => {
    const editor = editorWith('markdown', '# Title\n\nSome *text*.\nMore.', [2, 0], [3, 5])
    expect(toggled(editor)).toBe('# Title\n\n<!-- Some *text*.\nMore. -->')
    expect(toggled(editor)).toBe('# Title\n\nSome *text*.\nMore.')
  })

  it('JavaScript: a row that only starts with a comment token is uncommented', () => {
    const editor = editorWith('javascript', '  //x()\n  // y()', [0, 0], [1, 3])
    expect(toggled(editor)).toBe('  x()\n  y()')
  })
})

describe('indentation per language', () => {
  it('TypeScript: indents after an opening brace and outdents the closing one', () => {
    const editor = editorWith('typescript', 'class A {\n  m(): void {', [1, 13])
    expect(typed(editor, '\n', 'run()', '\n', '}', '\n', '}')).toBe(
      'class A {\n  m(): void {\n    run()\n  }\n}',
    )
  })

  it('TSX: indents inside an open parenthesis and outdents its close', () => {
    const editor = editorWith('tsx', 'return (', [0, 8])
    expect(typed(editor, '\n', '<App/>', '\n', ')')).toBe('return (\n  <App/>\n)')
  })

  it('Python: indents after a block header, outdents else', () => {
    // No row is indented yet: Python's default indentation, four spaces.
    const editor = editorWith('python', 'if ok:', [0, 6])
    expect(typed(editor, '\n', 'go()', '\n', 'else:', '\n', 'stop()')).toBe(
      'if ok:\n    go()\nelse:\n    stop()',
    )
  })

  it('JSON: indents inside objects and arrays', () => {
    const editor = editorWith('json', '{', [0, 1])
    expect(typed(editor, '\n', '"a": [', '\n', '1', '\n', ']', '\n', '}')).toBe(
      '{\n  "a": [\n    1\n  ]\n}',
    )
  })

  it('CSS: indents a rule body', () => {
    const editor = editorWith('css', 'a {', [0, 3])
    expect(typed(editor, '\n', 'color: red;', '\n', '}')).toBe('a {\n  color: red;\n}')
  })

  it('HTML: indents inside an open element, not after a void one', () => {
    const editor = editorWith('html', '<div>', [0, 5])
    expect(typed(editor, '\n', '<br>', '\n', '<p>hi</p>', '\n', '</div>')).toBe(
      '<div>\n  <br>\n  <p>hi</p>\n</div>',
    )
  })

  it('Markdown: a new line keeps the indentation of the line above', () => {
    const editor = editorWith('markdown', '- item\n  - nested', [1, 10])
    expect(typed(editor, '\n', '- next')).toBe('- item\n  - nested\n  - next')
  })

  it('re-indents selected rows to what the language suggests', () => {
    const editor = editorWith(
      'javascript',
      'if (a) {\nb()\n      c([\n1,\n])\n        }',
      [0, 0],
      [5, 9],
    )
    editor.autoIndentSelectedRows()
    expect(editor.getText()).toBe('if (a) {\n  b()\n  c([\n    1,\n  ])\n}')
  })
  it('re-indents rows as one change with a syntax tree, row by row without one', () => {
    const changesWhileIndenting = (grammar: string, text: string) => {
      const editor = editorWith(grammar, text, [0, 0], [3, 1])
      let changes = 0
      editor.getBuffer().onDidChange(() => changes++)
      editor.getLastSelection().autoIndentSelectedRows()
      return changes
    }
    expect(changesWhileIndenting('javascript', 'if (a) {\nb()\nc()\n}')).toBe(1)
    expect(changesWhileIndenting('css', 'a {\ncolor: red;\nmargin: 0;\n}')).toBe(2)
  })
})

describe('pasting with indentation', () => {
  /** Copies `source`'s rows 0-2 whole, then pastes them at the end of `target`'s last row. */
  const paste = (options: { preserveTrailingLineIndentation?: boolean }) => {
    const editor = new TextEditor({
      text: 'f() {\n  g()\n}\nif (a) {\n  ',
      grammar: 'javascript',
    })
    editor.setSelectedBufferRange([
      [0, 0],
      [2, 1],
    ])
    editor.copySelectedText()
    editor.setCursorBufferPosition([4, 2])
    editor.pasteText(options)
    return editor.getText().split('\n').slice(3).join('\n')
  }

  it('re-indents the lines after the first to where the paste lands', () => {
    expect(paste({})).toBe('if (a) {\n  f() {\n    g()\n  }')
  })

  it('keeps the pasted lines as they were with preserveTrailingLineIndentation', () => {
    expect(paste({ preserveTrailingLineIndentation: true })).toBe('if (a) {\n  f() {\n  g()\n}')
  })
})

describe('typing in an indented row of a language with a syntax tree', () => {
  it('leaves the indentation alone when it is already in the editor’s unit', () => {
    const editor = editorWith('javascript', 'if (a) {\n  b\n}', [1, 3])
    const changes: string[] = []
    editor.getBuffer().onDidChange(({ changes: batch }) => {
      for (const change of batch) changes.push(change.newText)
    })
    editor.insertText('c')
    expect(editor.getText()).toBe('if (a) {\n  bc\n}')
    expect(changes).toEqual(['c'])
  })

  it('rewrites indentation in another unit into the editor’s, as Atom does', () => {
    const editor = new TextEditor({
      text: 'if (a) {\n\tb\n}',
      grammar: 'javascript',
      softTabs: true,
    })
    editor.setCursorBufferPosition([1, 2])
    editor.insertText('c')
    expect(editor.getText()).toBe('if (a) {\n  bc\n}')
  })
})
