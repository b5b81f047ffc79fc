/**
 * The bracket searches against a simple reference on random texts: the reference works on
 * the whole text as one string with the comments cut out, matching each kind of bracket
 * with a stack; the searches walk rows and columns and ask about comments one character at
 * a time. A comment here runs from `#` to the end of its row.
 */
import { Point } from '@tandem/text'
import { describe, expect, it } from 'vitest'
import { Random, seeds } from '../../../testing/random.js'
import { BracketPairs } from './bracket-pairs.js'
import {
  type BracketText,
  findBracketPair,
  findEnclosingOpener,
  findMatchingCloser,
  findMatchingOpener,
  isCommentOrStringScope,
} from './matching-brackets.js'

const PIECES = ['(', ')', '[', ']', '{', '}', '"', 'a', ' ', '\n', '#']
const PAIRS = BracketPairs.from(['()', '[]', '{}', '""'])

/** A text whose comments run from `#` to the end of the row. */
const textOf = (source: string): BracketText => {
  const lines = source.split('\n')
  return {
    lineForRow: (row) => lines[row],
    getLineCount: () => lines.length,
    isCommentOrString: (row, column) => {
      const hash = lines[row]!.indexOf('#')
      return hash >= 0 && column >= hash
    },
  }
}

/** For each offset of code that holds a bracket, the offset of its partner (the reference). */
const referencePartners = (source: string): Map<number, number> => {
  const partners = new Map<number, number>()
  const stacks = new Map<string, number[]>()
  let inComment = false
  for (let offset = 0; offset < source.length; offset++) {
    const character = source[offset]!
    if (character === '\n') inComment = false
    else if (character === '#') inComment = true
    if (inComment) continue
    const closer = PAIRS.closerFor(character)
    const opener = PAIRS.openerFor(character)
    if (closer === character) continue
    if (closer !== undefined) {
      const stack = stacks.get(character) ?? []
      stacks.set(character, stack)
      stack.push(offset)
    } else if (opener !== undefined) {
      const start = stacks.get(opener)?.pop()
      if (start !== undefined) {
        partners.set(start, offset)
        partners.set(offset, start)
      }
    }
  }
  return partners
}

/** The nearest unclosed opener of any kind before `offset` (the reference). */
const referenceEnclosing = (source: string, offset: number): number | undefined => {
  const open: number[] = []
  let inComment = false
  for (let i = 0; i < offset; i++) {
    const character = source[i]!
    if (character === '\n') inComment = false
    else if (character === '#') inComment = true
    if (inComment || character === '"') continue
    if (PAIRS.isOpener(character)) open.push(i)
    else if (PAIRS.isCloser(character)) open.pop()
  }
  return open.at(-1)
}

const offsetOf = (source: string, point: Point): number => {
  const lines = source.split('\n')
  let offset = 0
  for (let row = 0; row < point.row; row++) offset += lines[row]!.length + 1
  return offset + point.column
}

const pointOf = (source: string, offset: number): Point => {
  const before = source.slice(0, offset).split('\n')
  return new Point(before.length - 1, before.at(-1)!.length)
}

describe('bracket searches against a reference', () => {
  for (const seed of seeds(5)) {
    it(`agree on 200 random characters (seed ${seed})`, () => {
      const random = new Random(seed)
      const source = random.string(200, PIECES)
      const text = textOf(source)
      const partners = referencePartners(source)
      for (let offset = 0; offset <= source.length; offset++) {
        const at = pointOf(source, offset)
        const character = source[offset] ?? ''
        const closer = PAIRS.closerFor(character)
        const opener = PAIRS.openerFor(character)
        if (closer !== undefined && closer !== character) {
          const found = findMatchingCloser(text, at, character, closer)
          const expected = partners.get(offset)
          expect(found && offsetOf(source, found), `closer of ${offset}`).toBe(expected)
        } else if (opener !== undefined && opener !== character) {
          const found = findMatchingOpener(text, at, opener, character)
          const expected = partners.get(offset)
          expect(found && offsetOf(source, found), `opener of ${offset}`).toBe(expected)
        }
        const enclosing = findEnclosingOpener(text, PAIRS, at)
        expect(enclosing && offsetOf(source, enclosing), `enclosing ${offset}`).toBe(
          referenceEnclosing(source, offset),
        )
        const pair = findBracketPair(text, PAIRS, at)
        if (pair !== undefined) {
          const bracket = offsetOf(source, pair.bracket.start)
          expect(Math.abs(bracket - offset) <= 1 && bracket <= offset).toBe(true)
          expect(offsetOf(source, pair.match.start)).toBe(partners.get(bracket))
        }
      }
    })
  }
})

describe('comment and string scopes', () => {
  it('follow Atom: the innermost comment, string or embedded code decides', () => {
    expect(isCommentOrStringScope(['source.js', 'comment.block.js'])).toBe(true)
    expect(isCommentOrStringScope(['source.js', 'string.regexp.js'])).toBe(true)
    expect(
      isCommentOrStringScope(['source.js', 'string.template.js', 'meta.embedded.line.js']),
    ).toBe(false)
    expect(
      isCommentOrStringScope(['program', 'template_string', 'template_substitution', '(']),
    ).toBe(false)
    expect(isCommentOrStringScope(['program', 'string', 'string_fragment'])).toBe(true)
    expect(isCommentOrStringScope(['source.js', 'meta.brace.round.js'])).toBe(false)
  })
})
