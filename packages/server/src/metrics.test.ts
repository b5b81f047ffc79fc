import { describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { Counter, Histogram, METRICS_CONTENT_TYPE, RecentRate, renderMetrics } from './metrics.js'
import { useTestServers } from './testing/test-servers.js'

const WAIT = { timeout: 10_000, interval: 20 }

/** One sample: its metric name, labels and value. */
interface Sample {
  readonly name: string
  readonly labels: Record<string, string>
  readonly value: number
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped'])

/**
 * Parses exposition text, checking it as it goes: HELP and TYPE once per family and before
 * its samples, sample names that belong to a declared family, well-formed labels and values,
 * no sample twice, and histograms whose buckets are cumulative and end in `+Inf` == `_count`.
 */
const parse = (text: string): Sample[] => {
  expect(text.endsWith('\n')).toBe(true)
  const help = new Set<string>()
  const types = new Map<string, string>()
  const samples: Sample[] = []
  const seen = new Set<string>()
  for (const line of text.slice(0, -1).split('\n')) {
    const comment = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.+)$/.exec(line)
    if (comment) {
      const [, kind, name, rest] = comment
      if (kind === 'HELP') {
        expect(help.has(name!), `HELP ${name} twice`).toBe(false)
        help.add(name!)
      } else {
        expect(types.has(name!), `TYPE ${name} twice`).toBe(false)
        expect(TYPES.has(rest!), `TYPE ${name} ${rest}`).toBe(true)
        types.set(name!, rest!)
      }
      continue
    }
    const match = SAMPLE.exec(line)
    expect(match, `not a sample line: ${line}`).not.toBeNull()
    const [, name, , labelText = '', valueText] = match!
    const labels: Record<string, string> = {}
    let rest = labelText
    while (rest.length > 0) {
      const label = LABEL.exec(rest)
      expect(label, `bad labels in ${line}`).not.toBeNull()
      labels[label![1]!] = label![2]!
      rest = rest.slice(label![0].length)
    }
    const value = valueText === '+Inf' ? Number.POSITIVE_INFINITY : Number(valueText)
    expect(Number.isNaN(value), `bad value in ${line}`).toBe(false)
    const family = types.has(name!) ? name! : name!.replace(/_(bucket|sum|count)$/, '')
    expect(types.has(family), `no TYPE for ${line}`).toBe(true)
    expect(help.has(family), `no HELP for ${line}`).toBe(true)
    if (family !== name) expect(types.get(family)).toBe('histogram')
    expect(seen.has(`${name}${labelText}`), `${line} twice`).toBe(false)
    seen.add(`${name}${labelText}`)
    samples.push({ name: name!, labels, value })
  }
  for (const [family, type] of types) {
    if (type !== 'histogram') continue
    const buckets = samples.filter((s) => s.name === `${family}_bucket`)
    const counts = buckets.map((s) => s.value)
    expect(counts).toEqual([...counts].sort((a, b) => a - b))
    expect(buckets.at(-1)?.labels.le).toBe('+Inf')
    expect(counts.at(-1)).toBe(samples.find((s) => s.name === `${family}_count`)?.value)
  }
  return samples
}

/** The value of the sample `name` with exactly `labels`. */
const sampleValue = (samples: Sample[], name: string, labels: Record<string, string> = {}) => {
  const found = samples.find(
    (s) => s.name === name && JSON.stringify(s.labels) === JSON.stringify(labels),
  )
  if (!found) throw new Error(`no sample ${name} ${JSON.stringify(labels)}`)
  return found.value
}

const servers = useTestServers('metrics')

describe('GET /metrics', () => {
  it('serves valid exposition text whose values follow the traffic', async () => {
    const { url, port } = await servers.start({
      maxConnectionsPerRoom: 2,
      rateLimits: { messageBurst: 30, messagesPerSecond: 1 },
    })
    const scrape = async () => {
      const response = await fetch(`http://127.0.0.1:${port}/metrics`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe(METRICS_CONTENT_TYPE)
      return parse(await response.text())
    }

    const before = await scrape()
    expect(sampleValue(before, 'tandem_connections')).toBe(0)
    expect(sampleValue(before, 'tandem_rooms')).toBe(0)
    expect(sampleValue(before, 'tandem_updates_stored_total')).toBe(0)
    expect(sampleValue(before, 'process_resident_memory_bytes')).toBeGreaterThan(0)
    expect(sampleValue(before, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0)
    expect(sampleValue(before, 'process_cpu_seconds_total')).toBeGreaterThan(0)

    const [a, b] = [servers.client(url, 'counted'), servers.client(url, 'counted')]
    await Promise.all([a.synced(), b.synced()])
    for (const char of 'metrics') a.text.insert(a.text.length, char)
    await vi.waitFor(() => expect(b.text.toString()).toBe('metrics'), WAIT)
    // A third connection is over the room's limit.
    expect((await fetch(`http://127.0.0.1:${port}/counted`)).status).toBe(503)
    const refused = new WebSocket(`${url}/counted`)
    await new Promise((resolve) => refused.once('error', resolve))

    const during = await scrape()
    expect(sampleValue(during, 'tandem_connections')).toBe(2)
    expect(sampleValue(during, 'tandem_rooms')).toBe(1)
    expect(sampleValue(during, 'tandem_connections_opened_total')).toBe(2)
    expect(sampleValue(during, 'tandem_connections_refused_total', { reason: 'room_full' })).toBe(1)
    expect(sampleValue(during, 'tandem_updates_received_total')).toBeGreaterThanOrEqual(7)
    const stored = sampleValue(during, 'tandem_updates_stored_total')
    expect(stored).toBe(7)
    expect(sampleValue(during, 'tandem_storage_append_seconds_count')).toBe(stored)
    expect(sampleValue(during, 'tandem_storage_append_seconds_sum')).toBeGreaterThan(0)
    expect(sampleValue(during, 'tandem_stored_bytes_total')).toBeGreaterThan(7)
    for (const name of ['tandem_received_bytes_total', 'tandem_sent_bytes_total']) {
      expect(sampleValue(during, name)).toBeGreaterThan(sampleValue(before, name))
    }
    // The rate reads whole seconds past: the updates show once their second is over.
    await vi.waitFor(
      async () => expect(sampleValue(await scrape(), 'tandem_updates_per_second')).toBe(0.7),
      WAIT,
    )

    // A burst over the rate limit closes that connection and is counted.
    const flooder = new WebSocket(`${url}/other`)
    await new Promise((resolve) => flooder.once('open', resolve))
    const closed = new Promise((resolve) => flooder.once('close', resolve))
    for (let i = 0; i < 40; i++) flooder.send(new Uint8Array([3]))
    await closed
    b.destroy()
    await vi.waitFor(async () => {
      const after = await scrape()
      expect(sampleValue(after, 'tandem_connections')).toBe(1)
      expect(sampleValue(after, 'tandem_rate_limit_closes_total', { limit: 'messages' })).toBe(1)
      expect(sampleValue(after, 'tandem_connections_opened_total')).toBe(3)
    }, WAIT)
  })
})

describe('metric primitives', () => {
  it('render counters, labels and histograms as the format spells them', () => {
    const counter = new Counter('x_events_total', 'Events,\nby "kind".', [{ kind: 'a' }])
    counter.inc({ kind: 'b"\\' }, 2)
    const histogram = new Histogram('x_seconds', 'Latency.', [0.1, 1])
    for (const value of [0.05, 0.5, 3]) histogram.observe(value)
    expect(renderMetrics([counter, histogram])).toBe(
      [
        '# HELP x_events_total Events,\\nby "kind".',
        '# TYPE x_events_total counter',
        'x_events_total{kind="a"} 0',
        'x_events_total{kind="b\\"\\\\"} 2',
        '# HELP x_seconds Latency.',
        '# TYPE x_seconds histogram',
        'x_seconds_bucket{le="0.1"} 1',
        'x_seconds_bucket{le="1"} 2',
        'x_seconds_bucket{le="+Inf"} 3',
        'x_seconds_sum 3.55',
        'x_seconds_count 3',
        '',
      ].join('\n'),
    )
    expect(() => counter.inc({}, -1)).toThrow(RangeError)
    expect(() => new Counter('bad name', 'x')).toThrow(TypeError)
    expect(() => new Histogram('x', 'x', [1, 1])).toThrow(RangeError)
  })

  it('measure a recent rate over whole seconds', () => {
    let now = 100_000
    const rate = new RecentRate(10, () => now)
    for (let i = 0; i < 30; i++) rate.add()
    expect(rate.perSecond()).toBe(0)
    now += 1000
    expect(rate.perSecond()).toBe(3)
    now += 5000
    rate.add(10)
    expect(rate.perSecond()).toBe(3)
    now += 1000
    expect(rate.perSecond()).toBe(4)
    now += 20_000
    expect(rate.perSecond()).toBe(0)
  })
})
