/**
 * Finding every match of a query in a 10 MB document (1 MB in quick mode) with `EditorSearch`,
 * which scans in slices of a few milliseconds with a macrotask between them and keeps one
 * marker per match, against the fastest bare way: one RegExp `matchAll` over the Y.Text's
 * string. Two queries: a literal word on every tenth line, and a regex anchored at line starts
 * that may cross lines (`\s`), on about every tenth line.
 *
 * Beside the ratios, the longest synchronous slice of each search: a `setImmediate` ticker runs
 * during the search and the longest gap between its ticks is how long input would have waited
 * (the median over a few searches after a first one, garbage collection included).
 */
import * as prng from 'lib0/prng'
import type * as Y from 'yjs'
import { defineSuite } from '../../../bench/harness.js'
import { EditorSearch, type SearchQuery, TextEditor } from '../src/index.js'

const WORDS = ['const', 'value', 'return', 'item', 'the', 'index', 'loading', 'string', '=']

/** Code-like lines, `needle` on every tenth, about `bytes` characters in all. */
const documentText = (bytes: number, seed: number): string => {
  const gen = prng.create(seed)
  const lines: string[] = []
  let length = 0
  for (let i = 0; length < bytes; i++) {
    let line = '  '
    const words = prng.uint32(gen, 6, 14)
    for (let w = 0; w < words; w++) line += `${w > 0 ? ' ' : ''}${prng.oneOf(gen, WORDS)}`
    if (i % 10 === 0) line += ' needle'
    lines.push(line)
    length += line.length + 1
  }
  return lines.join('\n')
}

interface Query {
  readonly label: string
  readonly query: SearchQuery
  /** The same search as a plain RegExp. */
  readonly regex: RegExp
}

const QUERIES: readonly Query[] = [
  { label: 'literal word', query: { text: 'needle' }, regex: /needle/gi },
  {
    // `\s` can match a line break: the scan reads 32 rows past each piece for this one.
    label: 'regex ^\\s+return\\b',
    query: { text: '^\\s+return\\b', regex: true },
    regex: /^\s+return\b/gim,
  },
]

interface Slices {
  /** The longest stretch during which the ticker could not run, in ms. */
  readonly longest: number
  /** The median of those stretches, in ms. */
  readonly median: number
  /** How many times the ticker ran. */
  readonly ticks: number
}

/** Runs `work` beside a `setImmediate` ticker and measures the gaps between its ticks. */
const measureGaps = async (work: () => Promise<void>): Promise<Slices> => {
  let last = performance.now()
  const gaps: number[] = []
  let running = true
  const tick = () => {
    const now = performance.now()
    gaps.push(now - last)
    last = now
    if (running) setImmediate(tick)
  }
  setImmediate(tick)
  await work()
  running = false
  gaps.push(performance.now() - last)
  gaps.sort((a, b) => a - b)
  return {
    longest: gaps[gaps.length - 1]!,
    median: gaps[gaps.length >> 1]!,
    ticks: gaps.length - 1,
  }
}

export default defineSuite({
  name: 'search',
  description: 'EditorSearch over a 10 MB document against one RegExp matchAll over the string',
  measure: { maxRuns: 7 },
  define(s) {
    const bytes = s.quick ? 1_000_000 : 10_000_000
    const size = s.quick ? '1 MB' : '10 MB'
    const text = documentText(bytes, 1)
    let shared: TextEditor | null = null
    /** One editor for every run: building a 10 MB document takes longer than searching it. */
    const editor = () => {
      shared ??= new TextEditor({ text })
      return shared
    }
    s.after(() => shared?.destroy())

    for (const { label, query, regex } of QUERIES) {
      const expected = [...text.matchAll(regex)].length
      const candidate = s.case({
        name: `${label}, ${size}: EditorSearch`,
        setup: () => new EditorSearch(editor()),
        run: (search) => search.search(query),
        check: (search) => {
          if (search.getMatchCount() !== expected) {
            throw new Error(`found ${search.getMatchCount()} matches, expected ${expected}`)
          }
        },
        teardown: (search) => search.destroy(),
      })
      const peer = s.case({
        name: `${label}, ${size}: RegExp matchAll over Y.Text#toString`,
        setup: (): Y.Text => editor().getBuffer().ytext,
        run: (ytext) => {
          let count = 0
          for (const _ of ytext.toString().matchAll(regex)) count++
          return count
        },
        check: (_, count) => {
          if (count !== expected) throw new Error(`found ${count} matches, expected ${expected}`)
        },
      })
      s.compare({ name: `${label}, ${size}: EditorSearch / matchAll`, candidate, peer })

      // Median of a few searches, the first one (cold code) left out.
      let slices: Slices | null = null
      const measureSlices = async () => {
        if (slices === null) {
          const runs: Slices[] = []
          for (let i = 0; i < (s.quick ? 3 : 5); i++) {
            const search = new EditorSearch(editor())
            runs.push(await measureGaps(() => search.search(query)))
            search.destroy()
          }
          const warm = runs.slice(1).sort((a, b) => a.longest - b.longest)
          slices = warm[warm.length >> 1]!
        }
        return slices
      }
      s.report({
        name: `${label}, ${size}: longest synchronous slice`,
        value: async () => (await measureSlices()).longest,
        unit: 'ms',
      })
      s.report({
        name: `${label}, ${size}: median slice`,
        value: async () => (await measureSlices()).median,
        unit: 'ms',
      })
      s.report({
        name: `${label}, ${size}: ticks between slices`,
        value: async () => (await measureSlices()).ticks,
        unit: 'ticks',
      })
    }
    s.note(
      'EditorSearch times include the macrotask gaps between slices and making one marker per match.',
    )
    s.note(
      'A slice stops after about 4 ms of scanning; the longest slices measured also hold garbage collections.',
    )
  },
})
