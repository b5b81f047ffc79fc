/**
 * Moving and deleting by whole grapheme clusters, as a reader sees characters. The model
 * moves by UTF-16 units and never splits a surrogate pair or a combining mark from its base
 * (Atom's rule); the view also steps over emoji sequences joined by zero-width joiners, skin
 * tones and flags, so a caret never stands inside what shows as one character.
 */
import type { Selection, TextEditor } from '@tandem/editor'
import { Point, Range } from '@tandem/text'
import { graphemeEnd, graphemeStart } from './graphemes.js'

/** Which way a command went: the side of a cluster its heads are moved to. */
export type Direction = 'backward' | 'forward'

/**
 * Moves every selection head that stands inside a grapheme cluster of its screen row to the
 * cluster's edge in `direction`: the end of the step a one-unit move began. Extends the
 * selection when `select` is true, else moves the cursor.
 *
 * @example editor.moveRight(); snapHeadsToClusters(editor, 'forward', false)
 */
export const snapHeadsToClusters = (
  editor: TextEditor,
  direction: Direction,
  select: boolean,
): void => {
  let moved = false
  for (const selection of editor.getSelections()) {
    const head = selection.getHeadScreenPosition()
    const text = editor.lineTextForScreenRow(head.row) ?? ''
    const column =
      direction === 'backward' ? graphemeStart(text, head.column) : graphemeEnd(text, head.column)
    if (column === head.column) continue
    moved = true
    const target = new Point(head.row, column)
    if (select) selection.selectToScreenPosition(target)
    else selection.cursor.setScreenPosition(target)
  }
  if (!moved) return
  if (select) editor.mergeIntersectingSelections()
  else editor.mergeCursors()
}

/**
 * The buffer range one backspace (`backward`) or delete (`forward`) removes from an empty
 * selection when the grapheme cluster next to it is longer than what the model removes,
 * or null to leave it to the model.
 */
const clusterToDelete = (
  editor: TextEditor,
  selection: Selection,
  direction: Direction,
): Range | null => {
  if (!selection.isEmpty()) return null
  const at = selection.getBufferRange().start
  const line = editor.lineTextForBufferRow(at.row) ?? ''
  if (direction === 'backward') {
    if (at.column === 0) return null
    const start = graphemeStart(line, at.column - 1)
    return at.column - start > 1 ? new Range(new Point(at.row, start), at) : null
  }
  if (at.column >= line.length) return null
  const end = graphemeEnd(line, at.column + 1)
  return end - at.column > 1 ? new Range(at, new Point(at.row, end)) : null
}

/**
 * Backspace or delete that removes a whole grapheme cluster next to each empty selection
 * (one undo step, restoring the carets where they were).
 *
 * @example deleteClusters(editor, 'backward') // 'a👨‍👩‍👧|' => 'a|'
 */
export const deleteClusters = (editor: TextEditor, direction: Direction): void => {
  editor.transact(() => {
    for (const selection of editor.getSelections()) {
      const range = clusterToDelete(editor, selection, direction)
      if (range !== null) selection.setBufferRange(range, { autoscroll: false })
    }
    if (direction === 'backward') editor.backspace()
    else editor.delete()
  })
}
