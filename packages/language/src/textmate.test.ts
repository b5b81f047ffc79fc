import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { TextBuffer } from '@tandem/buffer'
import { describe, expect, it } from 'vitest'
import { Random, seeds } from '../../../testing/random.js'
import { TestNetwork } from '../../buffer/src/testing/network.js'
import { setAssetLocator } from './assets.js'
import { TextMateTokenizer, type TokenizedRows } from './textmate.js'
import { loadTextMateGrammar } from './textmate-grammar.js'

const tokenizerFor = async (language: string, text: string) =>
  new TextMateTokenizer(await loadTextMateGrammar(language), new TextBuffer({ text }))

/** The scopes at the first occurrence of `needle` in the text, `offset` characters into it. */
const scopesAtText = (tokenizer: TextMateTokenizer, needle: string, offset = 0): string[] => {
  const index = tokenizer.buffer.getText().indexOf(needle)
  if (index < 0) throw new Error(`${JSON.stringify(needle)} is not in the text`)
  return tokenizer.scopesAt(tokenizer.buffer.positionForCharacterIndex(index + offset))
}

const JAVASCRIPT = [
  'if (a) return "s" // c',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source text to tokenize
  'let t = `x${y}z`',
  'const r = /a+b/g',
  '',
  '/* one',
  '   two */ f()',
].join('\n')

describe('TextMateTokenizer: scopes', () => {
  it('gives JavaScript scopes, outermost first, from the root scope', async () => {
    const tokenizer = await tokenizerFor('javascript', JAVASCRIPT)
    expect(scopesAtText(tokenizer, 'return', 2)).toEqual(['source.js', 'keyword.control.flow.js'])
    expect(scopesAtText(tokenizer, '"s"', 1)).toEqual(['source.js', 'string.quoted.double.js'])
    expect(scopesAtText(tokenizer, '// c', 3)).toEqual([
      'source.js',
      'comment.line.double-slash.js',
    ])
    expect(scopesAtText(tokenizer, 'y}')).toEqual([
      'source.js',
      'meta.var.expr.js',
      'string.template.js',
      'meta.template.expression.js',
      'meta.embedded.line.js',
      'variable.other.readwrite.js',
    ])
    expect(scopesAtText(tokenizer, 'z`')).toEqual([
      'source.js',
      'meta.var.expr.js',
      'string.template.js',
    ])
    expect(scopesAtText(tokenizer, '+b/')).toEqual([
      'source.js',
      'meta.var.expr.js',
      'string.regexp.js',
      'keyword.operator.quantifier.regexp',
    ])
    expect(scopesAtText(tokenizer, 'two')).toEqual(['source.js', 'comment.block.js'])
    expect(scopesAtText(tokenizer, 'f()')).toEqual([
      'source.js',
      'meta.function-call.js',
      'entity.name.function.js',
    ])
  })

  it('takes the character before a position at the end of a line, and clips positions', async () => {
    const tokenizer = await tokenizerFor('javascript', JAVASCRIPT)
    expect(tokenizer.scopesAt([0, 22])).toEqual(['source.js', 'comment.line.double-slash.js'])
    expect(tokenizer.scopesAt([0, 0])).toEqual(['source.js', 'keyword.control.conditional.js'])
    expect(tokenizer.scopesAt([3, 0])).toEqual(['source.js'])
    expect(tokenizer.scopesAt([99, 99])).toEqual(['source.js', 'meta.brace.round.js'])
    expect(tokenizer.tokensForRow(3)).toEqual([
      { startIndex: 0, endIndex: 0, scopes: ['source.js'] },
    ])
    expect(() => tokenizer.tokensForRow(6)).toThrow(RangeError)
  })

  it('gives the scopes of TypeScript, Python, JSON and CSS', async () => {
    const typescript = await tokenizerFor('typescript', 'let n: number = 1')
    expect(scopesAtText(typescript, 'number')).toEqual([
      'source.ts',
      'meta.var.expr.ts',
      'meta.var-single-variable.expr.ts',
      'meta.type.annotation.ts',
      'support.type.primitive.ts',
    ])
    const python = await tokenizerFor('python', 'def f(x):\n    return "s"  # c')
    expect(scopesAtText(python, 'def')).toEqual([
      'source.python',
      'meta.function.python',
      'storage.type.function.python',
    ])
    expect(scopesAtText(python, '# c', 2)).toEqual([
      'source.python',
      'comment.line.number-sign.python',
    ])
    const json = await tokenizerFor('json', '{"a": [1, true]}')
    expect(scopesAtText(json, 'a"')).toEqual([
      'source.json',
      'meta.structure.dictionary.json',
      'string.json',
      'support.type.property-name.json',
    ])
    const css = await tokenizerFor('css', 'a.b { color: red; }')
    expect(scopesAtText(css, 'color')).toEqual([
      'source.css',
      'meta.property-list.css',
      'meta.property-name.css',
      'support.type.property-name.css',
    ])
  })

  it('gives the scopes of HTML and Markdown, with the languages they embed', async () => {
    const html = await tokenizerFor('html', '<div class="x">hi</div>\n<script>let a = 1</script>')
    expect(scopesAtText(html, 'div')).toEqual([
      'text.html.basic',
      'meta.tag.structure.div.start.html',
      'entity.name.tag.html',
    ])
    expect(scopesAtText(html, 'let')).toEqual([
      'text.html.basic',
      'meta.embedded.block.html',
      'source.js',
      'meta.var.expr.js',
      'storage.type.js',
    ])
    const markdown = await tokenizerFor('markdown', '# Title\n\n```js\nconst a = 1\n```')
    expect(scopesAtText(markdown, 'Title')[0]).toBe('text.html.markdown')
    expect(scopesAtText(markdown, 'Title')).toContain('markup.heading.markdown')
    expect(scopesAtText(markdown, 'const')).toEqual([
      'text.html.markdown',
      'markup.fenced_code.block.markdown',
      'meta.embedded.block.javascript',
      'meta.var.expr.js',
      'storage.type.js',
    ])
  })

  it('cuts a line that takes longer than the time limit, leaving the next line alone', async () => {
    const grammar = await loadTextMateGrammar('javascript')
    const text = `${'x; '.repeat(10_000)}/*\nlet a`
    const limited = new TextMateTokenizer(grammar, new TextBuffer({ text }), { lineTimeLimit: 1 })
    const tokens = limited.tokensForRow(0)
    expect(tokens.at(-1)).toEqual({
      startIndex: tokens.at(-1)!.startIndex,
      endIndex: 30_002,
      scopes: ['source.js'],
    })
    expect(limited.scopesAt([1, 1])).toEqual(['source.js', 'meta.var.expr.js', 'storage.type.js'])
    const unlimited = new TextMateTokenizer(grammar, new TextBuffer({ text }), { lineTimeLimit: 0 })
    expect(unlimited.scopesAt([1, 1])).toEqual(['source.js', 'comment.block.js'])
  })
})

describe('loadTextMateGrammar', () => {
  it('shares one load among concurrent calls, by name or alias', async () => {
    const [a, b, c] = await Promise.all([
      loadTextMateGrammar('javascript'),
      loadTextMateGrammar('javascript'),
      loadTextMateGrammar('js'),
    ])
    expect(a).toBe(b)
    expect(a).toBe(c)
    expect(a.name).toBe('javascript')
    expect(a.scopeName).toBe('source.js')
  })

  it('rejects an unknown language, naming it', async () => {
    await expect(loadTextMateGrammar('klingon')).rejects.toThrow(/"klingon"/)
    await expect(loadTextMateGrammar('klingon')).rejects.toBeInstanceOf(RangeError)
  })

  it('names the grammar that failed to load, and loads it on a later call', async () => {
    const require = createRequire(import.meta.url)
    setAssetLocator(({ pkg, path }) => {
      if (path === 'grammars/toml.json') throw new Error('network down')
      return new Uint8Array(readFileSync(require.resolve(`${pkg}/${path}`)))
    })
    try {
      await expect(loadTextMateGrammar('toml')).rejects.toThrow(/'toml'.*network down/)
    } finally {
      setAssetLocator(null)
    }
    const toml = await loadTextMateGrammar('toml')
    const tokenizer = new TextMateTokenizer(toml, new TextBuffer({ text: 'key: 1' }))
    expect(tokenizer.scopesAt([0, 0])[0]).toBe('source.toml')
  })
})

/** Rows reported through `onDidTokenize` while `fn` runs. */
const tokenizedDuring = (tokenizer: TextMateTokenizer, fn: () => void): TokenizedRows[] => {
  const reported: TokenizedRows[] = []
  const subscription = tokenizer.onDidTokenize((rows) => reported.push(rows))
  fn()
  subscription.dispose()
  return reported
}

describe('TextMateTokenizer: incremental tokenizing', () => {
  const lines = Array.from({ length: 200 }, (_, row) => `const v${row} = ${row} // row ${row}`)

  it('tokenizes only what is asked for, in bounded chunks', async () => {
    const tokenizer = await tokenizerFor('javascript', lines.join('\n'))
    expect(tokenizedDuring(tokenizer, () => tokenizer.scopesAt([9, 0]))).toEqual([
      { startRow: 0, endRow: 9 },
    ])
    let done = false
    expect(tokenizedDuring(tokenizer, () => (done = tokenizer.tokenizeSome(50)))).toEqual([
      { startRow: 10, endRow: 59 },
    ])
    expect(done).toBe(false)
    expect(tokenizer.tokenizeSome(1000)).toBe(true)
    expect(tokenizer.isFullyTokenized()).toBe(true)
    expect(
      tokenizedDuring(tokenizer, () => tokenizer.tokenizeUntil(Number.POSITIVE_INFINITY)),
    ).toEqual([])
  })

  it('re-tokenizes only the edited rows when their end state does not change', async () => {
    const tokenizer = await tokenizerFor('javascript', lines.join('\n'))
    tokenizer.tokenizeUntil(Number.POSITIVE_INFINITY)
    tokenizer.buffer.insert([100, 7], 'x')
    expect(tokenizedDuring(tokenizer, () => tokenizer.scopesAt([199, 0]))).toEqual([
      { startRow: 100, endRow: 100 },
    ])
    tokenizer.buffer.transact(() => {
      tokenizer.buffer.insert([150, 7], 'y')
      tokenizer.buffer.insert([10, 0], 'let w = 1\n')
    })
    expect(
      tokenizedDuring(tokenizer, () => tokenizer.tokenizeUntil(Number.POSITIVE_INFINITY)),
    ).toEqual([
      { startRow: 10, endRow: 11 },
      { startRow: 151, endRow: 151 },
    ])
    expect(scopesAtText(tokenizer, 'vy150')).toContain('variable.other.constant.js')
  })

  it('re-tokenizes to the end when a block comment is opened, and back when it is closed', async () => {
    const tokenizer = await tokenizerFor('javascript', lines.join('\n'))
    tokenizer.tokenizeUntil(Number.POSITIVE_INFINITY)
    tokenizer.buffer.insert([50, 0], '/*')
    expect(
      tokenizedDuring(tokenizer, () => tokenizer.tokenizeSome(Number.POSITIVE_INFINITY)),
    ).toEqual([{ startRow: 50, endRow: 199 }])
    expect(tokenizer.scopesAt([199, 3])).toEqual(['source.js', 'comment.block.js'])
    tokenizer.buffer.insert([60, 0], '*/')
    expect(tokenizedDuring(tokenizer, () => tokenizer.scopesAt([199, 3]))).toEqual([
      { startRow: 60, endRow: 199 },
    ])
    expect(tokenizer.scopesAt([199, 3])).toEqual([
      'source.js',
      'meta.var.expr.js',
      'storage.type.js',
    ])
    expect(tokenizer.scopesAt([55, 3])).toEqual(['source.js', 'comment.block.js'])
  })

  it('starts over when the text is read again, and stops with destroy', async () => {
    const tokenizer = await tokenizerFor('javascript', 'let a = 1\nlet b = 2')
    tokenizer.tokenizeUntil(Number.POSITIVE_INFINITY)
    const { buffer } = tokenizer
    // Editing the Y.Text behind the buffer's back inside its transaction makes it read the text again.
    buffer.transact(() => {
      buffer.insert([1, 0], ' ')
      buffer.ytext.insert(0, '/*')
    })
    expect(buffer.lineForRow(0)).toBe('/*let a = 1')
    expect(tokenizer.scopesAt([1, 2])).toEqual(['source.js', 'comment.block.js'])
    buffer.destroy()
    expect(tokenizer.isDestroyed()).toBe(true)
    expect(() => tokenizer.scopesAt([0, 0])).toThrow(/destroyed/)
  })
})

const FRAGMENTS = [
  '/*',
  '*/',
  '`',
  '${',
  '}',
  '"',
  "'",
  '//',
  '\\',
  '\n',
  '\n\n',
  '\r\n',
  'x',
  ' ',
  'if (a) ',
  '/re+/g',
  'let y = ',
  '{',
  '(',
  ')',
  '<div>',
]

const START_TEXT = [
  'function f(a) {',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source text to tokenize
  '  const s = "str" + `t${a}t`',
  '  /* block',
  '     comment */',
  '  return /x+/.test(s) // done',
  '}',
  '',
  'class C {',
  "  m() { return 'q' }",
  '}',
].join('\n')

/** A random edit of the buffer: insert, delete or replace at random offsets. */
const editRandomly = (buffer: TextBuffer, random: Random): void => {
  const length = buffer.getLength()
  const start = random.int(0, length)
  const end = random.chance(0.5) ? start : Math.min(length, start + random.int(0, 12))
  const text = random.chance(0.2) ? '' : random.pick(FRAGMENTS)
  const range = [
    buffer.positionForCharacterIndex(start),
    buffer.positionForCharacterIndex(end),
  ] as const
  buffer.setTextInRange(range, text)
}

const randomPosition = (buffer: TextBuffer, random: Random) =>
  buffer.positionForCharacterIndex(random.int(0, buffer.getLength()))

/** Checks the tokenizer's scopes against a fresh tokenizer's, at `count` random positions or everywhere. */
const expectFreshScopes = (
  tokenizer: TextMateTokenizer,
  random: Random,
  context: string,
  count: number,
): void => {
  const fresh = new TextMateTokenizer(
    tokenizer.grammar,
    new TextBuffer({ text: tokenizer.buffer.getText() }),
  )
  if (count === Number.POSITIVE_INFINITY) {
    for (let row = 0; row < tokenizer.buffer.getLineCount(); row++) {
      expect(tokenizer.tokensForRow(row), `${context}, row ${row}`).toEqual(fresh.tokensForRow(row))
    }
  } else {
    for (let i = 0; i < count; i++) {
      const position = randomPosition(tokenizer.buffer, random)
      expect(tokenizer.scopesAt(position), `${context}, at ${position}`).toEqual(
        fresh.scopesAt(position),
      )
    }
  }
  fresh.buffer.destroy()
}

describe('TextMateTokenizer: random edits against a fresh tokenizer', () => {
  for (const seed of seeds(6)) {
    it(`follows local edits, transactions and undo (seed ${seed})`, async () => {
      const random = new Random(seed)
      const tokenizer = await tokenizerFor('javascript', START_TEXT)
      const { buffer } = tokenizer
      for (let step = 0; step < 100; step++) {
        const context = `seed ${seed}, step ${step}`
        const roll = random.next()
        if (roll < 0.55) {
          editRandomly(buffer, random)
        } else if (roll < 0.75) {
          buffer.transact(() => {
            for (let i = random.int(2, 4); i > 0; i--) {
              editRandomly(buffer, random)
              if (random.chance(0.5)) tokenizer.scopesAt(randomPosition(buffer, random))
            }
          })
        } else if (roll < 0.85) {
          if (random.chance(0.7)) buffer.undo()
          else buffer.redo()
        } else {
          tokenizer.tokenizeSome(random.int(1, 4))
        }
        if (random.chance(0.5)) tokenizer.scopesAt(randomPosition(buffer, random))
        expectFreshScopes(tokenizer, random, context, 3)
      }
      expectFreshScopes(tokenizer, random, `seed ${seed}, at the end`, Number.POSITIVE_INFINITY)
    })
  }

  for (const seed of seeds(4)) {
    it(`follows remote edits arriving in random order and batches (seed ${seed})`, async () => {
      const random = new Random(seed)
      const grammar = await loadTextMateGrammar('javascript')
      const network = new TestNetwork(2, random)
      const buffers = network.docs.map((doc) => new TextBuffer({ doc }))
      buffers[0]!.setText(START_TEXT)
      network.flush()
      const tokenizers = buffers.map((buffer) => new TextMateTokenizer(grammar, buffer))
      for (let step = 0; step < 100; step++) {
        const context = `seed ${seed}, step ${step}`
        const peer = random.int(0, 1)
        const roll = random.next()
        if (roll < 0.5) {
          editRandomly(buffers[peer]!, random)
        } else if (roll < 0.6) {
          buffers[peer]!.transact(() => {
            editRandomly(buffers[peer]!, random)
            editRandomly(buffers[peer]!, random)
          })
        } else if (roll < 0.65) {
          if (network.isOnline(peer)) network.disconnect(peer)
          else network.reconnect(peer)
        } else {
          network.deliverSome(random.int(1, 4))
        }
        if (random.chance(0.5)) tokenizers[peer]!.scopesAt(randomPosition(buffers[peer]!, random))
        for (const [p, tokenizer] of tokenizers.entries()) {
          expectFreshScopes(tokenizer, random, `${context}, peer ${p}`, 2)
        }
      }
      network.flush()
      expect(buffers[1]!.getText()).toBe(buffers[0]!.getText())
      for (const [p, tokenizer] of tokenizers.entries()) {
        expectFreshScopes(
          tokenizer,
          random,
          `seed ${seed}, peer ${p}, at the end`,
          Number.POSITIVE_INFINITY,
        )
      }
    })
  }
})
