/**
 * A room's peer for tests of `Room` on its own: it keeps what it is sent and how it was closed.
 */
import type { Peer, Role } from '../room.js'

/** A peer that records its messages (replies built at once) and its closes. */
export interface RecordingPeer extends Peer {
  /** Every message sent, in order. */
  readonly received: Uint8Array[]
  /** The close codes it was closed with. */
  readonly closes: number[]
}

/**
 * A peer of `role`, with `who` (user, address) if given.
 *
 * @example const writer = recordingPeer('write'); room.join(writer); writer.received.length
 */
export const recordingPeer = (
  role: Role = 'write',
  who: { user?: string; address?: string } = {},
): RecordingPeer => {
  const received: Uint8Array[] = []
  const closes: number[] = []
  return {
    role,
    ...who,
    received,
    closes,
    send: (message) => received.push(message),
    reply: (_kind, build) => {
      const message = build()
      if (message !== null) received.push(message)
    },
    close: (code) => closes.push(code),
  }
}
