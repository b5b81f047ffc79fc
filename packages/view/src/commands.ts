/**
 * The commands key bindings name, each a call on the editor's Atom API, as Atom's
 * `text-editor-registry` defines them. The view adds what only it knows: rows per page, and
 * grapheme clusters (moving left or right and deleting step over a whole cluster).
 */
import type { TextEditor } from '@tandem/editor'
import { deleteClusters, snapHeadsToClusters } from './cluster-moves.js'

/** What a command can use: the editor, and the view's page size in rows. */
export interface CommandContext {
  /** The editor the command acts on. */
  readonly editor: TextEditor
  /** How many rows the view shows at once, for page up and down. */
  rowsPerPage(): number
}

/** A command: runs on the context; returning false means "not handled" (the key goes on). */
export type Command = (context: CommandContext) => boolean | undefined

const on =
  (fn: (editor: TextEditor) => unknown): Command =>
  ({ editor }) => {
    fn(editor)
    return true
  }

/** `editor:fold-at-indent-level-1` .. `-9`: Atom's level N folds at indent level N - 1. */
const foldAtIndentLevels = Object.fromEntries(
  Array.from({ length: 9 }, (_, i) => [
    `editor:fold-at-indent-level-${i + 1}`,
    on((e) => e.foldAllAtIndentLevel(i)),
  ]),
)

/**
 * Every command by name.
 *
 * @example EDITOR_COMMANDS['editor:join-lines']!({ editor, rowsPerPage: () => 20 })
 */
export const EDITOR_COMMANDS: Readonly<Record<string, Command>> = Object.freeze({
  'core:move-up': on((e) => e.moveUp()),
  'core:move-down': on((e) => e.moveDown()),
  'core:move-left': on((e) => {
    e.moveLeft()
    snapHeadsToClusters(e, 'backward', false)
  }),
  'core:move-right': on((e) => {
    e.moveRight()
    snapHeadsToClusters(e, 'forward', false)
  }),
  'core:page-up': (c) => on((e) => e.moveUp(c.rowsPerPage()))(c),
  'core:page-down': (c) => on((e) => e.moveDown(c.rowsPerPage()))(c),
  'core:select-page-up': (c) => on((e) => e.selectUp(c.rowsPerPage()))(c),
  'core:select-page-down': (c) => on((e) => e.selectDown(c.rowsPerPage()))(c),
  'core:move-to-top': on((e) => e.moveToTop()),
  'core:move-to-bottom': on((e) => e.moveToBottom()),
  'core:select-up': on((e) => e.selectUp()),
  'core:select-down': on((e) => e.selectDown()),
  'core:select-left': on((e) => {
    e.selectLeft()
    snapHeadsToClusters(e, 'backward', true)
  }),
  'core:select-right': on((e) => {
    e.selectRight()
    snapHeadsToClusters(e, 'forward', true)
  }),
  'core:select-to-top': on((e) => e.selectToTop()),
  'core:select-to-bottom': on((e) => e.selectToBottom()),
  'core:select-all': on((e) => e.selectAll()),
  'core:backspace': on((e) => deleteClusters(e, 'backward')),
  'core:delete': on((e) => deleteClusters(e, 'forward')),
  'core:undo': on((e) => e.undo()),
  'core:redo': on((e) => e.redo()),
  'core:copy': on((e) => e.copySelectedText()),
  'core:cut': on((e) => e.cutSelectedText()),
  'core:paste': on((e) => e.pasteText()),
  'editor:move-to-first-character-of-line': on((e) => e.moveToFirstCharacterOfLine()),
  'editor:move-to-beginning-of-line': on((e) => e.moveToBeginningOfLine()),
  'editor:move-to-beginning-of-screen-line': on((e) => e.moveToBeginningOfScreenLine()),
  'editor:move-to-end-of-line': on((e) => e.moveToEndOfLine()),
  'editor:move-to-end-of-screen-line': on((e) => e.moveToEndOfScreenLine()),
  'editor:move-to-beginning-of-word': on((e) => e.moveToBeginningOfWord()),
  'editor:move-to-end-of-word': on((e) => e.moveToEndOfWord()),
  'editor:move-to-beginning-of-next-word': on((e) => e.moveToBeginningOfNextWord()),
  'editor:move-to-previous-word-boundary': on((e) => e.moveToPreviousWordBoundary()),
  'editor:move-to-next-word-boundary': on((e) => e.moveToNextWordBoundary()),
  'editor:move-to-previous-subword-boundary': on((e) => e.moveToPreviousSubwordBoundary()),
  'editor:move-to-next-subword-boundary': on((e) => e.moveToNextSubwordBoundary()),
  'editor:move-to-beginning-of-next-paragraph': on((e) => e.moveToBeginningOfNextParagraph()),
  'editor:move-to-beginning-of-previous-paragraph': on((e) =>
    e.moveToBeginningOfPreviousParagraph(),
  ),
  'editor:select-to-first-character-of-line': on((e) => e.selectToFirstCharacterOfLine()),
  'editor:select-to-beginning-of-line': on((e) => e.selectToBeginningOfLine()),
  'editor:select-to-end-of-line': on((e) => e.selectToEndOfLine()),
  'editor:select-to-beginning-of-word': on((e) => e.selectToBeginningOfWord()),
  'editor:select-to-end-of-word': on((e) => e.selectToEndOfWord()),
  'editor:select-to-beginning-of-next-word': on((e) => e.selectToBeginningOfNextWord()),
  'editor:select-to-previous-word-boundary': on((e) => e.selectToPreviousWordBoundary()),
  'editor:select-to-next-word-boundary': on((e) => e.selectToNextWordBoundary()),
  'editor:select-to-previous-subword-boundary': on((e) => e.selectToPreviousSubwordBoundary()),
  'editor:select-to-next-subword-boundary': on((e) => e.selectToNextSubwordBoundary()),
  'editor:select-to-beginning-of-next-paragraph': on((e) => e.selectToBeginningOfNextParagraph()),
  'editor:select-to-beginning-of-previous-paragraph': on((e) =>
    e.selectToBeginningOfPreviousParagraph(),
  ),
  'editor:select-line': on((e) => e.selectLinesContainingCursors()),
  'editor:select-word': on((e) => e.selectWordsContainingCursors()),
  'editor:add-selection-below': on((e) =>
    e.expandSelectionsForward((selection) => selection.addSelectionBelow()),
  ),
  'editor:add-selection-above': on((e) =>
    e.expandSelectionsBackward((selection) => selection.addSelectionAbove()),
  ),
  // As Atom: with one selection, the key goes on (to whatever else handles escape).
  'editor:consolidate-selections': ({ editor }) => editor.consolidateSelections(),
  'editor:newline': on((e) => e.insertNewline()),
  'editor:newline-below': on((e) => e.insertNewlineBelow()),
  'editor:newline-above': on((e) => e.insertNewlineAbove()),
  'editor:move-line-up': on((e) => e.moveLineUp()),
  'editor:move-line-down': on((e) => e.moveLineDown()),
  'editor:move-selection-left': on((e) => e.moveSelectionLeft()),
  'editor:move-selection-right': on((e) => e.moveSelectionRight()),
  'editor:duplicate-lines': on((e) => e.duplicateLines()),
  'editor:transpose': on((e) => e.transpose()),
  'editor:upper-case': on((e) => e.upperCase()),
  'editor:lower-case': on((e) => e.lowerCase()),
  'editor:split-selections-into-lines': on((e) => e.splitSelectionsIntoLines()),
  'autoflow:reflow-selection': on((e) => e.reflowSelection()),
  'editor:indent': on((e) => e.indent()),
  'editor:indent-selected-rows': on((e) => e.indentSelectedRows()),
  'editor:outdent-selected-rows': on((e) => e.outdentSelectedRows()),
  'editor:auto-indent': on((e) => e.autoIndentSelectedRows()),
  'editor:toggle-line-comments': on((e) => e.toggleLineCommentsInSelection()),
  'editor:delete-to-beginning-of-word': on((e) => e.deleteToBeginningOfWord()),
  'editor:delete-to-end-of-word': on((e) => e.deleteToEndOfWord()),
  'editor:delete-to-previous-word-boundary': on((e) => e.deleteToPreviousWordBoundary()),
  'editor:delete-to-next-word-boundary': on((e) => e.deleteToNextWordBoundary()),
  'editor:delete-to-beginning-of-subword': on((e) => e.deleteToBeginningOfSubword()),
  'editor:delete-to-end-of-subword': on((e) => e.deleteToEndOfSubword()),
  'editor:delete-to-beginning-of-line': on((e) => e.deleteToBeginningOfLine()),
  'editor:delete-to-end-of-line': on((e) => e.deleteToEndOfLine()),
  'editor:delete-line': on((e) => e.deleteLine()),
  'editor:join-lines': on((e) => e.joinLines()),
  'editor:cut-to-end-of-line': on((e) => e.cutToEndOfLine()),
  'editor:cut-to-end-of-buffer-line': on((e) => e.cutToEndOfBufferLine()),
  'editor:toggle-soft-tabs': on((e) => e.setSoftTabs(!e.getSoftTabs())),
  'editor:scroll-to-cursor': on((e) =>
    e.scrollToScreenPosition(e.getCursorScreenPosition(), { center: true }),
  ),
  'editor:fold-selection': on((e) => e.foldSelectedLines()),
  'editor:fold-current-row': on((e) => e.foldCurrentRow()),
  'editor:unfold-current-row': on((e) => e.unfoldCurrentRow()),
  'editor:fold-all': on((e) => e.foldAll()),
  'editor:unfold-all': on((e) => e.unfoldAll()),
  // Tandem's: folds or unfolds at the cursor's row, as a click on a fold's gutter marker does.
  'editor:toggle-fold': on((e) => e.toggleFoldAtBufferRow(e.getCursorBufferPosition().row)),
  ...foldAtIndentLevels,
  'editor:toggle-soft-wrap': on((e) => e.toggleSoftWrapped()),
})
