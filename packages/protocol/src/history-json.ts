/**
 * The JSON a `@tandem/server` answers on its history routes (`/api/rooms/<room>/authors`,
 * `versions`, `diff`, …): the shapes both ends agree on. Offsets count UTF-16 units; times
 * are ms since the epoch, kept to the minute.
 */

/** A stretch of the text as it reads now, written by one user at one time. */
export interface AuthorRunJSON {
  /** Offset of its first character. */
  readonly from: number
  /** Offset after its last character. */
  readonly to: number
  /** Who inserted it; null for text stored before the server kept authors. */
  readonly user: string | null
  /** When; null with `user`. */
  readonly time: number | null
  /** Who accepted it, when it was a program's proposal a person accepted; else null. */
  readonly acceptedBy: string | null
}

/** A version of a room, as listed. */
export interface VersionJSON {
  /** The server's id for it. */
  readonly id: string
  /** `auto` (made by the server) or `named` (saved by a user). */
  readonly kind: 'auto' | 'named'
  /** The name a user gave it; null for an automatic version. */
  readonly name: string | null
  /** When it was made. */
  readonly time: number
  /** Who changed the text since the version before it. */
  readonly authors: readonly string[]
  /** Its text's length. */
  readonly length: number
  /** The bytes the server keeps for it. */
  readonly bytes: number
}

/** A version with its text. */
export interface OpenedVersionJSON extends VersionJSON {
  /** The text as it was. */
  readonly text: string
}

/** A stretch of a diff: text both sides have, or text one side has, with who did it. */
export interface DiffRunJSON {
  /** `same` on both sides, `inserted` only on the later, `deleted` only on the earlier. */
  readonly kind: 'same' | 'inserted' | 'deleted'
  /** Its characters. */
  readonly text: string
  /** Who inserted or deleted it; null for `same`, or when unknown. */
  readonly user: string | null
  /** When; null with `user`. */
  readonly time: number | null
  /** For an insertion from a program's proposal, who accepted it; else null. */
  readonly acceptedBy: string | null
}

/** One change from one text to another: replace `from` to `to` of the first with `insert`. */
export interface TextChangeJSON {
  /** Where the replaced text starts, in the first text. */
  readonly from: number
  /** Where it ends (equal to `from` for an insertion). */
  readonly to: number
  /** What replaces it (empty for a deletion). */
  readonly insert: string
}

/** What changed between two versions (or a version and now). */
export interface VersionDiffJSON {
  /** The text in document order, kept, inserted and deleted stretches. */
  readonly runs: readonly DiffRunJSON[]
  /** The changes from the first text to the second, offsets in the first. */
  readonly changes: readonly TextChangeJSON[]
}
