/**
 * The benchmark harness: suites register cases and rows; the harness measures the cases
 * and computes the rows.
 *
 * A case is a fresh `setup()` (not timed) followed by one timed `run(state)`. Cases tied by a
 * comparison or scaling row are measured interleaved (A, B, A, B, ...) so machine drift hits
 * both alike, after warm-up runs. With `node --expose-gc`, each group starts on a fully
 * collected heap and every timed run after a young-generation collection (see
 * {@link GcMode}). Speed is judged by ratios against a peer from the same run, never by
 * absolute times: a missed target is reported, not thrown; an exception in a case is a failure.
 *
 * Example:
 * ```ts
 * export default defineSuite({
 *   name: 'buffer-trace',
 *   define(s) {
 *     const trace = loadTrace('rustcode', { quick: s.quick })
 *     const peer = s.case({ name: 'Y.Text', setup: () => trace, run: replayOnYText })
 *     const cand = s.case({ name: 'TextBuffer', setup: () => trace, run: replayOnBuffer })
 *     s.compare({ candidate: cand, peer, target: '<= 1.3' })
 *   },
 * })
 * ```
 */

/** Marks an object made by {@link defineSuite}. */
export const SUITE_KIND = 'tandem.bench.suite'

/** A bound on a ratio, e.g. `'<= 1.3'`. */
export type Target = `<= ${number}` | `< ${number}` | `>= ${number}` | `> ${number}`

/**
 * Units for a report row of a case: time per run (`ms`, `s`, `µs`; `auto` is milliseconds in
 * the JSON, shown in whichever unit reads best), per operation (`µs/op` etc., needs the
 * case's `ops`; `op` is shown as the case's `opUnit`), or throughput (`ops/s`).
 */
export type TimeUnit = 'auto' | 'ms' | 's' | 'µs' | 'ns/op' | 'µs/op' | 'ms/op' | 'ops/s'

/**
 * The collection forced before each timed run (when node runs with `--expose-gc`).
 * `'minor'` (default) empties the young generation twice, so setup's garbage is not collected
 * inside the timing and the objects setup keeps are already promoted: V8 moves an object to
 * the old generation on the second young collection it survives, and that copy, made on the
 * clock, would charge the run for setup's work (about 10 ms for a 10,000-line editor). `'major'` collects the whole heap; it is steadier for runs that allocate
 * hundreds of megabytes, but a full collection frees the hidden classes of short-lived objects
 * and V8 then deoptimizes the code that embedded them, so the next run is partly measured
 * before re-optimization (a 15 ms trace replay measures 100+ ms). Every group of cases starts
 * with a full collection in any mode but `'none'`, ahead of its warm-up runs.
 */
export type GcMode = 'minor' | 'major' | 'none'

/** How many times cases run and for how long. */
export interface MeasureOptions {
  /** Untimed runs per case before measuring. */
  readonly warmups: number
  /** Measured runs per case, unless the group exceeds 3x its budget first. */
  readonly minRuns: number
  /** Measured runs per case at most. */
  readonly maxRuns: number
  /** Wall time per group of interleaved cases after which no more runs start (past minRuns). */
  readonly budgetMs: number
  readonly gc: GcMode
}

/** Defaults for a full run. */
export const FULL_MEASURE: MeasureOptions = {
  warmups: 2,
  minRuns: 5,
  maxRuns: 15,
  budgetMs: 12_000,
  gc: 'minor',
}
/** Defaults for `--quick`; a suite's own options can only lower these. */
export const QUICK_MEASURE: MeasureOptions = {
  warmups: 1,
  minRuns: 3,
  maxRuns: 3,
  budgetMs: 1_500,
  gc: 'minor',
}

/** One benchmark case. `S` is the state `setup` makes and `run` consumes. */
export interface CaseSpec<S> {
  /** Unique within the suite. */
  readonly name: string
  /** Makes fresh state for one run; not timed. */
  readonly setup: () => S | Promise<S>
  /** The timed work. A returned promise is awaited inside the timing. */
  readonly run: (state: S) => unknown
  /** Checks the outcome of the first run (untimed); throw to fail the case. */
  readonly check?: (state: S, result: unknown) => void | Promise<void>
  /** Releases resources after every run (untimed), even a failed one. */
  readonly teardown?: (state: S) => void | Promise<void>
  /** Operations one run performs, for per-op units and per-op scaling rows. */
  readonly ops?: number
  /** What an operation is called in units: `'patch'` shows `µs/patch`. Default `'op'`. */
  readonly opUnit?: string
}

/** A registered case, to refer to in rows. */
export interface CaseRef {
  readonly name: string
}

/** Candidate against a peer: ratio = candidate median / peer median. */
export interface CompareRowSpec {
  readonly name?: string
  readonly candidate: CaseRef
  readonly peer: CaseRef
  /** Without a target the row only informs. */
  readonly target?: Target
  /** Compare time per op (each case's median / its `ops`) instead of time per run. */
  readonly perOp?: boolean
}

/** The same work at two sizes: ratio = large median / small median. */
export interface ScalingRowSpec {
  readonly name?: string
  readonly small: CaseRef
  readonly large: CaseRef
  /** Without a target the row only informs. */
  readonly target?: Target
  /** Compare time per op: a linear cost then has ratio 1. */
  readonly perOp?: boolean
}

/** A case's time in a unit. */
export interface CaseReportSpec {
  readonly name?: string
  readonly case: CaseRef
  readonly unit: TimeUnit
}

/** Any number worth showing (sizes, counts), computed after the suite's cases ran. */
export interface ValueReportSpec {
  readonly name: string
  readonly value: number | (() => number | Promise<number>)
  readonly unit: string
  /** A bound on the value itself, e.g. `'>= 1'` for a throughput ratio measured by the suite. */
  readonly target?: Target
}

/** One point of a plot line: a measured case, or a number of milliseconds found otherwise. */
export type PlotPointSpec =
  | { readonly x: number; readonly case: CaseRef }
  /** `atLeast`: the work was stopped after `ms`, so the point is a lower bound. */
  | { readonly x: number; readonly ms: number; readonly atLeast?: boolean }

/** A line of a plot, e.g. one implementation across sizes. */
export interface PlotSeriesSpec {
  readonly name: string
  readonly points: readonly PlotPointSpec[]
}

/**
 * A chart of cost against size, which `pnpm bench` draws as an SVG file named after `name`.
 * Each point's y is its case's median time per run, or per op with `perOp`.
 */
export interface PlotSpec {
  /** File stem, e.g. `multi-cursor`; unique across suites. */
  readonly name: string
  readonly title: string
  /** What x counts, e.g. `cursors`. */
  readonly xLabel: string
  readonly perOp?: boolean
  readonly series: readonly PlotSeriesSpec[]
}

/** What a suite's `define` gets. */
export interface SuiteBuilder {
  /** Small sizes for CI: the suite must then finish in a few seconds. */
  readonly quick: boolean
  /** Prints a progress line to stderr. */
  progress(message: string): void
  /** Adds a line printed under the suite's table. */
  note(message: string): void
  /** Registers a case; every case is measured, shown in a row or on its own. */
  case<S>(spec: CaseSpec<S>): CaseRef
  /** A candidate/peer ratio row; the two cases are measured interleaved. */
  compare(spec: CompareRowSpec): void
  /** A large/small ratio row of the same work at two sizes, measured interleaved. */
  scaling(spec: ScalingRowSpec): void
  /** A number with a unit: a case's time, or any value. */
  report(spec: CaseReportSpec | ValueReportSpec): void
  /** A chart of cost against size, drawn from the cases' medians after they are measured. */
  plot(spec: PlotSpec): void
  /**
   * A case's median time per run in milliseconds, once measured; null before, or when it
   * failed. For value rows computed from a case: their `value` functions run after measuring.
   */
  medianMs(ref: CaseRef): number | null
  /**
   * Runs `cleanup` once the suite's rows are computed, even when a case failed: for what
   * several cases share, such as a browser or a server.
   */
  after(cleanup: () => unknown): void
}

/** What a suite file default-exports, via {@link defineSuite}. */
export interface SuiteDefinition {
  /** Short name, matched by `--filter`. */
  readonly name: string
  readonly description?: string
  /** Overrides of {@link FULL_MEASURE}; in quick mode they can only lower {@link QUICK_MEASURE}. */
  readonly measure?: Partial<MeasureOptions>
  /** Registers cases and rows; may prepare data (and print progress) first. */
  define(s: SuiteBuilder): void | Promise<void>
}

/** A suite definition marked for discovery. */
export interface Suite extends SuiteDefinition {
  readonly kind: typeof SUITE_KIND
}

/** Declares a suite. Nothing runs until the runner calls `define`. */
export function defineSuite(definition: SuiteDefinition): Suite {
  if (typeof definition.name !== 'string' || definition.name === '') {
    throw new TypeError('a suite needs a name')
  }
  return { ...definition, kind: SUITE_KIND }
}

/** Whether `value` is a suite made by {@link defineSuite}. */
export function isSuite(value: unknown): value is Suite {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === SUITE_KIND &&
    typeof (value as { define?: unknown }).define === 'function'
  )
}

/** Measured result of one case. Times are milliseconds per run. */
export interface CaseResult {
  readonly name: string
  readonly ops: number | null
  readonly opUnit: string
  readonly warmups: number
  readonly runs: number
  readonly samplesMs: readonly number[]
  readonly medianMs: number | null
  readonly minMs: number | null
  readonly maxMs: number | null
  readonly meanMs: number | null
  /** Median absolute deviation as a percentage of the median: the run-to-run noise. */
  readonly madPercent: number | null
  readonly error: string | null
}

/** A computed row. For compare rows `a` is the candidate and `b` the peer; for scaling rows
 * `a` is the large case and `b` the small one. */
export type RowResult = ReportRowResult | RatioRowResult

/** A number with a unit: a case's time in a {@link TimeUnit}, or a value row. */
export interface ReportRowResult {
  readonly kind: 'report'
  readonly name: string
  readonly case: string | null
  readonly unit: string
  /** The value is milliseconds, to show in a readable unit. */
  readonly autoUnit: boolean
  /** From the median run (or the value of a value row). */
  readonly value: number | null
  /** From the fastest run. */
  readonly best: number | null
  readonly runs: number
  /** A value row's target, checked against its value; null for case rows. */
  readonly target: Target | null
  /** Null without a target, or when the value could not be computed. */
  readonly met: boolean | null
  readonly error: string | null
}

/** A compare or scaling row: two cases' times and their ratio against the target. */
export interface RatioRowResult {
  readonly kind: 'compare' | 'scaling'
  readonly name: string
  readonly a: string
  readonly b: string
  readonly perOp: boolean
  /** What an op is called, when per op and both cases agree. */
  readonly opUnit: string | null
  /** Milliseconds per run, or per op with `perOp`; likewise the next three. */
  readonly aMedianMs: number | null
  readonly aMinMs: number | null
  readonly bMedianMs: number | null
  readonly bMinMs: number | null
  /** a median / b median. */
  readonly ratio: number | null
  /** a min / b min. */
  readonly minRatio: number | null
  /** Median of the per-round ratios of the interleaved runs. */
  readonly pairedRatio: number | null
  readonly target: Target | null
  /** Null without a target, or when a case failed. */
  readonly met: boolean | null
  readonly runs: number
  readonly error: string | null
}

/** One point of a plotted line, in milliseconds per run (or per op). */
export interface PlotPointResult {
  readonly x: number
  /** Null when the case failed. */
  readonly ms: number | null
  readonly atLeast: boolean
}

/** A plot with its points resolved, as `pnpm bench` draws it. */
export interface PlotResult {
  readonly name: string
  readonly title: string
  readonly xLabel: string
  readonly perOp: boolean
  readonly series: readonly { readonly name: string; readonly points: readonly PlotPointResult[] }[]
}

/** Everything one suite produced. */
export interface SuiteResult {
  readonly name: string
  readonly file: string
  readonly description: string
  readonly quick: boolean
  readonly measure: MeasureOptions
  readonly durationMs: number
  readonly cases: readonly CaseResult[]
  readonly rows: readonly RowResult[]
  readonly notes: readonly string[]
  readonly plots: readonly PlotResult[]
  /** Set when the suite or one of its cases threw. */
  readonly error: string | null
}

/** Options for {@link runSuite}. */
export interface RunSuiteOptions {
  readonly quick: boolean
  /** Where the suite was loaded from, for the results. */
  readonly file?: string
  /** Overrides every suite's {@link GcMode}. */
  readonly gc?: GcMode
  /** Progress output; default stderr. */
  readonly log?: (line: string) => void
}

interface CaseEntry {
  readonly ref: CaseRef
  readonly spec: CaseSpec<unknown>
  readonly samples: number[]
  warmups: number
  checked: boolean
  error: string | null
}

type RowSpec =
  | {
      readonly kind: 'compare' | 'scaling'
      readonly name: string
      readonly a: CaseEntry
      readonly b: CaseEntry
      readonly target: Target | null
      readonly perOp: boolean
    }
  | {
      readonly kind: 'report'
      readonly name: string
      readonly entry: CaseEntry
      readonly unit: TimeUnit
    }
  | { readonly kind: 'value'; readonly spec: ValueReportSpec }

const gc = (globalThis as { gc?: (options?: { type: 'minor' }) => void }).gc

/** Whether runs are separated by a forced garbage collection (`node --expose-gc`). */
export const gcExposed = typeof gc === 'function'

function collect(mode: GcMode): void {
  if (gc === undefined || mode === 'none') return
  // Called without options, gc() is a full collection on every node version.
  if (mode === 'major') gc()
  else {
    gc({ type: 'minor' })
    gc({ type: 'minor' })
  }
}

const PROGRESS_EVERY_MS = 2_000
const SHORT_RUN_MS = 1
const MIN_STEP_TIMEOUT_MS = 60_000

/**
 * Defines and measures one suite. Never throws for a case's exception: it is recorded in
 * the result's `error` (and printed to the log), and the remaining cases still run.
 */
export async function runSuite(suite: Suite, options: RunSuiteOptions): Promise<SuiteResult> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  const started = performance.now()
  const since = () => `${((performance.now() - started) / 1000).toFixed(1)}s`
  const say = (message: string) => log(`[${suite.name} +${since()}] ${message}`)
  let measure = options.quick ? QUICK_MEASURE : FULL_MEASURE
  const entries: CaseEntry[] = []
  const rows: RowSpec[] = []
  const notes: string[] = []
  const errors: string[] = []
  const byRef = new Map<CaseRef, CaseEntry>()
  const plots: PlotSpec[] = []
  const cleanups: (() => unknown)[] = []

  const entryOf = (ref: CaseRef, role: string): CaseEntry => {
    const entry = byRef.get(ref)
    if (entry === undefined) throw new TypeError(`${role} is not a case of suite ${suite.name}`)
    return entry
  }
  const builder: SuiteBuilder = {
    quick: options.quick,
    progress: say,
    note: (message) => notes.push(message),
    case: <S>(spec: CaseSpec<S>): CaseRef => {
      if (typeof spec.name !== 'string' || spec.name === '') {
        throw new TypeError('a case needs a name')
      }
      if (entries.some((e) => e.spec.name === spec.name)) {
        throw new TypeError(`duplicate case name ${JSON.stringify(spec.name)}`)
      }
      if (spec.ops !== undefined && !(spec.ops > 0)) {
        throw new RangeError(`case ${spec.name}: ops must be positive, got ${spec.ops}`)
      }
      const ref: CaseRef = Object.freeze({ name: spec.name })
      const entry: CaseEntry = {
        ref,
        spec: spec as CaseSpec<unknown>,
        samples: [],
        warmups: 0,
        checked: false,
        error: null,
      }
      entries.push(entry)
      byRef.set(ref, entry)
      return ref
    },
    compare: (spec) => {
      const a = entryOf(spec.candidate, 'candidate')
      const b = entryOf(spec.peer, 'peer')
      rows.push(ratioRow('compare', spec.name ?? `${a.ref.name} vs ${b.ref.name}`, a, b, spec))
    },
    scaling: (spec) => {
      const a = entryOf(spec.large, 'large')
      const b = entryOf(spec.small, 'small')
      rows.push(ratioRow('scaling', spec.name ?? `${a.ref.name} vs ${b.ref.name}`, a, b, spec))
    },
    report: (spec) => {
      if (!('case' in spec) && spec.target !== undefined) parseTarget(spec.target)
      if ('case' in spec) {
        const entry = entryOf(spec.case, 'case')
        if (spec.unit.includes('op') && entry.spec.ops === undefined) {
          throw new TypeError(`report in ${spec.unit} needs ops on case ${entry.ref.name}`)
        }
        rows.push({ kind: 'report', name: spec.name ?? entry.ref.name, entry, unit: spec.unit })
      } else {
        rows.push({ kind: 'value', spec })
      }
    },
    plot: (spec) => {
      for (const series of spec.series) {
        for (const point of series.points) {
          if ('case' in point) entryOf(point.case, `a point of plot ${spec.name}`)
        }
      }
      plots.push(spec)
    },
    after: (cleanup) => {
      cleanups.push(cleanup)
    },
    medianMs: (ref) => {
      const entry = entryOf(ref, 'case')
      return entry.error === null ? sortedMedian(entry.samples) : null
    },
  }

  try {
    measure = effectiveMeasure(suite.measure, options.quick, options.gc)
    await suite.define(builder)
    for (const group of groupsOf(entries, rows)) {
      const failure = await measureGroup(group, measure, say)
      if (failure !== null) errors.push(failure)
    }
  } catch (error) {
    errors.push(`suite ${suite.name}: ${describe(error)}`)
    say(`failed: ${stackOf(error)}`)
  }

  const rowResults: RowResult[] = []
  const reported = new Set<CaseEntry>()
  for (const row of rows) {
    if (row.kind === 'value') {
      rowResults.push(await valueRow(row.spec, errors))
    } else if (row.kind === 'report') {
      reported.add(row.entry)
      rowResults.push(reportRow(row.name, row.entry, row.unit))
    } else {
      reported.add(row.a)
      reported.add(row.b)
      rowResults.push(ratioResult(row))
    }
  }
  for (const cleanup of cleanups) {
    try {
      await cleanup()
    } catch (error) {
      errors.push(`suite ${suite.name}: cleaning up: ${describe(error)}`)
      say(`cleaning up failed: ${stackOf(error)}`)
    }
  }
  // A measured case that no row mentions still shows up, as its time per run.
  for (const entry of entries) {
    if (!reported.has(entry)) rowResults.push(reportRow(entry.ref.name, entry, 'auto'))
  }
  for (const entry of entries) {
    const median = sortedMedian(entry.samples)
    if (median !== null && median < SHORT_RUN_MS) {
      notes.push(
        `${entry.ref.name}: a run takes ${(median * 1000).toFixed(1)} µs; timings under ` +
          `${SHORT_RUN_MS} ms are coarse, so let run() do more work`,
      )
    }
  }
  return {
    name: suite.name,
    file: options.file ?? '',
    description: suite.description ?? '',
    quick: options.quick,
    measure,
    durationMs: performance.now() - started,
    cases: entries.map(caseResult),
    rows: rowResults,
    notes,
    plots: plots.map((spec) => plotResult(spec, byRef)),
    error: errors.length > 0 ? errors.join('\n') : null,
  }
}

function plotResult(spec: PlotSpec, byRef: ReadonlyMap<CaseRef, CaseEntry>): PlotResult {
  const perOp = spec.perOp === true
  return {
    name: spec.name,
    title: spec.title,
    xLabel: spec.xLabel,
    perOp,
    series: spec.series.map((series) => ({
      name: series.name,
      points: series.points.map((point): PlotPointResult => {
        if (!('case' in point)) return { x: point.x, ms: point.ms, atLeast: point.atLeast === true }
        const entry = byRef.get(point.case)!
        const median = entry.error === null ? sortedMedian(entry.samples) : null
        const ops = perOp ? (entry.spec.ops ?? 1) : 1
        return { x: point.x, ms: median === null ? null : median / ops, atLeast: false }
      }),
    })),
  }
}

function effectiveMeasure(
  overrides: Partial<MeasureOptions> | undefined,
  quick: boolean,
  gcOverride: GcMode | undefined,
): MeasureOptions {
  const merged: { -readonly [K in keyof MeasureOptions]: MeasureOptions[K] } = {
    ...(quick ? QUICK_MEASURE : FULL_MEASURE),
  }
  const gcMode = gcOverride ?? overrides?.gc ?? merged.gc
  if (!['minor', 'major', 'none'].includes(gcMode)) {
    throw new RangeError(`measure.gc must be 'minor', 'major' or 'none', got ${gcMode}`)
  }
  merged.gc = gcMode
  for (const key of ['warmups', 'minRuns', 'maxRuns', 'budgetMs'] as const) {
    const value = overrides?.[key]
    if (value === undefined) continue
    if (!Number.isFinite(value) || value < 0) {
      throw new RangeError(`measure.${key} must be a non-negative number, got ${value}`)
    }
    merged[key] = quick ? Math.min(merged[key], value) : value
  }
  merged.minRuns = Math.max(1, Math.floor(merged.minRuns))
  merged.maxRuns = Math.max(merged.minRuns, Math.floor(merged.maxRuns))
  merged.warmups = Math.floor(merged.warmups)
  return merged
}

function ratioRow(
  kind: 'compare' | 'scaling',
  name: string,
  a: CaseEntry,
  b: CaseEntry,
  spec: { readonly target?: Target; readonly perOp?: boolean },
): RowSpec {
  if (spec.target !== undefined) parseTarget(spec.target)
  if (a === b) throw new TypeError(`row ${name} compares case ${a.ref.name} with itself`)
  const perOp = spec.perOp === true
  if (perOp && (a.spec.ops === undefined || b.spec.ops === undefined)) {
    throw new TypeError(`row ${name} is per op, so both cases need ops`)
  }
  return { kind, name, a, b, target: spec.target ?? null, perOp }
}

/** Splits a target such as `'<= 1.3'` into its operator and bound. */
export function parseTarget(target: Target): { op: '<=' | '<' | '>=' | '>'; bound: number } {
  const match = /^\s*(<=|<|>=|>)\s*([0-9]*\.?[0-9]+)\s*$/.exec(target)
  if (match === null) throw new TypeError(`bad target ${JSON.stringify(target)}; use e.g. '<= 1.3'`)
  return { op: match[1] as '<=' | '<' | '>=' | '>', bound: Number(match[2]) }
}

function meets(ratio: number, target: Target): boolean {
  const { op, bound } = parseTarget(target)
  switch (op) {
    case '<=':
      return ratio <= bound
    case '<':
      return ratio < bound
    case '>=':
      return ratio >= bound
    case '>':
      return ratio > bound
  }
}

/** Cases tied together by ratio rows, in registration order; each group is interleaved. */
function groupsOf(entries: readonly CaseEntry[], rows: readonly RowSpec[]): CaseEntry[][] {
  const parent = new Map<CaseEntry, CaseEntry>(entries.map((e) => [e, e]))
  const find = (e: CaseEntry): CaseEntry => {
    let root = e
    while (parent.get(root) !== root) root = parent.get(root)!
    parent.set(e, root)
    return root
  }
  for (const row of rows) {
    if (row.kind === 'compare' || row.kind === 'scaling') parent.set(find(row.a), find(row.b))
  }
  const groups = new Map<CaseEntry, CaseEntry[]>()
  for (const entry of entries) {
    const root = find(entry)
    const group = groups.get(root)
    if (group === undefined) groups.set(root, [entry])
    else group.push(entry)
  }
  return [...groups.values()]
}

/** Measures a group interleaved; returns an error message if a case threw. */
async function measureGroup(
  group: readonly CaseEntry[],
  measure: MeasureOptions,
  say: (message: string) => void,
): Promise<string | null> {
  const label = group.map((e) => e.ref.name).join(' / ')
  const started = performance.now()
  const elapsed = () => performance.now() - started
  let lastProgress = started
  say(`measuring ${label}`)
  try {
    collect(measure.gc === 'none' ? 'none' : 'major')
    for (let w = 0; w < measure.warmups; w++) {
      if (w > 0 && elapsed() > measure.budgetMs / 2) break
      for (const entry of group) {
        await runOnce(entry, measure)
        entry.warmups++
      }
    }
    for (let round = 0; round < measure.maxRuns; round++) {
      const time = elapsed()
      if (round >= measure.minRuns && time > measure.budgetMs) break
      if (round > 0 && time > 3 * measure.budgetMs) {
        say(`stopping ${label} after ${round} runs: over 3x the ${measure.budgetMs} ms budget`)
        break
      }
      for (const entry of group) entry.samples.push(await runOnce(entry, measure))
      if (performance.now() - lastProgress > PROGRESS_EVERY_MS) {
        lastProgress = performance.now()
        say(`  ${label}: run ${round + 1} (${(elapsed() / 1000).toFixed(1)}s)`)
      }
    }
    return null
  } catch (error) {
    const failed = group.find((e) => e.error !== null)
    const message = `${failed?.ref.name ?? label}: ${describe(error)}`
    for (const entry of group) entry.error ??= `not measured: ${message}`
    say(`FAILED ${message}\n${stackOf(error)}`)
    return message
  }
}

/** One run of a case: fresh state, collect garbage, time `run`, check once, tear down. */
async function runOnce(entry: CaseEntry, measure: MeasureOptions): Promise<number> {
  const { spec } = entry
  const limit = Math.max(MIN_STEP_TIMEOUT_MS, 3 * measure.budgetMs)
  const settle = <T>(value: T | PromiseLike<T>, what: string) =>
    settleWithin(value, limit, `${entry.ref.name}: ${what}`)
  let state: unknown
  try {
    state = await settle(spec.setup(), 'setup')
  } catch (error) {
    entry.error = `setup threw: ${describe(error)}`
    throw error
  }
  let time: number
  try {
    collect(measure.gc)
    const start = performance.now()
    let result = spec.run(state)
    if (isThenable(result)) result = await settle(result, 'run')
    time = performance.now() - start
    if (!entry.checked) {
      entry.checked = true
      await settle(spec.check?.(state, result), 'check')
    }
  } catch (error) {
    entry.error = describe(error)
    try {
      await settle(spec.teardown?.(state), 'teardown')
    } catch {
      // The run's own error is the one worth reporting.
    }
    throw error
  }
  try {
    await settle(spec.teardown?.(state), 'teardown')
  } catch (error) {
    entry.error = `teardown threw: ${describe(error)}`
    throw error
  }
  return time
}

/**
 * Awaits `value`, failing if it is a promise still pending after `ms`. Synchronous work cannot
 * be interrupted; this bounds only what a case awaits (sockets, servers, timers).
 */
async function settleWithin<T>(value: T | PromiseLike<T>, ms: number, what: string): Promise<T> {
  if (!isThenable(value)) return value
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([value, timeout])
  } finally {
    clearTimeout(timer)
  }
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  )
}

function caseResult(entry: CaseEntry): CaseResult {
  const s = [...entry.samples].sort((x, y) => x - y)
  const median = medianOf(s)
  return {
    name: entry.ref.name,
    ops: entry.spec.ops ?? null,
    opUnit: entry.spec.opUnit ?? 'op',
    warmups: entry.warmups,
    runs: s.length,
    samplesMs: entry.samples,
    medianMs: median,
    minMs: s[0] ?? null,
    maxMs: s[s.length - 1] ?? null,
    meanMs: s.length > 0 ? s.reduce((x, y) => x + y, 0) / s.length : null,
    madPercent:
      median === null || median === 0
        ? null
        : (100 * medianOf(s.map((x) => Math.abs(x - median)).sort((x, y) => x - y))!) / median,
    error: entry.error,
  }
}

/** Median of an ascending list; null when empty. */
function medianOf(sorted: readonly number[]): number | null {
  const n = sorted.length
  if (n === 0) return null
  const mid = n >> 1
  return n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

function sortedMedian(values: readonly number[]): number | null {
  return medianOf([...values].sort((x, y) => x - y))
}

/**
 * The median of `values`, for suites that summarize numbers of their own; throws a
 * `RangeError` when there are none.
 *
 * @example median([3, 1, 2]) // => 2
 */
export function median(values: readonly number[]): number {
  const middle = sortedMedian(values)
  if (middle === null) throw new RangeError('the median of no values')
  return middle
}

function reportRow(name: string, entry: CaseEntry, unit: TimeUnit): ReportRowResult {
  const median = sortedMedian(entry.samples)
  const min = entry.samples.length > 0 ? Math.min(...entry.samples) : null
  const ops = entry.spec.ops ?? 1
  const convert = (ms: number | null): number | null => {
    if (ms === null) return null
    switch (unit) {
      case 'auto':
      case 'ms':
        return ms
      case 's':
        return ms / 1000
      case 'µs':
        return ms * 1000
      case 'ns/op':
        return (ms * 1e6) / ops
      case 'µs/op':
        return (ms * 1e3) / ops
      case 'ms/op':
        return ms / ops
      case 'ops/s':
        return ms === 0 ? Number.POSITIVE_INFINITY : ops / (ms / 1000)
    }
  }
  return {
    kind: 'report',
    name,
    case: entry.ref.name,
    unit: unit === 'auto' ? 'ms' : unit.replace(/\/op$/, `/${entry.spec.opUnit ?? 'op'}`),
    autoUnit: unit === 'auto',
    value: convert(median),
    best: convert(min),
    runs: entry.samples.length,
    target: null,
    met: null,
    error: entry.error,
  }
}

async function valueRow(spec: ValueReportSpec, errors: string[]): Promise<ReportRowResult> {
  let value: number | null = null
  let error: string | null = null
  try {
    value = typeof spec.value === 'function' ? await spec.value() : spec.value
  } catch (e) {
    error = describe(e)
    errors.push(`value ${spec.name}: ${error}`)
  }
  return {
    kind: 'report',
    name: spec.name,
    case: null,
    unit: spec.unit,
    autoUnit: false,
    value,
    best: null,
    runs: 0,
    target: spec.target ?? null,
    met: value === null || spec.target === undefined ? null : meets(value, spec.target),
    error,
  }
}

function ratioResult(row: Extract<RowSpec, { kind: 'compare' | 'scaling' }>): RatioRowResult {
  const scale = (entry: CaseEntry) => (row.perOp ? 1 / entry.spec.ops! : 1)
  const a = row.a.samples.map((ms) => ms * scale(row.a))
  const b = row.b.samples.map((ms) => ms * scale(row.b))
  const aMedian = sortedMedian(a)
  const bMedian = sortedMedian(b)
  const aMin = a.length > 0 ? Math.min(...a) : null
  const bMin = b.length > 0 ? Math.min(...b) : null
  const ratio = aMedian !== null && bMedian ? aMedian / bMedian : null
  const error = row.a.error ?? row.b.error
  const rounds = Math.min(a.length, b.length)
  const paired: number[] = []
  for (let i = 0; i < rounds; i++) if (b[i]! > 0) paired.push(a[i]! / b[i]!)
  return {
    kind: row.kind,
    name: row.name,
    a: row.a.ref.name,
    b: row.b.ref.name,
    perOp: row.perOp,
    opUnit: row.perOp ? sameOpUnit(row.a.spec, row.b.spec) : null,
    aMedianMs: aMedian,
    aMinMs: aMin,
    bMedianMs: bMedian,
    bMinMs: bMin,
    ratio,
    minRatio: aMin !== null && bMin ? aMin / bMin : null,
    pairedRatio: sortedMedian(paired),
    target: row.target,
    met: ratio === null || error !== null || row.target === null ? null : meets(ratio, row.target),
    runs: rounds,
    error,
  }
}

function sameOpUnit(a: CaseSpec<unknown>, b: CaseSpec<unknown>): string {
  const unit = a.opUnit ?? 'op'
  return unit === (b.opUnit ?? 'op') ? unit : 'op'
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function stackOf(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error)
}
