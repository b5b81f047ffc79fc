export { AUTH_CLOSE_CODES, AuthError, type AuthFailure } from './auth-failure.js'
export {
  type AwarenessSelection,
  type CollabUser,
  isSameUser,
  MAX_REMOTE_SELECTIONS,
  type RelativeSelection,
  readSelections,
  readUser,
} from './awareness-fields.js'
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
  type IdJSON,
  type RelativePositionJSON,
  relativePositionFromJSON,
  relativePositionToJSON,
} from './relative-json.js'
export { REMOTE_CARET_CLASS, REMOTE_SELECTION_CLASS, RemoteCursors } from './remote-cursors.js'
export {
  type PublishTiming,
  SelectionPublisher,
  type SelectionPublisherOptions,
} from './selection-publisher.js'
