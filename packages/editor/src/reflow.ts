/**
 * Reflowing prose (Atom's autoflow, bound to alt-q): the paragraphs of a text are re-broken
 * so that no line passes the wrap column, keeping each paragraph's comment or list prefix.
 */

/** Options of `reflowText`. */
export interface ReflowOptions {
  /** The column no line may pass (a single word longer than that gets a line of its own). */
  readonly wrapColumn: number
  /** How many columns a tab in a prefix counts for. */
  readonly tabLength: number
}

/** What starts each line of a paragraph and is kept: indentation, a comment token or a bullet. */
const PREFIX = /^\s*(\/\/|\/\*|;;|#'|\|\|\||--|[#%*>-])?\s*/
/** LaTeX lines kept verbatim around a paragraph: `\begin{x}`, `\item{`, `}`. */
const LATEX_TAG = /^\s*\\\w+(\[.*\])?\{\w+\}(\[.*\])?\s*$/
const LATEX_OPEN = /^\s*\\\w+\s*\{\s*$/
const LATEX_CLOSE = /^\s*\}\s*$/
const BLANK_LINES = /\n\s*\n/
const LEADING_BLANK = /^\s*\n/
const TRAILING_BLANK = /\n\s*$/
const SEGMENTS = /\s+|\S+/g
const NON_WHITESPACE = /\S/
const TRAILING_SPACE = /[^\S\n]+\n/g

/**
 * Re-breaks every paragraph of `text` (paragraphs are separated by blank lines) at spaces so
 * that lines stay within `wrapColumn`, as Atom's autoflow does. The first line's prefix
 * (indentation, `//`, `#`, `*`, `>`, `-` ...) starts every line; a `/*` or a `-` bullet
 * continues as spaces of the same width. Blank lines before and after the text are kept as
 * they are; line breaks come out as `\n`.
 *
 * @example reflowText('// one two three', { wrapColumn: 10, tabLength: 2 }) // => '// one two\n// three'
 */
export const reflowText = (text: string, options: ReflowOptions): string => {
  let body = text.replace(/\r\n?/g, '\n')
  const leading = LEADING_BLANK.exec(body)?.[0] ?? ''
  body = body.slice(leading.length)
  const trailing = TRAILING_BLANK.exec(body)?.[0] ?? ''
  body = body.slice(0, body.length - trailing.length)
  const paragraphs = body.split(BLANK_LINES).map((block) => reflowParagraph(block, options))
  return leading + paragraphs.join('\n\n') + trailing
}

const reflowParagraph = (block: string, { wrapColumn, tabLength }: ReflowOptions): string => {
  const lines = block.split('\n')
  const before: string[] = []
  const after: string[] = []
  while (lines.length > 0 && (LATEX_TAG.test(lines[0]!) || LATEX_OPEN.test(lines[0]!))) {
    before.push(lines.shift()!)
  }
  while (lines.length > 0 && (LATEX_TAG.test(lines.at(-1)!) || LATEX_CLOSE.test(lines.at(-1)!))) {
    after.unshift(lines.pop()!)
  }
  if (lines.length === 0) return block

  let prefix = PREFIX.exec(lines[0]!)![0]
  const prefixWidth = prefix.replaceAll('\t', ' '.repeat(tabLength)).length
  const words = lines
    .map((line) => (line.startsWith(prefix) ? line.slice(prefix.length) : line).trimStart())
    .join(' ')
  // After the first line, a block comment's opener and a bullet continue as blank space.
  const continuation = prefix.replace(/^(\s*)\/\*/, '$1  ').replace(/^(\s*)-(?!-)/, '$1 ')

  const wrapped: string[] = []
  let line: string[] = []
  let width = prefixWidth
  for (const segment of words.match(SEGMENTS) ?? []) {
    const breaks =
      NON_WHITESPACE.test(segment) &&
      width + segment.length > wrapColumn &&
      (width > 0 || segment.length < wrapColumn)
    if (breaks) {
      wrapped.push(prefix + line.join(''))
      prefix = continuation
      line = []
      width = prefixWidth
    }
    line.push(segment)
    width += segment.length
  }
  wrapped.push(prefix + line.join(''))
  return [...before, ...wrapped, ...after].join('\n').replace(TRAILING_SPACE, '\n')
}
