import { describe, expect, it } from 'vitest'
import { Random } from '../../../testing/random.js'
import { type LineEnding, LineStore, type LineStoreOptions } from './line-store.js'

/** The seeded generator as a plain function, so the same seed replays the same test. */
function mulberry32(seed: number): () => number {
  const random = new Random(seed)
  return () => random.next()
}

/** The naive reference: split the whole string every time. */
function referenceLines(text: string): {
  texts: string[]
  endings: LineEnding[]
  starts: number[]
} {
  const texts: string[] = []
  const endings: LineEnding[] = []
  const starts: number[] = []
  const breaks = /\r\n|\n/g
  let start = 0
  for (let match = breaks.exec(text); match !== null; match = breaks.exec(text)) {
    texts.push(text.slice(start, match.index))
    endings.push(match[0] as LineEnding)
    starts.push(start)
    start = match.index + match[0].length
  }
  texts.push(text.slice(start))
  endings.push('')
  starts.push(start)
  return { texts, endings, starts }
}

const PIECES = ['a', 'b', ' ', '\n', '\r', '\r\n', '\u{1F600}', '', 'xyz', '\n\n', '\r\r']

function randomText(random: () => number, maxPieces: number): string {
  const count = Math.floor(random() * (maxPieces + 1))
  let text = ''
  for (let i = 0; i < count; i++) text += PIECES[Math.floor(random() * PIECES.length)]
  return text
}

/** Offsets with a bias toward the interesting places: around and inside line breaks. */
function randomOffset(random: () => number, text: string): number {
  if (text.length > 0 && random() < 0.4) {
    const at = Math.floor(random() * text.length)
    const cr = text.indexOf('\r', at)
    const lf = text.indexOf('\n', at)
    const found = random() < 0.5 ? cr : lf
    if (found !== -1) return Math.min(text.length, found + Math.floor(random() * 3))
  }
  return Math.floor(random() * (text.length + 1))
}

/** Compares the store with the reference; returns a description of the first difference. */
function difference(store: LineStore, text: string, random: () => number): string | null {
  const ref = referenceLines(text)
  if (store.length !== text.length) return `length ${store.length}, expected ${text.length}`
  if (store.lineCount !== ref.texts.length) {
    return `lineCount ${store.lineCount}, expected ${ref.texts.length}`
  }
  if (store.getText() !== text) return 'getText differs'
  const iterated = [...store.lines()]
  for (let row = 0; row < ref.texts.length; row++) {
    if (iterated[row] !== ref.texts[row]) return `lines() row ${row}`
  }
  const rows = ref.texts.length
  const checked = rows <= 400 ? rows : 60
  for (let k = 0; k < checked; k++) {
    const row = rows <= 400 ? k : Math.floor(random() * rows)
    const line = ref.texts[row]!
    if (store.lineForRow(row) !== line) return `lineForRow(${row})`
    if (store.lineEndingForRow(row) !== ref.endings[row]) return `lineEndingForRow(${row})`
    if (store.lineLengthForRow(row) !== line.length) return `lineLengthForRow(${row})`
    if (store.offsetForRow(row) !== ref.starts[row]) return `offsetForRow(${row})`
  }
  for (let k = 0; k < 20; k++) {
    const offset = randomOffset(random, text)
    let row = 0
    let low = 0
    let high = rows - 1
    while (low <= high) {
      const mid = (low + high) >> 1
      if (ref.starts[mid]! <= offset) {
        row = mid
        low = mid + 1
      } else {
        high = mid - 1
      }
    }
    const column = Math.min(offset - ref.starts[row]!, ref.texts[row]!.length)
    if (store.rowForOffset(offset) !== row) return `rowForOffset(${offset})`
    const position = store.positionForOffset(offset)
    if (position.row !== row || position.column !== column) return `positionForOffset(${offset})`
    if (store.offsetForPosition(row, column) !== ref.starts[row]! + column) {
      return `offsetForPosition(${row}, ${column})`
    }
    const past = column + Math.floor(random() * 4)
    const clipped = ref.starts[row]! + Math.min(past, ref.texts[row]!.length)
    if (store.offsetForPosition(row, past) !== clipped) return `offsetForPosition(${row}, ${past})`
    const end = offset + Math.floor(random() * (text.length - offset + 1))
    if (store.getTextInOffsets(offset, end) !== text.slice(offset, end)) {
      return `getTextInOffsets(${offset}, ${end})`
    }
  }
  return null
}

/** Runs `steps` random splices against the reference, checking everything after each. */
function runRandom(seed: number, steps: number, options: LineStoreOptions): void {
  const random = mulberry32(seed)
  let text = random() < 0.2 ? '' : randomText(random, 200)
  const store = new LineStore(text, options)
  for (let step = 0; step < steps; step++) {
    const label = `seed ${seed} step ${step}`
    const choice = random()
    let offset = randomOffset(random, text)
    let deleteCount = 0
    let insert = ''
    if (choice < 0.35) {
      insert = randomText(random, 4)
    } else if (choice < 0.6) {
      deleteCount = Math.floor(random() * Math.min(8, text.length - offset + 1))
    } else if (choice < 0.85) {
      deleteCount = Math.floor(random() * Math.min(8, text.length - offset + 1))
      insert = randomText(random, 4)
    } else if (choice < 0.93) {
      insert = randomText(random, 600)
    } else if (choice < 0.97) {
      deleteCount = Math.floor(random() * (text.length - offset + 1))
    } else {
      offset = 0
      deleteCount = text.length
      insert = random() < 0.5 ? '' : randomText(random, 50)
    }
    const removed = store.splice(offset, deleteCount, insert)
    expect(removed, label).toBe(text.slice(offset, offset + deleteCount))
    text = text.slice(0, offset) + insert + text.slice(offset + deleteCount)
    try {
      store.checkInvariants()
    } catch (error) {
      expect.fail(`${label}: ${(error as Error).message}`)
    }
    const problem = difference(store, text, random)
    if (problem !== null) expect.fail(`${label}: ${problem}`)
  }
}

function rowsOf(store: LineStore): Array<[string, LineEnding]> {
  const rows: Array<[string, LineEnding]> = []
  for (let row = 0; row < store.lineCount; row++) {
    rows.push([store.lineForRow(row), store.lineEndingForRow(row)])
  }
  return rows
}

describe('LineStore', () => {
  it('breaks lines at \\n and \\r\\n; a lone \\r is an ordinary character', () => {
    const store = new LineStore('a\r\nb\rc\n')
    expect(rowsOf(store)).toEqual([
      ['a', '\r\n'],
      ['b\rc', '\n'],
      ['', ''],
    ])
    expect(store.length).toBe(7)
    expect(new LineStore('').lineCount).toBe(1)
    expect(new LineStore().getText()).toBe('')
    expect(new LineStore('a\n').lineCount).toBe(2)
    expect(rowsOf(new LineStore('a\r'))).toEqual([['a\r', '']])
  })

  it('joins a \\r and a \\n inserted after it into one break', () => {
    const store = new LineStore('a\rb')
    expect(store.splice(2, 0, '\n')).toBe('')
    expect(rowsOf(store)).toEqual([
      ['a', '\r\n'],
      ['b', ''],
    ])
    const atEnd = new LineStore('a\r')
    atEnd.splice(2, 0, '\nc')
    expect(rowsOf(atEnd)).toEqual([
      ['a', '\r\n'],
      ['c', ''],
    ])
    const before = new LineStore('a\nb')
    before.splice(1, 0, '\r')
    expect(rowsOf(before)).toEqual([
      ['a', '\r\n'],
      ['b', ''],
    ])
  })

  it('joins a \\r and a \\n once the text between them is deleted', () => {
    const store = new LineStore('a\rx\nb')
    expect(store.splice(2, 1, '')).toBe('x')
    expect(rowsOf(store)).toEqual([
      ['a', '\r\n'],
      ['b', ''],
    ])
    store.checkInvariants()
  })

  it('keeps the \\r as text when something is inserted between \\r and \\n', () => {
    const store = new LineStore('a\r\nb')
    store.splice(2, 0, 'x')
    expect(rowsOf(store)).toEqual([
      ['a\rx', '\n'],
      ['b', ''],
    ])
  })

  it('joins lines when the \\n of \\r\\n is deleted, and leaves \\n without the \\r', () => {
    const store = new LineStore('a\r\nb')
    expect(store.splice(2, 1, '')).toBe('\n')
    expect(rowsOf(store)).toEqual([['a\rb', '']])
    const other = new LineStore('a\r\nb')
    expect(other.splice(1, 1, '')).toBe('\r')
    expect(rowsOf(other)).toEqual([
      ['a', '\n'],
      ['b', ''],
    ])
  })

  it('maps offsets inside a line ending to the end of the line', () => {
    const store = new LineStore('ab\r\ncd')
    expect(store.rowForOffset(3)).toBe(0)
    expect(store.positionForOffset(3)).toEqual({ row: 0, column: 2 })
    expect(store.rowForOffset(4)).toBe(1)
    expect(store.rowForOffset(6)).toBe(1)
    expect(store.offsetForPosition(0, 10)).toBe(2)
    expect(store.offsetForPosition(1, Number.POSITIVE_INFINITY)).toBe(6)
    expect(new LineStore('a\n').rowForOffset(2)).toBe(1)
  })

  it('keeps one empty line when everything is deleted', () => {
    const store = new LineStore('a\nb\r\nc\r', { leafCapacity: 4, branchCapacity: 4 })
    expect(store.splice(0, store.length, '')).toBe('a\nb\r\nc\r')
    expect(store.lineCount).toBe(1)
    expect(store.lineForRow(0)).toBe('')
    expect(store.lineEndingForRow(0)).toBe('')
    store.checkInvariants()
  })

  it('names the bad argument', () => {
    const store = new LineStore('ab\ncd')
    expect(() => store.lineForRow(2)).toThrow(RangeError)
    expect(() => store.lineForRow(-1)).toThrow(/row/)
    expect(() => store.offsetForRow(Number.NaN)).toThrow(TypeError)
    expect(() => store.rowForOffset(6)).toThrow(/offset/)
    expect(() => store.positionForOffset(1.5)).toThrow(RangeError)
    expect(() => store.offsetForPosition(0, -1)).toThrow(/column/)
    expect(() => store.splice(4, 2, '')).toThrow(/deleteCount/)
    expect(() => store.splice(0, 0, 1 as unknown as string)).toThrow(TypeError)
    expect(() => store.getTextInOffsets(3, 2)).toThrow(/end/)
    expect(() => store.lines(0, 3)).toThrow(/endRow/)
    expect(() => new LineStore('', { leafCapacity: 2 })).toThrow(/leafCapacity/)
    expect(store.getText()).toBe('ab\ncd')
  })

  it('takes a large paste of many lines and deletes it again', () => {
    const random = mulberry32(7)
    const base = randomText(random, 3000)
    const store = new LineStore(base)
    let paste = ''
    for (let i = 0; i < 200_000; i++) paste += `line ${i}${i % 3 === 0 ? '\r\n' : '\n'}`
    const at = Math.floor(base.length / 2)
    store.splice(at, 0, paste)
    store.checkInvariants()
    const text = base.slice(0, at) + paste + base.slice(at)
    const problem = difference(store, text, random)
    if (problem !== null) expect.fail(`seed 7: ${problem}`)
    expect(store.splice(at, paste.length, '')).toBe(paste)
    store.checkInvariants()
    expect(store.getText()).toBe(base)
  })

  it('stays balanced while rows are added and removed one at a time', () => {
    const store = new LineStore('', { leafCapacity: 4, branchCapacity: 4 })
    for (let i = 0; i < 500; i++) {
      store.splice(store.length, 0, `${i}\n`)
      store.checkInvariants()
    }
    expect(store.lineCount).toBe(501)
    for (let i = 0; i < 500; i++) {
      const row = (i * 7919) % (store.lineCount - 1)
      const start = store.offsetForRow(row)
      store.splice(start, store.offsetForRow(row + 1) - start, '')
      store.checkInvariants()
    }
    expect(store.getText()).toBe('')
  })

  for (const [name, options] of [
    ['default capacities', {}],
    ['small nodes (deep trees)', { leafCapacity: 4, branchCapacity: 4 }],
    ['odd capacities', { leafCapacity: 5, branchCapacity: 7 }],
  ] as const) {
    it(`matches a naive reference through random splices: ${name}`, () => {
      for (let seed = 1; seed <= 4; seed++) runRandom(seed * 1013 + name.length, 1500, options)
    })
  }
})
