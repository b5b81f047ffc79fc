/**
 * The view benchmark's remote peers, in the bench process: each a Y.Doc with a stock
 * y-websocket `WebsocketProvider` and its awareness, as a Node program collaborating through
 * y-websocket would be. Each starts from the room's document (so joining costs no transfer of
 * it), publishes `user` and a `cursor {anchor, head}` of relative positions (the shape
 * y-codemirror.next writes and reads, which Tandem reads too), and while active types one
 * character at its caret and moves it, about once a second each (seeded, ± 50%), away from
 * the rows the benchmark types and watches.
 *
 * The room's host is one more client that holds the document in the room from the start,
 * with no awareness state: it brings the document to the server and keeps it there.
 */
import * as prng from 'lib0/prng'
import { WebSocket } from 'ws'
import { WebsocketProvider } from 'y-websocket'
import * as Y from 'yjs'

/** Mean time between one peer's edits, in milliseconds. */
const EDIT_EVERY_MS = 1_000
/** Longest selection a peer holds, in characters. */
const MAX_SELECTION = 40
const SYNC_TIMEOUT_MS = 30_000
const COLORS = ['#cf222e', '#0969da', '#8250df', '#bf8700', '#1a7f37', '#d1242f']

/** One client of the room. */
interface Client {
  readonly doc: Y.Doc
  readonly text: Y.Text
  readonly provider: WebsocketProvider
}

const openClient = (url: string, room: string, update: Uint8Array): Client => {
  const doc = new Y.Doc()
  Y.applyUpdate(doc, update)
  const provider = new WebsocketProvider(url, room, doc, {
    WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
    disableBc: true,
  })
  return { doc, text: doc.getText('text'), provider }
}

const synced = (client: Client, what: string): Promise<void> =>
  client.provider.synced
    ? Promise.resolve()
    : new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${what} did not sync within ${SYNC_TIMEOUT_MS} ms`)),
          SYNC_TIMEOUT_MS,
        )
        client.provider.once('sync', () => {
          clearTimeout(timer)
          resolve()
        })
      })

/** Where row `row` of `text` starts (its end when it has fewer rows). */
const rowStart = (text: string, row: number): number => {
  let index = 0
  for (let r = 0; r < row; r++) {
    const next = text.indexOf('\n', index)
    if (next < 0) return text.length
    index = next + 1
  }
  return index
}

const closeClient = (client: Client): void => {
  client.provider.destroy()
  client.doc.destroy()
}

/**
 * A room on a y-websocket server holding `update`'s document, and `count` peers in it.
 *
 * @example const room = await PeerRoom.open(url, 'r1', update, { peers: 10, seed: 1, fromRow: 40 })
 */
export class PeerRoom {
  private timers: ReturnType<typeof setTimeout>[] = []
  private active = false
  /** Edits the peers made so far. */
  edits = 0

  private constructor(
    private readonly host: Client,
    private readonly peers: readonly Client[],
    private readonly gen: prng.PRNG,
    /** Where the peers' row range starts: the benchmark's own typing stays well before it. */
    private readonly firstIndex: number,
  ) {}

  /**
   * Connects the host, then the peers, each with its caret at a seeded place at or after row
   * `fromRow`; resolves once all have synced.
   */
  static async open(
    url: string,
    room: string,
    update: Uint8Array,
    options: { readonly peers: number; readonly seed: number; readonly fromRow: number },
  ): Promise<PeerRoom> {
    const host = openClient(url, room, update)
    host.provider.awareness.setLocalState(null)
    const peers: Client[] = []
    const first = rowStart(host.text.toString(), options.fromRow)
    const opened = new PeerRoom(host, peers, prng.create(options.seed), first)
    try {
      await synced(host, 'the host')
      for (let i = 0; i < options.peers; i++) {
        const peer = openClient(url, room, update)
        peers.push(peer)
        peer.provider.awareness.setLocalStateField('user', {
          name: `peer ${i + 1}`,
          color: COLORS[i % COLORS.length],
          colorLight: `${COLORS[i % COLORS.length]}33`,
        })
        opened.moveCaret(peer)
      }
      await Promise.all(peers.map((peer, i) => synced(peer, `peer ${i + 1}`)))
      return opened
    } catch (error) {
      opened.close()
      throw error
    }
  }

  /** Starts every peer typing and moving its caret. */
  start(): void {
    if (this.active) return
    this.active = true
    for (const peer of this.peers) this.schedule(peer)
  }

  /** Stops the typing; the peers stay connected. */
  stop(): void {
    this.active = false
    for (const timer of this.timers.splice(0)) clearTimeout(timer)
  }

  /** Disconnects everyone. */
  close(): void {
    this.stop()
    for (const client of [this.host, ...this.peers]) closeClient(client)
  }

  private schedule(peer: Client): void {
    const delay = EDIT_EVERY_MS * (0.5 + prng.real53(this.gen))
    const timer = setTimeout(() => {
      this.timers.splice(this.timers.indexOf(timer), 1)
      if (!this.active) return
      this.edit(peer)
      this.schedule(peer)
    }, delay)
    this.timers.push(timer)
  }

  /** Types a character at the peer's caret (or deletes the one before it), then moves the caret. */
  private edit(peer: Client): void {
    const cursor = peer.provider.awareness.getLocalState()?.cursor as
      | { head: Y.RelativePosition }
      | undefined
    const at =
      cursor === undefined
        ? null
        : Y.createAbsolutePositionFromRelativePosition(cursor.head, peer.doc)
    if (at !== null && at.index >= this.firstIndex) {
      if (prng.uint32(this.gen, 0, 3) === 0 && at.index > this.firstIndex) {
        peer.text.delete(at.index - 1, 1)
      } else {
        peer.text.insert(at.index, prng.letter(this.gen))
      }
      this.edits++
    }
    this.moveCaret(peer)
  }

  /** Puts the peer's caret, with a selection one time in three, at a seeded place past `fromRow`. */
  private moveCaret(peer: Client): void {
    const first = Math.min(this.firstIndex, peer.text.length)
    const length = peer.text.length
    const anchor = prng.uint32(this.gen, first, Math.max(first, length))
    const head =
      prng.uint32(this.gen, 0, 2) === 0
        ? Math.min(length, anchor + prng.uint32(this.gen, 1, MAX_SELECTION))
        : anchor
    peer.provider.awareness.setLocalStateField('cursor', {
      anchor: Y.createRelativePositionFromTypeIndex(peer.text, anchor),
      head: Y.createRelativePositionFromTypeIndex(peer.text, head),
    })
  }
}
