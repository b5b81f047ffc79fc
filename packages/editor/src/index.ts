/**
 * @tandem/editor: Atom's TextEditor, Cursor and Selection over a Tandem text buffer whose
 * text is a Yjs Y.Text. Cursors, selections and folds are markers anchored by relative
 * positions, so every peer's stay on their text through remote edits.
 *
 * @example
 * import { TextEditor } from '@tandem/editor'
 * const editor = new TextEditor({ text: 'hello world' })
 * editor.getLastCursor().moveToEndOfWord()
 *
 * @module @tandem/editor
 */

export type { SavedUndoHistory, SavedUndoStep } from '@tandem/buffer'
export {
  grammarForFileName,
  type LanguageMode,
  PlainTextMode,
  ScopeDescriptor,
} from '@tandem/language'
export { Point, Range } from '@tandem/text'
export { BracketMatcher, type BracketMatcherOptions } from './bracket-matcher.js'
export {
  BracketPairs,
  bracketPairsForLanguage,
  DEFAULT_BRACKET_PAIRS,
  DEFAULT_PAIRS_WITH_EXTRA_NEWLINE,
} from './bracket-pairs.js'
export { Clipboard, type ClipboardMetadata, type ClipboardStore } from './clipboard.js'
export {
  Cursor,
  type CursorPositionChangeEvent,
  type MoveOptions,
  type WordOptions,
} from './cursor.js'
export { Decoration, type DecorationProperties } from './decorations.js'
export {
  DisplayMarker,
  type DisplayMarkerChangeEvent,
  DisplayMarkerLayer,
  type FindDisplayMarkersParams,
} from './display-marker.js'
export type {
  AutoscrollRequest,
  EditorInsertTextOptions,
  PasteTextOptions,
  TextEditorOptions,
  WillInsertTextEvent,
} from './editor-options.js'
export {
  DEFAULT_MAX_MATCHES,
  EditorSearch,
  type EditorSearchOptions,
  type ReplaceOptions,
} from './editor-search.js'
export { goToLine } from './go-to-line.js'
export { MAX_ROWS_TO_SCAN } from './matching-brackets.js'
export { OccurrenceSelector } from './occurrence-selector.js'
export { type ReflowOptions, reflowText } from './reflow.js'
export { MULTI_LINE_ROWS, type SearchQuery } from './search-query.js'
export { Selection } from './selection.js'
export {
  SelectionBase,
  type SelectionRangeChangeEvent,
  type SetRangeOptions,
} from './selection-base.js'
export { type SelectionChangeOptions, SelectionSet } from './selection-set.js'
export { TextEditor } from './text-editor.js'
export { DEFAULT_NON_WORD_CHARACTERS, subwordRegExp, wordRegExp } from './words.js'
export type { InsertTextOptions, WriteOptions } from './write-options.js'
