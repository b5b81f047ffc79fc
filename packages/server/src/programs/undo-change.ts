/**
 * Undoing a program's change as a new change by a person: the characters the change inserted
 * that are still there are deleted (text others typed inside or around them stays), and the
 * text it deleted is put back where it was, found by the relative position kept for it, so
 * others' edits since then move it as they should. It is a forward change like any other:
 * stored, attributed to the person, relayed, and undoable with the person's own undo.
 *
 * @module
 */
import type { UndoneChangeJSON } from '@tandem/protocol'
import * as Y from 'yjs'
import { visibleTextOfIds } from '../history/yjs-items.js'
import type { Room } from '../room.js'
import type { LoggedChange } from './change-log.js'

/** What an undo did, in offsets of the text before it (the JSON the undo routes answer). */
export type UndoneChange = UndoneChangeJSON

/**
 * Undoes `change` in `room` as a change by `user` (see the module's comment).
 *
 * @example await undoChange(room, change, 'ada') // => { change, removed: [...], restored: [...] }
 */
export const undoChange = async (
  room: Room,
  change: LoggedChange,
  user: string,
): Promise<UndoneChange> => {
  let removed: { from: number; text: string }[] = []
  const restored: { at: number; text: string }[] = []
  await room.change(user, (text) => {
    removed = visibleTextOfIds(text, change.inserted)
    // Last to first, so that each stretch's offset still holds.
    for (const { from, text: chars } of [...removed].reverse()) text.delete(from, chars.length)
    for (const { text: chars, at } of change.deleted) {
      const position = Y.createAbsolutePositionFromRelativePosition(at, text.doc!)
      if (position === null || position.type !== text) continue
      text.insert(position.index, chars)
      restored.push({ at: position.index, text: chars })
    }
  })
  return { change: change.id, removed, restored }
}

/**
 * The text `changes` (offsets of `text` as it is, sorted, not overlapping) are about to
 * delete, each with a relative position at its first character: read before they are applied.
 *
 * @example deletedBy(text, [{ from: 2, to: 5 }]) // => [{ text: 'llo', at }]
 */
export const deletedBy = (
  text: Y.Text,
  changes: readonly { readonly from: number; readonly to: number }[],
  content: string = text.toString(),
): { text: string; at: Y.RelativePosition }[] => {
  return changes
    .filter(({ from, to }) => to > from)
    .map(({ from, to }) => ({
      text: content.slice(from, to),
      // assoc 0: the position is the first deleted character itself, kept as deleted.
      at: Y.createRelativePositionFromTypeIndex(text, from, 0),
    }))
}
