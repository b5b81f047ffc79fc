/**
 * @tandem/server: a server for any y-websocket client. Each room is one Yjs document, kept in
 * SQLite or PostgreSQL. Signed tokens grant read or write roles, each user's last selections
 * are kept for their return, every update is attributed to who sent it, rooms scale out over
 * Redis, limits bound what one connection may cost, and metrics count what happened.
 *
 * @module @tandem/server
 */

export { AuthCloseCode, MessageType, TOKEN_EXPIRED_REASON } from '@tandem/protocol'
export {
  type TokenAuth,
  type TokenAuthOptions,
  tokenAuth,
  tokenAuthorizer,
} from './auth/token-authorizer.js'
export {
  checkSecret,
  MAX_TOKEN_LIFETIME_SECONDS,
  MIN_SECRET_BYTES,
  roomMatches,
  signToken,
  type TokenClaims,
  TokenError,
  type TokenProblem,
  type VerifyOptions,
  verifyToken,
} from './auth/tokens.js'
export {
  ATTRIBUTION_RESOLUTION_MS,
  Attribution,
  type Authorship,
} from './history/attribution.js'
export {
  checkRetention,
  DEFAULT_RETENTION,
  type RetentionPolicy,
  versionsToDrop,
} from './history/retention.js'
export { ANONYMOUS_AUTHOR } from './history/room-attribution.js'
export {
  DEFAULT_VERSION_MAX_INTERVAL_MS,
  DEFAULT_VERSION_PAUSE_MS,
  NOW,
  type OpenedVersion,
  type RestoredVersion,
  type VersionDiff,
  type VersionOptions,
} from './history/room-versions.js'
export { type RoomAccess, ServerHistory } from './history/server-history.js'
export { type AuthorRun, authorsOfText } from './history/text-authors.js'
export { type IdRange, type IdRanges, idsOfUpdate, type UpdateIds } from './history/update-ids.js'
export {
  changesOf,
  type DiffRun,
  diffStates,
  type TextChange,
} from './history/version-diff.js'
export { API_PREFIX, ApiError, MAX_API_BODY_BYTES } from './http-api.js'
export type { Counter, Histogram, Labels, Metric } from './metrics.js'
export {
  type ChangeLogLimits,
  DEFAULT_CHANGE_LOG_LIMITS,
  MAX_CHANGE_MESSAGE_LENGTH,
  type ProgramChangeInfo,
} from './programs/change-log.js'
export type { SelectionSpec } from './programs/change-notes.js'
export {
  type ChangeSpec,
  type LineColumn,
  MAX_CHANGES,
  type PositionSpec,
  type RelativeSpec,
  type ResolvedChange,
} from './programs/change-specs.js'
export { DirectConnection, type OpenDocumentOptions } from './programs/direct-connection.js'
export { type ChangesAnswer, MAX_ANCHORS } from './programs/document-routes.js'
export {
  IDEMPOTENCY_TTL_MS,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  MAX_IDEMPOTENT_BYTES,
} from './programs/idempotency.js'
export {
  MAX_PROGRAM_PRESENCES,
  MAX_PROGRAM_PRESENCES_PER_ROOM,
  PROGRAM_PRESENCE_TTL_MS,
  type RoomHolder,
} from './programs/program-presence.js'
export {
  type AcceptedProposal,
  type ListedProposal,
  type ListedProposalChange,
  MAX_PROPOSALS_PER_ROOM,
  type OffsetChange,
  type Proposer,
  TooManyProposalsError,
} from './programs/room-proposals.js'
export {
  ProgramChangeError,
  type ProgramChangeStorage,
  ServerPrograms,
  type ServerProgramsOptions,
} from './programs/server-programs.js'
export { type ProposeOptions, ServerProposals } from './programs/server-proposals.js'
export { MAX_STREAM_BYTES, type StreamAnswer } from './programs/stream-route.js'
export type { UndoneChange } from './programs/undo-change.js'
export { RATE_LIMIT_REASON, type RateLimitKind, type RateLimits } from './rate-limit.js'
export {
  type ChangeOptions,
  CloseCode,
  MAX_AWARENESS_CLIENTS_PER_CONNECTION,
  type Peer,
  type ReplyKind,
  type Role,
  Room,
  type RoomEvents,
  type RoomOptions,
} from './room.js'
export { type AwarenessStateLimits, DEFAULT_AWARENESS_LIMITS } from './room-awareness.js'
export { RoomRegistry, type RoomRegistryOptions } from './rooms.js'
export { RedisRelay, type RedisRelayOptions } from './scale/redis-relay.js'
export {
  type Relay,
  RelayKind,
  type RelayListener,
  type RelaySubscription,
} from './scale/relay.js'
export { type AwarenessRefusalCause, type RefusalCause, ServerMetrics } from './server-metrics.js'
export {
  type Authorization,
  type Authorize,
  type AuthorizeToken,
  AuthRefusal,
  type Logger,
  type TandemServerOptions,
} from './server-options.js'
export { type SendBounds, UNREAD_REASON } from './socket-peer.js'
export { StaticSite } from './static-site.js'
export {
  checkAuthor,
  checkRoom,
  DEFAULT_MAX_SESSIONS_PER_ROOM,
  type DocumentStore,
  type LogSize,
  MAX_AUTHOR_LENGTH,
  MAX_PROGRAM_CHANGES_PER_ROOM,
  MAX_ROOM_LENGTH,
  MAX_VERSION_NAME_LENGTH,
  type NewVersion,
  StorageError,
  type StoredDocument,
  type StoredProgramChange,
  type StoredVersion,
  type UpdateAuthor,
  type VersionInfo,
  type VersionKind,
} from './storage/document-store.js'
export { PostgresStore, type PostgresStoreOptions } from './storage/postgres-store.js'
export { SqliteStore } from './storage/sqlite-store.js'
export { ROOM_PATH, TandemServer } from './tandem-server.js'
