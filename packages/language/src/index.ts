/**
 * @tandem/language: what an editor needs to know about the language of its text. A
 * `LanguageMode` answers the scopes at a position (TextMate grammars), the syntax tree around
 * it (tree-sitter), how to comment a row, how deep to indent one and which characters end a
 * word; plain text is the default mode.
 *
 * @module @tandem/language
 */
export {
  type AssetLocator,
  installedAssetPath,
  loadAsset,
  type PackageAsset,
  setAssetLocator,
} from './assets.js'
export {
  type FoldSource,
  GrammarLanguageMode,
  type ScopeSource,
  type SyntaxSource,
} from './grammar-mode.js'
export { type IndentFoldRules, IndentFolds } from './indent-folds.js'
export {
  ATOM_DEFAULT_INDENTATION,
  detectIndentation,
  type IndentationGuess,
  MAX_DETECTION_ROWS,
  MAX_INDENT_STEP,
  resolveIndentation,
} from './indentation.js'
export { type CommentStrings, indentLevelForLine, type LanguageMode } from './language-mode.js'
export {
  type CommentTokens,
  grammarForFileName,
  type IndentationSettings,
  LANGUAGES,
  type LanguageSettings,
  languageSettings,
} from './languages.js'
export { PLAIN_TEXT, PlainTextMode } from './plain-text-mode.js'
export { createLanguageMode, isLanguageLoaded, loadLanguage } from './registry.js'
export { ScopeDescriptor } from './scope-descriptor.js'
export type {
  ParsedSyntaxTree,
  SyntaxNode,
  SyntaxPoint,
  TreeSitterLanguage,
} from './syntax-node.js'
export { SyntaxTree, type SyntaxTreeReparseEvent } from './syntax-tree.js'
export {
  type TextMateToken,
  TextMateTokenizer,
  type TextMateTokenizerOptions,
  type TokenizedRows,
} from './textmate.js'
export { loadOniguruma, loadTextMateGrammar, type TextMateGrammar } from './textmate-grammar.js'
export { SyntaxFolds } from './tree-sitter-folds.js'
export {
  initTreeSitter,
  loadTreeSitterLanguage,
  TREE_SITTER_GRAMMARS,
  type TreeSitterLanguageId,
} from './tree-sitter-languages.js'
