import { type GrammarLanguageMode, loadLanguage } from '@tandem/language'
import { describe, expect, it } from 'vitest'
import { TextEditor } from './text-editor.js'

const toggle = (grammar: string, text: string, range: [[number, number], [number, number]]) => {
  const editor = new TextEditor({ text, grammar })
  editor.setSelectedBufferRange(range)
  editor.getLastSelection().toggleLineComments()
  return editor
}

describe('TextEditor languages', () => {
  it('starts in plain text, takes a grammar by id and reports the change', () => {
    const editor = new TextEditor({ text: 'x' })
    expect(editor.getGrammar()).toBe('plaintext')
    const changes: string[] = []
    editor.onDidChangeGrammar((id) => changes.push(id))
    editor.setGrammar('python')
    editor.setGrammar('python')
    expect(editor.getGrammar()).toBe('python')
    expect(() => editor.setGrammar('klingon')).toThrow(RangeError)
    expect(editor.getGrammar()).toBe('python')
    expect(changes).toEqual(['python'])
    expect(new TextEditor({ grammar: 'javascript' }).getGrammar()).toBe('javascript')
  })

  it('comments JavaScript rows at their smallest indentation, and blank rows too', () => {
    const editor = toggle('javascript', 'if (a) {\n    b()\n\n  c()\n}', [
      [1, 0],
      [3, 1],
    ])
    expect(editor.getText()).toBe('if (a) {\n  //   b()\n  // \n  // c()\n}')
    editor.getLastSelection().toggleLineComments()
    expect(editor.getText()).toBe('if (a) {\n    b()\n  \n  c()\n}')
  })

  it('moves a caret at the comment column after the token, as typing there would', () => {
    const editor = new TextEditor({ text: 'a\nb', grammar: 'javascript' })
    editor.getLastSelection().toggleLineComments()
    expect(editor.getText()).toBe('// a\nb')
    expect(editor.getCursorBufferPosition().toArray()).toEqual([0, 3])
  })

  it('comments Python with #, and uncomments only when every non-blank row is a comment', () => {
    const editor = toggle('python', '# done\nx = 1', [
      [0, 0],
      [1, 5],
    ])
    expect(editor.getText()).toBe('# # done\n# x = 1')
    editor.getLastSelection().toggleLineComments()
    expect(editor.getText()).toBe('# done\nx = 1')
  })

  it('wraps CSS and HTML rows in a block comment and unwraps them', () => {
    const css = toggle('css', 'a {\n  color: red;\n}', [
      [0, 0],
      [2, 1],
    ])
    expect(css.getText()).toBe('/* a {\n  color: red;\n} */')
    expect(css.getSelectedBufferRange().toString()).toBe('[(0, 3) - (2, 1)]')
    css.getLastSelection().toggleLineComments()
    expect(css.getText()).toBe('a {\n  color: red;\n}')

    const html = toggle('html', '  <p>hi</p>', [
      [0, 2],
      [0, 11],
    ])
    expect(html.getText()).toBe('  <!-- <p>hi</p> -->')
    expect(html.getSelectedBufferRange().toString()).toBe('[(0, 7) - (0, 16)]')
  })

  it('leaves JSON alone: it has no comments', () => {
    const editor = toggle('json', '{"a": 1}', [
      [0, 0],
      [0, 3],
    ])
    expect(editor.getText()).toBe('{"a": 1}')
  })

  it('auto-indents a new line after an opening brace and outdents the closing one', () => {
    const editor = new TextEditor({ text: 'function f() {', grammar: 'javascript' })
    editor.setCursorBufferPosition([0, 14])
    editor.insertText('\n', { autoIndent: true })
    editor.insertText('x()\n}', { autoIndent: true, autoDecreaseIndent: true })
    expect(editor.getText()).toBe('function f() {\n  x()\n}')
  })
})

describe('TextEditor with loaded grammars', () => {
  it('gives TextMate scopes and syntax-tree node types at cursors', async () => {
    await loadLanguage('javascript')
    const editor = new TextEditor({
      // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source with a template string
      text: 'const s = `a${b}`\n// note\nlet $x = 1',
      grammar: 'javascript',
    })
    editor.setCursorBufferPosition([0, 14])
    const cursor = editor.getLastCursor()
    expect(cursor.getScopeDescriptor().getScopesArray()).toContain('meta.template.expression.js')
    expect(cursor.getSyntaxTreeScopeDescriptor().getScopesArray()).toEqual([
      'source.js',
      'program',
      'lexical_declaration',
      'variable_declarator',
      'template_string',
      'template_substitution',
      'identifier',
    ])
    expect(editor.getLanguageMode().isRowCommented(1)).toBe(true)
    expect(editor.getLanguageMode().isRowCommented(2)).toBe(false)
    // `$` belongs to words in JavaScript.
    editor.setCursorBufferPosition([2, 4])
    expect(editor.getLastCursor().getCurrentWordBufferRange().toString()).toBe('[(2, 4) - (2, 6)]')
  })

  it('starts answering from the grammar once a language that was loading has loaded', async () => {
    // No other test here uses TSX, so it is still loading when the editor is made.
    const editor = new TextEditor({ text: '// hi\nlet x = <a/>', grammar: 'tsx' })
    const mode = editor.getLanguageMode() as GrammarLanguageMode
    expect(mode.hasScopes()).toBe(false)
    expect(mode.isRowCommented(0)).toBeUndefined()
    const loaded = new Promise<void>((resolve) => mode.onDidChangeHighlighting(resolve))
    await loadLanguage('tsx')
    await loaded
    expect(mode.hasScopes()).toBe(true)
    expect(editor.scopeDescriptorForBufferPosition([0, 3]).getScopesArray()[1]).toMatch(/^comment/)
    expect(editor.syntaxTreeScopeDescriptorForBufferPosition([1, 9]).getScopesArray()).toContain(
      'jsx_self_closing_element',
    )
    // Paragraphs end at comment rows.
    expect(editor.getLastCursor().getCurrentParagraphBufferRange()?.toString()).toBe(
      '[(0, 0) - (0, 5)]',
    )
  })
})
