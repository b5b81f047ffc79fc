/**
 * How the server processes sharing rooms tell each other what happened in them: each room has
 * a channel, and every instance with the room in memory listens to it. A relay carries
 * messages at most once and may lose them while it is cut off; it says when it is back, so a
 * room can catch up from the shared store (which holds every update before it is published).
 */

/** What a relay message is about. */
export const RelayKind = {
  /** A Yjs update, already in the shared store. */
  update: 0,
  /** An awareness update (y-protocols encoding) of clients connected to the sender. */
  awareness: 1,
  /** "Send me the awareness states of your clients": sent when a room loads. */
  queryAwareness: 2,
  /** "Reload the room from the store": the sender may have failed to publish updates. */
  reload: 3,
} as const

/** One of the `RelayKind` values. */
export type RelayKind = (typeof RelayKind)[keyof typeof RelayKind]

/** What a room hears from its channel. */
export interface RelayListener {
  /**
   * A message the instance `from` published to the room (never one of this instance's own).
   */
  receive(kind: RelayKind, data: Uint8Array, from: string): void
  /**
   * The relay was cut off and is listening again: messages published meanwhile may be lost,
   * and messages this instance published may not have arrived.
   */
  reconnected(): void
}

/** A room's subscription; `unsubscribe` is safe to call twice. */
export interface RelaySubscription {
  /** Stops receiving the room's messages. */
  unsubscribe(): void
}

/**
 * Publish/subscribe between server instances, one channel per room.
 *
 * @example
 * const subscription = await relay.subscribe('notes', { receive, reconnected })
 * relay.publish('notes', RelayKind.update, update)
 */
export interface Relay {
  /** This instance's id: messages carry it, so an instance never hears its own. */
  readonly instance: string
  /** What the relay is, for logs (e.g. `redis 127.0.0.1:6379`). */
  readonly description: string
  /**
   * Listens to `room`'s channel. Resolves once listening, so that nothing published after
   * that is missed; while the relay is cut off it resolves at once, and `reconnected` is
   * called once it listens again.
   */
  subscribe(room: string, listener: RelayListener): Promise<RelaySubscription>
  /** Sends a message to the other instances with `room` in memory; never throws. */
  publish(room: string, kind: RelayKind, data: Uint8Array): void
  /** Stops listening and releases the connections; the relay is unusable afterwards. */
  close(): Promise<void>
}
