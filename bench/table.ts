/**
 * Text output of benchmark results: the run's one table of every row, a detailed table per
 * suite, and a closing summary.
 */
import {
  gcExposed,
  type RatioRowResult,
  type ReportRowResult,
  type RowResult,
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
/** The columns of the run's one table: the figures, not the spread. */
const RUN_COLUMNS = ['row', 'kind', 'median', 'peer median', 'ratio', 'target', 'met', 'runs']
const LEFT_ALIGNED = new Set(['row', 'kind', 'target', 'met'])

/** A line of a table: cells under the header, or a section title across the whole width. */
type TableLine = readonly string[] | { readonly section: string }

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
  lines.push(...alignTable(withoutEmptyColumns([HEADER, ...result.rows.map(rowCells)])))
  if (result.rows.length === 0) lines.push('(no rows)')
  for (const note of result.notes) lines.push(`note: ${note}`)
  if (result.error !== null) {
    for (const line of result.error.split('\n')) lines.push(`ERROR: ${line}`)
  }
  return `${lines.join('\n')}\n`
}

/**
 * Every row of every suite in one aligned table, in run order, under a section line per
 * suite; then every suite's notes and the summary.
 */
export function formatRun(results: readonly SuiteResult[]): string {
  const lines: TableLine[] = [RUN_COLUMNS]
  for (const suite of results) {
    lines.push({ section: `${suite.name}${suite.error === null ? '' : ' · failed'}` })
    if (suite.rows.length === 0) lines.push({ section: '  (no rows)' })
    for (const row of suite.rows) {
      const cells = rowCells(row)
      lines.push(indentFirst(RUN_COLUMNS.map((column) => cells[HEADER.indexOf(column)] ?? '')))
    }
  }
  const notes = results.flatMap((suite) =>
    suite.notes.map((note) => `note: ${suite.name}: ${note}`),
  )
  const out = [...alignTable(withoutEmptyColumns(lines, RUN_COLUMNS))]
  if (notes.length > 0) out.push('', ...notes)
  return `${out.join('\n')}\n\n${formatSummary(results)}`
}

function indentFirst(cells: readonly string[]): string[] {
  return cells.map((cell, i) => (i === 0 ? `  ${cell}` : cell))
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

/** A row's cells under {@link HEADER}. */
function rowCells(row: RowResult): string[] {
  return row.kind === 'report' ? reportCells(row) : ratioCells(row)
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
function withoutEmptyColumns(lines: readonly TableLine[], header = HEADER): TableLine[] {
  const cellLines = lines.slice(1).filter(isCells)
  const keep = header.map((_, i) => i < 2 || cellLines.some((cells) => (cells[i] ?? '') !== ''))
  return lines.map((line) => (isCells(line) ? line.filter((_, i) => keep[i]) : line))
}

function isCells(line: TableLine): line is readonly string[] {
  return Array.isArray(line)
}

/** The header, a rule, then the lines; cells padded to their column, sections as they are. */
function alignTable(lines: readonly TableLine[]): string[] {
  const header = lines[0] as readonly string[]
  const widths: number[] = []
  for (const line of lines.filter(isCells)) {
    line.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, [...cell].length)
    })
  }
  const render = (line: TableLine) => {
    if (!isCells(line)) return line.section
    return line
      .map((cell, i) => {
        const pad = ' '.repeat(widths[i]! - [...cell].length)
        return LEFT_ALIGNED.has(header[i]!) ? cell + pad : pad + cell
      })
      .join('  ')
      .trimEnd()
  }
  return [
    render(header),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...lines.slice(1).map(render),
  ]
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
