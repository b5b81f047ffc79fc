import { TextBuffer } from '@tandem/buffer'
import { Point } from '@tandem/text'
import { describe, expect, it } from 'vitest'
import { GrammarLanguageMode } from './grammar-mode.js'
import { grammarForFileName, LANGUAGES, languageSettings } from './languages.js'
import { PlainTextMode } from './plain-text-mode.js'
import { createLanguageMode, loadLanguage } from './registry.js'

describe('languages', () => {
  it('are chosen by file name, longest ending first, ignoring directories and case', () => {
    expect(grammarForFileName('src/app.ts')).toBe('typescript')
    expect(grammarForFileName('C:\\work\\View.TSX')).toBe('tsx')
    expect(grammarForFileName('index.mjs')).toBe('javascript')
    expect(grammarForFileName('setup.py')).toBe('python')
    expect(grammarForFileName('package.json')).toBe('json')
    expect(grammarForFileName('README.md')).toBe('markdown')
    expect(grammarForFileName('site.css')).toBe('css')
    expect(grammarForFileName('index.html')).toBe('html')
    expect(grammarForFileName('.babelrc')).toBe('json')
    expect(grammarForFileName('cmd/main.go')).toBe('go')
    expect(grammarForFileName('notes.txt')).toBeNull()
    expect(grammarForFileName('Makefile')).toBeNull()
  })

  it('have lower-case ids and one TextMate grammar each', () => {
    for (const language of LANGUAGES) {
      expect(language.id).toBe(language.id.toLowerCase())
      expect(language.textMateGrammar).not.toBe('')
    }
    expect(() => languageSettings('cobol')).toThrow(/unknown language "cobol"; known: javascript/)
  })

  it('make plain text or grammar modes by id', () => {
    const buffer = new TextBuffer({ text: 'x' })
    expect(createLanguageMode('plaintext', buffer)).toBeInstanceOf(PlainTextMode)
    const mode = createLanguageMode('python', buffer)
    expect(mode).toBeInstanceOf(GrammarLanguageMode)
    expect(mode.id).toBe('python')
    expect(() => createLanguageMode('nope', buffer)).toThrow(RangeError)
  })
})

describe('GrammarLanguageMode from settings alone', () => {
  const modeFor = (id: string, text: string) =>
    new GrammarLanguageMode(new TextBuffer({ text }), languageSettings(id))

  it('gives line comments where the language has them, else block comments', () => {
    expect(modeFor('javascript', '').commentStringsForPosition()).toEqual({
      commentStartString: '// ',
    })
    expect(modeFor('python', '').commentStringsForPosition()).toEqual({ commentStartString: '# ' })
    expect(modeFor('css', '').commentStringsForPosition()).toEqual({
      commentStartString: '/* ',
      commentEndString: ' */',
    })
    expect(modeFor('html', '').commentStringsForPosition()).toEqual({
      commentStartString: '<!-- ',
      commentEndString: ' -->',
    })
    expect(modeFor('json', '').commentStringsForPosition()).toEqual({})
  })

  it('indents after an opening bracket and outdents a closing one', () => {
    const mode = modeFor('javascript', 'if (a) {\n\n  x()\n}\nconst list = [\n1')
    expect(mode.suggestedIndentForBufferRow(1, 2)).toBe(1)
    expect(mode.suggestedIndentForBufferRow(3, 2)).toBe(0)
    // A tree-sitter language answers for the row as it stands (the line given is not parsed);
    // a TextMate-only one for the line given.
    expect(mode.suggestedIndentForLineAtBufferRow(1, '}', 2)).toBe(1)
    expect(mode.suggestedIndentForLineAtBufferRow(3, 'x', 2)).toBe(0)
    const css = modeFor('css', 'a {\n\n}')
    expect(css.suggestedIndentForLineAtBufferRow(1, '}', 2)).toBe(0)
    expect(mode.suggestedIndentForBufferRow(5, 2)).toBe(1)
    // The blank row 1 is skipped unless asked not to.
    expect(mode.suggestedIndentForBufferRow(2, 2)).toBe(1)
    expect(mode.suggestedIndentForBufferRow(2, 2, { skipBlankLines: false })).toBe(0)
  })

  it('indents Python after a block header, and outdents else', () => {
    const mode = modeFor('python', 'def f(x):\n    if x:  # note\n        pass\n    else:')
    expect(mode.suggestedIndentForBufferRow(1, 4)).toBe(1)
    expect(mode.suggestedIndentForBufferRow(2, 4)).toBe(2)
    expect(mode.suggestedIndentForBufferRow(3, 4)).toBe(1)
  })

  it('indents Go labels at their switch, and the statements under them', () => {
    const mode = modeFor('go', 'switch x {\ncase 1:\n\tf()\ncase 2:\n\tg()\n}')
    expect(mode.suggestedIndentForBufferRow(1, 4)).toBe(0)
    expect(mode.suggestedIndentForBufferRow(2, 4)).toBe(1)
    expect(mode.suggestedIndentForBufferRow(3, 4)).toBe(0)
    expect(mode.suggestedIndentForBufferRow(5, 4)).toBe(0)
  })

  it('outdents an edited row only below the row above, and keeps the level of one that does not close', () => {
    const mode = modeFor('javascript', 'f(() => {\n    x\n    }\n  ]')
    expect(mode.suggestedIndentForEditedBufferRow(2, 2)).toBe(1)
    // A tree-sitter language answers the row's own level, so the editor rewrites its
    // indentation in its own unit, as Atom's tree-sitter modes do.
    expect(mode.suggestedIndentForEditedBufferRow(1, 2)).toBe(2)
    expect(mode.suggestedIndentForEditedBufferRow(0, 2)).toBeUndefined()
  })

  it('uses the language non-word characters and its root scope before parsers load', () => {
    const mode = modeFor('javascript', '$foo')
    expect(mode.getNonWordCharacters()).not.toContain('$')
    expect(mode.scopeDescriptorForPosition(new Point(0, 1)).getScopesArray()).toEqual(['source.js'])
    expect(mode.syntaxTreeScopeDescriptorForPosition(new Point(0, 1)).getScopesArray()).toEqual([
      'source.js',
    ])
    expect(mode.isRowCommented(0)).toBeUndefined()
    expect(mode.hasScopes()).toBe(false)
  })
})

describe('Go', () => {
  it('loads its grammar and finds comment rows from its scopes', async () => {
    await loadLanguage('go')
    const mode = createLanguageMode('go', new TextBuffer({ text: '// Package x.\npackage x' }))
    expect(mode.isRowCommented(0)).toBe(true)
    expect(mode.isRowCommented(1)).toBe(false)
    expect(mode.scopeDescriptorForPosition(new Point(1, 0)).getScopesArray()[0]).toBe('source.go')
  })
})
