import { describe, expect, it } from 'vitest'
import { Random, seeds } from '../../../testing/random.js'
import { reflowText, TextEditor } from './index.js'

const reflow = (text: string, wrapColumn = 20) => reflowText(text, { wrapColumn, tabLength: 2 })

describe('reflowText', () => {
  it('re-breaks a paragraph at spaces within the column', () => {
    expect(reflow('one two three four five six seven')).toBe('one two three four\nfive six seven')
    expect(reflow('one\ntwo\nthree')).toBe('one two three')
  })

  it('keeps paragraphs apart, and blank lines around the text as they are', () => {
    expect(reflow('\n\na b\nc\n\nd\ne\n\n')).toBe('\n\na b c\n\nd e\n\n')
  })

  it('keeps comment prefixes on every line', () => {
    expect(reflow('  // alpha beta gamma delta epsilon')).toBe(
      '  // alpha beta\n  // gamma delta\n  // epsilon',
    )
    expect(reflow('# alpha beta gamma delta epsilon')).toBe('# alpha beta gamma\n# delta epsilon')
  })

  it('continues a bullet or a block comment with spaces, from the second line on', () => {
    expect(reflow('- alpha beta gamma delta epsilon')).toBe('- alpha beta gamma\n  delta epsilon')
    expect(reflow('/* alpha beta gamma delta eta */')).toBe('/* alpha beta gamma\n   delta eta */')
  })

  it('gives a word longer than the column a line of its own', () => {
    expect(reflow('a abcdefghijklmnopqrstuvwxyz b', 10)).toBe('a\nabcdefghijklmnopqrstuvwxyz\nb')
  })

  it('leaves LaTeX tags around a paragraph alone', () => {
    expect(reflow('\\begin{quote}\nalpha beta gamma delta epsilon\n\\end{quote}')).toBe(
      '\\begin{quote}\nalpha beta gamma\ndelta epsilon\n\\end{quote}',
    )
  })

  it('keeps every word in order and every line within the column (seeded)', () => {
    for (const seed of seeds(50)) {
      const random = new Random(seed)
      const words = Array.from({ length: random.int(1, 60) }, () => 'x'.repeat(random.int(1, 12)))
      const column = random.int(14, 60)
      const text = words.map((word) => (random.int(0, 5) === 0 ? `${word}\n` : `${word} `)).join('')
      const out = reflowText(text.trim(), { wrapColumn: column, tabLength: 2 })
      expect(out.split(/\s+/), `seed ${seed}`).toEqual(words)
      for (const line of out.split('\n')) {
        expect(line.length <= column || !line.includes(' '), `seed ${seed}: ${line}`).toBe(true)
      }
    }
  })
})

describe('TextEditor.reflowSelection', () => {
  it('reflows the paragraph around the cursor to the preferred line length, as one undo step', () => {
    const text = 'title\n\nalpha beta gamma\ndelta\n\nend'
    const editor = new TextEditor({ text, preferredLineLength: 12 })
    editor.setCursorBufferPosition([2, 3])
    editor.reflowSelection()
    expect(editor.getText()).toBe('title\n\nalpha beta\ngamma delta\n\nend')
    editor.undo()
    expect(editor.getText()).toBe(text)
  })

  it('reflows only the selected rows, keeps CRLF, and does nothing on a blank row', () => {
    const editor = new TextEditor({ text: 'a b\r\nc d\r\n\r\ne', preferredLineLength: 80 })
    editor.setSelectedBufferRange([
      [0, 0],
      [1, 3],
    ])
    editor.reflowSelection()
    expect(editor.getText()).toBe('a b c d\r\n\r\ne')
    editor.setCursorBufferPosition([1, 0])
    editor.reflowSelection()
    expect(editor.getText()).toBe('a b c d\r\n\r\ne')
  })

  it('refuses on a read-only editor unless bypassed', () => {
    const editor = new TextEditor({ text: 'a\nb', readOnly: true })
    editor.reflowSelection()
    expect(editor.getText()).toBe('a\nb')
    editor.reflowSelection({ bypassReadOnly: true })
    expect(editor.getText()).toBe('a b')
  })
})
