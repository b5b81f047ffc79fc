import { TextBuffer } from '@tandem/buffer'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { GrammarLanguageMode } from './grammar-mode.js'
import type { LanguageMode } from './language-mode.js'
import { languageSettings } from './languages.js'
import { PlainTextMode } from './plain-text-mode.js'
import { createLanguageMode, loadLanguage } from './registry.js'
import type { TokenizedRows } from './textmate.js'

const ROWS = 1000
const text = Array.from({ length: ROWS }, (_, i) => `const v${i} = ${i} // row ${i}`).join('\n')

/** A JavaScript mode with its grammar attached, and the runs of rows it reports. */
const javascriptMode = async (buffer: TextBuffer) => {
  await loadLanguage('javascript')
  const mode = createLanguageMode('javascript', buffer)
  const runs: TokenizedRows[] = []
  mode.onDidTokenizeBufferRows?.((rows) => runs.push(rows))
  return { mode, runs }
}

const lastScopes = (mode: LanguageMode, row: number) =>
  mode.tokensForBufferRow?.(row)?.map((token) => token.scopes[token.scopes.length - 1])

describe('language modes: tokens for highlighting', () => {
  it('give null tokens until the grammar is attached, then announce it', () => {
    const buffer = new TextBuffer({ text: 'let a = 1' })
    const mode = new GrammarLanguageMode(buffer, languageSettings('javascript'))
    let changes = 0
    mode.onDidChangeHighlighting(() => changes++)
    expect(mode.tokensForBufferRow(0)).toBeNull()
    mode.attach({})
    expect(changes).toBe(1)
    expect(mode.tokensForBufferRow(0)).toBeNull()
  })

  it('plain text has no tokens to give', () => {
    const mode: LanguageMode = new PlainTextMode(new TextBuffer({ text: 'x' }))
    expect(mode.tokensForBufferRow).toBeUndefined()
  })

  it('tokenize only up to the row asked for, and report the rows they tokenized', async () => {
    const { mode, runs } = await javascriptMode(new TextBuffer({ text }))
    expect(lastScopes(mode, 9)).toContain('storage.type.js')
    expect(lastScopes(mode, 9)).toContain('constant.numeric.decimal.js')
    expect(lastScopes(mode, 9)).toContain('comment.line.double-slash.js')
    expect(runs).toEqual([{ startRow: 0, endRow: 9 }])
    expect(() => mode.tokensForBufferRow?.(ROWS)).toThrow(RangeError)
  })

  it('re-tokenize only the edited row after a local edit', async () => {
    const buffer = new TextBuffer({ text })
    const { mode, runs } = await javascriptMode(buffer)
    mode.tokensForBufferRow?.(ROWS - 1)
    runs.length = 0
    buffer.insert([500, 0], '"')
    for (let row = 0; row < ROWS; row += 37) mode.tokensForBufferRow?.(row)
    mode.tokensForBufferRow?.(ROWS - 1)
    expect(runs).toEqual([{ startRow: 500, endRow: 500 }])
  })

  it('re-tokenize the rows whose starting state a remote edit changed, and no others', async () => {
    const docA = new Y.Doc()
    const docB = new Y.Doc()
    docA.on('update', (update: Uint8Array) => Y.applyUpdate(docB, update))
    const bufferA = new TextBuffer({ doc: docA })
    bufferA.setText(text)
    const bufferB = new TextBuffer({ doc: docB })
    const { mode, runs } = await javascriptMode(bufferB)
    mode.tokensForBufferRow?.(ROWS - 1)
    runs.length = 0
    // Opening a block comment on row 10 turns rows 10 to 19 into a comment...
    bufferA.insert([10, 0], '/*')
    bufferA.insert([19, 0], '*/')
    expect(lastScopes(mode, 12)).toEqual(['comment.block.js'])
    expect(runs).toEqual([{ startRow: 10, endRow: 12 }])
    mode.tokensForBufferRow?.(40)
    // ...and the rows after its end are what they were, so tokenizing stops there.
    expect(runs.at(-1)).toEqual({ startRow: 13, endRow: 19 })
    expect(lastScopes(mode, 20)).toContain('storage.type.js')
  })

  it('stop reporting once destroyed', async () => {
    const buffer = new TextBuffer({ text })
    const { mode, runs } = await javascriptMode(buffer)
    mode.destroy()
    expect(mode.tokensForBufferRow?.(0)).toBeNull()
    expect(runs).toEqual([])
  })
})

/** A JavaScript file of `count` functions, each a few rows long, as real code is laid out. */
const functions = (count: number) =>
  Array.from(
    { length: count },
    (_, i) =>
      `/* helper ${i} */\nfunction f${i}(a, b) {\n  const s = "text ${i}"\n  return a + b * ${i} // done\n}`,
  ).join('\n')

describe('language modes: colours without waiting for the rows above', () => {
  it('colour a row far down from a guessed start, without tokenizing the rows above it', async () => {
    const buffer = new TextBuffer({ text: functions(4000) })
    const { mode, runs } = await javascriptMode(buffer)
    const row = 5 * 3000 + 2
    const guessed = mode.highlightTokensForBufferRow?.(row)
    expect(guessed?.map((token) => token.scopes[token.scopes.length - 1])).toContain(
      'string.quoted.double.js',
    )
    // Nothing was tokenized for real: no run reported, and the rows above still wait.
    expect(runs).toEqual([])
    expect(mode.tokenizeBufferRowsFor?.(0, 10)).toBe(false)
    // Tokenized for real, the rows come out as the guesses had them.
    const guesses = Array.from({ length: 60 }, (_, i) =>
      mode.highlightTokensForBufferRow?.(row + i),
    )
    mode.tokensForBufferRow?.(row + 60)
    for (let i = 0; i < 60; i++) {
      expect(mode.tokensForBufferRow?.(row + i), `row ${row + i}`).toEqual(guesses[i])
    }
  })

  it('tokenize a little at a time, the rows up to the one asked for first', async () => {
    const buffer = new TextBuffer({ text: functions(4000) })
    const { mode } = await javascriptMode(buffer)
    let steps = 0
    while (!mode.tokenizeBufferRowsFor?.(1, 500)) steps++
    expect(steps).toBeGreaterThan(0)
    expect(mode.tokenizeBufferRowsFor?.(0, 500)).toBe(true)
    expect(mode.tokenizeBufferRowsFor?.(0)).toBe(false)
    while (!mode.tokenizeBufferRowsFor?.(50)) steps++
    expect(mode.tokenizeBufferRowsFor?.(0)).toBe(true)
    expect(() => mode.tokenizeBufferRowsFor?.(-1)).toThrow(RangeError)
  })

  it('keep guesses on their rows through edits above them, and drop the edited ones', async () => {
    const doc = new Y.Doc()
    const buffer = new TextBuffer({ doc })
    buffer.setText(functions(2000))
    const { mode } = await javascriptMode(buffer)
    const row = 5 * 1500 + 2
    const before = mode.highlightTokensForBufferRow?.(row)
    buffer.setTextInRange(
      [
        [100, 0],
        [100, 0],
      ],
      'const added = 1\nconst more = 2\n',
    )
    expect(mode.highlightTokensForBufferRow?.(row + 2)).toBe(before)
    // A plain-text editor of the same document types on a guessed row: it is guessed anew.
    const other = new Y.Doc()
    Y.applyUpdate(other, Y.encodeStateAsUpdate(doc))
    other.on('update', (update: Uint8Array) => Y.applyUpdate(doc, update))
    const text = other.getText('text')
    const offset = buffer.characterIndexForPosition([row + 2, 0])
    text.insert(offset, 'let ')
    const after = mode.highlightTokensForBufferRow?.(row + 2)
    expect(after).not.toBe(before)
    expect(after?.[0]?.scopes[after[0].scopes.length - 1]).toBe('storage.type.js')
  })
})
