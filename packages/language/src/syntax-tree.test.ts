import { TextBuffer } from '@tandem/buffer'
import { Range } from '@tandem/text'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Language, Parser, type Tree } from 'web-tree-sitter'
import { Random, seeds } from '../../../testing/random.js'
import { TestNetwork } from '../../buffer/src/testing/network.js'
import { setAssetLocator } from './assets.js'
import { SyntaxTree, type SyntaxTreeReparseEvent } from './syntax-tree.js'
import {
  initTreeSitter,
  loadTreeSitterLanguage,
  type TreeSitterLanguageId,
} from './tree-sitter-languages.js'

const SAMPLE_JS = [
  'const greeting = "héllo 😀"',
  '// a comment',
  'function greet(name) {',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source text to parse
  '  return `Hi ${name}!`',
  '}',
  '',
].join('\n')

/** Every node of `tree` with its span, one per line, indented by depth. */
const describeTree = (tree: Tree): string => {
  const lines: string[] = []
  const cursor = tree.walk()
  let depth = 0
  for (;;) {
    const { startPosition: start, endPosition: end } = cursor
    lines.push(
      `${'  '.repeat(depth)}${cursor.nodeType}${cursor.nodeIsMissing ? ' (missing)' : ''} ` +
        `${cursor.startIndex}-${cursor.endIndex} ` +
        `(${start.row},${start.column})-(${end.row},${end.column})`,
    )
    if (cursor.gotoFirstChild()) {
      depth++
      continue
    }
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) {
        cursor.delete()
        return lines.join('\n')
      }
      depth--
    }
  }
}

const freshParsers = new Map<Language, Parser>()

/** Checks that the incrementally kept tree is the one a parse from scratch of the text gives. */
const expectSameAsFreshParse = (syntax: SyntaxTree, context: string): void => {
  // The published types hide tree-sitter's classes; they are what runs underneath.
  const language = syntax.language as Language
  let parser = freshParsers.get(language)
  if (parser === undefined) {
    parser = new Parser()
    parser.setLanguage(language)
    freshParsers.set(language, parser)
  }
  const fresh = parser.parse(syntax.buffer.getText())!
  try {
    const tree = syntax.getTree()
    expect(tree.rootNode.toString(), context).toBe(fresh.rootNode.toString())
    expect(describeTree(tree as Tree), context).toBe(describeTree(fresh))
  } finally {
    fresh.delete()
  }
}

const languages = {} as Record<TreeSitterLanguageId, Language>

const loadLanguages = async (): Promise<void> => {
  for (const id of ['javascript', 'typescript', 'tsx', 'python'] as const) {
    languages[id] = (await loadTreeSitterLanguage(id)) as Language
  }
}

beforeAll(async () => {
  await initTreeSitter()
})

afterAll(() => {
  for (const parser of freshParsers.values()) parser.delete()
})

describe('loadTreeSitterLanguage', () => {
  // First in the file: python must not have been loaded yet.
  it('names the grammar when a load fails, and a later call loads it again', async () => {
    setAssetLocator(() => new TextEncoder().encode('not a wasm module'))
    try {
      await expect(loadTreeSitterLanguage('python')).rejects.toThrow(
        /tree-sitter grammar python \(tree-sitter-python\/tree-sitter-python\.wasm\)/,
      )
    } finally {
      setAssetLocator(null)
    }
    const python = await loadTreeSitterLanguage('python')
    expect(python.name).toBe('python')
  })

  it('loads each grammar once, sharing concurrent loads', async () => {
    const first = loadTreeSitterLanguage('javascript')
    const second = loadTreeSitterLanguage('javascript')
    expect(second).toBe(first)
    const [a, b] = await Promise.all([first, second])
    expect(a).toBe(b)
    expect(await loadTreeSitterLanguage('javascript')).toBe(a)
    const byFile = { pkg: 'tree-sitter-javascript', path: 'tree-sitter-javascript.wasm' }
    expect(await loadTreeSitterLanguage(byFile)).toBe(a)
    const loaded = await Promise.all(
      (['javascript', 'typescript', 'tsx', 'python'] as const).map(loadTreeSitterLanguage),
    )
    expect(loaded[0]).toBe(a)
    expect(new Set(loaded).size).toBe(4)
    for (const language of loaded) expect(language).toBeInstanceOf(Language)
  })

  it('rejects an unknown language with a TypeError', async () => {
    await expect(loadTreeSitterLanguage('cobol' as TreeSitterLanguageId)).rejects.toThrow(TypeError)
  })
})

describe('SyntaxTree.nodeTypesAt', () => {
  beforeAll(loadLanguages)

  const jsTypes = (row: number, column: number): string[] => {
    const syntax = new SyntaxTree(languages.javascript, new TextBuffer({ text: SAMPLE_JS }))
    try {
      return syntax.nodeTypesAt([row, column])
    } finally {
      syntax.destroy()
    }
  }
  const declaration = ['program', 'lexical_declaration', 'variable_declarator']
  const body = ['program', 'function_declaration', 'statement_block']

  it('lists the nodes from the root to the smallest, anonymous ones included', () => {
    expect(jsTypes(0, 0)).toEqual(['program', 'lexical_declaration', 'const'])
    expect(jsTypes(0, 17)).toEqual([...declaration, 'string', '"'])
  })

  it('inside a string, a comment and a function body', () => {
    expect(jsTypes(0, 20)).toEqual([...declaration, 'string', 'string_fragment'])
    // On the second half of the emoji: columns are UTF-16 units, as tree-sitter counts them.
    expect(jsTypes(0, 25)).toEqual([...declaration, 'string', 'string_fragment'])
    expect(jsTypes(1, 5)).toEqual(['program', 'comment'])
    expect(jsTypes(2, 22)).toEqual([...body, '{'])
    expect(jsTypes(3, 2)).toEqual([...body, 'return_statement', 'return'])
  })

  it('inside a template string and its substitution', () => {
    const template = [...body, 'return_statement', 'template_string']
    expect(jsTypes(3, 10)).toEqual([...template, 'string_fragment'])
    expect(jsTypes(3, 13)).toEqual([...template, 'template_substitution', '${'])
    expect(jsTypes(3, 16)).toEqual([...template, 'template_substitution', 'identifier'])
  })

  it('takes the character to the left at the end of a non-empty line', () => {
    // Row 0 ends with the closing quote; row 1 with the comment.
    expect(jsTypes(0, 27)).toEqual([...declaration, 'string', '"'])
    expect(jsTypes(1, 12)).toEqual(['program', 'comment'])
    // An empty line has nothing to its left: only the root contains it.
    expect(jsTypes(5, 0)).toEqual(['program'])
    // Clipped first: past the end of row 4 is its end, the `}`.
    expect(jsTypes(4, 80)).toEqual([...body, '}'])
  })

  it('gives the root alone for an empty buffer', () => {
    const syntax = new SyntaxTree(languages.javascript, new TextBuffer())
    expect(syntax.nodeTypesAt([0, 0])).toEqual(['program'])
    syntax.destroy()
  })

  it('reads TypeScript, TSX and Python', () => {
    const typescript = new SyntaxTree(
      languages.typescript,
      new TextBuffer({ text: 'let n: number = 1\n' }),
    )
    expect(typescript.nodeTypesAt([0, 8])).toEqual([
      'program',
      'lexical_declaration',
      'variable_declarator',
      'type_annotation',
      'predefined_type',
      'number',
    ])
    typescript.destroy()
    const tsx = new SyntaxTree(languages.tsx, new TextBuffer({ text: 'const e = <div>hi</div>\n' }))
    expect(tsx.nodeTypesAt([0, 16])).toEqual([
      'program',
      'lexical_declaration',
      'variable_declarator',
      'jsx_element',
      'jsx_text',
    ])
    tsx.destroy()
    const python = new SyntaxTree(
      languages.python,
      new TextBuffer({ text: 'def f(x):\n    return "hi" + x  # note\n' }),
    )
    expect(python.nodeTypesAt([1, 13])).toEqual([
      'module',
      'function_definition',
      'block',
      'return_statement',
      'binary_operator',
      'string',
      'string_content',
    ])
    expect(python.nodeTypesAt([1, 30])).toEqual([
      'module',
      'function_definition',
      'block',
      'comment',
    ])
    python.destroy()
  })
})

describe('SyntaxTree following edits', () => {
  beforeAll(loadLanguages)

  it('parses again when the tree is read after an edit, and reports what changed', () => {
    const buffer = new TextBuffer({ text: 'let a = 1\nlet b = 2\n' })
    const syntax = new SyntaxTree(languages.javascript, buffer)
    syntax.getTree() // the first parse, from scratch, is not reported
    const events: SyntaxTreeReparseEvent[] = []
    syntax.onDidReparse((event) => events.push(event))
    buffer.setTextInRange(
      [
        [1, 8],
        [1, 9],
      ],
      '"two"',
    )
    expect(syntax.isStale()).toBe(true)
    expect(events).toHaveLength(0)
    expect(syntax.nodeTypesAt([1, 10])).toEqual([
      'program',
      'lexical_declaration',
      'variable_declarator',
      'string',
      'string_fragment',
    ])
    expect(syntax.isStale()).toBe(false)
    expect(events).toHaveLength(1)
    const [event] = events
    expect(event!.fromScratch).toBe(false)
    expect(event!.changedRanges.length).toBeGreaterThan(0)
    for (const range of event!.changedRanges) {
      expect(range).toBeInstanceOf(Range)
      expect(range.intersectsWith(new Range([1, 8], [1, 13]))).toBe(true)
      expect(range.start.row).toBe(1)
    }
    syntax.reparseNow()
    expect(events).toHaveLength(1)
    syntax.destroy()
  })

  it('parses a 10,000-edit transaction once', () => {
    const buffer = new TextBuffer({ text: 'let total = 0\n' })
    const syntax = new SyntaxTree(languages.javascript, buffer)
    syntax.getTree() // the first parse, from scratch, is not reported
    let reparses = 0
    syntax.onDidReparse(() => reparses++)
    buffer.transact(() => {
      for (let i = 0; i < 10_000; i++) {
        const row = (i * 7919) % buffer.getLineCount()
        if (i % 5 === 4) {
          buffer.delete([
            [row, 0],
            [row, 1],
          ])
        } else {
          buffer.insert([row, 0], `total += ${i}\n`)
        }
      }
    })
    expect(reparses).toBe(0)
    expect(syntax.isStale()).toBe(true)
    expectSameAsFreshParse(syntax, '10,000 edits')
    syntax.nodeTypesAt([3, 0])
    expect(reparses).toBe(1)
    syntax.destroy()
  })

  it('parses from scratch when the buffer reads its text again', () => {
    const buffer = new TextBuffer({ text: 'f(1)\n' })
    const syntax = new SyntaxTree(languages.javascript, buffer)
    syntax.getTree() // the first parse, from scratch, is not reported
    const events: SyntaxTreeReparseEvent[] = []
    syntax.onDidReparse((event) => events.push(event))
    // An edit to the Y.Text behind the buffer's back, inside its transaction.
    buffer.transact(() => {
      buffer.insert([0, 0], 'g(2)\n')
      buffer.ytext.insert(0, '"s"\n')
    })
    expectSameAsFreshParse(syntax, 'after a reset')
    expect(events.map((event) => event.fromScratch)).toEqual([true])
    expect(events[0]!.changedRanges).toEqual([buffer.getRange()])
    syntax.destroy()
  })

  it('places a remote `\\n` typed after a lone `\\r` after it', () => {
    const network = new TestNetwork(2, new Random(1))
    const [local, remote] = network.docs.map((doc) => new TextBuffer({ doc }))
    local!.setText('a\rb = 1\nc\n')
    network.flush()
    const localSyntax = new SyntaxTree(languages.javascript, local!)
    const remoteSyntax = new SyntaxTree(languages.javascript, remote!)
    local!.insert([0, 2], '\n', { normalizeLineEndings: false })
    network.flush()
    expect(remote!.getText()).toBe('a\r\nb = 1\nc\n')
    expectSameAsFreshParse(localSyntax, 'local')
    expectSameAsFreshParse(remoteSyntax, 'remote')
    localSyntax.destroy()
    remoteSyntax.destroy()
  })

  it('parses nothing until the tree is first asked for, and reports no first parse', () => {
    const buffer = new TextBuffer({ text: 'const a = 1\n' })
    const syntax = new SyntaxTree(languages.javascript, buffer)
    const reported: boolean[] = []
    syntax.onDidReparse(({ fromScratch }) => reported.push(fromScratch))
    expect(syntax.isStale()).toBe(true)
    buffer.insert([0, 0], '// note\n')
    expect(syntax.nodeTypesAt([1, 0])).toEqual(['program', 'lexical_declaration', 'const'])
    expect(syntax.isStale()).toBe(false)
    expect(reported).toEqual([])
    buffer.insert([1, 0], ' ')
    syntax.getTree()
    expect(reported).toEqual([false])
  })

  it('stops following and frees its trees on destroy', () => {
    const buffer = new TextBuffer({ text: 'x\n' })
    const syntax = new SyntaxTree(languages.javascript, buffer)
    syntax.getTree() // the first parse, from scratch, is not reported
    syntax.destroy()
    syntax.destroy()
    expect(syntax.isDestroyed()).toBe(true)
    buffer.insert([0, 0], 'y')
    expect(syntax.isStale()).toBe(false)
    expect(() => syntax.getTree()).toThrow(/destroyed/)
  })
})

const FRAGMENTS = [
  'x',
  'foo',
  ' ',
  '\n',
  '\n  ',
  '(',
  ')',
  '{',
  '}',
  '[',
  '"',
  "'",
  '`',
  '${',
  '}`',
  '//',
  '/*',
  '*/',
  ';',
  ',',
  '=',
  '=>',
  '.',
  'é',
  '😀',
  'a😀b',
  'return ',
  'const y = "é😀";\n',
  'function g(a) {\n  return a\n}\n',
  'if (x) {',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source text to parse
  '`t ${x} é`',
  '// note 😀\n',
  '/* multi\nline */',
  'class C { m() {} }',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source text to parse
  'let s = `a\n${b}\nc`',
]

/** A random offset of `buffer`, moved off the middle of a surrogate pair. */
const randomOffset = (random: Random, buffer: TextBuffer, min = 0): number => {
  const text = buffer.getText()
  let offset = random.int(min, text.length)
  const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff
  if (offset > min && offset < text.length && isLow(text.charCodeAt(offset))) offset--
  return offset
}

/** Inserts, deletes or replaces some text at a random place. */
const randomEdit = (random: Random, buffer: TextBuffer): void => {
  const start = randomOffset(random, buffer)
  const roll = random.next()
  let end = start
  if (roll >= 0.5) {
    end = Math.min(buffer.getLength(), start + random.int(1, 12))
    const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff
    if (isLow(buffer.getText().charCodeAt(end))) end++
  }
  const text = roll < 0.75 ? random.pick(FRAGMENTS) : ''
  buffer.setTextInRange(
    [buffer.positionForCharacterIndex(start), buffer.positionForCharacterIndex(end)],
    text,
  )
}

/** The same fragment inserted at a few places at once (one batch of changes). */
const randomMultiInsert = (random: Random, buffer: TextBuffer): void => {
  const offsets = new Set<number>()
  for (let i = random.int(2, 4); i > 0; i--) offsets.add(randomOffset(random, buffer))
  const sorted = [...offsets].sort((a, b) => a - b)
  const ranges = sorted.map((offset) => {
    const point = buffer.positionForCharacterIndex(offset)
    return new Range(point, point)
  })
  buffer.setTextInRanges(ranges, random.pick(FRAGMENTS))
}

describe('SyntaxTree against a fresh parse', () => {
  beforeAll(loadLanguages)

  for (const seed of seeds(10)) {
    it(`follows random local edits (seed ${seed})`, () => {
      const random = new Random(seed)
      const buffer = new TextBuffer({ text: SAMPLE_JS })
      const syntax = new SyntaxTree(languages.javascript, buffer)
      let incremental = 0
      syntax.onDidReparse(({ fromScratch }) => {
        if (!fromScratch) incremental++
      })
      for (let step = 0; step < 50; step++) {
        const context = `seed ${seed}, step ${step}`
        const roll = random.next()
        if (roll < 0.3) {
          buffer.transact(() => {
            for (let i = random.int(2, 6); i > 0; i--) {
              randomEdit(random, buffer)
              if (random.chance(0.15))
                expectSameAsFreshParse(syntax, `${context}, in a transaction`)
            }
          })
        } else if (roll < 0.4) {
          randomMultiInsert(random, buffer)
        } else if (roll < 0.45) {
          buffer.undo()
        } else if (roll < 0.5) {
          buffer.redo()
        } else {
          randomEdit(random, buffer)
        }
        expectSameAsFreshParse(syntax, context)
      }
      expect(incremental).toBeGreaterThan(0)
      syntax.destroy()
    })
  }

  for (const seed of seeds(10)) {
    it(`follows random edits of another peer (seed ${seed})`, () => {
      const random = new Random(seed)
      const network = new TestNetwork(2, random)
      const [writer, reader] = network.docs.map((doc) => new TextBuffer({ doc }))
      writer!.setText(SAMPLE_JS)
      network.flush()
      const readerSyntax = new SyntaxTree(languages.javascript, reader!)
      const writerSyntax = new SyntaxTree(languages.javascript, writer!)
      for (let step = 0; step < 40; step++) {
        const context = `seed ${seed}, step ${step}`
        // Mostly the writer; sometimes both peers at once, so that updates cross.
        const editors = random.chance(0.2) ? [writer!, reader!] : [writer!]
        for (const buffer of editors) {
          if (random.chance(0.4)) {
            buffer.transact(() => {
              for (let i = random.int(2, 5); i > 0; i--) randomEdit(random, buffer)
            })
          } else if (random.chance(0.15)) {
            randomMultiInsert(random, buffer)
          } else {
            randomEdit(random, buffer)
          }
        }
        if (random.chance(0.7)) network.flush()
        else network.deliverSome(random.int(1, 2))
        expectSameAsFreshParse(readerSyntax, `${context}, reader`)
        expectSameAsFreshParse(writerSyntax, `${context}, writer`)
      }
      network.flush()
      expect(reader!.getText()).toBe(writer!.getText())
      expectSameAsFreshParse(readerSyntax, `seed ${seed}, after flush`)
      readerSyntax.destroy()
      writerSyntax.destroy()
    })
  }
})
