/** The options of text changes at a selection, and the clipboard's pieces. */

/** Options every text-changing operation takes. */
export interface WriteOptions {
  /** Change the text even when the editor is read-only (default false). */
  bypassReadOnly?: boolean
}

/** Options of `Selection.insertText` and `TextEditor.insertText`. */
export interface InsertTextOptions extends WriteOptions {
  /** Select the inserted text. */
  select?: boolean
  /** Indent the inserted lines as the language suggests. */
  autoIndent?: boolean
  /** Indent the new line after an inserted newline. */
  autoIndentNewline?: boolean
  /** Outdent the row when the inserted text closes a block. */
  autoDecreaseIndent?: boolean
  /** Keep the indentation of the lines after the first as they are (pasting). */
  preserveTrailingLineIndentation?: boolean
  /** Turn line endings into the buffer's (default true). */
  normalizeLineEndings?: boolean
  /** `'skip'`: fold this change into the previous undo step. */
  undo?: 'skip'
  /** The indent level the text was copied at (pasting). */
  indentBasis?: number | null
  /** Scroll to the selection afterwards (default: when it is the last one). */
  autoscroll?: boolean
}

/** One piece of a multi-selection copy, as stored in the clipboard metadata. */
export interface ClipboardPiece {
  text: string
  indentBasis?: number
  fullLine?: boolean
}
