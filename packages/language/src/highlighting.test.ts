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
