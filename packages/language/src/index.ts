export {
  type AssetLocator,
  installedAssetPath,
  loadAsset,
  type PackageAsset,
  setAssetLocator,
} from './assets.js'
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
export { createLanguageMode, isLanguageLoaded, loadLanguage } from './registry.js'
export { ScopeDescriptor } from './scope-descriptor.js'
export { SyntaxTree, type SyntaxTreeReparseEvent } from './syntax-tree.js'
export {
  type TextMateToken,
  TextMateTokenizer,
  type TextMateTokenizerOptions,
  type TokenizedRows,
} from './textmate.js'
export { loadOniguruma, loadTextMateGrammar, type TextMateGrammar } from './textmate-grammar.js'
export {
  initTreeSitter,
  loadTreeSitterLanguage,
  TREE_SITTER_GRAMMARS,
  type TreeSitterLanguageId,
} from './tree-sitter-languages.js'
