/**
 * A program's connection to a room inside the server process: a `Y.Doc` and an awareness of
 * its own, synced with the room's document as a WebSocket client's would be, without a
 * socket. To the room it is one more peer: its changes are stored before anyone sees them,
 * attributed to its user, and its presence (with an `agent` mark) shows to everyone until it
 * closes. A program builds what it needs over the doc, e.g. `new TextEditor({ buffer: new
 * TextBuffer({ doc }) })` for Atom's Cursor and Selection, undo and language support; the
 * server itself imports no editor package.
 *
 * @module
 */
import { MessageType } from '@tandem/protocol'
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import * as awarenessProtocol from 'y-protocols/awareness'
import * as syncProtocol from 'y-protocols/sync'
import * as Y from 'yjs'
import type { Peer, ReplyKind, Role } from '../peer.js'
import type { Room } from '../room.js'

/** How a program shows itself in a room it opens. */
export interface OpenDocumentOptions {
  /** Its user id: what its changes are attributed to, as a token's user would be. */
  readonly user: string
  /** Its name as people see it (default: `user`). */
  readonly name?: string
  /** Its colour as people see it, a CSS colour (default a teal). */
  readonly color?: string
  /** Marked as a program in its presence, `user.agent: true` (default true). */
  readonly agent?: boolean
  /** `write` (default) or `read`, which follows the document and changes nothing. */
  readonly role?: Role
}

/**
 * A direct connection to one room (see `TandemServer.openDocument`).
 *
 * @example
 * const bot = await server.openDocument('notes', { user: 'formatter-bot' })
 * bot.doc.getText('text').insert(0, '# Notes\n'); await bot.flushed(); await bot.close()
 */
export class DirectConnection {
  /** The program's copy of the room's document; change it, and the room follows. */
  readonly doc = new Y.Doc()
  /** The program's presence, shared with everyone in the room. */
  readonly awareness: awarenessProtocol.Awareness
  /** Resolves once the doc holds everything the room held when it opened. */
  readonly whenSynced: Promise<void>
  private readonly peer: Peer
  private synced!: () => void
  private closed = false

  constructor(
    private readonly room: Room,
    options: OpenDocumentOptions,
    /** Called once when the connection closes, to let the room go. */
    private readonly release: () => void,
  ) {
    this.awareness = new awarenessProtocol.Awareness(this.doc)
    this.whenSynced = new Promise((resolve) => {
      this.synced = resolve
    })
    const role = options.role ?? 'write'
    this.peer = {
      role,
      user: options.user,
      address: 'direct',
      send: (message) => this.receive(message),
      reply: (_kind: ReplyKind, build) => {
        const message = build()
        if (message !== null) this.receive(message)
      },
      close: () => {
        void this.close()
      },
    }
    this.awareness.setLocalState({
      user: {
        name: options.name ?? options.user,
        color: options.color ?? '#1a7f7a',
        id: options.user,
        ...(options.agent === false ? {} : { agent: true }),
      },
    })
    this.doc.on('update', this.sendUpdate)
    this.awareness.on('update', this.sendAwareness)
    room.join(this.peer)
    // Ask for what the room has, and show the program's presence.
    this.toRoom((encoder) => {
      encoding.writeVarUint(encoder, MessageType.sync)
      syncProtocol.writeSyncStep1(encoder, this.doc)
    })
    this.sendAwareness({ added: [this.doc.clientID], updated: [], removed: [] }, null)
  }

  /** Resolves once every change made so far is stored and relayed. */
  flushed(): Promise<void> {
    return this.room.flushed()
  }

  /** Stores what is pending, removes the program's presence and leaves the room. */
  async close(): Promise<void> {
    if (this.closed) return
    await this.room.flushed()
    this.closed = true
    this.doc.off('update', this.sendUpdate)
    this.awareness.off('update', this.sendAwareness)
    this.room.leave(this.peer)
    this.awareness.destroy()
    this.doc.destroy()
    this.release()
  }

  private readonly sendUpdate = (update: Uint8Array, origin: unknown): void => {
    if (origin === this || this.closed) return
    this.toRoom((encoder) => {
      encoding.writeVarUint(encoder, MessageType.sync)
      syncProtocol.writeUpdate(encoder, update)
    })
  }

  private readonly sendAwareness = (
    change: { added: number[]; updated: number[]; removed: number[] },
    origin: unknown,
  ): void => {
    if (origin === this || this.closed) return
    const clients = [...change.added, ...change.updated, ...change.removed]
    this.toRoom((encoder) => {
      encoding.writeVarUint(encoder, MessageType.awareness)
      encoding.writeVarUint8Array(
        encoder,
        awarenessProtocol.encodeAwarenessUpdate(this.awareness, clients),
      )
    })
  }

  /** A message from the room, as a WebSocket client would take it. */
  private receive(message: Uint8Array): void {
    if (this.closed) return
    const decoder = decoding.createDecoder(message)
    const type = decoding.readVarUint(decoder)
    if (type === MessageType.sync) {
      const reply = encoding.createEncoder()
      encoding.writeVarUint(reply, MessageType.sync)
      const kind = syncProtocol.readSyncMessage(decoder, reply, this.doc, this)
      if (encoding.length(reply) > 1) this.room.receive(this.peer, encoding.toUint8Array(reply))
      if (kind === syncProtocol.messageYjsSyncStep2) this.synced()
    } else if (type === MessageType.awareness) {
      awarenessProtocol.applyAwarenessUpdate(
        this.awareness,
        decoding.readVarUint8Array(decoder),
        this,
      )
    }
  }

  private toRoom(write: (encoder: encoding.Encoder) => void): void {
    const encoder = encoding.createEncoder()
    write(encoder)
    this.room.receive(this.peer, encoding.toUint8Array(encoder))
  }
}
