import { describe, expect, it } from 'vitest'
import { Random, seeds } from '../../../testing/random.js'
import {
  detectIndentation,
  MAX_DETECTION_ROWS,
  MAX_INDENT_STEP,
  resolveIndentation,
} from './indentation.js'
import type { CommentTokens } from './languages.js'

const C: CommentTokens = { line: '// ', blockStart: '/* ', blockEnd: ' */' }
const PYTHON: CommentTokens = { line: '# ' }
const detect = (text: string, comments?: CommentTokens) =>
  detectIndentation(text.split('\n'), comments)

describe('detectIndentation: soft or hard tabs, as Atom decides', () => {
  it('takes the first indented row', () => {
    expect(detect('f() {\n  a()\n\tb()\n}').softTabs).toBe(true)
    expect(detect('f() {\n\ta()\n  b()\n}').softTabs).toBe(false)
  })

  it('says nothing when no row is indented', () => {
    expect(detect('a\nb\n\nc')).toEqual({ softTabs: undefined, tabLength: undefined })
  })

  it('skips comment rows: line comments, block comments and their inner rows', () => {
    expect(detect('  // note\nf() {\n\tg()\n}', C).softTabs).toBe(false)
    expect(detect('/*\n * license\n */\nf() {\n\tg()\n}', C).softTabs).toBe(false)
    expect(detect('x = 1 /* a\n   b */\nif (x) {\n\ty()\n}', C).softTabs).toBe(false)
    expect(detect('  # note\ndef f():\n\treturn 1', PYTHON).softTabs).toBe(false)
    // Without comment tokens (plain text) every row counts.
    expect(detect('  // note\nf() {\n\tg()\n}').softTabs).toBe(true)
  })

  it('counts a row of spaces alone, as Atom does', () => {
    expect(detect('a\n  \n\tb').softTabs).toBe(true)
  })

  it('looks at the first rows only', () => {
    const lines = [...new Array<string>(MAX_DETECTION_ROWS).fill('x'), '\ty']
    expect(detectIndentation(lines).softTabs).toBeUndefined()
    lines[MAX_DETECTION_ROWS - 1] = '\tx'
    expect(detectIndentation(lines).softTabs).toBe(false)
  })
})

describe('detectIndentation: the tab length', () => {
  it('is the common step of space-indented rows', () => {
    expect(detect('a {\n  b {\n    c\n  }\n}').tabLength).toBe(2)
    expect(detect('def f():\n    if x:\n        return 1\n    return 2', PYTHON).tabLength).toBe(4)
  })

  it('counts a jump of two levels for the step', () => {
    // 4, 8 (a hanging indent two levels deep), 4: the step is 4.
    expect(detect('a(\n    b,\n        c)\nd {\n    e\n}').tabLength).toBe(4)
  })

  it('ignores alignment that the block structure outweighs', () => {
    const text = 'f(a,\n  b)\ng {\n    h\n    i {\n        j\n    }\n}\nk {\n    l\n}'
    expect(detect(text).tabLength).toBe(4)
  })

  it('says nothing when the rows disagree, or are indented with tabs', () => {
    expect(detect('if (a) {\nb()\n      c([\n1,\n])\n        }').tabLength).toBeUndefined()
    expect(detect('a {\n\tb\n\t\tc\n}').tabLength).toBeUndefined()
  })

  it('ignores increases wider than the largest step and comment rows', () => {
    expect(detect(`a(\n${' '.repeat(MAX_INDENT_STEP + 1)}b)`).tabLength).toBeUndefined()
    expect(detect('/*\n * a\n */\nb {\n  c\n}', C).tabLength).toBe(2)
  })

  it('is resolved against explicit options and a default', () => {
    const fallback = { softTabs: false, tabLength: 4 }
    expect(resolveIndentation({}, {}, fallback)).toEqual(fallback)
    expect(resolveIndentation({}, { softTabs: true }, fallback)).toEqual({
      softTabs: true,
      tabLength: 4,
    })
    expect(resolveIndentation({ tabLength: 3 }, { tabLength: 2 }, fallback).tabLength).toBe(3)
  })
})

interface Generated {
  lines: string[]
  /** Which rows the generator made as comments. */
  comments: boolean[]
  /** The unit it indented code rows with. */
  softTabs: boolean
  tabLength: number
}

/** Code rows nested one level at most deeper than the row above, with comment and blank rows. */
const generate = (random: Random): Generated => {
  const next = () => random.next()
  const softTabs = next() < 0.7
  const tabLength = [2, 3, 4, 8][Math.floor(next() * 4)]!
  const unit = softTabs ? ' '.repeat(tabLength) : '\t'
  const lines: string[] = []
  const comments: boolean[] = []
  let level = 0
  const count = 1 + Math.floor(next() * 40)
  for (let i = 0; i < count; i++) {
    const kind = next()
    if (kind < 0.1) {
      lines.push(next() < 0.5 ? '' : ' '.repeat(1 + Math.floor(next() * 3)))
      comments.push(false)
    } else if (kind < 0.2) {
      // A line comment at any indentation, even one the unit would never give.
      lines.push(`${' '.repeat(Math.floor(next() * 5))}// note`)
      comments.push(true)
    } else if (kind < 0.3) {
      const inner = 1 + Math.floor(next() * 3)
      lines.push(`${unit.repeat(level)}/*`)
      for (let j = 0; j < inner; j++) lines.push(`${unit.repeat(level)} * note`)
      lines.push(`${unit.repeat(level)} */`)
      for (let j = 0; j < inner + 2; j++) comments.push(true)
    } else {
      level = Math.max(0, Math.min(level + Math.floor(next() * 3) - 1, 6))
      lines.push(`${unit.repeat(level)}code()`)
      comments.push(false)
    }
  }
  return { lines, comments, softTabs, tabLength }
}

/** Atom's `usesSoftTabs`, over rows whose comment state is known. */
const atomUsesSoftTabs = ({ lines, comments }: Generated): boolean | undefined => {
  for (let row = 0; row < Math.min(lines.length, MAX_DETECTION_ROWS); row++) {
    if (comments[row]) continue
    if (lines[row]![0] === ' ') return true
    if (lines[row]![0] === '\t') return false
  }
  return undefined
}

/** Whether some code row is one level deeper than the code row before it. */
const hasIncrease = ({ lines, comments }: Generated): boolean => {
  let previous = 0
  for (let row = 0; row < lines.length; row++) {
    const line = lines[row]!
    if (comments[row] || line.trim() === '') continue
    const indent = line.length - line.trimStart().length
    if (indent > previous) return true
    previous = indent
  }
  return false
}

describe('detectIndentation on generated files', () => {
  it('agrees with Atom on soft tabs and finds the unit the rows were indented with', () => {
    for (const seed of seeds(500)) {
      const file = generate(new Random(seed))
      const guess = detectIndentation(file.lines, C)
      const where = `seed ${seed} (SEED=${seed} repeats it):\n${file.lines.join('\n')}`
      expect(guess.softTabs, where).toBe(atomUsesSoftTabs(file))
      if (file.softTabs && hasIncrease(file)) expect(guess.tabLength, where).toBe(file.tabLength)
      if (!file.softTabs) expect(guess.tabLength, where).toBeUndefined()
    }
  })
})
