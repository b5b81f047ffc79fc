/**
 * The people in a document, as collab names them: the local user it publishes, and the remote
 * peers it shows, read from their awareness states (whose fields `@tandem/protocol` defines).
 */
import type { RemoteUser } from '@tandem/editor'
import type { AwarenessUser } from '@tandem/protocol'

/**
 * Who the local user is, published as the awareness `user` field. `id` tells the user's own
 * other tabs apart from other people; without it, the same name and color do.
 *
 * @example { name: 'Ada', color: '#d33', colorLight: '#d333', id: 'ada@example.org' }
 */
export type CollabUser = AwarenessUser

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
