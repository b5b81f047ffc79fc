/**
 * The JSON a `@tandem/server` answers on its program change routes (`/api/rooms/<room>/changes`,
 * `changes/<id>/undo`, `agents/<user>/undo`): the shapes both ends agree on. Offsets count
 * UTF-16 units; times are ms since the epoch.
 */

/** A change a program made, as the room's change log lists it. */
export interface ProgramChangeJSON {
  /** The change's id, for its undo. */
  readonly id: string
  /** The program's user, whose change it is. */
  readonly user: string
  /** What the program said the change is, or null. */
  readonly message: string | null
  /** When it was made. */
  readonly time: number
  /** Whether someone undid it. */
  readonly undone: boolean
  /** The user who undid it, or null. */
  readonly undoneBy: string | null
  /** UTF-16 units it inserted. */
  readonly inserted: number
  /** UTF-16 units it deleted. */
  readonly deleted: number
  /** False when its deleted text was too large to keep: an undo cannot put it back. */
  readonly restorable: boolean
}

/** A stretch of a program's text an undo removed. */
export interface RemovedTextJSON {
  /** Where it started, in the text before the undo. */
  readonly from: number
  /** Its characters. */
  readonly text: string
}

/** Text a program deleted that an undo put back. */
export interface RestoredTextJSON {
  /** Where, in the text once the removed stretches are gone. */
  readonly at: number
  /** Its characters. */
  readonly text: string
}

/** What undoing a program's change did, in offsets of the text before the undo. */
export interface UndoneChangeJSON {
  /** The change undone. */
  readonly change: string
  /** The stretches of the change's text deleted: where each started, and its characters. */
  readonly removed: readonly RemovedTextJSON[]
  /** The text put back: where (in the text once `removed` is gone), and its characters. */
  readonly restored: readonly RestoredTextJSON[]
}
