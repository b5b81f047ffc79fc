import type { TextBuffer } from '@tandem/buffer'
import { GrammarLanguageMode } from './grammar-mode.js'
import type { LanguageMode } from './language-mode.js'
import { languageSettings } from './languages.js'
import { PLAIN_TEXT, PlainTextMode } from './plain-text-mode.js'

/**
 * The language mode for language `id` (`plaintext` for plain text) over `buffer`, made at
 * once. Its parsers are attached as soon as the language is loaded (see `loadLanguage`),
 * which is at once when it already is.
 *
 * @example const mode = createLanguageMode('javascript', buffer)
 */
export const createLanguageMode = (id: string, buffer: TextBuffer): LanguageMode => {
  if (id === PLAIN_TEXT) return new PlainTextMode(buffer)
  return new GrammarLanguageMode(buffer, languageSettings(id))
}
