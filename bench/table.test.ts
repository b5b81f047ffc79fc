import { describe, expect, it } from 'vitest'
import {
  QUICK_MEASURE,
  type RatioRowResult,
  type ReportRowResult,
  type SuiteResult,
} from './harness.js'
import { formatRun } from './table.js'

function ratioRow(overrides: Partial<RatioRowResult>): RatioRowResult {
  return {
    kind: 'compare',
    name: 'row',
    a: 'candidate',
    b: 'peer',
    perOp: false,
    opUnit: null,
    aMedianMs: 12,
    aMinMs: 11,
    bMedianMs: 10,
    bMinMs: 9,
    ratio: 1.2,
    minRatio: 11 / 9,
    pairedRatio: 1.2,
    target: null,
    met: null,
    runs: 3,
    error: null,
    ...overrides,
  }
}

function reportRow(overrides: Partial<ReportRowResult>): ReportRowResult {
  return {
    kind: 'report',
    name: 'report',
    case: null,
    unit: 'items',
    autoUnit: false,
    value: 42,
    best: null,
    runs: 0,
    target: null,
    met: null,
    error: null,
    ...overrides,
  }
}

function suite(overrides: Partial<SuiteResult>): SuiteResult {
  return {
    name: 'suite',
    file: 'bench/suites/suite.bench.ts',
    description: '',
    quick: true,
    measure: QUICK_MEASURE,
    durationMs: 1234,
    cases: [],
    rows: [],
    notes: [],
    plots: [],
    error: null,
    ...overrides,
  }
}

const alpha = suite({
  name: 'alpha',
  rows: [
    ratioRow({ name: 'fast vs slow', ratio: 1.1, aMedianMs: 11, target: '<= 1.3', met: true }),
    ratioRow({
      kind: 'scaling',
      name: 'big vs small',
      perOp: true,
      opUnit: 'patch',
      aMedianMs: 0.025,
      bMedianMs: 0.01,
      ratio: 2.5,
      target: '<= 1.5',
      met: false,
    }),
    reportRow({ name: 'fast alone', case: 'fast', unit: 'ms', autoUnit: true, value: 11, runs: 3 }),
    reportRow({ name: 'throughput ratio', unit: 'x', value: 1.8, target: '>= 1', met: true }),
  ],
  notes: ['a note about alpha'],
})

const beta = suite({
  name: 'beta',
  rows: [
    ratioRow({
      name: 'broken vs peer',
      aMedianMs: null,
      aMinMs: null,
      ratio: null,
      target: '<= 2',
      error: 'not measured: broken: setup threw: boom',
    }),
  ],
  error: 'broken: setup threw: boom\nsecond line of the error',
})

describe('formatRun', () => {
  const text = formatRun([alpha, beta])
  const lines = text.split('\n')
  const lineOf = (needle: string) => {
    const index = lines.findIndex((line) => line.includes(needle))
    expect(index, `a line with ${JSON.stringify(needle)}`).toBeGreaterThanOrEqual(0)
    return index
  }

  it('prints one header for every suite, then each suite’s rows under its section line', () => {
    expect(lines.filter((line) => /^row\s+kind\s+median\s+peer median/.test(line))).toHaveLength(1)
    const order = [
      lineOf('row '),
      lineOf('alpha'),
      lineOf('fast vs slow'),
      lineOf('big vs small'),
      lineOf('fast alone'),
      lineOf('throughput ratio'),
      lineOf('beta · failed'),
      lineOf('broken vs peer'),
    ]
    expect(order).toEqual([...order].sort((x, y) => x - y))
    expect(order[1]).toBe(2)
    expect(lines[order[2]!]).toMatch(/^ {2}fast vs slow/)
  })

  it('aligns the figures of every suite in shared columns', () => {
    const header = lines[0]!
    const ratioEnd = header.indexOf('ratio') + 'ratio'.length
    expect(lines[lineOf('fast vs slow')]!.indexOf('1.10x') + 5).toBe(ratioEnd)
    expect(lines[lineOf('big vs small')]!.indexOf('2.50x') + 5).toBe(ratioEnd)
    expect(lines[lineOf('broken vs peer')]!.lastIndexOf('—') + 1).toBe(ratioEnd)
  })

  it('shows the candidate and peer medians, the value, the target and whether it was met', () => {
    expect(lines[lineOf('fast vs slow')]).toMatch(/11\.0 ms\s+10\.0 ms\s+1\.10x\s+<= 1\.3\s+✓/)
    expect(lines[lineOf('big vs small')]).toMatch(
      /25\.0 µs\/patch\s+10\.0 µs\/patch\s+2\.50x\s+<= 1\.5\s+✗/,
    )
    expect(lines[lineOf('fast alone')]).toMatch(/11\.0 ms\s+3$/)
    expect(lines[lineOf('throughput ratio')]).toMatch(/1\.80 x\s+>= 1\s+✓/)
    expect(lines[lineOf('broken vs peer')]).toMatch(/<= 2\s+error/)
  })

  it('follows the table with the notes, then the summary of misses and failures', () => {
    const note = lineOf('note: alpha: a note about alpha')
    const summary = lineOf('2 suites: 2 targets met, 1 missed, 1 failed')
    expect(note).toBeGreaterThan(lineOf('broken vs peer'))
    expect(summary).toBeGreaterThan(note)
    expect(lineOf('missed ✗ alpha / big vs small: 2.50x (target <= 1.5)')).toBeGreaterThan(summary)
    expect(lineOf('failed   beta: broken: setup threw: boom')).toBeGreaterThan(summary)
    expect(text).not.toContain('second line of the error')
  })
})
