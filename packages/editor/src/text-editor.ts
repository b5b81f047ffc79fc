import { EditorFoldCommands } from './fold-commands.js'

/**
 * Atom's TextEditor over a Tandem text buffer (a Yjs Y.Text): cursors and selections as
 * markers, a display layer for screen coordinates, decorations for views.
 *
 * Its interface is built in layers, each a module with one idea: `EditorBase` (text, screen,
 * settings, language, markers, decorations), `EditorSelections` (Atom's cursor and selection
 * methods over the `SelectionSet`), `EditorCommands` (the per-selection commands, from one
 * table), `EditorEdits` (text changes, clipboard, undo, indentation), `EditorLineCommands`
 * and `EditorFoldCommands`.
 *
 * @example
 * const editor = new TextEditor({ text: 'hello world' })
 * editor.getLastCursor().moveToEndOfWord()
 * editor.getCursorBufferPosition() // => Point(0, 5)
 */
export class TextEditor extends EditorFoldCommands {}
