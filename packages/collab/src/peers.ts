/**
 * The people in a document, as collab names them: the local user it publishes, and the remote
 * peers it shows, read from their awareness states (whose fields `@tandem/protocol` defines).
 */
import type { AwarenessUser } from '@tandem/protocol'
import type { Range } from '@tandem/text'

/**
 * Who the local user is, published as the awareness `user` field. `id` tells the user's own
 * other tabs apart from other people; without it, the same name and color do.
 *
 * @example { name: 'Ada', color: '#d33', colorLight: '#d333', id: 'ada@example.org' }
 */
export type CollabUser = AwarenessUser

/**
 * Who a remote peer is, as its awareness says (read with `readUser`): a name and colors,
 * maybe an id.
 *
 * @example { name: 'Ada', color: '#d33' }
 */
export type RemoteUser = AwarenessUser

/**
 * Another peer as an editor shows it: its awareness client id, its user (`name`, `color`,
 * `colorLight`), whether it is this user in another tab or window, and its selections in
 * this editor's buffer (the last one is its primary selection; an empty range is a caret).
 *
 * @example { clientId: 42, user: { name: 'Ada', color: '#d33' }, ownTab: false, selections: [...] }
 */
export interface RemoteCursor {
  /** The peer's Yjs awareness client id. */
  readonly clientId: number
  /** Who the peer is. */
  readonly user: RemoteUser
  /** True when it is this user in another tab or window. */
  readonly ownTab: boolean
  /** Its selections in this buffer; the last is its primary one, and an empty range is a caret. */
  readonly selections: ReadonlyArray<{
    /** The selected range, in buffer coordinates. */
    readonly range: Range
    /** Whether its caret is at the start. */
    readonly reversed: boolean
  }>
}

/**
 * Whether `remote` is the same person as `local`: the same `id` when the local user has one,
 * else the same name and color.
 *
 * @example isSameUser({ name: 'Ada', color: '#d33' }, { name: 'Ada', color: '#d33' }) // => true
 */
export const isSameUser = (local: CollabUser, remote: RemoteUser): boolean =>
  local.id !== undefined
    ? remote.id === local.id
    : remote.name === local.name && remote.color === local.color
