/**
 * Atom's editor-wide commands that run one Cursor or Selection operation at every cursor or
 * selection, from one table. Each entry says how its operation is spread:
 *
 * - `move`: at every cursor, in one held transaction; cursors that meet merge;
 * - `forward` / `backward`: at every selection in one `SelectionSet.change` scope; selections
 *   that meet merge into forward (or reversed) ones;
 * - `edit`: at every selection in buffer order, as one transaction and one undo step, after the
 *   one read-only check; then selections that met merge.
 *
 * Every command checks its argument the same way: a count must be a number, options an object.
 */
import type { Cursor, MoveOptions } from './cursor.js'
import { EditorSelections } from './editor-selections.js'
import type { Selection } from './selection.js'
import type { WriteOptions } from './write-options.js'

type Spread = 'move' | 'forward' | 'backward' | 'edit'

/** One table entry: how the operation spreads, what its argument is, and the operation. */
interface CommandEntry<A> {
  readonly spread: Spread
  /** `count`: an optional number of rows or columns; `options`: an optional object. */
  readonly argument: 'count' | 'options' | 'none'
  /** The name a refused edit reports (`onDidAttemptReadOnlyEdit`). */
  readonly operation?: string
  readonly run: (selection: Selection, argument: A) => void
}

const EDGE: MoveOptions = { moveToEndOfSelection: true }

const move = (run: (cursor: Cursor) => void): CommandEntry<undefined> => ({
  spread: 'move',
  argument: 'none',
  run: (selection) => run(selection.cursor),
})

const moveBy = (
  run: (cursor: Cursor, count: number | undefined) => void,
): CommandEntry<number | undefined> => ({
  spread: 'move',
  argument: 'count',
  run: (selection, count) => run(selection.cursor, count),
})

const extend = (
  spread: 'forward' | 'backward',
  run: (selection: Selection) => void,
): CommandEntry<undefined> => ({ spread, argument: 'none', run })

const extendBy = (
  spread: 'forward' | 'backward',
  run: (selection: Selection, count: number | undefined) => void,
): CommandEntry<number | undefined> => ({ spread, argument: 'count', run })

const edit = (
  operation: string,
  run: (selection: Selection, options: WriteOptions | undefined) => void,
): CommandEntry<WriteOptions | undefined> => ({
  spread: 'edit',
  argument: 'options',
  operation,
  run,
})

/** The commands, by the name they have on the editor. */
export const SELECTION_COMMANDS = {
  /** Moves every cursor up (from a selection's start). */
  moveUp: moveBy((cursor, rowCount) => cursor.moveUp(rowCount, EDGE)),
  /** Moves every cursor down (from a selection's end). */
  moveDown: moveBy((cursor, rowCount) => cursor.moveDown(rowCount, EDGE)),
  /** Moves every cursor left (to a selection's start). */
  moveLeft: moveBy((cursor, columnCount) => cursor.moveLeft(columnCount, EDGE)),
  /** Moves every cursor right (to a selection's end). */
  moveRight: moveBy((cursor, columnCount) => cursor.moveRight(columnCount, EDGE)),
  /** `Cursor.moveToBeginningOfLine` at every cursor. */
  moveToBeginningOfLine: move((cursor) => cursor.moveToBeginningOfLine()),
  /** `Cursor.moveToBeginningOfScreenLine` at every cursor. */
  moveToBeginningOfScreenLine: move((cursor) => cursor.moveToBeginningOfScreenLine()),
  /** `Cursor.moveToFirstCharacterOfLine` at every cursor. */
  moveToFirstCharacterOfLine: move((cursor) => cursor.moveToFirstCharacterOfLine()),
  /** `Cursor.moveToEndOfLine` at every cursor. */
  moveToEndOfLine: move((cursor) => cursor.moveToEndOfLine()),
  /** `Cursor.moveToEndOfScreenLine` at every cursor. */
  moveToEndOfScreenLine: move((cursor) => cursor.moveToEndOfScreenLine()),
  /** `Cursor.moveToBeginningOfWord` at every cursor. */
  moveToBeginningOfWord: move((cursor) => cursor.moveToBeginningOfWord()),
  /** `Cursor.moveToEndOfWord` at every cursor. */
  moveToEndOfWord: move((cursor) => cursor.moveToEndOfWord()),
  /** `Cursor.moveToTop` at every cursor. */
  moveToTop: move((cursor) => cursor.moveToTop()),
  /** `Cursor.moveToBottom` at every cursor. */
  moveToBottom: move((cursor) => cursor.moveToBottom()),
  /** `Cursor.moveToBeginningOfNextWord` at every cursor. */
  moveToBeginningOfNextWord: move((cursor) => cursor.moveToBeginningOfNextWord()),
  /** `Cursor.moveToPreviousWordBoundary` at every cursor. */
  moveToPreviousWordBoundary: move((cursor) => cursor.moveToPreviousWordBoundary()),
  /** `Cursor.moveToNextWordBoundary` at every cursor. */
  moveToNextWordBoundary: move((cursor) => cursor.moveToNextWordBoundary()),
  /** `Cursor.moveToPreviousSubwordBoundary` at every cursor. */
  moveToPreviousSubwordBoundary: move((cursor) => cursor.moveToPreviousSubwordBoundary()),
  /** `Cursor.moveToNextSubwordBoundary` at every cursor. */
  moveToNextSubwordBoundary: move((cursor) => cursor.moveToNextSubwordBoundary()),
  /** `Cursor.moveToBeginningOfNextParagraph` at every cursor. */
  moveToBeginningOfNextParagraph: move((cursor) => cursor.moveToBeginningOfNextParagraph()),
  /** `Cursor.moveToBeginningOfPreviousParagraph` at every cursor. */
  moveToBeginningOfPreviousParagraph: move((cursor) => cursor.moveToBeginningOfPreviousParagraph()),

  /** `Selection.selectUp` at every selection; those that meet merge into reversed ones. */
  selectUp: extendBy('backward', (selection, rowCount) => selection.selectUp(rowCount)),
  /** `Selection.selectLeft` at every selection; those that meet merge into reversed ones. */
  selectLeft: extendBy('backward', (selection, columnCount) => selection.selectLeft(columnCount)),
  /** `Selection.selectDown` at every selection; those that meet merge. */
  selectDown: extendBy('forward', (selection, rowCount) => selection.selectDown(rowCount)),
  /** `Selection.selectRight` at every selection; those that meet merge. */
  selectRight: extendBy('forward', (selection, columnCount) => selection.selectRight(columnCount)),
  /** `Selection.selectToTop` at every selection; those that meet merge into reversed ones. */
  selectToTop: extend('backward', (selection) => selection.selectToTop()),
  /** `Selection.selectToBeginningOfLine` at every selection (merging into reversed ones). */
  selectToBeginningOfLine: extend('backward', (selection) => selection.selectToBeginningOfLine()),
  /** `Selection.selectToFirstCharacterOfLine` at every selection (merging into reversed ones). */
  selectToFirstCharacterOfLine: extend('backward', (selection) =>
    selection.selectToFirstCharacterOfLine(),
  ),
  /** `Selection.selectToBeginningOfWord` at every selection (merging into reversed ones). */
  selectToBeginningOfWord: extend('backward', (selection) => selection.selectToBeginningOfWord()),
  /** `Selection.selectToPreviousSubwordBoundary` at every selection (merging into reversed ones). */
  selectToPreviousSubwordBoundary: extend('backward', (selection) =>
    selection.selectToPreviousSubwordBoundary(),
  ),
  /** `Selection.selectToPreviousWordBoundary` at every selection (merging into reversed ones). */
  selectToPreviousWordBoundary: extend('backward', (selection) =>
    selection.selectToPreviousWordBoundary(),
  ),
  /** `Selection.selectToBeginningOfPreviousParagraph` at every selection (merging into reversed ones). */
  selectToBeginningOfPreviousParagraph: extend('backward', (selection) =>
    selection.selectToBeginningOfPreviousParagraph(),
  ),
  /** `Selection.selectToBottom` at every selection; those that meet merge. */
  selectToBottom: extend('forward', (selection) => selection.selectToBottom()),
  /** `Selection.selectToEndOfLine` at every selection; those that meet merge. */
  selectToEndOfLine: extend('forward', (selection) => selection.selectToEndOfLine()),
  /** `Selection.selectToEndOfWord` at every selection; those that meet merge. */
  selectToEndOfWord: extend('forward', (selection) => selection.selectToEndOfWord()),
  /** `Selection.selectToNextSubwordBoundary` at every selection; those that meet merge. */
  selectToNextSubwordBoundary: extend('forward', (selection) =>
    selection.selectToNextSubwordBoundary(),
  ),
  /** `Selection.selectToNextWordBoundary` at every selection; those that meet merge. */
  selectToNextWordBoundary: extend('forward', (selection) => selection.selectToNextWordBoundary()),
  /** `Selection.selectToBeginningOfNextWord` at every selection; those that meet merge. */
  selectToBeginningOfNextWord: extend('forward', (selection) =>
    selection.selectToBeginningOfNextWord(),
  ),
  /** `Selection.selectToBeginningOfNextParagraph` at every selection; those that meet merge. */
  selectToBeginningOfNextParagraph: extend('forward', (selection) =>
    selection.selectToBeginningOfNextParagraph(),
  ),
  /** Selects the whole rows of every selection. */
  selectLinesContainingCursors: extend('forward', (selection) => selection.selectLine()),
  /** Selects the word under every cursor. */
  selectWordsContainingCursors: extend('forward', (selection) => selection.selectWord()),

  /** Deletes each selection, or the character after each cursor. */
  delete: edit('delete', (selection, options) => selection.delete(options)),
  /** Deletes each selection, or the character before each cursor. */
  backspace: edit('backspace', (selection, options) => selection.backspace(options)),
  /** `Selection.deleteToBeginningOfWord` at every selection. */
  deleteToBeginningOfWord: edit('deleteToBeginningOfWord', (selection, options) =>
    selection.deleteToBeginningOfWord(options),
  ),
  /** `Selection.deleteToPreviousWordBoundary` at every selection. */
  deleteToPreviousWordBoundary: edit('deleteToPreviousWordBoundary', (selection, options) =>
    selection.deleteToPreviousWordBoundary(options),
  ),
  /** `Selection.deleteToNextWordBoundary` at every selection. */
  deleteToNextWordBoundary: edit('deleteToNextWordBoundary', (selection, options) =>
    selection.deleteToNextWordBoundary(options),
  ),
  /** `Selection.deleteToBeginningOfSubword` at every selection. */
  deleteToBeginningOfSubword: edit('deleteToBeginningOfSubword', (selection, options) =>
    selection.deleteToBeginningOfSubword(options),
  ),
  /** `Selection.deleteToEndOfSubword` at every selection. */
  deleteToEndOfSubword: edit('deleteToEndOfSubword', (selection, options) =>
    selection.deleteToEndOfSubword(options),
  ),
  /** `Selection.deleteToBeginningOfLine` at every selection. */
  deleteToBeginningOfLine: edit('deleteToBeginningOfLine', (selection, options) =>
    selection.deleteToBeginningOfLine(options),
  ),
  /** `Selection.deleteToEndOfLine` at every selection. */
  deleteToEndOfLine: edit('deleteToEndOfLine', (selection, options) =>
    selection.deleteToEndOfLine(options),
  ),
  /** `Selection.deleteToEndOfWord` at every selection. */
  deleteToEndOfWord: edit('deleteToEndOfWord', (selection, options) =>
    selection.deleteToEndOfWord(options),
  ),
  /** `Selection.joinLines` at every selection. */
  joinLines: edit('joinLines', (selection, options) => selection.joinLines(options)),
  /** `Selection.indentSelectedRows` at every selection. */
  indentSelectedRows: edit('indentSelectedRows', (selection, options) =>
    selection.indentSelectedRows(options),
  ),
  /** `Selection.outdentSelectedRows` at every selection. */
  outdentSelectedRows: edit('outdentSelectedRows', (selection, options) =>
    selection.outdentSelectedRows(options),
  ),
  /** `Selection.autoIndentSelectedRows` at every selection. */
  autoIndentSelectedRows: edit('autoIndentSelectedRows', (selection, options) =>
    selection.autoIndentSelectedRows(options),
  ),
  /** `Selection.toggleLineComments` at every selection. */
  toggleLineCommentsInSelection: edit('toggleLineComments', (selection, options) =>
    selection.toggleLineComments(options),
  ),
} satisfies Record<string, CommandEntry<never>>

type Table = typeof SELECTION_COMMANDS

/** The editor method an entry makes: no argument, an optional count, or optional options. */
type MethodOf<Entry> =
  Entry extends CommandEntry<infer A>
    ? [A] extends [undefined]
      ? () => void
      : [A] extends [number | undefined]
        ? (count?: number) => void
        : (options?: WriteOptions) => void
    : never

/** The editor's methods made from `SELECTION_COMMANDS`. */
export type SelectionCommandMethods = { [Name in keyof Table]: MethodOf<Table[Name]> }

/**
 * The editor layer of the table's commands, and of `mutateSelectedText`, which the `edit`
 * commands and the editor's other text changes share.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the table's methods are made on the prototype below the class, from the table itself.
export class EditorCommands extends EditorSelections {
  /** Runs `fn` on every selection in buffer order as one transaction, then merges. */
  mutateSelectedText<T>(fn: (selection: Selection, index: number) => T, groupingInterval = 0): T[] {
    return (
      this.selectionSet.change(() =>
        this.buffer.transact(groupingInterval, () =>
          this.getSelectionsOrderedByBufferPosition().map((selection, index) =>
            fn(selection, index),
          ),
        ),
      ) ?? []
    )
  }

  /** @internal Runs a table entry at every cursor or selection. */
  protected runSelectionCommand(
    name: string,
    entry: CommandEntry<unknown>,
    argument: unknown,
  ): void {
    checkArgument(name, entry, argument)
    switch (entry.spread) {
      case 'move':
        this.selectionSet.moveCursors((cursor) => entry.run(cursor.selection!, argument))
        return
      case 'forward':
      case 'backward':
        this.selectionSet.change(
          () => {
            for (const selection of this.getSelections()) entry.run(selection, argument)
          },
          { reversed: entry.spread === 'backward' },
        )
        return
      case 'edit':
        if (!this.context.mayEdit(entry.operation ?? name, argument as WriteOptions | undefined)) {
          return
        }
        this.mutateSelectedText((selection) => entry.run(selection, argument))
    }
  }
}

export interface EditorCommands extends SelectionCommandMethods {}

for (const [name, entry] of Object.entries(SELECTION_COMMANDS) as [
  string,
  CommandEntry<unknown>,
][]) {
  Object.defineProperty(EditorCommands.prototype, name, {
    configurable: true,
    writable: true,
    value: function (this: EditorCommands, argument?: unknown) {
      this.runSelectionCommand(name, entry, argument)
    },
  })
}

/** The one argument check of the table's commands. */
function checkArgument(name: string, entry: CommandEntry<unknown>, argument: unknown): void {
  if (argument === undefined) return
  if (entry.argument === 'count') {
    if (typeof argument !== 'number' || Number.isNaN(argument)) {
      throw new TypeError(`${name}: the count must be a number, got ${String(argument)}`)
    }
  } else if (entry.argument === 'options') {
    if (argument !== null && typeof argument !== 'object') {
      throw new TypeError(`${name}: options must be an object, got ${String(argument)}`)
    }
  }
}
