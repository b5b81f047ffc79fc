/** A connection as a room sees it, and what it may do there. */

/** What a connection may do in a room. */
export type Role = 'read' | 'write'

/** Answers a connection may be sent later than asked, built then: the latest of a kind wins. */
export type ReplyKind = 'sync' | 'awareness' | 'saved'

/** A connection as a room sees it. */
export interface Peer {
  /** `read` peers receive updates but cannot change the document. */
  readonly role: Role
  /** The authenticated user, if any: their sessions are kept under this id. */
  readonly user?: string | undefined
  /** The client's address, telling apart parties when nobody is authenticated. */
  readonly address?: string | undefined
  /** Sends one binary message now. */
  send(message: Uint8Array): void
  /**
   * Sends the message `build` returns (nothing for null), at once or, while the connection
   * has too much unsent, once it has sent enough; a later reply of the same kind replaces one
   * not yet built. For answers that can be built again from the room as it is then.
   */
  reply(kind: ReplyKind, build: () => Uint8Array | null): void
  /** Closes the connection with a WebSocket close code and reason. */
  close(code: number, reason: string): void
}
