/**
 * Text output of benchmark results: one aligned table per suite and a closing summary.
 */
import {
  gcExposed,
  type RatioRowResult,
  type ReportRowResult,
  type SuiteResult,
} from './harness.js'

const HEADER = [
  'row',
  'kind',
  'median',
  'min',
  'peer median',
  'peer min',
  'ratio',
  'target',
  'met',
  'runs',
]
const LEFT_ALIGNED = new Set(['row', 'kind', 'target', 'met'])

/** Renders one suite's results as a titled, aligned table followed by its notes and errors. */
export function formatSuite(result: SuiteResult): string {
  const m = result.measure
  const lines = [
    `${result.name}${result.description === '' ? '' : ` · ${result.description}`}`,
    [
      result.quick ? 'quick' : 'full',
      `${m.warmups} warm-up${m.warmups === 1 ? '' : 's'}`,
      m.minRuns === m.maxRuns ? `${m.minRuns} runs` : `${m.minRuns}-${m.maxRuns} runs`,
      `gc ${gcExposed ? m.gc : 'off'}`,
      `${formatTime(result.durationMs)} in all`,
    ].join(' · '),
    '',
  ]
  const cells = result.rows.map((row) =>
    row.kind === 'report' ? reportCells(row) : ratioCells(row),
  )
  lines.push(...alignTable(withoutEmptyColumns([HEADER, ...cells])))
  if (result.rows.length === 0) lines.push('(no rows)')
  for (const note of result.notes) lines.push(`note: ${note}`)
  if (result.error !== null) {
    for (const line of result.error.split('\n')) lines.push(`ERROR: ${line}`)
  }
  return `${lines.join('\n')}\n`
}

/** A line per missed target and failure, and the totals, for the end of a run. */
export function formatSummary(results: readonly SuiteResult[]): string {
  let met = 0
  const missed: string[] = []
  const failed: string[] = []
  for (const suite of results) {
    if (suite.error !== null) failed.push(`${suite.name}: ${suite.error.split('\n')[0]}`)
    for (const row of suite.rows) {
      if (row.met === true) met++
      else if (row.met === false) {
        const figure =
          row.kind === 'report'
            ? `${formatNumber(row.value ?? Number.NaN)} ${row.unit}`
            : formatRatio(row.ratio)
        missed.push(`${suite.name} / ${row.name}: ${figure} (target ${row.target})`)
      }
    }
  }
  const lines = [
    `${results.length} suite${results.length === 1 ? '' : 's'}: ${met} target${met === 1 ? '' : 's'} met, ` +
      `${missed.length} missed, ${failed.length} failed`,
  ]
  for (const line of missed) lines.push(`  missed ✗ ${line}`)
  for (const line of failed) lines.push(`  failed   ${line}`)
  return `${lines.join('\n')}\n`
}

function reportCells(row: ReportRowResult): string[] {
  const withUnit = (v: number | null) => {
    if (v === null) return '—'
    return row.autoUnit ? formatTime(v) : `${formatNumber(v)} ${row.unit}`
  }
  return [
    row.name,
    'report',
    row.error !== null ? 'error' : withUnit(row.value),
    row.case === null ? '' : withUnit(row.best),
    '',
    '',
    '',
    row.target ?? '',
    row.error !== null || row.met === null ? '' : row.met ? '✓' : '✗',
    row.case === null ? '' : String(row.runs),
  ]
}

function ratioCells(row: RatioRowResult): string[] {
  const time = (ms: number | null) => {
    if (ms === null) return '—'
    return row.perOp ? `${formatTime(ms)}/${row.opUnit ?? 'op'}` : formatTime(ms)
  }
  return [
    row.name,
    row.kind === 'scaling'
      ? `scaling${row.perOp ? '/op' : ''}`
      : `compare${row.perOp ? '/op' : ''}`,
    time(row.aMedianMs),
    time(row.aMinMs),
    time(row.bMedianMs),
    time(row.bMinMs),
    formatRatio(row.ratio),
    row.target ?? '',
    row.error !== null ? 'error' : row.met === null ? '' : row.met ? '✓' : '✗',
    String(row.runs),
  ]
}

/** Drops the columns no body row fills (a suite of report rows has no peer columns). */
function withoutEmptyColumns(rows: readonly (readonly string[])[]): string[][] {
  const keep = HEADER.map((_, i) => i < 2 || rows.slice(1).some((row) => (row[i] ?? '') !== ''))
  return rows.map((row) => row.filter((_, i) => keep[i]))
}

function alignTable(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = []
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, [...cell].length)
    })
  }
  const render = (row: readonly string[]) =>
    row
      .map((cell, i) => {
        const pad = ' '.repeat(widths[i]! - [...cell].length)
        return LEFT_ALIGNED.has(rows[0]![i]!) ? cell + pad : pad + cell
      })
      .join('  ')
      .trimEnd()
  const [header, ...body] = rows
  return [render(header!), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(render)]
}

/** A ratio such as `1.27x`. */
export function formatRatio(ratio: number | null): string {
  return ratio === null ? '—' : `${ratio.toFixed(2)}x`
}

/** A duration given in milliseconds, in the unit that keeps 3 significant digits readable. */
export function formatTime(ms: number): string {
  const abs = Math.abs(ms)
  if (abs >= 1000) return `${formatNumber(ms / 1000)} s`
  if (abs >= 1) return `${formatNumber(ms)} ms`
  if (abs >= 0.001) return `${formatNumber(ms * 1000)} µs`
  return `${formatNumber(ms * 1e6)} ns`
}

/** About 3 significant digits, thousands grouped, never exponent notation above 0.001. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '∞' : n < 0 ? '-∞' : 'NaN'
  const abs = Math.abs(n)
  if (abs >= 1000) return Math.round(n).toLocaleString('en-US')
  if (abs >= 100) return n.toFixed(0)
  if (abs >= 10) return n.toFixed(1)
  if (abs >= 1) return n.toFixed(2)
  if (abs >= 0.001 || n === 0) return n === 0 ? '0' : n.toPrecision(3)
  return n.toExponential(2)
}
