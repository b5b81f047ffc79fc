/**
 * The editor package's find, select-next, go-to-line and bracket-matching models, as the view
 * uses them. They are looked up on the package at run time, so a view built against an editor
 * without one of them still works, with that feature left out.
 */

import type { DisplayMarkerLayer, TextEditor } from '@tandem/editor'
import * as editorPackage from '@tandem/editor'
import type { Disposable, Point, Range } from '@tandem/text'

/** What to search for: the text, and whether it is a regular expression and how it matches. */
export interface SearchQuery {
  readonly text: string
  readonly regex?: boolean
  readonly caseSensitive?: boolean
  readonly wholeWord?: boolean
  readonly inSelection?: boolean
}

/** The editor's search: its matches as markers, moving through them, replacing them. */
export interface EditorSearchModel {
  search(query: SearchQuery): Promise<void>
  getQuery(): SearchQuery | undefined
  getError(): string | undefined
  readonly markerLayer: DisplayMarkerLayer
  getMatchCount(): number
  getCurrentMatchIndex(): number
  findNext(): Range | undefined
  findPrevious(): Range | undefined
  replaceNext(replacement: string): Range | undefined
  replaceAll(replacement: string): number
  selectAllMatches(): void
  onDidUpdate(callback: () => void): Disposable
  cancel(): void
  destroy(): void
}

/** Adding the next occurrence of the selected word to the selections, and undoing that. */
export interface OccurrenceSelectorModel {
  selectNext(): void
  skipCurrent(): void
  undoLast(): void
  selectAll(): void
}

/** The bracket pair at the cursor, moving and selecting by it, and closing brackets as typed. */
export interface BracketMatcherModel {
  matchingBracketRanges(): readonly [Range, Range] | undefined
  onDidChangeMatch(callback: () => void): Disposable
  goToMatchingBracket(): void
  selectInsideBrackets(): void
  removeBrackets(): void
  backspace(): boolean
  newline(): boolean
  destroy(): void
}

interface EditorFeatures {
  EditorSearch?: new (editor: TextEditor) => EditorSearchModel
  OccurrenceSelector?: new (editor: TextEditor) => OccurrenceSelectorModel
  BracketMatcher?: new (
    editor: TextEditor,
    options?: { autoClose?: boolean },
  ) => BracketMatcherModel
  goToLine?: (editor: TextEditor, input: string) => Point | undefined
}

const features = editorPackage as unknown as EditorFeatures

/** A search over `editor`, or null when the editor package has none. */
export const createSearch = (editor: TextEditor): EditorSearchModel | null =>
  features.EditorSearch === undefined ? null : new features.EditorSearch(editor)

/** A select-next model over `editor`, or null when the editor package has none. */
export const createOccurrenceSelector = (editor: TextEditor): OccurrenceSelectorModel | null =>
  features.OccurrenceSelector === undefined ? null : new features.OccurrenceSelector(editor)

/** A bracket matcher over `editor`, or null when the editor package has none. */
export const createBracketMatcher = (
  editor: TextEditor,
  autoClose: boolean,
): BracketMatcherModel | null =>
  features.BracketMatcher === undefined ? null : new features.BracketMatcher(editor, { autoClose })

/**
 * Moves the cursor to `input` (`row`, `row:column`, 1-based) through the editor package's
 * go-to-line; the point it went to, or undefined.
 */
export const goToLine = (editor: TextEditor, input: string): Point | undefined =>
  features.goToLine?.(editor, input)
