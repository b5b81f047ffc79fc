/**
 * Seeded JavaScript source for the view benchmark: functions, classes, comments, strings,
 * template strings, numbers and regular expressions in the proportions of ordinary code, so
 * that both editors' highlighters meet the tokens they meet in real files. Lines are 0 to
 * about 70 characters long, indented in steps of two spaces.
 */
import * as prng from 'lib0/prng'

const NAMES = [
  'value',
  'index',
  'items',
  'result',
  'options',
  'config',
  'count',
  'buffer',
  'node',
  'parent',
  'total',
  'offset',
  'message',
  'handler',
  'entry',
  'cursor',
]
const CALLS = ['push', 'slice', 'map', 'filter', 'join', 'indexOf', 'toString', 'reduce']
const WORDS = ['the', 'first', 'row', 'keeps', 'its', 'place', 'when', 'text', 'changes', 'here']

const pick = <T>(gen: prng.PRNG, list: readonly T[]): T =>
  list[prng.uint32(gen, 0, list.length - 1)]!

const comment = (gen: prng.PRNG): string =>
  `// ${Array.from({ length: prng.uint32(gen, 3, 8) }, () => pick(gen, WORDS)).join(' ')}`

/** One statement of a function body. */
const statement = (gen: prng.PRNG): string => {
  const a = pick(gen, NAMES)
  const b = pick(gen, NAMES)
  switch (prng.uint32(gen, 0, 7)) {
    case 0:
      return `const ${a}${prng.uint32(gen, 0, 99)} = ${b}.${pick(gen, CALLS)}(${prng.uint32(gen, 0, 999)})`
    case 1:
      return `let ${a} = '${pick(gen, WORDS)} ${pick(gen, WORDS)}' + ${b}`
    case 2:
      return `if (${a} > ${prng.uint32(gen, 0, 64)}) ${b} += ${a} * 2`
    case 3:
      return `${a} = \`${pick(gen, WORDS)} \${${b}} ${pick(gen, WORDS)}\``
    case 4:
      return `for (let i = 0; i < ${a}.length; i++) ${b}.${pick(gen, CALLS)}(i)`
    case 5:
      return `const ${a}Pattern = /${pick(gen, WORDS)}[0-9]+$/g`
    case 6:
      return comment(gen)
    default:
      return `return ${a} === null ? ${prng.uint32(gen, 0, 9)}.5 : ${b}`
  }
}

/** One top-level declaration: a function or a class with two methods, and a blank line. */
const declaration = (gen: prng.PRNG, n: number): string[] => {
  const body = (indent: string) =>
    Array.from({ length: prng.uint32(gen, 2, 8) }, () => indent + statement(gen))
  if (n % 4 === 3) {
    return [
      `class ${pick(gen, NAMES).replace(/^./, (c) => c.toUpperCase())}${n} {`,
      `  constructor(${pick(gen, NAMES)}) {`,
      ...body('    '),
      '  }',
      `  ${pick(gen, CALLS)}${n}(${pick(gen, NAMES)}, ${pick(gen, NAMES)}) {`,
      ...body('    '),
      '  }',
      '}',
      '',
    ]
  }
  return [
    comment(gen),
    `export function ${pick(gen, NAMES)}${n}(${pick(gen, NAMES)}, ${pick(gen, NAMES)}) {`,
    ...body('  '),
    '}',
    '',
  ]
}

/**
 * Lines of JavaScript from `seed`, until there are `lines` of them or their text (joined with
 * `\n`) reaches `chars` characters, whichever comes first; the text is cut to `chars`.
 *
 * @example javascriptText({ chars: 1_000, seed: 1 }).length // => 1000
 */
export const javascriptText = (options: {
  chars?: number
  lines?: number
  seed: number
}): string => {
  const chars = options.chars ?? Number.POSITIVE_INFINITY
  const lines = options.lines ?? Number.POSITIVE_INFINITY
  if (!(chars < Number.POSITIVE_INFINITY || lines < Number.POSITIVE_INFINITY)) {
    throw new RangeError('javascriptText needs chars or lines')
  }
  const gen = prng.create(options.seed)
  const out: string[] = []
  let length = -1
  for (let n = 0; out.length < lines && length < chars; n++) {
    for (const line of declaration(gen, n)) {
      if (out.length >= lines || length >= chars) break
      out.push(line)
      length += line.length + 1
    }
  }
  const text = out.join('\n')
  return text.length > chars ? text.slice(0, chars) : text
}
