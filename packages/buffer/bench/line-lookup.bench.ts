/**
 * Row and offset conversions through TextBuffer's line index on documents of 10,000 to
 * 1,000,000 lines, beside the physical limit: an array of lines with a prefix sum of line
 * starts (a binary search for offset -> row, an array read for row -> offset).
 */
import * as prng from 'lib0/prng'
import { type CaseRef, defineSuite, type SuiteBuilder } from '../../../bench/harness.js'
import { TextBuffer } from '../src/index.js'

/** Longest line, in characters (lines are 0 to this long, without their `\n`). */
const MAX_LINE_LENGTH = 72
/** Packs a position into one number for checksums; above any column, so no two collide. */
const ROW_WEIGHT = MAX_LINE_LENGTH + 1

/** A document as its lines and the offset where each line starts. */
interface LineArrays {
  readonly lines: readonly string[]
  readonly starts: Float64Array
}

/**
 * Seeded lookups into one document: offsets to turn into positions, positions to turn into
 * offsets and rows to read, each drawn on its own. `expected` is the checksum of the answers.
 */
interface Batch {
  readonly offsets: Int32Array
  readonly rows: Int32Array
  readonly columns: Int32Array
  readonly lineRows: Int32Array
  readonly expected: number
}

/** The two cases on one document size. */
interface LookupCases {
  readonly label: string
  readonly buffer: CaseRef
  readonly arrays: CaseRef
}

export default defineSuite({
  name: 'buffer-line-lookup',
  description: 'offset -> position, position -> offset and lineForRow vs arrays with prefix sums',
  define(s) {
    const sizes = s.quick ? [1_000, 10_000, 100_000] : [10_000, 100_000, 1_000_000]
    const rounds = s.quick ? 20_000 : 100_000
    const cases = sizes.map((lineCount) => lookupCases(s, lineCount, rounds))
    for (const c of cases) {
      s.compare({
        name: `${c.label}: TextBuffer / arrays`,
        candidate: c.buffer,
        peer: c.arrays,
        perOp: true,
      })
    }
    const small = cases[0]!
    const large = cases[cases.length - 1]!
    const span = `${large.label} vs ${small.label}`
    s.scaling({
      name: `TextBuffer, ${span}`,
      small: small.buffer,
      large: large.buffer,
      perOp: true,
    })
    s.scaling({ name: `arrays, ${span}`, small: small.arrays, large: large.arrays, perOp: true })
  },
})

/** The TextBuffer case and the arrays case on one document of `lineCount` lines. */
function lookupCases(s: SuiteBuilder, lineCount: number, rounds: number): LookupCases {
  const label = linesLabel(lineCount)
  s.progress(`building a document of ${label}`)
  const gen = prng.create(lineCount)
  const lines = randomLines(gen, lineCount)
  const arrays: LineArrays = { lines, starts: lineStarts(lines) }
  const buffer = new TextBuffer({ text: lines.join('\n') })
  if (buffer.getLineCount() !== lineCount) {
    throw new Error(`${label}: the buffer has ${buffer.getLineCount()} lines`)
  }
  const batch = randomBatch(gen, arrays, rounds)
  const ops = 3 * rounds
  const expectSum = (sum: unknown) => {
    if (sum !== batch.expected) throw new Error(`${label}: checksum ${sum}, ${batch.expected} due`)
  }
  return {
    label,
    buffer: s.case({
      name: `${label}: TextBuffer`,
      setup: () => buffer,
      run: (state) => lookUpInBuffer(state, batch),
      check: (_, sum) => expectSum(sum),
      ops,
      opUnit: 'lookup',
    }),
    arrays: s.case({
      name: `${label}: arrays`,
      setup: () => arrays,
      run: (state) => lookUpInArrays(state, batch),
      check: (_, sum) => expectSum(sum),
      ops,
      opUnit: 'lookup',
    }),
  }
}

/** Each round converts an offset, converts a position and reads a row; returns a checksum. */
function lookUpInBuffer(buffer: TextBuffer, batch: Batch): number {
  const { offsets, rows, columns, lineRows } = batch
  let sum = 0
  for (let i = 0; i < offsets.length; i++) {
    const point = buffer.positionForCharacterIndex(offsets[i]!)
    sum += point.row * ROW_WEIGHT + point.column
    sum += buffer.characterIndexForPosition([rows[i]!, columns[i]!])
    sum += buffer.lineForRow(lineRows[i]!)!.length
  }
  return sum
}

/** The same rounds as {@link lookUpInBuffer}, on the arrays. */
function lookUpInArrays(arrays: LineArrays, batch: Batch): number {
  const { lines, starts } = arrays
  const { offsets, rows, columns, lineRows } = batch
  let sum = 0
  for (let i = 0; i < offsets.length; i++) {
    const offset = offsets[i]!
    const row = rowAt(starts, offset)
    sum += row * ROW_WEIGHT + (offset - starts[row]!)
    sum += starts[rows[i]!]! + columns[i]!
    sum += lines[lineRows[i]!]!.length
  }
  return sum
}

/** The last row starting at or before `offset`, by binary search. */
function rowAt(starts: Float64Array, offset: number): number {
  let low = 0
  let high = starts.length - 1
  while (low < high) {
    const mid = (low + high + 1) >>> 1
    if (starts[mid]! <= offset) low = mid
    else high = mid - 1
  }
  return low
}

/** `count` lines of 0 to {@link MAX_LINE_LENGTH} characters, cut from seeded random words. */
function randomLines(gen: prng.PRNG, count: number): string[] {
  let source = ''
  while (source.length < 8_192) source += `${prng.word(gen, 1, 10)} `
  const lines: string[] = []
  for (let i = 0; i < count; i++) {
    const length = prng.int32(gen, 0, MAX_LINE_LENGTH)
    const from = prng.int32(gen, 0, source.length - length)
    lines.push(source.slice(from, from + length))
  }
  return lines
}

/** The offset where each line starts, when the lines are joined by `\n`. */
function lineStarts(lines: readonly string[]): Float64Array {
  const starts = new Float64Array(lines.length)
  let offset = 0
  for (let row = 0; row < lines.length; row++) {
    starts[row] = offset
    offset += lines[row]!.length + 1
  }
  return starts
}

/**
 * `rounds` random lookups. Offsets are drawn as positions (a column may be the line's end),
 * so the expected answers are known without searching.
 */
function randomBatch(gen: prng.PRNG, arrays: LineArrays, rounds: number): Batch {
  const { lines, starts } = arrays
  const randomRow = () => prng.int32(gen, 0, lines.length - 1)
  const randomColumn = (row: number) => prng.int32(gen, 0, lines[row]!.length)
  const offsets = new Int32Array(rounds)
  const rows = new Int32Array(rounds)
  const columns = new Int32Array(rounds)
  const lineRows = new Int32Array(rounds)
  let expected = 0
  for (let i = 0; i < rounds; i++) {
    const offsetRow = randomRow()
    const offsetColumn = randomColumn(offsetRow)
    offsets[i] = starts[offsetRow]! + offsetColumn
    expected += offsetRow * ROW_WEIGHT + offsetColumn
    rows[i] = randomRow()
    columns[i] = randomColumn(rows[i]!)
    expected += starts[rows[i]!]! + columns[i]!
    lineRows[i] = randomRow()
    expected += lines[lineRows[i]!]!.length
  }
  return { offsets, rows, columns, lineRows, expected }
}

function linesLabel(lineCount: number): string {
  if (lineCount >= 1_000_000) return `${lineCount / 1_000_000}M lines`
  if (lineCount >= 1_000) return `${lineCount / 1_000}k lines`
  return `${lineCount} lines`
}
