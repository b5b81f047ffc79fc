/**
 * The same questions asked of the language package in Node and in a browser page, so that a
 * test can compare the answers: TextMate scopes, syntax-tree node types, comments and
 * indentation, for JavaScript and Python, after a local edit.
 */
import { TextBuffer } from '@tandem/buffer'
import { Point } from '@tandem/text'
import { createLanguageMode, isLanguageLoaded, loadLanguage } from '../registry.js'

/** What the probe found; plain data, so it crosses from a page to the test unchanged. */
export interface LanguageProbe {
  readonly loaded: boolean
  readonly templateScopes: string[]
  readonly templateNodes: string[]
  readonly commentRow: boolean | undefined
  readonly codeRow: boolean | undefined
  readonly indentAfterBrace: number | undefined
  readonly pythonScopes: string[]
  readonly pythonNodes: string[]
  readonly nodesAfterEdit: string[]
}

/**
 * Loads JavaScript and Python and asks each language mode about a few positions.
 *
 * @example const answers = await probeLanguages()
 */
export const probeLanguages = async (): Promise<LanguageProbe> => {
  await Promise.all([loadLanguage('javascript'), loadLanguage('python')])
  // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source text
  const script = new TextBuffer({ text: 'const s = `a${b}`\n// note\nif (x) {\nrun()' })
  const javascript = createLanguageMode('javascript', script)
  const python = createLanguageMode('python', new TextBuffer({ text: 'def f():\n    return "s"' }))
  const at = new Point(0, 14)
  const answers = {
    loaded: isLanguageLoaded('javascript') && isLanguageLoaded('python'),
    templateScopes: javascript.scopeDescriptorForPosition(at).getScopesArray(),
    templateNodes: javascript.syntaxTreeScopeDescriptorForPosition(at).getScopesArray(),
    commentRow: javascript.isRowCommented(1),
    codeRow: javascript.isRowCommented(2),
    indentAfterBrace: javascript.suggestedIndentForBufferRow(3, 2, {}),
    pythonScopes: python.scopeDescriptorForPosition(new Point(1, 12)).getScopesArray(),
    pythonNodes: python.syntaxTreeScopeDescriptorForPosition(new Point(1, 12)).getScopesArray(),
  }
  script.insert([2, 8], '\n  f(`x`)')
  const nodesAfterEdit = javascript.syntaxTreeScopeDescriptorForPosition(new Point(3, 5))
  return { ...answers, nodesAfterEdit: nodesAfterEdit.getScopesArray() }
}
