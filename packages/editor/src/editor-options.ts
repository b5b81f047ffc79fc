/** The options and events of a `TextEditor`, and the check of its numeric and text options. */
import type { TextBuffer } from '@tandem/buffer'
import type { LanguageMode } from '@tandem/language'
import type { Range } from '@tandem/text'
import type * as Y from 'yjs'
import type { Clipboard } from './clipboard.js'
import type { InsertTextOptions } from './write-options.js'

/** Options of `new TextEditor`; each absent one takes Atom's default. */
export interface TextEditorOptions {
  /** Initial text (for a new document, or one whose text is empty). */
  text?: string
  /** A Yjs document to share with other peers (default: a new one). */
  doc?: Y.Doc
  /** Name of the Y.Text in `doc` (default `'text'`). */
  textName?: string
  /** A buffer to edit (several editors may share one); overrides text/doc/textName. */
  buffer?: TextBuffer
  /** Columns per tab stop (default: detected from the text, see `detectIndentation`). */
  tabLength?: number
  /** Indent with spaces (default: detected from the text, see `detectIndentation`). */
  softTabs?: boolean
  /**
   * Detect `softTabs` and `tabLength` when they are not given: from the text when the editor
   * is made, on `setText`, and when an empty document first arrives from a peer; the
   * language's default when no row is indented (default true). False keeps Atom's defaults,
   * two-column soft tabs.
   */
  detectIndentation?: boolean
  /** Leading spaces move and clip in whole tab lengths (default true). */
  atomicSoftTabs?: boolean
  /** Soft-wrap long lines (default false). */
  softWrapped?: boolean
  /** Width of the editor in characters, for soft wrap. */
  editorWidthInChars?: number
  /** The preferred line length (default 80). */
  preferredLineLength?: number
  /** Wrap at the smaller of the width and the preferred line length (default false). */
  softWrapAtPreferredLineLength?: boolean
  /** Extra indentation of wrapped rows (default 0). */
  softWrapHangingIndentLength?: number
  /** Where lines wrap when soft wrap is off (default 500, as Atom). */
  maxScreenLineLength?: number
  /** Refuse text changes not passed `bypassReadOnly` (default false). */
  readOnly?: boolean
  /** Indent new lines automatically (default true). */
  autoIndent?: boolean
  /** Re-indent pasted lines to where they land (default true, as Atom's `autoIndentOnPaste`). */
  autoIndentOnPaste?: boolean
  /** Milliseconds within which typing groups into one undo step (default 300). */
  undoGroupingInterval?: number
  /** Characters that end words (default Atom's `editor.nonWordCharacters`). */
  nonWordCharacters?: string
  /** The clipboard for copy, cut and paste (default: a new in-memory one). */
  clipboard?: Clipboard
  /**
   * The language by id (`javascript`, `python`, ...; see `grammarForFileName`), default
   * plain text. Its parsers start working once `loadLanguage(id)` has loaded them.
   */
  grammar?: string
  /** A language mode of the application's own (wins over `grammar`). */
  languageMode?: LanguageMode
}

/** Payload of `onDidRequestAutoscroll`: what a view should scroll into sight. */
export interface AutoscrollRequest {
  /** The range to bring into sight, in screen coordinates. */
  screenRange: Range
  /** How to scroll it into sight. */
  options: {
    /** Clip the range to the text first (Atom's option; views may ignore it). */
    clip?: boolean
    /** The head is at the start: bring the start into sight first. */
    reversed?: boolean
    /** Center the head vertically instead of scrolling as little as possible. */
    center?: boolean
  }
}

/** The events an editor emits itself (selections emit theirs through the `SelectionSet`). */
export interface EditorEvents {
  'did-request-autoscroll': AutoscrollRequest
  'did-change-soft-wrapped': boolean
  'did-change-grammar': string
  'did-destroy': undefined
  'will-insert-text': WillInsertTextEvent
  'did-insert-text': { text: string; range: Range }
  'did-attempt-read-only-edit': { operation: string }
}

/** The character shown for a fold. */
export const FOLD_PLACEHOLDER = '\uFEFF'

/** Throws a TypeError naming `name` when an option is given but is not a `kind`. */
export const checkOption = (
  value: unknown,
  name: string,
  kind: 'number' | 'boolean' | 'string',
) => {
  if (
    value !== undefined &&
    (typeof value !== kind || (kind === 'number' && Number.isNaN(value)))
  ) {
    throw new TypeError(`${name} must be a ${kind}, got ${String(value)}`)
  }
}

/** Payload of `onWillInsertText`: `cancel()` stops the insertion. */
export interface WillInsertTextEvent {
  /** The text about to be inserted at every selection. */
  text: string
  /**
   * The call inserting it: `insertText` (typing goes through it, as do programs) or
   * `pasteText`. Listeners that react to typing only, as bracket completion does, skip pastes.
   */
  readonly source: 'insertText' | 'pasteText'
  /** The options the call was given. */
  readonly options: Readonly<EditorInsertTextOptions>
  /** Stops the insertion: no selection changes. */
  cancel(): void
}

/** Options of `TextEditor.insertText`. */
export interface EditorInsertTextOptions extends InsertTextOptions {
  /** Group with the previous typing into one undo step (within the grouping interval). */
  groupUndo?: boolean
}

/** Options of `TextEditor.pasteText`. */
export interface PasteTextOptions extends InsertTextOptions {}
