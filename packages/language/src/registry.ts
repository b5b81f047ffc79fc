import type { TextBuffer } from '@tandem/buffer'
import { GrammarLanguageMode } from './grammar-mode.js'
import type { LanguageMode } from './language-mode.js'
import { type LanguageSettings, languageSettings } from './languages.js'
import { PLAIN_TEXT, PlainTextMode } from './plain-text-mode.js'
import type { TreeSitterLanguage as Language } from './syntax-node.js'
import { SyntaxTree } from './syntax-tree.js'
import { TextMateTokenizer } from './textmate.js'
import { loadTextMateGrammar, type TextMateGrammar } from './textmate-grammar.js'
import { SyntaxFolds } from './tree-sitter-folds.js'
import { loadTreeSitterLanguage } from './tree-sitter-languages.js'

/** A language's parsers, loaded. */
interface LoadedGrammars {
  readonly textMate: TextMateGrammar
  readonly treeSitter: Language | null
}

const loads = new Map<string, Promise<LoadedGrammars>>()
const loaded = new Map<string, LoadedGrammars>()

/**
 * Loads language `id`'s TextMate grammar and, where it has one, its tree-sitter grammar
 * (their `.wasm` files and grammar files, once per process). Editors made for the language
 * before it finished loading start using them when it does; editors made after use them at
 * once. A failure rejects naming the language and is forgotten, so a later call tries again.
 *
 * @example await loadLanguage('javascript'); new TextEditor({ grammar: 'javascript' })
 */
export const loadLanguage = (id: string): Promise<void> => {
  if (id === PLAIN_TEXT) return Promise.resolve()
  return loadGrammars(languageSettings(id)).then(() => undefined)
}

/** Whether `loadLanguage(id)` has finished (plain text always has). */
export const isLanguageLoaded = (id: string): boolean => id === PLAIN_TEXT || loaded.has(id)

/**
 * The language mode for language `id` (`plaintext` for plain text) over `buffer`, made at
 * once. Its parsers are attached as soon as the language is loaded (see `loadLanguage`),
 * which is at once when it already is; until then it answers from the language's settings.
 * An unknown id throws a RangeError.
 *
 * @example const mode = createLanguageMode('javascript', buffer)
 */
export const createLanguageMode = (id: string, buffer: TextBuffer): LanguageMode => {
  if (id === PLAIN_TEXT) return new PlainTextMode(buffer)
  const settings = languageSettings(id)
  const mode = new GrammarLanguageMode(buffer, settings)
  const grammars = loaded.get(id)
  if (grammars !== undefined) {
    attachParsers(mode, buffer, grammars)
  } else {
    loadGrammars(settings).then(
      (ready) => attachParsers(mode, buffer, ready),
      (error: unknown) => mode.didFailToLoad(error),
    )
  }
  return mode
}

const attachParsers = (
  mode: GrammarLanguageMode,
  buffer: TextBuffer,
  grammars: LoadedGrammars,
): void => {
  if (mode.isDestroyed() || buffer.isDestroyed()) return
  const syntax = grammars.treeSitter === null ? null : new SyntaxTree(grammars.treeSitter, buffer)
  const { foldQuery } = mode.settings
  mode.attach({
    scopes: new TextMateTokenizer(grammars.textMate, buffer),
    syntax,
    folds: syntax === null || foldQuery === undefined ? null : new SyntaxFolds(syntax, foldQuery),
  })
}

const loadGrammars = (settings: LanguageSettings): Promise<LoadedGrammars> => {
  let load = loads.get(settings.id)
  if (load === undefined) {
    load = Promise.all([
      loadTextMateGrammar(settings.textMateGrammar),
      settings.treeSitter === undefined ? null : loadTreeSitterLanguage(settings.treeSitter),
    ]).then(
      ([textMate, treeSitter]) => {
        const grammars = { textMate, treeSitter }
        loaded.set(settings.id, grammars)
        return grammars
      },
      (error: unknown) => {
        loads.delete(settings.id)
        const reason = error instanceof Error ? error.message : String(error)
        throw new Error(`cannot load language ${settings.id}: ${reason}`, { cause: error })
      },
    )
    loads.set(settings.id, load)
  }
  return load
}
