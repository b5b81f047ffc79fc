export { type AssetLocator, loadAsset, type PackageAsset, setAssetLocator } from './assets.js'
export { GrammarLanguageMode, type ScopeSource, type SyntaxSource } from './grammar-mode.js'
export { type CommentStrings, indentLevelForLine, type LanguageMode } from './language-mode.js'
export {
  type CommentTokens,
  grammarForFileName,
  LANGUAGES,
  type LanguageSettings,
  languageSettings,
} from './languages.js'
export { PLAIN_TEXT, PlainTextMode } from './plain-text-mode.js'
export { createLanguageMode } from './registry.js'
export { ScopeDescriptor } from './scope-descriptor.js'
