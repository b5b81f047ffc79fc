/**
 * Logging a change a program makes over HTTP, in the three moments that see what it needs:
 * before the change is applied (the text it deletes, which the room's document will not keep),
 * after (where its selection is), and once stored (the ids it inserted, from its update).
 *
 * @module
 */
import type * as Y from 'yjs'
import { idsOfUpdate } from '../history/update-ids.js'
import type { Room } from '../room.js'
import type { DeletedText } from './change-log.js'
import { type ChangeNotes, resolveSelection } from './change-notes.js'
import type { ShownSelection } from './program-presence.js'
import type { ServerPrograms } from './server-programs.js'
import { deletedBy } from './undo-change.js'

/** The moments of one change, in order; see `recordProgramChange`. */
export interface ChangeRecorder {
  /**
   * The changes (sorted offsets of `text` as it is) are about to be applied; `content` is the
   * text's content, when read already.
   */
  before(
    text: Y.Text,
    changes: readonly { readonly from: number; readonly to: number }[],
    content?: string,
  ): void
  /** They were applied to `text`. */
  after(text: Y.Text): void
  /**
   * The change's `update` is stored: logs it, shows the program's presence; resolves with
   * the change's id in the log (null when it changed nothing).
   */
  done(update: Uint8Array): Promise<string | null>
}

/**
 * A recorder for one change `user` makes in `room` with `notes`.
 *
 * @example const record = recordProgramChange(programs, room, 'bot', notes)
 */
export const recordProgramChange = (
  programs: ServerPrograms,
  room: Room,
  user: string,
  notes: ChangeNotes,
): ChangeRecorder => {
  let deleted: DeletedText[] = []
  let selection: ShownSelection | null = null
  return {
    before(text, changes, content) {
      deleted = deletedBy(text, changes, content)
    },
    after(text) {
      if (notes.selection !== null) selection = resolveSelection(text, notes.selection)
    },
    async done(update) {
      const { inserted } = idsOfUpdate(update)
      const change =
        inserted.size === 0 && deleted.length === 0
          ? null
          : programs.log.record(room.name, { user, message: notes.message, inserted, deleted })
      await programs.presences.show(room.name, user, selection, notes)
      // Answered once stored, so that a person on any server process can undo it at once.
      if (change !== null) await programs.saved(change.id)
      return change?.id ?? null
    },
  }
}
