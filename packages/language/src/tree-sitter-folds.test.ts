import { TextBuffer } from '@tandem/buffer'
import { Point, type Range } from '@tandem/text'
import { beforeAll, describe, expect, it } from 'vitest'
import { Random, seeds } from '../../../testing/random.js'
import type { LanguageMode } from './language-mode.js'
import { createLanguageMode, loadLanguage } from './registry.js'

type RangeJson = [[number, number], [number, number]]

const json = (range: Range | null | undefined): RangeJson | null =>
  range == null
    ? null
    : [
        [range.start.row, range.start.column],
        [range.end.row, range.end.column],
      ]

const folds = (mode: LanguageMode): RangeJson[] =>
  mode.getFoldableRanges!(2).map((range) => json(range)!)

const atLevel = (mode: LanguageMode, level: number): RangeJson[] =>
  mode.getFoldableRangesAtIndentLevel!(level, 2).map((range) => json(range)!)

const modeFor = (id: string, lines: readonly string[]): LanguageMode =>
  createLanguageMode(id, new TextBuffer({ text: lines.join('\n') }))

beforeAll(async () => {
  await Promise.all(['javascript', 'typescript', 'tsx', 'python'].map(loadLanguage))
})

describe('JavaScript folds', () => {
  it('fold function bodies to their closing brace, parameter lists a row short', () => {
    const mode = modeFor('javascript', [
      'function outer(a,', //   0: the parameters end on row 1: too short to fold
      '  b) {', //               1: the body
      '  function inner() {', // 2: a nested body
      '    return 1',
      '  }',
      '  call(',
      '    a,',
      '    b,', //               7: the arguments stop here
      '  )',
      '}',
    ])
    expect(folds(mode)).toEqual([
      [
        [1, 6],
        [9, 0],
      ],
      [
        [2, 20],
        [4, 2],
      ],
      [
        [5, 7],
        [7, 6],
      ],
    ])
    expect(atLevel(mode, 0)).toEqual([
      [
        [1, 6],
        [9, 0],
      ],
    ])
    expect(atLevel(mode, 1).map(([start]) => start[0])).toEqual([2, 5])
    expect(mode.isFoldableAtRow!(0)).toBe(false)
    expect(mode.isFoldableAtRow!(1)).toBe(true)
  })

  it('fold objects, classes, switch bodies, imports and template strings, not arrays', () => {
    const mode = modeFor('javascript', [
      'import {',
      '  a,',
      '} from "m"',
      'const o = {',
      '  list: [',
      '    1,',
      '  ],',
      '}',
      'class K {',
      '  m() {',
      '  }',
      '}',
      'switch (x) {',
      '  case 1:',
      '}',
      'const t = `a',
      'b`',
    ])
    expect(folds(mode).map(([start, end]) => [start[0], end[0]])).toEqual([
      [0, 2],
      [3, 7],
      [8, 11],
      [9, 10],
      [12, 14],
      [15, 16],
    ])
    // The template string ends before its closing backtick.
    expect(folds(mode).at(-1)).toEqual([
      [15, 12],
      [16, 1],
    ])
  })

  it('fold an if block a row short when an else follows, so each branch folds alone', () => {
    const mode = modeFor('javascript', [
      'if (a) {',
      '  x()',
      '} else if (b) {',
      '  y()',
      '} else {',
      '  z()',
      '}',
    ])
    expect(folds(mode)).toEqual([
      [
        [0, 8],
        [1, 5],
      ],
      [
        [2, 15],
        [3, 5],
      ],
      [
        [4, 8],
        [6, 0],
      ],
    ])
    // Every branch is its own fold: none nests in another.
    expect(atLevel(mode, 0)).toHaveLength(3)
    // Asked about the `if` row alone, with the `else` rows out of the query's range.
    expect(json(mode.getFoldableRangeContainingPoint!(new Point(0, Infinity), 2))).toEqual([
      [0, 8],
      [1, 5],
    ])
  })

  it('fold block comments to just before `*/`, never line comments', () => {
    const mode = modeFor('javascript', [
      '/* one',
      '   two */',
      '// three',
      '// four',
      '/** five */',
    ])
    expect(folds(mode)).toEqual([
      [
        [0, 6],
        [1, 7],
      ],
    ])
  })

  it('fold JSX attributes and children apart', () => {
    const mode = modeFor('javascript', [
      'const el = (',
      '  <div',
      '    a="1">',
      '    <span',
      '      b="2"',
      '    />',
      '  </div>',
      ')',
    ])
    expect(folds(mode)).toEqual([
      [
        [1, 6],
        [2, 9],
      ],
      [
        [2, 10],
        [5, 6],
      ],
      [
        [3, 9],
        [5, 4],
      ],
    ])
  })

  it('find the fold around a point: the row’s own at its end, else the nearest enclosing', () => {
    const mode = modeFor('javascript', ['function f() {', '  if (a) {', '    x()', '  }', '}'])
    const around = (row: number, column: number) =>
      json(mode.getFoldableRangeContainingPoint!(new Point(row, column), 2))
    expect(around(1, Number.POSITIVE_INFINITY)).toEqual([
      [1, 10],
      [3, 2],
    ])
    expect(around(1, 0)).toEqual([
      [0, 14],
      [4, 0],
    ])
    expect(around(2, 3)).toEqual([
      [1, 10],
      [3, 2],
    ])
    expect(around(4, 0)).toEqual([
      [0, 14],
      [4, 0],
    ])
    expect(around(0, 3)).toBeNull()
  })

  it('count columns in UTF-16 units and rows across CRLF endings', () => {
    const mode = createLanguageMode(
      'javascript',
      new TextBuffer({ text: 'const s = "😀😀"\r\nfunction f() {\r\n  g()\r\n}\r\n' }),
    )
    expect(folds(mode)).toEqual([
      [
        [1, 14],
        [3, 0],
      ],
    ])
  })

  it('follow edits', () => {
    const buffer = new TextBuffer({ text: 'f()' })
    const mode = createLanguageMode('javascript', buffer)
    expect(mode.getFoldableRanges!(2)).toEqual([])
    buffer.setText('function f() {\n}')
    expect(json(mode.getFoldableRanges!(2)[0])).toEqual([
      [0, 14],
      [1, 0],
    ])
  })

  it('answer each row alone as when asked for every fold (seeded random programs)', () => {
    for (const seed of seeds(25)) {
      const random = new Random(seed)
      const lines: string[] = []
      randomJavaScript(random, lines, 0)
      expectRowsAgreeWithWhole(modeFor('javascript', lines), lines, `seed ${seed}`)
    }
  })
})

/** Appends a random JavaScript block of statements at indentation `depth` to `lines`. */
const randomJavaScript = (random: Random, lines: string[], depth: number): void => {
  const pad = '  '.repeat(depth)
  const count = random.int(1, depth === 0 ? 6 : 3)
  for (let i = 0; i < count; i++) {
    const deeper = depth < 3
    switch (random.int(0, 7)) {
      case 0:
        if (!deeper) break
        lines.push(`${pad}function f${i}(a) {`)
        randomJavaScript(random, lines, depth + 1)
        lines.push(`${pad}}`)
        break
      case 1: {
        if (!deeper) break
        lines.push(`${pad}if (a) {`)
        randomJavaScript(random, lines, depth + 1)
        const branches = random.int(0, 2)
        for (let b = 0; b < branches; b++) {
          lines.push(b === branches - 1 ? `${pad}} else {` : `${pad}} else if (b) {`)
          randomJavaScript(random, lines, depth + 1)
        }
        lines.push(`${pad}}`)
        break
      }
      case 2:
        lines.push(`${pad}const o = {`, `${pad}  k: [`, `${pad}    1,`, `${pad}  ],`, `${pad}}`)
        break
      case 3:
        lines.push(`${pad}call(`, `${pad}  a,`, `${pad})`)
        break
      case 4:
        lines.push(`${pad}/* note`, `${pad}   more */`)
        break
      case 5:
        lines.push(`${pad}x = \`a`, 'b`')
        break
      case 6:
        lines.push('')
        break
      default:
        lines.push(`${pad}// line`, `${pad}g(a)`)
    }
  }
}

/** Checks every row's own answers against the answer about every fold at once. */
const expectRowsAgreeWithWhole = (mode: LanguageMode, lines: string[], context: string) => {
  const all = mode.getFoldableRanges!(2)
  const byRow = new Map(all.map((range) => [range.start.row, json(range)]))
  for (let row = 0; row < lines.length; row++) {
    const where = `${context}, row ${row}:\n${lines.join('\n')}`
    expect(mode.isFoldableAtRow!(row), where).toBe(byRow.has(row))
    const own = mode.getFoldableRangeContainingPoint!(new Point(row, Infinity), 2)
    if (byRow.has(row)) expect(json(own), where).toEqual(byRow.get(row))
    else if (own !== null) expect(own.start.row, where).toBeLessThan(row)
  }
  // Nesting levels share out every fold exactly once.
  const levels = [0, 1, 2, 3, 4, 5, 6, 7, 8].flatMap((level) => atLevel(mode, level))
  expect(levels.length, context).toBe(all.length)
}

describe('other tree-sitter languages', () => {
  it('TypeScript folds interfaces and enums, and every if block a row short', () => {
    const mode = modeFor('typescript', [
      'interface I {',
      '  a: string',
      '}',
      'enum E {',
      '  A,',
      '}',
      'if (x) {',
      '  y()',
      '}',
    ])
    expect(folds(mode)).toEqual([
      [
        [0, 13],
        [2, 0],
      ],
      [
        [3, 8],
        [5, 0],
      ],
      [
        [6, 8],
        [7, 5],
      ],
    ])
  })

  it('TSX folds element children to one character before the closing tag', () => {
    const mode = modeFor('tsx', ['const e = <div', '  a="1">', '  hi', '</div>'])
    expect(folds(mode)).toEqual([
      [
        [0, 14],
        [1, 7],
      ],
      [
        [1, 8],
        [2, 4],
      ],
    ])
  })

  it('Python answers each row alone as when asked for every fold (seeded random programs)', () => {
    const blocks = (random: Random, lines: string[], depth: number): void => {
      const pad = '    '.repeat(depth)
      for (let i = random.int(1, 3); i > 0; i--) {
        const kind = depth < 3 ? random.int(0, 4) : 4
        if (kind === 0) lines.push(`${pad}if a:`)
        else if (kind === 1) lines.push(`${pad}try:`)
        else if (kind === 2) lines.push(`${pad}def f(a,`, `${pad}      b):`)
        else if (kind === 3) lines.push(`${pad}x = [`, `${pad}    1,`, `${pad}]`)
        else lines.push(`${pad}pass`)
        if (kind === 3 || kind === 4) continue
        blocks(random, lines, depth + 1)
        if (kind === 0 && random.chance(0.5)) {
          lines.push(`${pad}else:`)
          blocks(random, lines, depth + 1)
        }
        if (kind === 1) {
          lines.push(`${pad}except E:`)
          blocks(random, lines, depth + 1)
        }
      }
    }
    for (const seed of seeds(15)) {
      const lines: string[] = []
      blocks(new Random(seed), lines, 0)
      expectRowsAgreeWithWhole(modeFor('python', lines), lines, `seed ${seed}`)
    }
  })

  it('Python folds blocks to their end, try up to its first except', () => {
    const mode = modeFor('python', [
      'def f(a,',
      '      b):',
      '    if a:',
      '        pass',
      '    else:',
      '        pass',
      '    try:',
      '        x()',
      '    except E:',
      '        y()',
    ])
    expect(folds(mode).map(([start, end]) => [start[0], end[0]])).toEqual([
      [0, 9],
      [2, 3],
      [4, 5],
      [6, 7],
      [8, 9],
    ])
  })

  it('languages without a fold query fold by indentation', () => {
    const mode = createLanguageMode('css', new TextBuffer({ text: 'a {\n  b: c;\n}' }))
    expect(json(mode.getFoldableRanges!(2)[0])).toEqual([
      [0, 3],
      [1, 7],
    ])
  })
})
