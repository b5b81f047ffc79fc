/**
 * The metrics a `TandemServer` serves at `/metrics`: connections, rooms, updates, bytes,
 * storage latency, refusals, rate-limit closes, and the process's memory and CPU time.
 */
import {
  Counter,
  CounterReading,
  Gauge,
  Histogram,
  type Metric,
  RecentRate,
  renderMetrics,
} from './metrics.js'
import type { RateLimitKind } from './rate-limit.js'

/** Why an upgrade was refused, as the `reason` label of `tandem_connections_refused_total`. */
export type RefusalCause =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'room_full'
  | 'address_limit'
  | 'shutting_down'
  | 'pending_limit'
  | 'headers_timeout'
  | 'error'

const CAUSES: readonly RefusalCause[] = [
  'bad_request',
  'unauthorized',
  'forbidden',
  'room_full',
  'address_limit',
  'shutting_down',
  'pending_limit',
  'headers_timeout',
  'error',
]
const KINDS: readonly RateLimitKind[] = ['messages', 'bytes', 'refused_writes', 'refused_awareness']

/** Why an awareness update was refused, as the `reason` label of `tandem_awareness_refusals_total`. */
export type AwarenessRefusalCause = 'invalid' | 'claimed' | 'claimed_relayed'

const AWARENESS_CAUSES: readonly AwarenessRefusalCause[] = ['invalid', 'claimed', 'claimed_relayed']

/** Upper bounds, in seconds, of the storage latency buckets: 0.5 ms to 5 s. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

/**
 * The server's metrics; `state` reads what is current when they are rendered.
 *
 * @example
 * const metrics = new ServerMetrics({ connections: () => 2, rooms: () => 1 })
 * metrics.stored(120, 3.5)
 * metrics.render() // '# HELP tandem_connections ...'
 */
export class ServerMetrics {
  /** WebSocket connections accepted. */
  readonly connectionsOpened = new Counter(
    'tandem_connections_opened_total',
    'WebSocket connections accepted.',
  )
  /** Upgrades refused before the handshake (and sockets closed before any request), by reason. */
  readonly connectionsRefused = new Counter(
    'tandem_connections_refused_total',
    'Upgrades refused before the WebSocket handshake, and sockets closed before their request, by reason.',
    CAUSES.map((reason) => ({ reason })),
  )
  /** Document updates received from connections. */
  readonly updatesReceived = new Counter(
    'tandem_updates_received_total',
    'Document updates received from connections (sync step 2 and update messages).',
  )
  /** Document updates appended to the store. */
  readonly updatesStored = new Counter(
    'tandem_updates_stored_total',
    'Document updates appended to the store (and then relayed).',
  )
  /** Bytes of document updates appended to the store. */
  readonly bytesStored = new Counter(
    'tandem_stored_bytes_total',
    'Bytes of document updates appended to the store.',
  )
  /** Bytes of WebSocket messages received. */
  readonly bytesReceived = new Counter(
    'tandem_received_bytes_total',
    'Bytes of WebSocket messages received.',
  )
  /** Bytes of WebSocket messages sent. */
  readonly bytesSent = new Counter('tandem_sent_bytes_total', 'Bytes of WebSocket messages sent.')
  /** Updates refused from read-only connections. */
  readonly refusedWrites = new Counter(
    'tandem_refused_writes_total',
    'Updates from read-only connections that would have changed the document, refused.',
  )
  /** Connections closed for going over a rate limit, by limit. */
  readonly rateLimitCloses = new Counter(
    'tandem_rate_limit_closes_total',
    'Connections closed (1008) for going over a rate limit, by limit.',
    KINDS.map((limit) => ({ limit })),
  )
  /** Connections closed for not reading what they were sent. */
  readonly unreadCloses = new Counter(
    'tandem_unread_closes_total',
    'Connections closed (1008) for leaving too much of what they were sent unread.',
  )
  /** Awareness updates refused, by reason. */
  readonly awarenessRefusals = new Counter(
    'tandem_awareness_refusals_total',
    'Awareness updates refused: invalid (the sender is closed), changing a state that belongs to another connection (claimed), or relayed by another instance for a connection here (claimed_relayed).',
    AWARENESS_CAUSES.map((reason) => ({ reason })),
  )
  /** Stored updates Yjs could not apply. */
  readonly applyFailures = new Counter(
    'tandem_apply_failures_total',
    'Stored updates Yjs could not apply (skipped; the room goes on).',
  )
  /** Sessions not kept because their connection went over its session write rate. */
  readonly sessionWritesDropped = new Counter(
    'tandem_session_writes_dropped_total',
    'Sessions not kept because their connection went over its session write rate.',
  )
  /** Connections closed (4401) because their token expired. */
  readonly tokenExpiredCloses = new Counter(
    'tandem_token_expired_closes_total',
    'Connections closed (4401) because their token expired.',
  )
  /** Fresh tokens handed over on open connections, by outcome. */
  readonly tokenRenewals = new Counter(
    'tandem_token_renewals_total',
    'Fresh tokens handed over on open connections, by outcome (refused ones close the connection).',
    [{ outcome: 'accepted' }, { outcome: 'refused' }],
  )
  /** Connections closed for a message that does not decode. */
  readonly malformedCloses = new Counter(
    'tandem_malformed_closes_total',
    'Connections closed (1007) for a message that does not decode.',
  )
  /** How long appends to the store take. */
  readonly appendSeconds = new Histogram(
    'tandem_storage_append_seconds',
    'Seconds from receiving an update to having it in the store, earlier appends of its room included.',
    LATENCY_BUCKETS,
  )
  private readonly storedRate = new RecentRate(10)
  private readonly metrics: readonly Metric[]

  constructor(state: { connections(): number; rooms(): number }) {
    const updatesPerSecond = new Gauge(
      'tandem_updates_per_second',
      'Updates stored per second over the last 10 seconds.',
      () => this.storedRate.perSecond(),
    )
    this.metrics = [
      new Gauge('tandem_connections', 'WebSocket connections open.', state.connections),
      new Gauge('tandem_rooms', 'Rooms (documents) in memory.', state.rooms),
      this.connectionsOpened,
      this.connectionsRefused,
      this.updatesReceived,
      this.updatesStored,
      updatesPerSecond,
      this.bytesStored,
      this.bytesReceived,
      this.bytesSent,
      this.appendSeconds,
      this.refusedWrites,
      this.rateLimitCloses,
      this.malformedCloses,
      this.unreadCloses,
      this.awarenessRefusals,
      this.applyFailures,
      this.tokenExpiredCloses,
      this.tokenRenewals,
      this.sessionWritesDropped,
      new Gauge('process_resident_memory_bytes', 'Resident memory of the process, in bytes.', () =>
        process.memoryUsage.rss(),
      ),
      new Gauge(
        'nodejs_heap_size_used_bytes',
        'V8 heap in use, in bytes.',
        () => process.memoryUsage().heapUsed,
      ),
      new Gauge(
        'nodejs_heap_size_total_bytes',
        'V8 heap reserved, in bytes.',
        () => process.memoryUsage().heapTotal,
      ),
      new CounterReading(
        'process_cpu_seconds_total',
        'User and system CPU time of the process, in seconds.',
        () => {
          const { user, system } = process.cpuUsage()
          return (user + system) / 1e6
        },
      ),
    ]
  }

  /** An update of `bytes` was stored, `milliseconds` after it was received. */
  stored(bytes: number, milliseconds: number): void {
    this.updatesStored.inc()
    this.bytesStored.inc({}, bytes)
    this.storedRate.add()
    this.appendSeconds.observe(milliseconds / 1000)
  }

  /** The exposition text of every metric. */
  render(): string {
    return renderMetrics(this.metrics)
  }
}
