/**
 * Metrics in the Prometheus text exposition format, version 0.0.4: counters, gauges and
 * histograms, each rendered with its `# HELP` and `# TYPE` lines.
 */

/** The `Content-Type` of the exposition format. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

/** Label names and values of one sample. */
export type Labels = Readonly<Record<string, string>>

/** Something that renders itself as exposition text. */
export interface Metric {
  /** The metric's name in the exposition text, e.g. `tandem_connections`. */
  readonly name: string
  /** Its `# HELP` and `# TYPE` lines and one line per sample. */
  render(): string
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/

const header = (name: string, help: string, type: string): string => {
  if (!NAME.test(name)) throw new TypeError(`not a metric name: ${name}`)
  return `# HELP ${name} ${help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}\n# TYPE ${name} ${type}\n`
}

const labelText = (labels: Labels): string => {
  const pairs = Object.entries(labels).map(
    ([key, value]) =>
      `${key}="${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`,
  )
  return pairs.length === 0 ? '' : `{${pairs.join(',')}}`
}

/** A sample value as the format spells it. */
const valueText = (value: number): string => {
  if (value === Number.POSITIVE_INFINITY) return '+Inf'
  if (value === Number.NEGATIVE_INFINITY) return '-Inf'
  return Number.isNaN(value) ? 'NaN' : String(value)
}

const sample = (name: string, labels: Labels, value: number): string =>
  `${name}${labelText(labels)} ${valueText(value)}\n`

/**
 * A value that only goes up, per label set. Its name should end in `_total`. The label sets
 * in `known` are shown (at 0) before their first count, so they are there to graph.
 *
 * @example
 * const refused = new Counter('x_refused_total', 'Refused.', [{ reason: 'full' }])
 * refused.inc({ reason: 'full' })
 */
export class Counter implements Metric {
  private readonly values = new Map<string, { labels: Labels; value: number }>()

  constructor(
    /** The metric's name, ending in `_total`. */
    readonly name: string,
    private readonly help: string,
    known: readonly Labels[] = [{}],
  ) {
    header(name, help, 'counter')
    for (const labels of known) this.values.set(labelText(labels), { labels, value: 0 })
  }

  /** Adds `by` (default 1, never negative) to the sample with `labels`. */
  inc(labels: Labels = {}, by = 1): void {
    if (!(by >= 0)) throw new RangeError(`a counter only goes up, got ${by}`)
    const key = labelText(labels)
    const entry = this.values.get(key)
    if (entry) entry.value += by
    else this.values.set(key, { labels, value: by })
  }

  /** The value of the sample with `labels` (0 when never counted). */
  value(labels: Labels = {}): number {
    return this.values.get(labelText(labels))?.value ?? 0
  }

  /** The exposition text: one line per label set. */
  render(): string {
    let text = header(this.name, this.help, 'counter')
    for (const { labels, value } of this.values.values()) text += sample(this.name, labels, value)
    return text
  }
}

/**
 * A value read when the metrics are rendered.
 *
 * @example new Gauge('x_rooms', 'Rooms in memory.', () => rooms.size)
 */
export class Gauge implements Metric {
  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly read: () => number,
  ) {
    header(name, help, 'gauge')
  }

  render(): string {
    return header(this.name, this.help, 'gauge') + sample(this.name, {}, this.read())
  }
}

/**
 * A counter kept elsewhere (the process's CPU time), read when the metrics are rendered.
 *
 * @example new CounterReading('process_cpu_seconds_total', 'CPU time.', () => cpuSeconds())
 */
export class CounterReading implements Metric {
  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly read: () => number,
  ) {
    header(name, help, 'counter')
  }

  render(): string {
    return header(this.name, this.help, 'counter') + sample(this.name, {}, this.read())
  }
}

/**
 * Observations counted into cumulative buckets, with their sum and count.
 *
 * @example const latency = new Histogram('x_seconds', 'Latency.', [0.01, 0.1, 1]); latency.observe(0.02)
 */
export class Histogram implements Metric {
  private readonly counts: number[]
  private sum = 0
  private count = 0

  constructor(
    /** The metric's name, e.g. `tandem_storage_seconds`. */
    readonly name: string,
    private readonly help: string,
    /** Upper bounds of the buckets, increasing; `+Inf` is added when rendered. */
    readonly buckets: readonly number[],
  ) {
    header(name, help, 'histogram')
    if (
      buckets.some((bound, i) => !Number.isFinite(bound) || (i > 0 && bound <= buckets[i - 1]!))
    ) {
      throw new RangeError(`histogram buckets must be finite and increasing: ${buckets.join(', ')}`)
    }
    this.counts = buckets.map(() => 0)
  }

  /** Counts `value` into every bucket whose bound it does not exceed, and into the sum. */
  observe(value: number): void {
    for (const [i, bound] of this.buckets.entries()) if (value <= bound) this.counts[i]! += 1
    this.sum += value
    this.count += 1
  }

  /** The exposition text: one cumulative line per bucket, then `_sum` and `_count`. */
  render(): string {
    let text = header(this.name, this.help, 'histogram')
    for (const [i, bound] of this.buckets.entries()) {
      text += sample(`${this.name}_bucket`, { le: valueText(bound) }, this.counts[i]!)
    }
    text += sample(`${this.name}_bucket`, { le: '+Inf' }, this.count)
    text += sample(`${this.name}_sum`, {}, this.sum)
    return text + sample(`${this.name}_count`, {}, this.count)
  }
}

/**
 * Events per second over the last `seconds` whole seconds (the current second excluded, so a
 * steady rate reads steady).
 *
 * @example const updates = new RecentRate(10); updates.add(); updates.perSecond()
 */
export class RecentRate {
  private readonly slots: { second: number; count: number }[]

  constructor(
    readonly seconds = 10,
    private readonly now: () => number = Date.now,
  ) {
    this.slots = Array.from({ length: seconds + 1 }, () => ({ second: -1, count: 0 }))
  }

  add(count = 1): void {
    const second = Math.floor(this.now() / 1000)
    const slot = this.slots[second % this.slots.length]!
    if (slot.second !== second) {
      slot.second = second
      slot.count = 0
    }
    slot.count += count
  }

  perSecond(): number {
    const current = Math.floor(this.now() / 1000)
    let total = 0
    for (const slot of this.slots) {
      if (slot.second < current && slot.second >= current - this.seconds) total += slot.count
    }
    return total / this.seconds
  }
}

/** The exposition text of `metrics`, in order. */
export const renderMetrics = (metrics: readonly Metric[]): string =>
  metrics.map((metric) => metric.render()).join('')
