/**
 * @tandem/collab: the other people in a document. `connect` syncs an editor's Y.Text with a
 * y-websocket server; each editor publishes its selections through Yjs awareness, and
 * `RemoteCursors` shows every other peer's carets and selections, in their colors, as
 * markers and decorations that stay on their text while everyone types.
 *
 * @module @tandem/collab
 */
export {
  AUTH_CLOSE_CODES,
  type AwarenessSelection,
  type IdJSON,
  MAX_REMOTE_SELECTIONS,
  type RelativePositionJSON,
  type RelativeSelection,
  readSelections,
  readUser,
  relativePositionFromJSON,
  relativePositionToJSON,
} from '@tandem/protocol'
export {
  AuthError,
  type AuthFailure,
  ConnectError,
  type ConnectFailure,
} from './auth-failure.js'
export {
  type AwarenessBinding,
  type BindAwarenessOptions,
  bindAwareness,
} from './bind-awareness.js'
export {
  type CollabConnection,
  type ConnectionStatus,
  type ConnectOptions,
  connect,
  type WebSocketClass,
} from './connect.js'
export {
  type CollabUser,
  isSameUser,
  type RemoteCursor,
  type RemoteUser,
} from './peers.js'
export { REMOTE_CARET_CLASS, REMOTE_SELECTION_CLASS, RemoteCursors } from './remote-cursors.js'
export {
  type PublishTiming,
  SelectionPublisher,
  type SelectionPublisherOptions,
} from './selection-publisher.js'
export type { UndoHistoryOptions } from './undo-sync.js'
