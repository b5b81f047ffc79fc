/**
 * The kill -9 soak of the durability promise: stock clients type in several rooms against
 * server processes, which are killed with SIGKILL at random moments (seeded) and restarted on
 * the same data, often while their clients are still reconnecting and resyncing after the
 * previous restart. After every kill, before anything restarts, everything each client
 * received from another client must be in the store: the clients are snapshotted first, then
 * the store is read. At the end, with every process running, clients and store must converge.
 *
 * Every wait is bounded: the run stops after its duration or its number of kills, whichever
 * comes first, and convergence is given a fixed time.
 */
import type { WebsocketProvider } from 'y-websocket'
import * as Y from 'yjs'
import { Random } from '../../../../testing/random.js'
import { openClient, type StockClient } from './clients.js'
import { describeMissing, isLoss, lossSize, missingFromStore } from './durability.js'
import { OwnEdits, receivedCharacters, snapshotReceived } from './received.js'
import type { ServerProcess } from './server-process.js'
import { readStoredRooms, type StoreLocation } from './stored.js'
import { type Pace, Typist } from './typist.js'

/** What a soak runs against and how hard it goes. */
export interface KillSoakOptions {
  /** Seeds the kills and every typist: the same seed makes the same choices. */
  readonly seed: number
  /** How long clients type while processes are killed, in milliseconds. */
  readonly durationMs: number
  /** The most kills, however much time is left. */
  readonly maxKills: number
  /** The server processes, already running; each room's clients are spread over them. */
  readonly servers: readonly ServerProcess[]
  /** Where the processes keep their documents. */
  readonly store: StoreLocation
  readonly rooms: number
  readonly clientsPerRoom: number
  /** How fast each client types. */
  readonly pace: Pace
  /** How long a kill may follow a restart to land among the clients reconnecting to it. */
  readonly burstMs: number
  /** The longest a process stays down, its clients typing off line meanwhile. */
  readonly maxDownMs: number
}

/** What a soak did and saw. */
export interface KillSoakFigures {
  readonly kills: number
  /**
   * Kills of a process as its clients reconnect and resync: within `burstMs` of its restart, or
   * before every one of them had its answer.
   */
  readonly burstKills: number
  /** Characters every client inserted, in all. */
  readonly typed: number
  /** Characters every client deleted, in all. */
  readonly deleted: number
  /** At the end, characters written by others that each client holds, summed over clients. */
  readonly received: number
  /** Distinct characters some client received that the store lacked after a kill. */
  readonly lostCharacters: number
  /** Distinct deleted characters whose deletion some client received and the store lacked. */
  readonly lostDeletions: number
  /** Each loss in words: which kill, room, client, writer, characters. */
  readonly losses: readonly string[]
  /** Why clients and store did not converge at the end, or null when they did. */
  readonly notConverged: string | null
}

/** How long clients may take to notice a killed process, to sync, and to converge at the end. */
const NOTICE_MS = 10_000
const SYNC_MS = 30_000
const CONVERGE_MS = 30_000
/** How long a kill planned at a client's resync waits for it, from before the restart. */
const RESYNC_MS = 5_000
/** The most loss lines kept; the counts go on. */
const MAX_LOSS_LINES = 200

/** The last restart: which process, and when (`performance.now()`). */
interface Restart {
  readonly server: ServerProcess
  readonly at: number
}

/** One typing client: where it is, and what it did itself. */
interface Member {
  readonly room: string
  readonly index: number
  readonly server: ServerProcess
  /** The server's place in the list, from 1, for messages. */
  readonly processNumber: number
  readonly client: StockClient
  readonly own: OwnEdits
  readonly typist: Typist
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Resolves once `done()` holds; rejects after `timeoutMs`, naming `what`. */
const waitUntil = async (done: () => boolean, timeoutMs: number, what: string) => {
  const deadline = performance.now() + timeoutMs
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(10)
  }
}

/**
 * Runs one soak; the figures say what was lost (nothing, when the promise holds).
 *
 * @example const figures = await runKillSoak({ seed: 1, durationMs: 30_000, servers, store: { data }, ... })
 */
export const runKillSoak = async (options: KillSoakOptions): Promise<KillSoakFigures> => {
  const { servers, seed } = options
  const random = new Random(seed)
  const rooms = Array.from({ length: options.rooms }, (_, i) => `soak-${i}`)
  const members: Member[] = []
  for (const [r, room] of rooms.entries()) {
    for (let index = 0; index < options.clientsPerRoom; index++) {
      const server = servers[(r + index) % servers.length]!
      const doc = new Y.Doc()
      // Before the client exists, so every edit it makes is recorded as its own.
      const own = new OwnEdits(doc)
      const client = openClient(server.url, room, {}, doc)
      const typist = new Typist(
        client.text,
        new Random(seed * 1_000 + members.length + 1),
        options.pace,
      )
      const processNumber = servers.indexOf(server) + 1
      members.push({ room, index, server, processNumber, client, own, typist })
    }
  }
  // y-websocket adds a listener of the process's exit per provider.
  const maxListeners = process.getMaxListeners()
  process.setMaxListeners(maxListeners + members.length)
  const lost = { characters: new Set<string>(), deletions: new Set<string>() }
  const losses: string[] = []
  let kills = 0
  let burstKills = 0

  /** Every client's snapshot against the store, once `victim` is dead and before it restarts. */
  const check = async (victim: ServerProcess) => {
    const snapshots = members.map((member) => ({ member, received: snapshotReceived(member.own) }))
    const stored = await readStoredRooms(options.store, rooms)
    for (const { member, received } of snapshots) {
      const missing = missingFromStore(received, stored.get(member.room)!)
      if (!isLoss(missing)) continue
      for (const run of missing.characters) {
        for (let i = 0; i < run.length; i++) {
          lost.characters.add(`${member.room}/${run.writer}:${run.clock + i}`)
        }
      }
      for (const run of missing.deletions) {
        for (let i = 0; i < run.length; i++) {
          lost.deletions.add(`${member.room}/${run.writer}:${run.clock + i}`)
        }
      }
      const size = lossSize(missing)
      const who =
        `kill ${kills} (process ${servers.indexOf(victim) + 1}), room ${member.room}, ` +
        `client ${member.index} (id ${member.client.doc.clientID}, on process ${member.processNumber})`
      losses.push(
        `${who}: ${size.characters} characters and ${size.deletions} deletions missing`,
        ...describeMissing(who, missing),
      )
    }
    for (const { doc } of stored.values()) doc.destroy()
  }

  try {
    await waitUntil(
      () => members.every((m) => m.client.provider.synced),
      SYNC_MS,
      'the clients to sync',
    )
    for (const member of members) member.typist.start()
    const deadline = performance.now() + options.durationMs
    let restarted = null as Restart | null
    /** Whether killing `victim` now lands in its clients' reconnection burst. */
    const resyncing = (victim: ServerProcess) =>
      restarted?.server === victim &&
      (performance.now() - restarted.at <= options.burstMs ||
        members.some((m) => m.server === victim && !m.client.provider.synced))
    const kill = async (victim: ServerProcess) => {
      if (resyncing(victim)) burstKills++
      kills++
      const exit = await victim.kill('SIGKILL')
      if (exit !== null) throw new Error(`process ${servers.indexOf(victim) + 1} exited by itself`)
      return victim
    }
    /**
     * The kill after `victim` restarts, chosen now (seeded): a quarter at a random moment later,
     * a quarter soon after the restart (mostly of the restarted process), and half from inside
     * the sync event of one of the restarted process's clients, the moment it has its answer
     * while the others may still be resyncing: answers are where content goes out in bulk.
     */
    const planKill = (victim: ServerProcess, starting: Promise<void>): Promise<ServerProcess> => {
      const roll = random.next()
      if (roll < 1 / 2) {
        const soon = roll < 1 / 4
        const delay = soon ? random.int(0, options.burstMs) : random.int(options.burstMs, 2_500)
        const target = soon && random.chance(0.75) ? victim : random.pick(servers)
        return starting.then(() => sleep(delay)).then(() => kill(target))
      }
      const providers = members.filter((m) => m.server === victim).map((m) => m.client.provider)
      const nth = random.int(1, providers.length)
      return killAtSync(providers, nth, () => kill(victim))
    }
    let next: Promise<ServerProcess> = sleep(random.int(options.burstMs, 2_500)).then(() =>
      kill(random.pick(servers)),
    )
    // Ends after the check of a kill made past the deadline or at the last kill allowed.
    for (;;) {
      const victim = await next
      // What the process wrote before it died is read before the snapshots are taken.
      await waitUntil(
        () => members.every((m) => m.server !== victim || !m.client.provider.wsconnected),
        NOTICE_MS,
        'the clients to notice the kill',
      )
      await check(victim)
      if (performance.now() >= deadline || kills >= options.maxKills) {
        await victim.start()
        break
      }
      await sleep(random.int(0, options.maxDownMs))
      // Set before the start as well: a kill planned at a resync may come before it resolves.
      restarted = { server: victim, at: performance.now() }
      const starting = victim.start()
      next = planKill(victim, starting)
      // Awaited at the top of the loop; until then a failure must not go unhandled.
      next.catch(() => {})
      await starting
      restarted = { server: victim, at: performance.now() }
    }
    for (const member of members) member.typist.stop()
    const notConverged = await converge(members, rooms, options.store)
    const received = members.reduce(
      (sum, member) => sum + receivedCharacters(snapshotReceived(member.own)),
      0,
    )
    return {
      kills,
      burstKills,
      typed: members.reduce((sum, m) => sum + m.typist.typed, 0),
      deleted: members.reduce((sum, m) => sum + m.typist.deleted, 0),
      received,
      lostCharacters: lost.characters.size,
      lostDeletions: lost.deletions.size,
      losses:
        losses.length > MAX_LOSS_LINES
          ? [
              ...losses.slice(0, MAX_LOSS_LINES),
              `... and ${losses.length - MAX_LOSS_LINES} more lines`,
            ]
          : losses,
      notConverged,
    }
  } finally {
    for (const member of members) {
      member.typist.stop()
      member.own.dispose()
      member.client.destroy()
    }
    process.setMaxListeners(maxListeners)
  }
}

/**
 * Calls `kill` from inside the sync event of the `nth` of `providers` to sync from now on, so
 * that nothing else happens in between; or after `RESYNC_MS` if fewer sync by then.
 */
const killAtSync = <T>(
  providers: readonly WebsocketProvider[],
  nth: number,
  kill: () => Promise<T>,
): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    let synced = 0
    let fired = false
    const fire = () => {
      if (fired) return
      fired = true
      clearTimeout(timer)
      for (const provider of providers) provider.off('sync', onSync)
      kill().then(resolve, reject)
    }
    const onSync = (isSynced: boolean) => {
      if (isSynced && ++synced === nth) fire()
    }
    const timer = setTimeout(fire, RESYNC_MS)
    for (const provider of providers) provider.on('sync', onSync)
  })

/**
 * Waits until, in every room, every client is connected and synced and holds what the others
 * and the store hold. Resolves with why not after `CONVERGE_MS`, or null.
 */
const converge = async (
  members: readonly Member[],
  rooms: readonly string[],
  store: StoreLocation,
): Promise<string | null> => {
  const deadline = performance.now() + CONVERGE_MS
  let why = 'nothing checked yet'
  while (performance.now() < deadline) {
    why = (await divergence(members, rooms, store)) ?? ''
    if (why === '') return null
    await sleep(100)
  }
  return why
}

/** Why clients and store differ now, or null when every room agrees everywhere. */
const divergence = async (
  members: readonly Member[],
  rooms: readonly string[],
  store: StoreLocation,
): Promise<string | null> => {
  const away = members.find((m) => !m.client.provider.synced)
  if (away !== undefined) return `client ${away.index} of ${away.room} is not synced`
  const stored = await readStoredRooms(store, rooms)
  try {
    const names = new Map(
      members.map((m) => [
        m.client.doc.clientID,
        `client ${m.index} of process ${m.processNumber}`,
      ]),
    )
    const differences: string[] = []
    for (const room of rooms) {
      const doc = stored.get(room)!.doc
      const apart = members.filter((m) => m.room === room && !sameDocument(doc, m.client.doc))
      if (apart.length === 0) continue
      differences.push(
        `in ${room} the store has ${summary(doc, names)}, but ` +
          apart
            .map(
              (m) =>
                `client ${m.index} (on process ${m.processNumber}) has ${summary(m.client.doc, names)}`,
            )
            .join(', '),
      )
    }
    return differences.length === 0 ? null : differences.join('; ')
  } finally {
    for (const { doc } of stored.values()) doc.destroy()
  }
}

/** Whether two documents hold the same content, deletions included. */
const sameDocument = (a: Y.Doc, b: Y.Doc): boolean =>
  Y.equalSnapshots(Y.snapshot(a), Y.snapshot(b)) &&
  a.getText('text').toString() === b.getText('text').toString()

/** A document in a few words, for messages: its length and each writer's clock. */
const summary = (doc: Y.Doc, names: ReadonlyMap<number, string>): string => {
  const clocks = [...Y.decodeStateVector(Y.encodeStateVector(doc))]
    .sort(([a], [b]) => a - b)
    .map(([client, clock]) => `${names.get(client) ?? client}: ${clock}`)
  return `${doc.getText('text').length} characters (clocks ${clocks.join(', ')})`
}

/**
 * The figures of a run in one line, to quote.
 *
 * @example console.log(figuresLine('SQLite', 1, figures)) // => 'kill soak, SQLite, seed 1: 12 kills ...'
 */
export const figuresLine = (label: string, seed: number, figures: KillSoakFigures): string => {
  const n = (value: number, noun: string) =>
    `${value.toLocaleString('en-US')} ${noun}${value === 1 ? '' : 's'}`
  return (
    `kill soak, ${label}, seed ${seed}: ${n(figures.kills, 'kill')} ` +
    `(${figures.burstKills.toLocaleString('en-US')} while clients reconnected), ` +
    `${n(figures.typed, 'character')} typed and ${figures.deleted.toLocaleString('en-US')} deleted, ` +
    `${n(figures.received, 'character')} received from other clients; ` +
    `lost ${n(figures.lostCharacters, 'character')} and ${n(figures.lostDeletions, 'deletion')}` +
    (figures.notConverged === null ? '' : `; did not converge: ${figures.notConverged}`)
  )
}
