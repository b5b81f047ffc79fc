/**
 * Tokenizing and parsing a 10,000-line JavaScript file, then keeping up with keystrokes.
 *
 * The file is real code: Yjs's own ES module build (a dependency, read where it is
 * installed), cut at the end of the top-level statement its 10,000th line is in.
 * The full cases tokenize every row with the TextMate grammar and parse the text with
 * tree-sitter, from scratch. The keystroke cases type one letter into the name of a function
 * call near the middle of the file, the kind of edit that changes one token, and then bring
 * the tokens and the tree up to date (`tokenizeUntil` the last row, `reparseNow`). Their cost
 * must follow what changed, not the file's length. Re-tokenizing does: one row per
 * keystroke, the same in a 1,000-line file as in a 10,000-line one. Re-parsing is a small
 * fraction of a full parse but grows with the number of top-level statements (see
 * docs/performance.md: tree-sitter cannot reuse the JavaScript grammar's top-level
 * repetition nodes).
 *
 * A keystroke that changes many rows is shown beside them: a backtick that turns the rest of
 * the file into a template string. The tokenizer redoes exactly the rows that changed.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { TextBuffer } from '@tandem/buffer'
import { defineSuite } from '../../../bench/harness.js'
import type { TreeSitterLanguage as Language } from '../src/syntax-node.js'
import { SyntaxTree } from '../src/syntax-tree.js'
import { TextMateTokenizer } from '../src/textmate.js'
import { loadTextMateGrammar, type TextMateGrammar } from '../src/textmate-grammar.js'
import { loadTreeSitterLanguage } from '../src/tree-sitter-languages.js'

/** Keystrokes per run of a keystroke case, each followed by catching up. */
const KEYSTROKES = 40

/** Yjs's ES module build: about 10,300 lines of real JavaScript. */
const readSource = (): string => {
  const entry = createRequire(import.meta.url).resolve('yjs')
  return readFileSync(join(dirname(entry), 'yjs.mjs'), 'utf8')
}

/**
 * The first `minLines` lines of `source` and then on to the end of the top-level statement
 * they are in (a line starting with `}` closes one), so the text parses without errors.
 */
const wholeStatements = (source: string, minLines: number): string => {
  const lines = source.split('\n')
  let end = Math.min(minLines, lines.length)
  while (end < lines.length && !/^}[;)]*\s*$/.test(lines[end - 1]!)) end++
  return lines.slice(0, end).join('\n')
}

/**
 * Where the keystrokes go: in `count` rows around the middle of the text, one column into the
 * name of a function called on that row (`foo(` becomes `fxoo(`), so each changes one token.
 */
const keystrokeSpots = (text: string, count: number): Array<[number, number]> => {
  const lines = text.split('\n')
  const spots: Array<[number, number]> = []
  const call = /(?<![\w$])[a-z]\w+\(/
  const middle = Math.floor(lines.length / 2)
  for (let i = 0; i < lines.length && spots.length < count; i++) {
    const row = (middle + i) % lines.length
    const line = lines[row]!
    if (/^\s*(\/\/|\*|\/\*)/.test(line)) continue
    const match = call.exec(line)
    if (match !== null) spots.push([row, match.index + 1])
  }
  if (spots.length < count) throw new Error(`only ${spots.length} rows with a function call`)
  return spots
}

interface Parsers {
  readonly grammar: TextMateGrammar
  readonly language: Language
}

interface Document {
  readonly buffer: TextBuffer
  readonly tokenizer: TextMateTokenizer
  readonly syntax: SyntaxTree
  /** Rows tokenized after the setup's full pass. */
  retokenized: number
}

/** A buffer holding `text`, fully tokenized and parsed. */
const openDocument = ({ grammar, language }: Parsers, text: string): Document => {
  const buffer = new TextBuffer({ text })
  const tokenizer = new TextMateTokenizer(grammar, buffer, { lineTimeLimit: 0 })
  tokenizer.tokenizeUntil(Number.POSITIVE_INFINITY)
  const syntax = new SyntaxTree(language, buffer)
  const document: Document = { buffer, tokenizer, syntax, retokenized: 0 }
  tokenizer.onDidTokenize(({ startRow, endRow }) => {
    document.retokenized += endRow - startRow + 1
  })
  return document
}

const closeDocument = ({ buffer, tokenizer, syntax }: Document): void => {
  syntax.destroy()
  tokenizer.destroy()
  buffer.destroy()
}

/**
 * Fails when the tokens or the tree differ from a fresh pass over the same text, or when the
 * text no longer parses and `mustParse`.
 */
const checkAgainstFresh = (parsers: Parsers, document: Document, mustParse = true): void => {
  const fresh = openDocument(parsers, document.buffer.getText())
  try {
    const rows = document.buffer.getLineCount()
    for (let row = 0; row < rows; row++) {
      const kept = JSON.stringify(document.tokenizer.tokensForRow(row))
      if (kept !== JSON.stringify(fresh.tokenizer.tokensForRow(row))) {
        throw new Error(`row ${row}: tokens differ from a fresh tokenization`)
      }
    }
    if (document.syntax.rootNode.toString() !== fresh.syntax.rootNode.toString()) {
      throw new Error('the tree differs from a fresh parse')
    }
    if (mustParse && document.syntax.rootNode.hasError)
      throw new Error('the edited text has syntax errors')
  } finally {
    closeDocument(fresh)
  }
}

export default defineSuite({
  name: 'language-incremental',
  description: 'tokenize + parse a 10,000-line JavaScript file, then keystrokes: redo vs full',
  async define(s) {
    s.progress('loading the JavaScript grammars')
    const [grammar, language] = await Promise.all([
      loadTextMateGrammar('javascript'),
      loadTreeSitterLanguage('javascript'),
    ])
    const parsers: Parsers = { grammar, language }
    const source = readSource()
    const [smallLines, largeLines] = s.quick ? [500, 2_000] : [1_000, 10_000]
    const keystrokes = s.quick ? 10 : KEYSTROKES

    const sizes = [smallLines, largeLines].map((minLines) => {
      const text = wholeStatements(source, minLines)
      const lines = text.split('\n').length
      return {
        text,
        lines,
        label: `${lines.toLocaleString('en')} lines`,
        spots: keystrokeSpots(text, keystrokes),
      }
    })
    const [small, large] = sizes as [(typeof sizes)[0], (typeof sizes)[0]]

    const full = (size: typeof large) => ({
      tokenize: s.case<TextBuffer>({
        name: `${size.label}: tokenize all rows`,
        setup: () => new TextBuffer({ text: size.text }),
        run: (buffer) => {
          const tokenizer = new TextMateTokenizer(grammar, buffer, { lineTimeLimit: 0 })
          tokenizer.tokenizeUntil(Number.POSITIVE_INFINITY)
          return tokenizer
        },
        check: (_buffer, tokenizer) => {
          if (!(tokenizer as TextMateTokenizer).isFullyTokenized()) throw new Error('rows left')
        },
        teardown: (buffer) => buffer.destroy(),
        ops: 1,
        opUnit: 'pass',
      }),
      parse: s.case<TextBuffer>({
        name: `${size.label}: parse`,
        setup: () => new TextBuffer({ text: size.text }),
        run: (buffer) => new SyntaxTree(language, buffer),
        check: (_buffer, syntax) => {
          if ((syntax as SyntaxTree).rootNode.hasError) throw new Error('the file does not parse')
          ;(syntax as SyntaxTree).destroy()
        },
        teardown: (buffer) => buffer.destroy(),
        ops: 1,
        opUnit: 'pass',
      }),
    })

    /** A keystroke case: type at each spot, then catch up with `catchUp`. */
    const keystrokeCase = (
      size: typeof large,
      what: string,
      catchUp: (document: Document) => void,
    ) =>
      s.case<Document>({
        name: `${size.label}: keystroke, ${what}`,
        setup: () => openDocument(parsers, size.text),
        run: (document) => {
          for (const [row, column] of size.spots) {
            document.buffer.insert([row, column], 'x')
            catchUp(document)
          }
        },
        check: (document) => {
          if (what === 're-tokenize' && document.retokenized !== size.spots.length) {
            throw new Error(
              `${document.retokenized} rows re-tokenized for ${size.spots.length} keystrokes`,
            )
          }
          // Bring both up to date whichever the case measured, then compare with a fresh pass.
          document.tokenizer.tokenizeUntil(Number.POSITIVE_INFINITY)
          document.syntax.reparseNow()
          checkAgainstFresh(parsers, document)
        },
        teardown: closeDocument,
        ops: size.spots.length,
        opUnit: 'key',
      })

    const retokenize = (document: Document) =>
      document.tokenizer.tokenizeUntil(Number.POSITIVE_INFINITY)
    const reparse = (document: Document) => document.syntax.reparseNow()

    const largeFull = full(large)
    const keyTokens = [small, large].map((size) => keystrokeCase(size, 're-tokenize', retokenize))
    const keyTree = [small, large].map((size) => keystrokeCase(size, 're-parse', reparse))

    s.compare({
      name: 'keystroke / full: re-tokenize',
      candidate: keyTokens[1]!,
      peer: largeFull.tokenize,
      perOp: true,
      target: '<= 0.01',
    })
    s.compare({
      name: 'keystroke / full: re-parse',
      candidate: keyTree[1]!,
      peer: largeFull.parse,
      perOp: true,
      target: '<= 0.1',
    })
    s.scaling({
      name: `re-tokenize per keystroke, ${large.label} / ${small.label}`,
      small: keyTokens[0]!,
      large: keyTokens[1]!,
      perOp: true,
      target: '<= 1.5',
    })
    s.scaling({
      name: `re-parse per keystroke, ${large.label} / ${small.label}`,
      small: keyTree[0]!,
      large: keyTree[1]!,
      perOp: true,
    })

    s.progress('finding how far a template-string opener reaches')
    const opener = large.spots[0]!
    const openerReach = (() => {
      const document = openDocument(parsers, large.text)
      try {
        document.buffer.insert([opener[0], 0], '`')
        retokenize(document)
        return document.retokenized
      } finally {
        closeDocument(document)
      }
    })()
    const templateOpener = s.case<Document>({
      name: `${large.label}: keystroke opening a template string, re-tokenize`,
      setup: () => openDocument(parsers, large.text),
      run: (document) => {
        document.buffer.insert([opener[0], 0], '`')
        retokenize(document)
      },
      check: (document) => {
        if (document.retokenized !== openerReach) {
          throw new Error(`${document.retokenized} rows re-tokenized, ${openerReach} before`)
        }
        document.syntax.reparseNow()
        checkAgainstFresh(parsers, document, false)
      },
      teardown: closeDocument,
      ops: 1,
      opUnit: 'key',
    })
    s.compare({
      name: 'template opener / full: re-tokenize',
      candidate: templateOpener,
      peer: largeFull.tokenize,
    })
    s.report({
      name: 'rows the template opener re-tokenizes',
      value: (100 * openerReach) / large.lines,
      unit: '% of rows',
    })
    s.note(
      `keystrokes type into function-call names from the middle on, ${keystrokes} per run, ` +
        `each re-tokenizing one row; the template opener turns the ${openerReach} rows up to the ` +
        'next backtick (or the end) into string content, cheap to tokenize, and only those are redone',
    )
  },
})
