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
  type AuthorRunJSON,
  type AwarenessSelection,
  type AwarenessViewport,
  type DiffRunJSON,
  type IdJSON,
  MAX_REMOTE_SELECTIONS,
  MAX_VIEWPORT_JSON_LENGTH,
  type OpenedVersionJSON,
  type RelativePositionJSON,
  type RelativeSelection,
  type RelativeViewport,
  readFollowing,
  readSelections,
  readUser,
  readViewport,
  relativePositionFromJSON,
  relativePositionToJSON,
  type TextChangeJSON,
  type VersionDiffJSON,
  type VersionJSON,
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
  type AuthorSpan,
  DocumentHistory,
  type DocumentHistoryOptions,
  HistoryError,
} from './document-history.js'
export {
  type FollowingChangeEvent,
  type FollowStopReason,
  type FollowViewport,
  PeerFollowing,
} from './following.js'
export {
  type CollabUser,
  isSameUser,
  type RemoteCursor,
  type RemoteUser,
} from './peers.js'
export { ProgramChanges, type ProgramChangesOptions } from './program-changes.js'
export {
  DocumentProposals,
  type DocumentProposalsOptions,
  type LiveProposal,
  type LiveProposalChange,
  ProposalError,
  type ProposedChange,
} from './proposals.js'
export { REMOTE_CARET_CLASS, REMOTE_SELECTION_CLASS, RemoteCursors } from './remote-cursors.js'
export {
  type PublishTiming,
  SelectionPublisher,
  type SelectionPublisherOptions,
} from './selection-publisher.js'
export { textChanges } from './text-changes.js'
export type { UndoHistoryOptions } from './undo-sync.js'
export type { SavedStatus } from './unsaved-updates.js'
