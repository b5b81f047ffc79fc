/**
 * Which characters pair up as brackets and quotes, per language: the settings Atom's
 * bracket-matcher reads from its scoped configuration (`autocompleteCharacters`,
 * `pairsWithExtraNewline`), as plain immutable values.
 */

/**
 * The pairs Atom completes and matches by default, in every language: brackets, straight
 * quotes, the backtick, typographic quotes and guillemets. Each is an opener and a closer,
 * one UTF-16 code unit each.
 *
 * @example DEFAULT_BRACKET_PAIRS.includes('``') // => true
 */
export const DEFAULT_BRACKET_PAIRS: readonly string[] = Object.freeze([
  '()',
  '[]',
  '{}',
  '""',
  "''",
  '``',
  '\u201c\u201d',
  '\u2018\u2019',
  '\u00ab\u00bb',
  '\u2039\u203a',
])

/**
 * The pairs between which Enter opens an empty line and puts the closer on the line after it.
 *
 * @example DEFAULT_PAIRS_WITH_EXTRA_NEWLINE // => ['()', '[]', '{}']
 */
export const DEFAULT_PAIRS_WITH_EXTRA_NEWLINE: readonly string[] = Object.freeze(['()', '[]', '{}'])

/**
 * Per-language pairs that differ from the defaults, by language id. Atom's language packages
 * override the pairs only for Rust (no `'`, which starts lifetimes; `<>` for generics), a
 * language Tandem does not ship yet; every shipped language uses the defaults.
 */
const LANGUAGE_PAIRS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  rust: Object.freeze(['()', '[]', '{}', '<>', '""', '``']),
})

const QUOTE = /['"`]/

/**
 * A set of bracket pairs: which character closes an opener, which opens a closer, and the
 * pairs that take an extra newline. Immutable.
 *
 * @example
 * const pairs = BracketPairs.from(['()', '""'])
 * pairs.closerFor('(') // => ')'
 * pairs.openerFor('"') // => '"'
 */
export class BracketPairs {
  private readonly closers: ReadonlyMap<string, string>
  private readonly openers: ReadonlyMap<string, string>
  private readonly extraNewline: ReadonlyMap<string, string>

  private constructor(
    closers: ReadonlyMap<string, string>,
    openers: ReadonlyMap<string, string>,
    extraNewline: ReadonlyMap<string, string>,
  ) {
    this.closers = closers
    this.openers = openers
    this.extraNewline = extraNewline
  }

  /**
   * Pairs from two-character strings (opener then closer), as Atom's settings list them. A
   * string that is not two UTF-16 code units is a TypeError naming it. A later pair with the
   * same opener replaces an earlier one, as in Atom.
   */
  static from(
    pairs: readonly string[],
    pairsWithExtraNewline: readonly string[] = DEFAULT_PAIRS_WITH_EXTRA_NEWLINE,
  ): BracketPairs {
    const closers = new Map<string, string>()
    const openers = new Map<string, string>()
    for (const pair of pairs) {
      const [opener, closer] = splitPair(pair, 'pairs')
      closers.set(opener, closer)
      openers.set(closer, opener)
    }
    const extraNewline = new Map<string, string>()
    for (const pair of pairsWithExtraNewline) {
      const [opener, closer] = splitPair(pair, 'pairsWithExtraNewline')
      extraNewline.set(opener, closer)
    }
    return new BracketPairs(closers, openers, extraNewline)
  }

  /** The closer of `opener`, or undefined when it opens no pair. */
  closerFor(opener: string): string | undefined {
    return this.closers.get(opener)
  }

  /** The opener of `closer`, or undefined when it closes no pair. */
  openerFor(closer: string): string | undefined {
    return this.openers.get(closer)
  }

  /** Whether `text` opens a pair (a quote both opens and closes). */
  isOpener(text: string): boolean {
    return this.closers.has(text)
  }

  /** Whether `text` closes a pair. */
  isCloser(text: string): boolean {
    return this.openers.has(text)
  }

  /** Whether Enter between `opener` and `closer` puts the closer on a line of its own. */
  takesExtraNewline(opener: string, closer: string): boolean {
    return closer !== '' && this.extraNewline.get(opener) === closer
  }

  /** The openers, in the order the pairs were given. */
  getOpeners(): string[] {
    return [...this.closers.keys()]
  }

  /** The closers, in the order the pairs were given. */
  getClosers(): string[] {
    return [...this.openers.keys()]
  }
}

/**
 * Whether `character` is a straight quote or backtick: Atom completes these only where they
 * cannot end a word or a string (see `BracketMatcher`).
 *
 * @example isQuote("'") // => true
 */
export const isQuote = (character: string): boolean => QUOTE.test(character)

/**
 * The pair strings for a language: `overrides[id]` when given, else the language's own
 * (Atom's per-language settings), else `fallback`.
 *
 * @example bracketPairsForLanguage('javascript').includes('``') // => true
 */
export const bracketPairsForLanguage = (
  languageId: string,
  overrides: Readonly<Record<string, readonly string[]>> = {},
  fallback: readonly string[] = DEFAULT_BRACKET_PAIRS,
): readonly string[] => overrides[languageId] ?? LANGUAGE_PAIRS[languageId] ?? fallback

const splitPair = (pair: string, setting: string): [string, string] => {
  if (typeof pair !== 'string' || pair.length !== 2) {
    throw new TypeError(`${setting} entries must be two characters, got ${JSON.stringify(pair)}`)
  }
  return [pair[0]!, pair[1]!]
}
