/**
 * Simulated peers for tests: each with its own Y.Doc, awareness (from y-protocols), editor
 * and awareness binding, exchanging document updates and encoded awareness updates through
 * queues that tests deliver in random order, or not at all while a peer is offline.
 */
import { TextEditor } from '@tandem/editor'
import * as awarenessProtocol from 'y-protocols/awareness'
import * as Y from 'yjs'
import type { Random } from '../../../../testing/random.js'
import { type AwarenessBinding, bindAwareness } from '../bind-awareness.js'
import type { CollabUser } from '../peers.js'

/** One simulated peer. */
export interface TestPeer {
  readonly index: number
  readonly doc: Y.Doc
  readonly awareness: awarenessProtocol.Awareness
  readonly editor: TextEditor
  readonly binding: AwarenessBinding
  online: boolean
}

type Message = { kind: 'doc' | 'awareness'; bytes: Uint8Array }

const COLORS = ['#d33', '#3a3', '#33d', '#c6c', '#c93']

/** A network of peers; see the module comment. */
export class CollabNetwork {
  readonly peers: TestPeer[] = []
  private readonly queues: Message[][] = []

  constructor(
    count: number,
    private readonly random: Random,
    options: { text?: string; users?: CollabUser[] } = {},
  ) {
    for (let i = 0; i < count; i++) {
      const doc = new Y.Doc()
      doc.clientID = 100 + i
      if (i > 0) Y.applyUpdate(doc, Y.encodeStateAsUpdate(this.peers[0]!.doc))
      const awareness = new awarenessProtocol.Awareness(doc)
      const editor = new TextEditor(i === 0 ? { doc, text: options.text ?? '' } : { doc })
      const user = options.users?.[i] ?? { name: `user ${i}`, color: COLORS[i % COLORS.length]! }
      const binding = bindAwareness(editor, awareness, { user, throttleMs: 0 })
      const peer: TestPeer = { index: i, doc, awareness, editor, binding, online: true }
      this.peers.push(peer)
      this.queues.push([])
      doc.on('update', (bytes: Uint8Array, origin: unknown) => {
        if (origin !== this) this.broadcast(peer, { kind: 'doc', bytes })
      })
      awareness.on(
        'update',
        ({ added, updated, removed }: Record<string, number[]>, origin: unknown) => {
          if (origin === this) return
          const changed = [...added!, ...updated!, ...removed!]
          const bytes = awarenessProtocol.encodeAwarenessUpdate(awareness, changed)
          this.broadcast(peer, { kind: 'awareness', bytes })
        },
      )
    }
    // Everyone learns everyone's first state.
    for (const peer of this.peers) peer.binding.flush()
    for (const peer of this.peers) {
      const all = [...peer.awareness.getStates().keys()]
      this.broadcast(peer, {
        kind: 'awareness',
        bytes: awarenessProtocol.encodeAwarenessUpdate(peer.awareness, all),
      })
    }
    this.deliverAll()
  }

  /** Delivers up to `count` queued messages, picked at random. Returns how many. */
  deliverSome(count: number): number {
    let delivered = 0
    for (let n = 0; n < count; n++) {
      const waiting = this.queues.flatMap((queue, i) => (queue.length > 0 ? [i] : []))
      if (waiting.length === 0) break
      const target = this.random.pick(waiting)
      const queue = this.queues[target]!
      const [message] = queue.splice(this.random.int(0, queue.length - 1), 1)
      this.apply(this.peers[target]!, message!)
      delivered++
    }
    return delivered
  }

  /**
   * Publishes every peer's selections and delivers everything, in random order, until no
   * message is left: then every online peer has every other online peer's document and state.
   */
  deliverAll(): void {
    for (let round = 0; round < 100; round++) {
      for (const peer of this.peers) peer.binding.flush()
      if (this.queues.every((queue) => queue.length === 0)) return
      while (this.deliverSome(50) > 0) {}
    }
    throw new Error('the network did not settle in 100 rounds')
  }

  /** Stops delivering to and from `peer` (its queue is kept for when it is back). */
  disconnect(peer: TestPeer): void {
    peer.online = false
  }

  /** Delivers to and from `peer` again; it catches up on the document by state vectors. */
  reconnect(peer: TestPeer): void {
    peer.online = true
    for (const other of this.peers) {
      if (other === peer || !other.online) continue
      Y.applyUpdate(peer.doc, Y.encodeStateAsUpdate(other.doc, Y.encodeStateVector(peer.doc)), this)
      Y.applyUpdate(
        other.doc,
        Y.encodeStateAsUpdate(peer.doc, Y.encodeStateVector(other.doc)),
        this,
      )
    }
  }

  /** Destroys every editor, awareness and document. */
  destroy(): void {
    for (const peer of this.peers) {
      peer.binding.dispose()
      peer.editor.destroy()
      peer.awareness.destroy()
      peer.doc.destroy()
    }
  }

  private broadcast(from: TestPeer, message: Message): void {
    if (!from.online) return
    for (const peer of this.peers) {
      if (peer !== from && peer.online) this.queues[peer.index]!.push(message)
    }
  }

  private apply(peer: TestPeer, message: Message): void {
    if (message.kind === 'doc') Y.applyUpdate(peer.doc, message.bytes, this)
    else awarenessProtocol.applyAwarenessUpdate(peer.awareness, message.bytes, this)
  }
}
