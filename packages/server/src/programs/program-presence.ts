/**
 * The presence of programs that work over HTTP: a program that changes a room, or streams
 * into it, shows in the room's awareness as browsers do (`user` with `agent: true`, `cursor`
 * and `selections` as relative positions), so people see where it works. Each request renews
 * it; `ttlMs` (30 s) after its last one it goes away. The room stays loaded while it shows.
 * At most `maxPerRoom` programs show at once in a room: the one seen longest ago makes way.
 *
 * @module
 */
import { encodeAwarenessEntries, relativePositionToJSON } from '@tandem/protocol'
import * as random from 'lib0/random'
import type * as Y from 'yjs'
import type { Peer } from '../peer.js'
import { awarenessUpdateMessage } from '../protocol.js'
import type { Room } from '../room.js'

/** How long an HTTP program's presence stays after its last request. */
export const PROGRAM_PRESENCE_TTL_MS = 30_000

/** The most HTTP programs shown at once in one room. */
export const MAX_PROGRAM_PRESENCES_PER_ROOM = 16

/**
 * The most HTTP programs shown at once in all rooms: each holds its room loaded, so requests
 * to many rooms must not keep them all in memory.
 */
export const MAX_PROGRAM_PRESENCES = 1_000

/** How a program's presence reaches rooms: the server's own loading and letting go. */
export interface RoomHolder {
  /** The room, loaded if needed; held until `release`. */
  open(name: string): Promise<Room>
  /** Lets a room opened with `open` go. */
  release(room: Room): void
}

/** How a program shows: its name and caret colour (defaults: its user id, a teal). */
export interface ProgramLook {
  /** The name people see. */
  readonly name?: string | null
  /** The caret's CSS colour. */
  readonly color?: string | null
}

/** A selection to show: its anchor and its head (the caret). */
export interface ShownSelection {
  /** The end that stays put. */
  readonly anchor: Y.RelativePosition
  /** The caret. */
  readonly head: Y.RelativePosition
}

interface Shown {
  readonly room: Room
  readonly peer: Peer
  readonly client: number
  clock: number
  timer: NodeJS.Timeout
}

/**
 * The presences of HTTP programs in every room.
 *
 * @example await presences.show('notes', 'formatter-bot', { anchor, head })
 */
export class ProgramPresences {
  /** By room name and user, the ones seen longest ago first. */
  private readonly shown = new Map<string, Shown>()
  private disposed = false

  constructor(
    private readonly rooms: RoomHolder,
    private readonly ttlMs = PROGRAM_PRESENCE_TTL_MS,
    private readonly maxPerRoom = MAX_PROGRAM_PRESENCES_PER_ROOM,
    private readonly maxInAll = MAX_PROGRAM_PRESENCES,
  ) {}

  /**
   * Shows `user` in `room` with `selection` (none: null), as a program, for `ttlMs` from now.
   *
   * @example await presences.show('notes', 'bot', null)
   */
  async show(
    room: string,
    user: string,
    selection: ShownSelection | null,
    look: ProgramLook = {},
  ): Promise<void> {
    if (this.disposed) return
    const key = `${room}\u0000${user}`
    let shown = this.shown.get(key)
    if (shown === undefined) {
      const opened = await this.rooms.open(room)
      // Another request of the same program may have shown it meanwhile.
      const raced = this.shown.get(key)
      if (raced !== undefined || this.disposed) {
        this.rooms.release(opened)
        if (raced === undefined) return
        shown = raced
      } else {
        shown = this.add(key, opened, user)
      }
    }
    this.shown.delete(key)
    this.shown.set(key, shown)
    clearTimeout(shown.timer)
    shown.timer = this.expiry(key)
    shown.clock += 1
    const json = selection === null ? null : selectionJSON(selection)
    const state = {
      user: { name: look.name ?? user, color: look.color ?? '#1a7f7a', id: user, agent: true },
      cursor: json,
      selections: json === null ? null : [json],
    }
    const update = encodeAwarenessEntries([
      { client: shown.client, clock: shown.clock, state, bytes: 0 },
    ])
    shown.room.receive(shown.peer, awarenessUpdateMessage(update))
  }

  /** How many programs show in `room`. */
  count(room: string): number {
    let count = 0
    for (const shown of this.shown.values()) if (shown.room.name === room) count++
    return count
  }

  /** Removes every presence now (the server is closing). */
  dispose(): void {
    this.disposed = true
    for (const key of [...this.shown.keys()]) this.remove(key)
  }

  private add(key: string, room: Room, user: string): Shown {
    const inRoom = [...this.shown].filter(([, other]) => other.room === room)
    if (inRoom.length >= this.maxPerRoom) this.remove(inRoom[0]![0])
    // The one seen longest ago anywhere makes way (the map keeps them in that order).
    if (this.shown.size >= this.maxInAll) this.remove(this.shown.keys().next().value!)
    const shown: Shown = {
      room,
      client: random.uint32(),
      clock: 0,
      timer: this.expiry(key),
      peer: {
        role: 'write',
        user,
        address: 'program',
        send: () => {},
        reply: () => {},
        close: () => this.remove(key),
      },
    }
    room.join(shown.peer)
    this.shown.set(key, shown)
    return shown
  }

  private expiry(key: string): NodeJS.Timeout {
    const timer = setTimeout(() => this.remove(key), this.ttlMs)
    timer.unref()
    return timer
  }

  /** Takes the presence away for everyone and lets its room go. */
  private remove(key: string): void {
    const shown = this.shown.get(key)
    if (shown === undefined) return
    this.shown.delete(key)
    clearTimeout(shown.timer)
    shown.room.leave(shown.peer)
    this.rooms.release(shown.room)
  }
}

const selectionJSON = ({ anchor, head }: ShownSelection) => ({
  anchor: relativePositionToJSON(anchor),
  head: relativePositionToJSON(head),
})
