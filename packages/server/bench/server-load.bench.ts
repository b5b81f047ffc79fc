/**
 * Server load: N clients across M rooms typing single characters, against Tandem's server
 * and against the servers users would run instead, in the same run: the stock y-websocket
 * server (`@y/websocket-server` 0.1.1, documents in memory) and `@hocuspocus/server` (4.7.0,
 * no extension). Neither stores anything.
 *
 * Each server runs in a child process of its own on 127.0.0.1, started fresh for every
 * scenario: `TandemServer` over `SqliteStore` (WAL, `synchronous = FULL`: every update is on
 * disk before it is relayed), over `PostgresStore` (a schema of its own on the local
 * PostgreSQL, dropped afterwards; left out, with a note, when none answers outside CI), over
 * an in-memory store (like for like with the peers, which keep nothing), then the two peers.
 * The clients live in this process: stock y-websocket `WebsocketProvider`s for Tandem and the
 * stock server, `HocuspocusProvider`s for hocuspocus, each with its own WebSocket. Each round
 * runs every server once, in a rotating order, with fresh rooms; the first round of a
 * scenario warms up and is not counted.
 *
 * Measured per server: updates relayed per second (receipts of a keystroke at another client
 * of its room), send-to-receipt latency (p50, p99, over every receipt of the counted rounds),
 * the server's CPU time per second and per keystroke, and the live memory a room adds (heap and
 * buffers after a full collection, with the room's clients connected, less the same before
 * they connected). Rows give each Tandem server's ratios to each peer, with the targets of
 * `targetsOf`. One more row compares the two stores: PostgreSQL's p99 at most twice SQLite's.
 */
import { defineSuite, median, type SuiteBuilder, type Target } from '../../../bench/harness.js'
import { formatNumber } from '../../../bench/table.js'
import { neededServices } from '../src/testing/services.js'
import {
  type ClientGrid,
  closeGrid,
  connectGrid,
  type Protocol,
  type Receipts,
  typeAtHumanRate,
  typeFlatOut,
} from './load-clients.js'
import { LoadServer, SERVER_LABEL, type ServerKind } from './load-servers.js'

/** How clients type in a scenario. */
type Pace =
  | { readonly kind: 'human'; readonly meanMs: number; readonly durationMs: number }
  | { readonly kind: 'full'; readonly edits: number; readonly inFlight: number }

/** Rooms, clients per room, and how they type. */
interface Scenario {
  readonly rooms: number
  readonly perRoom: number
  readonly pace: Pace
}

/** About six keystrokes a second per client. */
const HUMAN_MEAN_MS = 1000 / 6
/** Keystrokes a client may have typed that some other client has not received yet. */
const IN_FLIGHT = 4

const FULL_SCENARIOS: readonly Scenario[] = [
  { rooms: 2, perRoom: 5, pace: { kind: 'human', meanMs: HUMAN_MEAN_MS, durationMs: 4_000 } },
  { rooms: 20, perRoom: 5, pace: { kind: 'human', meanMs: HUMAN_MEAN_MS, durationMs: 4_000 } },
  // 200 connections: a busy server, each room a small team.
  { rooms: 50, perRoom: 4, pace: { kind: 'human', meanMs: HUMAN_MEAN_MS, durationMs: 4_000 } },
  { rooms: 2, perRoom: 5, pace: { kind: 'full', edits: 200, inFlight: IN_FLIGHT } },
  { rooms: 20, perRoom: 5, pace: { kind: 'full', edits: 40, inFlight: IN_FLIGHT } },
]
const QUICK_SCENARIOS: readonly Scenario[] = [
  { rooms: 2, perRoom: 3, pace: { kind: 'human', meanMs: HUMAN_MEAN_MS, durationMs: 500 } },
  { rooms: 2, perRoom: 3, pace: { kind: 'full', edits: 30, inFlight: IN_FLIGHT } },
]

/** Rounds per scenario: uncounted warm-up rounds, then counted ones. */
const FULL_ROUNDS = { warmups: 1, counted: 5 }
const QUICK_ROUNDS = { warmups: 0, counted: 1 }

/** Tandem's servers, each compared with every peer. */
const CANDIDATES: readonly ServerKind[] = ['tandem-sqlite', 'tandem-postgres', 'tandem-memory']
/** What users would run instead; every ratio divides by one of them. */
const PEERS: readonly ServerKind[] = ['y-websocket', 'hocuspocus']
/** The shared store's p99 may be at most this many times the embedded one's. */
const POSTGRES_TO_SQLITE_P99: Target = '<= 2'

const PROTOCOL: Record<ServerKind, Protocol> = {
  'tandem-sqlite': 'y-websocket',
  'tandem-postgres': 'y-websocket',
  'tandem-memory': 'y-websocket',
  'y-websocket': 'y-websocket',
  hocuspocus: 'hocuspocus',
}

/** Bounds on each step, so that a stuck server fails the suite instead of hanging it. */
const CONNECT_TIMEOUT_MS = 30_000
const RECEIPTS_TIMEOUT_MS = 60_000
const UNLOAD_TIMEOUT_MS = 10_000

/** What one run of one server measured. */
interface Run {
  readonly receipts: Receipts
  /** The server's CPU time while clients typed (until the last receipt). */
  readonly serverCpuMs: number
  /** This process's CPU time over the same span: the clients' share of the machine. */
  readonly clientCpuMs: number
  /** Live memory the rooms added, per room. */
  readonly bytesPerRoom: number
  readonly rssBytes: number
}

/** One server's figures over the counted rounds of a scenario. */
interface Figures {
  readonly updatesPerSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  /** Server CPU milliseconds per second of typing, per room. */
  readonly cpuMsPerSecondPerRoom: number
  readonly cpuUsPerEdit: number
  readonly bytesPerRoom: number
  readonly rssBytes: number
  /** The client process's CPU time per second: 1 is one core busy. */
  readonly clientCores: number
}

export default defineSuite({
  name: 'server-load',
  description: 'clients typing across rooms: Tandem server vs y-websocket and hocuspocus',
  async define(s) {
    const scenarios = s.quick ? QUICK_SCENARIOS : FULL_SCENARIOS
    const rounds = s.quick ? QUICK_ROUNDS : FULL_ROUNDS
    const servers = await availableServers(s)
    explain(s, rounds.counted)
    for (const scenario of scenarios) {
      const label = labelOf(scenario)
      s.progress(`${label}: ${rounds.warmups} warm-up + ${rounds.counted} counted rounds`)
      const runs = await measureScenario(s, servers, scenario, rounds)
      const figures = new Map(servers.map((kind) => [kind, figuresOf(runs.get(kind)!, scenario)]))
      reportScenario(s, label, scenario, figures)
    }
  },
})

/**
 * Every server, less Tandem over PostgreSQL when no database answers (a note says so). In CI
 * a missing database fails the suite, as it fails the tests.
 */
async function availableServers(s: SuiteBuilder): Promise<ServerKind[]> {
  const all = [...CANDIDATES, ...PEERS]
  const missing = await neededServices('the server load benchmark on PostgreSQL', {
    postgres: true,
  })
  if (missing === null) return all
  s.note(`Tandem (PostgreSQL) left out: ${missing}`)
  return all.filter((kind) => kind !== 'tandem-postgres')
}

/** Notes what the rows measure. */
function explain(s: SuiteBuilder, counted: number): void {
  s.note(
    `each server in its own process on 127.0.0.1, fresh per scenario; clients in the bench ` +
      'process (y-websocket for Tandem and the stock server, HocuspocusProvider for ' +
      `hocuspocus), one WebSocket each; ` +
      `${counted} counted round(s) per scenario, servers in rotating order, fresh rooms per round`,
  )
  s.note(
    `full speed: every client keeps up to ${IN_FLIGHT} keystrokes in flight (not yet received ` +
      'by every other client of its room) and types the next as one lands; human: a keystroke ' +
      `every ${formatNumber(HUMAN_MEAN_MS)} ms ± 50% per client (seeded)`,
  )
  s.note(
    'updates/s: receipts of a keystroke at another client per second, first keystroke to last ' +
      'receipt; latency: keystroke to receipt; memory: live heap and buffers the rooms add, ' +
      'after a full collection',
  )
}

/** `20 rooms × 5, full speed`. */
function labelOf({ rooms, perRoom, pace }: Scenario): string {
  return `${rooms} rooms × ${perRoom}, ${pace.kind === 'human' ? '6 keys/s' : 'full speed'}`
}

/**
 * Runs `scenario` on fresh servers for the given rounds; returns each server's counted runs.
 * The servers are stopped however the scenario ends.
 */
async function measureScenario(
  s: SuiteBuilder,
  servers: readonly ServerKind[],
  scenario: Scenario,
  rounds: { readonly warmups: number; readonly counted: number },
): Promise<Map<ServerKind, Run[]>> {
  const starting = await Promise.allSettled(servers.map((kind) => LoadServer.start(kind)))
  const started = starting.flatMap((result) =>
    result.status === 'fulfilled' ? [result.value] : [],
  )
  try {
    for (const result of starting) if (result.status === 'rejected') throw result.reason
    const runs = new Map<ServerKind, Run[]>(servers.map((kind) => [kind, []]))
    const total = rounds.warmups + rounds.counted
    for (let round = 0; round < total; round++) {
      // Rotate the order, so that no server always follows the same one.
      const order = started.map((_, i) => started[(i + round) % started.length]!)
      for (const server of order) {
        const run = await runOnce(server, scenario, round)
        if (round >= rounds.warmups) runs.get(server.kind)!.push(run)
      }
      s.progress(`  ${labelOf(scenario)}: round ${round + 1} of ${total} done`)
    }
    return runs
  } finally {
    await Promise.allSettled(started.map((server) => server.stop()))
  }
}

/** One run: fresh rooms on `server`, clients connect, type, and every keystroke lands. */
async function runOnce(server: LoadServer, scenario: Scenario, round: number): Promise<Run> {
  await waitForNoRooms(server)
  const before = await server.stats(true)
  const rooms = Array.from({ length: scenario.rooms }, (_, i) => `load-${round}-${i}`)
  const grid = await connectGrid({
    protocol: PROTOCOL[server.kind],
    url: server.url,
    rooms,
    perRoom: scenario.perRoom,
    timeoutMs: CONNECT_TIMEOUT_MS,
  })
  try {
    const cpuBefore = await server.stats(false)
    const clientBefore = process.cpuUsage()
    const receipts = await type(grid, scenario, round)
    const clientCpu = process.cpuUsage(clientBefore)
    const after = await server.stats(true)
    checkConverged(grid)
    return {
      receipts,
      serverCpuMs: after.cpuMs - cpuBefore.cpuMs,
      clientCpuMs: (clientCpu.user + clientCpu.system) / 1000,
      bytesPerRoom: (after.heapBytes - before.heapBytes) / scenario.rooms,
      rssBytes: after.rssBytes,
    }
  } finally {
    closeGrid(grid)
  }
}

function type(grid: ClientGrid, { pace }: Scenario, round: number): Promise<Receipts> {
  if (pace.kind === 'full') {
    return typeFlatOut(grid, {
      edits: pace.edits,
      inFlight: pace.inFlight,
      timeoutMs: RECEIPTS_TIMEOUT_MS,
    })
  }
  return typeAtHumanRate(grid, {
    meanMs: pace.meanMs,
    durationMs: pace.durationMs,
    seed: round + 1,
    timeoutMs: RECEIPTS_TIMEOUT_MS,
  })
}

/** Throws unless every client of each room holds the same text. */
function checkConverged(grid: ClientGrid): void {
  for (const room of grid) {
    const texts = new Set(room.map((client) => client.text.toString()))
    if (texts.size !== 1) throw new Error('the clients of a room hold different texts')
  }
}

/** Waits until the previous round's rooms are unloaded, so that memory starts level. */
async function waitForNoRooms(server: LoadServer): Promise<void> {
  const deadline = performance.now() + UNLOAD_TIMEOUT_MS
  for (;;) {
    const { rooms } = await server.stats(false)
    if (rooms === 0) return
    if (performance.now() > deadline) {
      throw new Error(`${server.kind} still holds ${rooms} rooms after ${UNLOAD_TIMEOUT_MS} ms`)
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Medians over runs, percentiles over every receipt of them. */
function figuresOf(runs: readonly Run[], scenario: Scenario): Figures {
  if (runs.length === 0) throw new Error('no counted runs')
  const seconds = (run: Run) => run.receipts.elapsedMs / 1000
  const latencies = new Float64Array(runs.reduce((n, run) => n + run.receipts.receipts, 0))
  let offset = 0
  for (const run of runs) {
    latencies.set(run.receipts.latenciesMs, offset)
    offset += run.receipts.receipts
  }
  latencies.sort()
  return {
    updatesPerSecond: median(runs.map((run) => run.receipts.receipts / seconds(run))),
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    cpuMsPerSecondPerRoom:
      median(runs.map((run) => run.serverCpuMs / seconds(run))) / scenario.rooms,
    cpuUsPerEdit: median(runs.map((run) => (1000 * run.serverCpuMs) / run.receipts.edits)),
    bytesPerRoom: median(runs.map((run) => run.bytesPerRoom)),
    rssBytes: Math.max(...runs.map((run) => run.rssBytes)),
    clientCores: median(runs.map((run) => run.clientCpuMs / run.receipts.elapsedMs)),
  }
}

/** The scenario's ratio rows, and a note per server with its figures. */
function reportScenario(
  s: SuiteBuilder,
  label: string,
  scenario: Scenario,
  figures: ReadonlyMap<ServerKind, Figures>,
): void {
  const full = scenario.pace.kind === 'full'
  const ratio = (name: string, value: number, target?: Target) =>
    s.report({ name: `${label}: ${name}`, value, unit: 'x', target })
  for (const kind of CANDIDATES) {
    const mine = figures.get(kind)
    if (mine === undefined) continue
    for (const peerKind of PEERS) {
      const peer = figures.get(peerKind)!
      const versus = `${SERVER_LABEL[kind]} / ${SERVER_LABEL[peerKind]}`
      const targets = targetsOf(kind, peerKind, full)
      ratio(
        `updates/s, ${versus}`,
        mine.updatesPerSecond / peer.updatesPerSecond,
        targets.updatesPerSecond,
      )
      ratio(`p99 latency, ${versus}`, mine.p99Ms / peer.p99Ms, targets.p99)
      ratio(`server CPU per keystroke, ${versus}`, mine.cpuUsPerEdit / peer.cpuUsPerEdit)
      ratio(`memory per room, ${versus}`, mine.bytesPerRoom / peer.bytesPerRoom)
    }
  }
  const postgres = figures.get('tandem-postgres')
  const sqlite = figures.get('tandem-sqlite')!
  if (postgres !== undefined) {
    ratio(
      `p99 latency, ${SERVER_LABEL['tandem-postgres']} / ${SERVER_LABEL['tandem-sqlite']}`,
      postgres.p99Ms / sqlite.p99Ms,
      POSTGRES_TO_SQLITE_P99,
    )
  }
  for (const [kind, f] of figures) {
    s.note(
      `${label}, ${SERVER_LABEL[kind]}: ${formatNumber(f.updatesPerSecond)} updates/s, ` +
        `p50 ${formatNumber(f.p50Ms)} ms, p99 ${formatNumber(f.p99Ms)} ms, server CPU ` +
        `${formatNumber(f.cpuMsPerSecondPerRoom)} ms/s per room ` +
        `(${formatNumber(f.cpuUsPerEdit)} µs per keystroke), ` +
        `${formatNumber(f.bytesPerRoom / 1024)} KiB per room, ` +
        `RSS ${formatNumber(f.rssBytes / 2 ** 20)} MiB, clients ${formatNumber(f.clientCores)} cores`,
    )
  }
}

/**
 * The targets of `kind` against `peer`: at least the peer's throughput at full speed, and a
 * lower p99. Against hocuspocus they hold for every Tandem server, stored or not. Against the
 * stock y-websocket server they hold for Tandem in memory only: the two then do the same work
 * (apply an update, relay it), whereas a stored update first waits for its commit, which the
 * stock server never pays; the stored servers' ratios to it are shown without a target.
 */
function targetsOf(
  kind: ServerKind,
  peer: ServerKind,
  full: boolean,
): { updatesPerSecond?: Target; p99?: Target } {
  if (peer === 'y-websocket' && kind !== 'tandem-memory') return {}
  return { updatesPerSecond: full ? '>= 1' : undefined, p99: '< 1' }
}

/** The nearest-rank percentile `q` of ascending `sorted`. */
function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) throw new Error('no latencies were recorded')
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!
}
