import { loadLanguage } from '@tandem/language'
import { beforeAll, describe, expect, it } from 'vitest'
import { TextEditor } from './text-editor.js'

// Atom's rule, restated: `rowRangeForParagraphAtBufferRow` grows a run of non-blank rows from
// the given row while each neighbour gets the same (strictly equal) answer from the language
// mode's `isRowCommented`. Atom's JavaScript support is its tree-sitter mode, which calls a
// row commented when some scope at the row's first non-whitespace character has a `comment`
// segment; its highlights query gives comment scopes to `comment` nodes (`//` and closed
// `/* */`) and to the first row's `#!` line, and none to anything else. Cursor paragraph moves
// look only for blank rows and never ask about comments.

interface Situation {
  /** What the row shows. */
  name: string
  text: string
  row: number
  /** Atom's `getCurrentParagraphBufferRange()` with the cursor on `row`, as a string. */
  atom: string | undefined
}

const rangeOf = (editor: TextEditor, row: number): string | undefined => {
  editor.setCursorBufferPosition([row, 0])
  return editor.getCurrentParagraphBufferRange()?.toString()
}

const JAVASCRIPT: Situation[] = [
  // Both rows start in a `//` comment; the code row below answers false and stops the run.
  {
    name: 'a run of line comments',
    text: '// a\n// b\nf()\ng()',
    row: 0,
    atom: '[(0, 0) - (1, 4)]',
  },
  // The same run seen from the code side: code rows run together up to the comment.
  { name: 'code below comments', text: '// a\n// b\nf()\ng()', row: 3, atom: '[(2, 0) - (3, 3)]' },
  // The first row is commented and has no row above: the run starts at row 0.
  { name: 'comment on the first row', text: '// a\nf()', row: 0, atom: '[(0, 0) - (0, 4)]' },
  // The last row is commented: the run ends at the last row, the code above is outside.
  { name: 'comment on the last row', text: 'f()\ng()\n// z', row: 2, atom: '[(2, 0) - (2, 4)]' },
  // ...and the code rows above it end where the comment starts.
  { name: 'code above a last comment', text: 'f()\ng()\n// z', row: 0, atom: '[(0, 0) - (1, 3)]' },
  // Indentation is skipped: the first non-whitespace character is in the comment.
  {
    name: 'an indented comment',
    text: 'if (a) {\n  // b\n}',
    row: 1,
    atom: '[(1, 0) - (1, 6)]',
  },
  // `f() // x` starts with code: the row is code, so it joins the code below.
  { name: 'a trailing comment', text: 'f() // x\ng()\n// y', row: 0, atom: '[(0, 0) - (1, 3)]' },
  // `/* x */ f()` starts inside a comment: Atom calls the whole row commented.
  { name: 'a leading block comment', text: '/* x */ f()\ng()', row: 0, atom: '[(0, 0) - (0, 11)]' },
  // The rows of a closed block comment all start inside the one `comment` node.
  {
    name: 'a block comment over rows',
    text: 'f()\n/* x\n   y */\ng()',
    row: 2,
    atom: '[(1, 0) - (2, 7)]',
  },
  // `*/ f()` starts inside the comment that closes there: commented, with the rows above.
  {
    name: 'code after a block comment ends',
    text: '/* x\n*/ f()\ng()',
    row: 0,
    atom: '[(0, 0) - (1, 6)]',
  },
  // A documentation comment is a `comment` node too (with a more specific scope).
  {
    name: 'a documentation comment',
    text: '/**\n * a\n */\nf()',
    row: 1,
    atom: '[(0, 0) - (2, 3)]',
  },
  // `/* x` that never closes is no `comment` node (tree-sitter reports an error), so no row
  // is commented and the rows form one paragraph.
  { name: 'an unclosed block comment', text: 'f()\n/* x\ny', row: 0, atom: '[(0, 0) - (2, 1)]' },
  // A Python comment is not JavaScript: `# x` parses as an error, not a comment.
  { name: 'a Python comment line', text: 'f()\n# x\ng()', row: 1, atom: '[(0, 0) - (2, 3)]' },
  // `<!-- x -->` parses as an `html_comment`, which Atom's highlights query gives no scope:
  // the row is not commented.
  { name: 'an HTML comment line', text: 'f()\n<!-- x -->\ng()', row: 2, atom: '[(0, 0) - (2, 3)]' },
  // The first row's `#!` line is a `hash_bang_line`, scoped as a shebang comment.
  { name: 'a shebang line', text: '#!/usr/bin/env node\nf()', row: 1, atom: '[(1, 0) - (1, 3)]' },
  // `// x` inside a template string is string text, not a comment.
  { name: 'slashes in a template', text: 'x = `\n// y\n`', row: 1, atom: '[(0, 0) - (2, 1)]' },
  // A regular expression starting a row is code even though it starts with a slash.
  { name: 'a regex row', text: 'f()\n/\\/\\//.test(s)', row: 1, atom: '[(0, 0) - (1, 14)]' },
  // Atom finds where a row's text starts with its buffer search, whose `\S` takes a no-break
  // space as text; the comment test then looks at that space, which is in no comment node.
  {
    name: 'a no-break space first',
    text: 'f()\n\u00a0// x\ng()',
    row: 0,
    atom: '[(0, 0) - (2, 3)]',
  },
  // A blank row ends a run of comments before the comment answer is even asked.
  { name: 'a blank row between comments', text: '// a\n\n// b', row: 2, atom: '[(2, 0) - (2, 4)]' },
  // Spaces and tabs alone make a blank row too.
  { name: 'a whitespace row', text: '// a\n \t \n// b', row: 0, atom: '[(0, 0) - (0, 4)]' },
  // A blank row inside a block comment still ends the paragraph; the comment's rows on each
  // side are paragraphs of their own, apart from the code after it.
  {
    name: 'a blank row in a block comment',
    text: '/* a\n\n b */\nf()',
    row: 2,
    atom: '[(2, 0) - (2, 5)]',
  },
  // A blank row has no paragraph.
  { name: 'on a blank row', text: '// a\n\n// b', row: 1, atom: undefined },
  // CRLF rows: the line ending is not part of the row's text, the answers are as with LF.
  { name: 'CRLF rows', text: '// a\r\n// b\r\nf()\r\n', row: 1, atom: '[(0, 0) - (1, 4)]' },
  // Code rows in a CRLF buffer stop at the comment rows above them.
  { name: 'CRLF code rows', text: '// a\r\n// b\r\nf()\r\ng()', row: 3, atom: '[(2, 0) - (3, 3)]' },
]

describe('paragraphs next to comment rows (JavaScript)', () => {
  beforeAll(() => loadLanguage('javascript'))

  for (const { name, text, row, atom } of JAVASCRIPT) {
    it(`${name}: row ${row}`, () => {
      const editor = new TextEditor({ text, grammar: 'javascript' })
      expect(rangeOf(editor, row)).toEqual(atom)
    })
  }

  it('follows rows as comment toggling comments and uncomments them', () => {
    const editor = new TextEditor({ text: 'f()\ng()\nh()', grammar: 'javascript' })
    editor.setSelectedBufferRange([
      [1, 0],
      [1, 0],
    ])
    editor.toggleLineCommentsInSelection()
    expect(editor.getText()).toBe('f()\n// g()\nh()')
    // The toggled row is now a comment between two code rows: a paragraph of its own.
    expect(rangeOf(editor, 1)).toBe('[(1, 0) - (1, 6)]')
    expect(rangeOf(editor, 0)).toBe('[(0, 0) - (0, 3)]')
    editor.setSelectedBufferRange([
      [1, 0],
      [1, 0],
    ])
    editor.toggleLineCommentsInSelection()
    expect(editor.getText()).toBe('f()\ng()\nh()')
    expect(rangeOf(editor, 1)).toBe('[(0, 0) - (2, 3)]')
  })

  it('moves and selects by paragraph over blank rows only, whatever the comments', () => {
    // Atom's paragraph moves search for a blank line and land on the blank row itself (the
    // row after the line ending that starts it); comment rows play no part.
    const editor = new TextEditor({ text: '// a\nf()\n\n// b\ng()', grammar: 'javascript' })
    const cursor = editor.getLastCursor()
    cursor.moveToBeginningOfNextParagraph()
    expect(cursor.getBufferPosition().toArray()).toEqual([2, 0])
    cursor.moveToBeginningOfNextParagraph()
    // No blank row left: one column before the end of the buffer.
    expect(cursor.getBufferPosition().toArray()).toEqual([4, 2])
    cursor.moveToBeginningOfPreviousParagraph()
    expect(cursor.getBufferPosition().toArray()).toEqual([2, 0])
    editor.setCursorBufferPosition([1, 1])
    editor.selectToBeginningOfNextParagraph()
    expect(editor.getSelectedBufferRange().toString()).toBe('[(1, 1) - (2, 0)]')
  })

  it('moves over CRLF blank rows, and stops at the buffer’s ends', () => {
    // `\r\n[\t ]*\r\n` is a blank line too. With none left below, the move lands one column
    // before the end of the buffer; with none above, at (0, 0).
    const editor = new TextEditor({ text: '// a\r\n\r\n// b\r\nc', grammar: 'javascript' })
    const cursor = editor.getLastCursor()
    cursor.moveToBeginningOfNextParagraph()
    expect(cursor.getBufferPosition().toArray()).toEqual([1, 0])
    cursor.moveToBeginningOfNextParagraph()
    expect(cursor.getBufferPosition().toArray()).toEqual([3, 0])
    cursor.moveToBeginningOfPreviousParagraph()
    expect(cursor.getBufferPosition().toArray()).toEqual([1, 0])
    cursor.moveToBeginningOfPreviousParagraph()
    expect(cursor.getBufferPosition().toArray()).toEqual([0, 0])
  })
})

const PYTHON: Situation[] = [
  // `#` starts a `comment` node in Python, scoped as a comment.
  { name: 'Python comments', text: '# a\n# b\nx = 1', row: 1, atom: '[(0, 0) - (1, 3)]' },
  // A docstring is a string to Atom's Python grammar, not a comment.
  { name: 'a docstring', text: '"""a\nb"""\nx = 1', row: 0, atom: '[(0, 0) - (2, 5)]' },
  // Code with a trailing comment is code.
  { name: 'a trailing comment', text: '# a\nx = 1  # b\ny = 2', row: 2, atom: '[(1, 0) - (2, 5)]' },
]

describe('paragraphs next to comment rows (Python)', () => {
  beforeAll(() => loadLanguage('python'))

  for (const { name, text, row, atom } of PYTHON) {
    it(`${name}: row ${row}`, () => {
      const editor = new TextEditor({ text, grammar: 'python' })
      expect(rangeOf(editor, row)).toEqual(atom)
    })
  }
})

describe('paragraphs next to comment rows (TypeScript)', () => {
  beforeAll(() => Promise.all([loadLanguage('typescript'), loadLanguage('javascript')]))

  it('does not count a shebang line, which Atom’s TypeScript grammar leaves unscoped', () => {
    // Unlike JavaScript's, the TypeScript highlights query gives `hash_bang_line` no scope.
    const editor = new TextEditor({ text: '#!/usr/bin/env node\nf()', grammar: 'typescript' })
    expect(rangeOf(editor, 1)).toBe('[(0, 0) - (1, 3)]')
    const js = new TextEditor({ text: '#!/usr/bin/env node\nf()', grammar: 'javascript' })
    expect(rangeOf(js, 1)).toBe('[(1, 0) - (1, 3)]')
  })
})

describe('paragraphs in plain text', () => {
  // Atom's plain text is its TextMate mode with the null grammar: a row's answer is undefined
  // until something reads the scopes on it (then false), and editing a row forgets it again.

  it('joins rows nobody looked at', () => {
    const editor = new TextEditor({ text: 'a\nb\nc' })
    expect(rangeOf(editor, 1)).toBe('[(0, 0) - (2, 1)]')
  })

  it('splits at the row comment toggling looked at', () => {
    // Toggling asks for the comment strings at the first row's start, which reads that row's
    // scopes; plain text has none, so nothing changes and the row stays read.
    const editor = new TextEditor({ text: 'a\nb\nc' })
    editor.setCursorBufferPosition([1, 0])
    editor.toggleLineCommentsInSelection()
    expect(editor.getText()).toBe('a\nb\nc')
    expect(rangeOf(editor, 0)).toBe('[(0, 0) - (0, 1)]')
    expect(rangeOf(editor, 1)).toBe('[(1, 0) - (1, 1)]')
  })

  it('splits at an indented row typed on', () => {
    // Typing on an indented row asks whether it should outdent, which reads its scopes.
    const editor = new TextEditor({ text: 'a\n  b\nc' })
    editor.setCursorBufferPosition([1, 3])
    editor.insertText('x')
    expect(rangeOf(editor, 0)).toBe('[(0, 0) - (0, 1)]')
    // An unindented row is not asked about, so it stays unknown like its neighbours.
    const flat = new TextEditor({ text: 'a\nb\nc' })
    flat.setCursorBufferPosition([1, 1])
    flat.insertText('x')
    expect(rangeOf(flat, 0)).toBe('[(0, 0) - (2, 1)]')
  })
})
