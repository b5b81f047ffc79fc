import * as Y from 'yjs'
import type { Random } from '../../../../testing/random.js'

/**
 * Simulated peers exchanging Yjs updates with random delivery order and disconnects.
 *
 * Every update a peer makes is queued for every other peer; `deliverSome` hands out queued
 * updates in random order, and a disconnected peer neither sends nor receives until it
 * reconnects, when it catches up through a state-vector sync.
 */
export class TestNetwork {
  readonly docs: Y.Doc[] = []
  private readonly queues: Array<Array<Uint8Array>> = []
  private readonly online: boolean[] = []

  constructor(
    peers: number,
    private readonly random: Random,
  ) {
    for (let i = 0; i < peers; i++) {
      const doc = new Y.Doc()
      doc.clientID = i + 1
      this.docs.push(doc)
      this.queues.push([])
      this.online.push(true)
      doc.on('update', (update: Uint8Array, origin: unknown) => {
        if (origin === this) return
        if (!this.online[i]) return
        for (let j = 0; j < peers; j++) {
          if (j !== i && this.online[j]) this.queues[j]!.push(update)
        }
      })
    }
  }

  /** Delivers up to `count` queued updates, picked at random. Returns how many were delivered. */
  deliverSome(count: number): number {
    let delivered = 0
    for (let n = 0; n < count; n++) {
      const candidates = this.queues.map((q, i) => (q.length > 0 ? i : -1)).filter((i) => i >= 0)
      if (candidates.length === 0) break
      const peer = this.random.pick(candidates)
      const queue = this.queues[peer]!
      const [update] = queue.splice(this.random.int(0, queue.length - 1), 1)
      Y.applyUpdate(this.docs[peer]!, update!, this)
      delivered++
    }
    return delivered
  }

  /** Takes a peer offline: it stops sending and receiving. */
  disconnect(peer: number): void {
    this.online[peer] = false
    this.queues[peer]!.length = 0
  }

  /** Brings a peer back and syncs it both ways with every online peer. */
  reconnect(peer: number): void {
    this.online[peer] = true
    const doc = this.docs[peer]!
    for (let j = 0; j < this.docs.length; j++) {
      if (j === peer || !this.online[j]) continue
      const other = this.docs[j]!
      this.queues[j]!.push(Y.encodeStateAsUpdate(doc, Y.encodeStateVector(other)))
      this.queues[peer]!.push(Y.encodeStateAsUpdate(other, Y.encodeStateVector(doc)))
    }
  }

  /** Whether the peer is online. */
  isOnline(peer: number): boolean {
    return this.online[peer]!
  }

  /** Reconnects everyone and delivers every queued update until all queues are empty. */
  flush(): void {
    for (let i = 0; i < this.docs.length; i++) if (!this.online[i]) this.reconnect(i)
    while (this.deliverSome(1000) > 0) {}
  }
}
