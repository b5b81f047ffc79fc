/**
 * @tandem/protocol: what Tandem adds to the y-websocket wire protocol, in one place for both
 * ends (`@tandem/collab` and `@tandem/server`): the message types, the session and token
 * messages, the codes and reasons of refused access, the awareness fields (`user`, `cursor`,
 * `selections`, `viewport`, `following`) with the readers and checks of untrusted awareness states, and the limits
 * both ends apply. Pure functions over lib0's encoders and decoders.
 *
 * @module @tandem/protocol
 */
export {
  AUTH_CLOSE_CODES,
  AuthCloseCode,
  OTHER_USER_REASON,
  permissionDeniedMessage,
  READ_ONLY_REASON,
  TOKEN_EXPIRED_REASON,
  UPGRADE_PROBE_ACCEPT,
} from './access.js'
export {
  type AwarenessFields,
  type AwarenessSelection,
  type AwarenessUser,
  isUserColor,
  MAX_REMOTE_SELECTIONS,
  MAX_USER_ID_LENGTH,
  type RelativeSelection,
  readSelections,
  readUser,
  readUserId,
  usableUserId,
} from './awareness-fields.js'
export {
  type AwarenessEntry,
  type AwarenessLimits,
  AwarenessRefusal,
  encodeAwarenessEntries,
  jsonDepth,
  readAwarenessUpdate,
} from './awareness-update.js'
export type {
  AuthorRunJSON,
  DiffRunJSON,
  OpenedVersionJSON,
  TextChangeJSON,
  VersionDiffJSON,
  VersionJSON,
} from './history-json.js'
export { MessageType, messageTypeOf } from './message-type.js'
export type {
  ProgramChangeJSON,
  RemovedTextJSON,
  RestoredTextJSON,
  UndoneChangeJSON,
} from './program-changes-json.js'
export {
  applyResolvedChanges,
  isProposalId,
  MAX_PROPOSAL_CHANGES,
  MAX_PROPOSAL_ID_LENGTH,
  MAX_PROPOSAL_MESSAGE_LENGTH,
  MAX_PROPOSAL_TEXT_LENGTH,
  newProposalId,
  type ProposalChangeJSON,
  type ProposalJSON,
  proposalChange,
  proposalsIn,
  proposalsMapName,
  type ResolvedProposalChange,
  readProposal,
  resolveProposal,
  resolveProposals,
} from './proposals.js'
export {
  type IdJSON,
  type RelativePositionJSON,
  relativePositionFromJSON,
  relativePositionToJSON,
} from './relative-json.js'
export { offsetsInText, relativePositionsAt } from './relative-offsets.js'
export {
  type DeletedRange,
  readSavedMessage,
  type SavedState,
  savedMessage,
  savedRequest,
} from './saved-message.js'
export {
  MAX_SESSION_LENGTH,
  readSessionAnswer,
  readSessionRequest,
  type SessionAnswer,
  sessionAnswer,
  sessionFromState,
  sessionRequest,
} from './session-message.js'
export { readTokenMessage, tokenMessage } from './token-message.js'
export {
  checkUndoHistoryLimits,
  DEFAULT_UNDO_HISTORY_LIMITS,
  decodeUndoHistory,
  encodeUndoHistory,
  readUndoHistoryMessage,
  trimUndoHistory,
  type UndoHistory,
  UndoHistoryKind,
  type UndoHistoryLimits,
  type UndoHistoryMessage,
  type UndoHistoryStep,
  undoHistoryAnswer,
  undoHistoryRequest,
  undoHistorySave,
} from './undo-history-message.js'
export {
  type AwarenessViewport,
  MAX_VIEWPORT_JSON_LENGTH,
  type RelativeViewport,
  readFollowing,
  readViewport,
} from './viewport-fields.js'
