/**
 * The clients of the load benchmark: stock providers typing single characters into a Y.Text,
 * and a ledger of every keystroke's send time and of its receipt at each other client.
 *
 * A keystroke is known by its Yjs id: the typing client's id and the clock of the one
 * character it inserted. A receiving client sees a remote transaction's new ids as the
 * difference between its state vectors before and after, so every receipt is matched to its
 * send time however the server batches or merges updates.
 */
import * as prng from 'lib0/prng'
import { WebSocket } from 'ws'
import * as Y from 'yjs'
import { openClient } from '../src/testing/clients.js'
import { type HocuspocusProviderModule, importPublished } from './published.js'

/** The client library a server is spoken to with. */
export type Protocol = 'y-websocket' | 'hocuspocus'

/** One connected client: a document with its text, and the provider syncing it. */
export interface LoadClient {
  readonly doc: Y.Doc
  readonly text: Y.Text
  /** Resolves once the provider has synced with the server. */
  synced(): Promise<void>
  destroy(): void
}

const TEXT_NAME = 'text'

/**
 * Connects a stock client of `protocol` to `room` on `url` (y-websocket's `WebsocketProvider`,
 * or hocuspocus's `HocuspocusProvider`, each with its own WebSocket from `ws`).
 *
 * @example const client = await openLoadClient('y-websocket', 'ws://127.0.0.1:1234', 'notes')
 */
export const openLoadClient = async (
  protocol: Protocol,
  url: string,
  room: string,
): Promise<LoadClient> => {
  const doc = new Y.Doc()
  const text = doc.getText(TEXT_NAME)
  if (protocol === 'y-websocket') {
    // A stock y-websocket client, as the server's tests use it.
    const { synced, destroy } = openClient(url, room, {}, doc)
    return { doc, text, synced, destroy }
  }
  const { HocuspocusProvider } = (await importPublished(
    '@hocuspocus/provider',
  )) as HocuspocusProviderModule
  const provider = new HocuspocusProvider({
    url,
    name: room,
    document: doc,
    WebSocketPolyfill: WebSocket,
  })
  return {
    doc,
    text,
    synced: () =>
      provider.isSynced
        ? Promise.resolve()
        : new Promise((resolve) => provider.on('synced', () => resolve())),
    destroy: () => {
      provider.destroy()
      doc.destroy()
    },
  }
}

/** Clients grouped by room: `rooms[r][c]` is client `c` of room `r`. */
export type ClientGrid = readonly (readonly LoadClient[])[]

/**
 * Connects `perRoom` clients to each of `rooms` and waits until all have synced; closes them
 * all and throws if that takes longer than `timeoutMs`.
 */
export const connectGrid = async (options: {
  readonly protocol: Protocol
  readonly url: string
  readonly rooms: readonly string[]
  readonly perRoom: number
  readonly timeoutMs: number
}): Promise<ClientGrid> => {
  // A y-websocket provider listens to the process's 'exit' event until it is destroyed.
  const total = options.rooms.length * options.perRoom
  process.setMaxListeners(Math.max(process.getMaxListeners(), total + 10))
  const grid: LoadClient[][] = []
  for (const room of options.rooms) {
    const clients: LoadClient[] = []
    for (let i = 0; i < options.perRoom; i++) {
      clients.push(await openLoadClient(options.protocol, options.url, room))
    }
    grid.push(clients)
  }
  try {
    await within(
      Promise.all(grid.flat().map((client) => client.synced())),
      options.timeoutMs,
      `${grid.flat().length} ${options.protocol} clients did not sync`,
    )
  } catch (error) {
    closeGrid(grid)
    throw error
  }
  return grid
}

/** Disconnects every client of `grid`. */
export const closeGrid = (grid: ClientGrid): void => {
  for (const client of grid.flat()) client.destroy()
}

/** What one typing session measured. */
export interface Receipts {
  /** Keystrokes typed. */
  readonly edits: number
  /** Keystrokes received by other clients: `edits` times (clients per room - 1). */
  readonly receipts: number
  /** From the first keystroke to the last receipt, in milliseconds. */
  readonly elapsedMs: number
  /** Send-to-receipt time of every receipt, in milliseconds. */
  readonly latenciesMs: Float64Array
}

/**
 * The keystrokes of one session: when each was typed, how many clients still have to
 * receive it, and the latency of every receipt so far.
 */
class Ledger {
  private readonly sentAt = new Map<number, number[]>()
  private readonly pending = new Map<number, number[]>()
  private readonly latencies: Float64Array
  private received = 0
  private firstSend = Number.POSITIVE_INFINITY
  private lastReceipt = 0
  private done: (() => void) | null = null

  constructor(
    readonly capacity: number,
    /** Called when one of `client`'s keystrokes has reached every other client of its room. */
    private readonly landed: (client: number) => void,
  ) {
    this.latencies = new Float64Array(capacity)
  }

  get receipts(): number {
    return this.received
  }

  /** Records that `client` typed the character with clock `clock`, to reach `others` clients. */
  sent(client: number, clock: number, others: number): void {
    const now = performance.now()
    if (now < this.firstSend) this.firstSend = now
    let times = this.sentAt.get(client)
    let waiting = this.pending.get(client)
    if (times === undefined || waiting === undefined) {
      times = []
      waiting = []
      this.sentAt.set(client, times)
      this.pending.set(client, waiting)
    }
    times[clock] = now
    waiting[clock] = others
  }

  /** Records that a client received the keystrokes of `client` from `from` up to `to`. */
  receive(client: number, from: number, to: number): void {
    const times = this.sentAt.get(client)
    const waiting = this.pending.get(client)
    if (times === undefined || waiting === undefined) return
    const now = performance.now()
    for (let clock = from; clock < to; clock++) {
      const at = times[clock]
      if (at === undefined || this.received >= this.capacity) continue
      this.latencies[this.received++] = now - at
      this.lastReceipt = now
      if (--waiting[clock]! === 0) this.landed(client)
    }
    if (this.received === this.capacity) this.done?.()
  }

  /** Resolves once `capacity` receipts are in; rejects after `timeoutMs`. */
  all(timeoutMs: number): Promise<void> {
    if (this.received === this.capacity) return Promise.resolve()
    const waiting = new Promise<void>((resolve) => {
      this.done = resolve
    })
    return within(waiting, timeoutMs, () => `only ${this.received} of ${this.capacity} receipts`)
  }

  result(edits: number): Receipts {
    return {
      edits,
      receipts: this.received,
      elapsedMs: this.lastReceipt - this.firstSend,
      latenciesMs: this.latencies.slice(0, this.received),
    }
  }
}

/** A client of the grid as the typing drivers see it. */
interface Typist {
  readonly client: LoadClient
  readonly id: number
  /** Other clients in its room: how many must receive each keystroke. */
  readonly others: number
  typed: number
  inFlight: number
}

/** Builds the ledger and the typists of `grid`, with every client reporting its receipts. */
const prepare = (grid: ClientGrid, edits: number, landed: (typist: Typist) => void) => {
  const typists: Typist[] = grid.flatMap((room) =>
    room.map((client) => ({
      client,
      id: client.doc.clientID,
      others: room.length - 1,
      typed: 0,
      inFlight: 0,
    })),
  )
  const byId = new Map(typists.map((typist) => [typist.id, typist]))
  if (byId.size !== typists.length) throw new Error('two clients drew the same Yjs client id')
  const capacity = typists.reduce((sum, typist) => sum + edits * typist.others, 0)
  const ledger = new Ledger(capacity, (id) => landed(byId.get(id)!))
  const observers = typists.map(({ client }) => {
    const observe = (transaction: Y.Transaction) => {
      if (transaction.local) return
      for (const [id, after] of transaction.afterState) {
        const before = transaction.beforeState.get(id) ?? 0
        if (after > before) ledger.receive(id, before, after)
      }
    }
    client.doc.on('afterTransaction', observe)
    return () => client.doc.off('afterTransaction', observe)
  })
  const type = (typist: Typist) => {
    const { client } = typist
    ledger.sent(typist.id, Y.getState(client.doc.store, typist.id), typist.others)
    // One character at the end: each keystroke is one update and one Yjs id.
    client.text.insert(client.text.length, CHARACTERS[typist.typed % CHARACTERS.length]!)
    typist.typed++
    typist.inFlight++
  }
  const stop = () => {
    for (const unobserve of observers) unobserve()
  }
  return { typists, ledger, type, stop }
}

const CHARACTERS = 'the quick brown fox jumps over the lazy dog '

/**
 * Every client types `edits` characters as fast as it may: each keeps up to `inFlight`
 * keystrokes that some other client of its room has not received yet, and types the next
 * one as soon as one has reached them all. Resolves with what was measured once every
 * keystroke has reached every other client of its room; rejects after `timeoutMs`.
 */
export const typeFlatOut = async (
  grid: ClientGrid,
  options: { readonly edits: number; readonly inFlight: number; readonly timeoutMs: number },
): Promise<Receipts> => {
  const ready = new Set<Typist>()
  let scheduled = false
  const pump = () => {
    scheduled = false
    for (const typist of ready) {
      ready.delete(typist)
      while (typist.typed < options.edits && typist.inFlight < options.inFlight) type(typist)
    }
  }
  const { typists, ledger, type, stop } = prepare(grid, options.edits, (typist) => {
    typist.inFlight--
    ready.add(typist)
    // Type from a fresh task, not from inside another document's transaction.
    if (!scheduled) {
      scheduled = true
      setImmediate(pump)
    }
  })
  try {
    for (const typist of typists) ready.add(typist)
    pump()
    await ledger.all(options.timeoutMs)
    return ledger.result(typists.length * options.edits)
  } finally {
    stop()
  }
}

/**
 * Every client types at a human rate for `durationMs`: a keystroke every `meanMs`, give or
 * take half of it (seeded per client from `seed`), starting at a random phase. Resolves once
 * every keystroke has reached every other client of its room; rejects after `timeoutMs`.
 */
export const typeAtHumanRate = async (
  grid: ClientGrid,
  options: {
    readonly meanMs: number
    readonly durationMs: number
    readonly seed: number
    readonly timeoutMs: number
  },
): Promise<Receipts> => {
  // The ledger needs its size up front: the most keystrokes a client can type in the time.
  const most = Math.ceil(options.durationMs / (options.meanMs / 2)) + 1
  const { typists, ledger, type, stop } = prepare(grid, most, (typist) => {
    typist.inFlight--
  })
  const timers = new Set<NodeJS.Timeout>()
  try {
    const started = performance.now()
    const end = started + options.durationMs
    let typing = typists.length
    let finishedTyping: () => void = () => {}
    const allTyped = new Promise<void>((resolve) => {
      finishedTyping = resolve
    })
    typists.forEach((typist, i) => {
      const gen = prng.create(options.seed * 1_000 + i)
      const next = (delay: number) => {
        const timer = setTimeout(() => {
          timers.delete(timer)
          if (performance.now() >= end || typist.typed >= most) {
            if (--typing === 0) finishedTyping()
            return
          }
          type(typist)
          next(options.meanMs * (0.5 + prng.real53(gen)))
        }, delay)
        timers.add(timer)
      }
      next(options.meanMs * prng.real53(gen))
    })
    await within(allTyped, options.durationMs + options.timeoutMs, 'typing did not finish')
    const edits = typists.reduce((sum, typist) => sum + typist.typed, 0)
    const expected = typists.reduce((sum, typist) => sum + typist.typed * typist.others, 0)
    await waitFor(
      () => ledger.receipts >= expected,
      options.timeoutMs,
      () => {
        return `only ${ledger.receipts} of ${expected} receipts`
      },
    )
    return ledger.result(edits)
  } finally {
    for (const timer of timers) clearTimeout(timer)
    stop()
  }
}

/** Polls `condition` every 10 ms until it holds; rejects after `timeoutMs`. */
const waitFor = (condition: () => boolean, timeoutMs: number, what: () => string): Promise<void> =>
  new Promise((resolve, reject) => {
    const deadline = performance.now() + timeoutMs
    const check = () => {
      if (condition()) return resolve()
      if (performance.now() > deadline) {
        return reject(new Error(`${what()} after ${timeoutMs} ms`))
      }
      setTimeout(check, 10)
    }
    check()
  })

/** `promise`, or a rejection naming `what` after `timeoutMs`. */
const within = async <T>(
  promise: Promise<T>,
  timeoutMs: number,
  what: string | (() => string),
): Promise<T> => {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${typeof what === 'string' ? what : what()} after ${timeoutMs} ms`)),
      timeoutMs,
    )
  })
  try {
    return await Promise.race([promise, late])
  } finally {
    clearTimeout(timer)
  }
}
