import type { PackageAsset } from './assets.js'
import { JAVASCRIPT_FOLDS, PYTHON_FOLDS, TSX_FOLDS, TYPESCRIPT_FOLDS } from './fold-queries.js'

/** A language's comment delimiters, as typed when commenting (`'// '`, or a block's start and end). */
export interface CommentTokens {
  /** Starts a comment that runs to the end of the line. */
  readonly line?: string
  /** Starts a block comment (used by comment toggling when there is no line comment). */
  readonly blockStart?: string
  /** Ends a block comment. */
  readonly blockEnd?: string
}

/** What Tandem knows of a language: how to find it, parse it, comment and indent it. */
export interface LanguageSettings {
  /** Lower-case language name: `javascript`, `python`, ... */
  readonly id: string
  /** Human name, for pickers. */
  readonly name: string
  /** The TextMate root scope (`source.js`), first in every scope descriptor. */
  readonly scopeName: string
  /** The grammar's file in `tm-grammars` (`grammars/<name>.json`). */
  readonly textMateGrammar: string
  /** The tree-sitter grammar's `.wasm`, where an npm package ships one. */
  readonly treeSitter?: PackageAsset
  /**
   * Where the language folds: a tree-sitter query over its syntax tree (see `fold-queries.ts`).
   * Languages without one fold by indentation.
   */
  readonly foldQuery?: string
  /** File name endings that select the language (`.js`), matched case-insensitively. */
  readonly fileExtensions: readonly string[]
  /** Whole file names that select it (`Makefile`). */
  readonly fileNames?: readonly string[]
  /** The line and block comment delimiters. */
  readonly comments: CommentTokens
  /** A line matching this indents the next line one level deeper. */
  readonly increaseIndentPattern?: RegExp
  /** A line matching this is one level shallower than the line above. */
  readonly decreaseIndentPattern?: RegExp
  /** Characters that end words in this language (undefined: the editor's setting). */
  readonly nonWordCharacters?: string
  /**
   * Syntax-tree node types that Atom's tree-sitter grammar scopes as comments (default
   * `['comment']`): a row starting inside one is a comment row. Other nodes whose type
   * merely mentions comments (JavaScript's `html_comment`) get no comment scope there.
   */
  readonly commentNodeTypes?: readonly string[]
  /**
   * How a file of this language is indented when it has no indented rows to detect it from
   * (default: Atom's two-column soft tabs).
   */
  readonly defaultIndentation?: IndentationSettings
  /**
   * Closing tokens that take the indentation of the row where the node they close starts,
   * when they come first on their row (Atom's `@match` indent captures): token to the node
   * types it closes, e.g. `}` of a `statement_block`. Needs a syntax tree.
   */
  readonly closersMatchOpener?: Readonly<Record<string, readonly string[]>>
}

/** An indentation unit: spaces (`softTabs`) of `tabLength` columns, or one tab character. */
export interface IndentationSettings {
  /** Whether indenting inserts spaces rather than a tab character. */
  readonly softTabs: boolean
  /** Columns of one indentation level (and of a tab character). */
  readonly tabLength: number
}

// The patterns test one line at a time; comments show the alternatives separately.
const C_STYLE_INCREASE = new RegExp(
  [
    '\\{[^}"\']*(//.*)?$', // an open brace ends the line (maybe before a comment)
    '\\[[^\\]"\']*(//.*)?$', // an open bracket
    '\\([^)"\']*(//.*)?$', // an open parenthesis
  ].join('|'),
)
// Closing brackets at the start of a line, maybe after block comments.
const C_STYLE_DECREASE = /^\s*(\s*\/[*].*[*]\/\s*)*[}\])]/
const C_STYLE_COMMENTS: CommentTokens = { line: '// ', blockStart: '/* ', blockEnd: ' */' }
// As the editor's default, but `$` is part of words (`$foo` is one word).
const SCRIPT_NON_WORD_CHARACTERS = '/\\()"\':,.;<>~!#@%^&*|+=[]{}`?-…'

// In Atom's JavaScript and TypeScript grammars, a block's or a switch's closing brace lines
// up with the row where the block opens.
const BRACE_MATCHES_OPENER = { '}': ['statement_block', 'switch_body'] }

const tsTreeSitter = (file: string): PackageAsset => ({ pkg: 'tree-sitter-typescript', path: file })

/**
 * The languages Tandem ships. Each has a TextMate grammar; JavaScript, TypeScript and Python
 * have a tree-sitter grammar too.
 */
export const LANGUAGES: readonly LanguageSettings[] = [
  {
    id: 'javascript',
    name: 'JavaScript',
    scopeName: 'source.js',
    textMateGrammar: 'javascript',
    treeSitter: { pkg: 'tree-sitter-javascript', path: 'tree-sitter-javascript.wasm' },
    foldQuery: JAVASCRIPT_FOLDS,
    fileExtensions: ['.js', '.mjs', '.cjs', '.jsx'],
    comments: C_STYLE_COMMENTS,
    // The first row's `#!` line is scoped as a shebang comment.
    commentNodeTypes: ['comment', 'hash_bang_line'],
    increaseIndentPattern: C_STYLE_INCREASE,
    decreaseIndentPattern: C_STYLE_DECREASE,
    closersMatchOpener: BRACE_MATCHES_OPENER,
    nonWordCharacters: SCRIPT_NON_WORD_CHARACTERS,
  },
  {
    id: 'typescript',
    name: 'TypeScript',
    scopeName: 'source.ts',
    textMateGrammar: 'typescript',
    treeSitter: tsTreeSitter('tree-sitter-typescript.wasm'),
    foldQuery: TYPESCRIPT_FOLDS,
    fileExtensions: ['.ts', '.mts', '.cts'],
    comments: C_STYLE_COMMENTS,
    increaseIndentPattern: C_STYLE_INCREASE,
    decreaseIndentPattern: C_STYLE_DECREASE,
    closersMatchOpener: BRACE_MATCHES_OPENER,
    nonWordCharacters: SCRIPT_NON_WORD_CHARACTERS,
  },
  {
    id: 'tsx',
    name: 'TypeScript JSX',
    scopeName: 'source.tsx',
    textMateGrammar: 'tsx',
    treeSitter: tsTreeSitter('tree-sitter-tsx.wasm'),
    foldQuery: TSX_FOLDS,
    fileExtensions: ['.tsx'],
    comments: C_STYLE_COMMENTS,
    increaseIndentPattern: C_STYLE_INCREASE,
    decreaseIndentPattern: C_STYLE_DECREASE,
    closersMatchOpener: BRACE_MATCHES_OPENER,
    nonWordCharacters: SCRIPT_NON_WORD_CHARACTERS,
  },
  {
    id: 'python',
    name: 'Python',
    scopeName: 'source.python',
    textMateGrammar: 'python',
    treeSitter: { pkg: 'tree-sitter-python', path: 'tree-sitter-python.wasm' },
    foldQuery: PYTHON_FOLDS,
    fileExtensions: ['.py', '.pyw', '.pyi'],
    comments: { line: '# ' },
    // A compound statement's header ends with a colon (maybe before a comment).
    increaseIndentPattern:
      /^\s*(class|def|elif|else|except|finally|for|if|try|with|while|match|case|async\s+(def|for|with))\b.*:\s*(#.*)?$/,
    decreaseIndentPattern: /^\s*(elif|else|except|finally)\b.*:/,
    // PEP 8: four spaces.
    defaultIndentation: { softTabs: true, tabLength: 4 },
  },
  {
    id: 'go',
    name: 'Go',
    scopeName: 'source.go',
    textMateGrammar: 'go',
    fileExtensions: ['.go'],
    comments: C_STYLE_COMMENTS,
    // As C, and a `case` or `default` label opens the statements under it.
    increaseIndentPattern: new RegExp(
      [C_STYLE_INCREASE.source, '^\\s*(case\\b.*|default\\s*):\\s*(//.*)?$'].join('|'),
    ),
    // A label sits at its `switch`'s level, one below the statements above it.
    decreaseIndentPattern: new RegExp(
      [C_STYLE_DECREASE.source, '^\\s*(case\\b.*|default\\s*):\\s*(//.*)?$'].join('|'),
    ),
    // gofmt indents with tabs.
    defaultIndentation: { softTabs: false, tabLength: 4 },
  },
  {
    id: 'json',
    name: 'JSON',
    scopeName: 'source.json',
    textMateGrammar: 'json',
    fileExtensions: ['.json', '.jsonc', '.webmanifest'],
    fileNames: ['.babelrc', '.eslintrc'],
    comments: {},
    increaseIndentPattern: /[{[]\s*$/,
    decreaseIndentPattern: /^\s*[}\]]/,
  },
  {
    id: 'markdown',
    name: 'Markdown',
    scopeName: 'text.html.markdown',
    textMateGrammar: 'markdown',
    fileExtensions: ['.md', '.markdown', '.mdown'],
    comments: { blockStart: '<!-- ', blockEnd: ' -->' },
  },
  {
    id: 'css',
    name: 'CSS',
    scopeName: 'source.css',
    textMateGrammar: 'css',
    fileExtensions: ['.css'],
    comments: { blockStart: '/* ', blockEnd: ' */' },
    increaseIndentPattern: /\{[^}]*$/,
    decreaseIndentPattern: /^\s*\}/,
    // A hyphen joins words in CSS (`font-size`).
    nonWordCharacters: '/\\()"\':,.;<>~!@#$%^&*|+=[]{}`?…',
  },
  {
    id: 'html',
    name: 'HTML',
    scopeName: 'text.html.basic',
    textMateGrammar: 'html',
    fileExtensions: ['.html', '.htm', '.xhtml'],
    comments: { blockStart: '<!-- ', blockEnd: ' -->' },
    // An opening tag that is not closed on its line, and is not one of the void elements.
    increaseIndentPattern:
      /<(?!(?:area|base|br|col|embed|hr|img|input|link|meta|param|source|track|wbr)\b)([a-zA-Z][\w:-]*)(?:\s[^<>]*)?>(?!.*<\/\1>)\s*$/,
    decreaseIndentPattern: /^\s*<\/[a-zA-Z]/,
    nonWordCharacters: '/\\()"\':,.;<>~!@#$%^&*|+=[]{}`?…',
  },
]

const byId = new Map(LANGUAGES.map((language) => [language.id, language]))

/**
 * The settings of language `id`; throws a RangeError listing the known ids for any other.
 *
 * @example languageSettings('python').comments.line // => '# '
 */
export const languageSettings = (id: string): LanguageSettings => {
  const found = byId.get(id)
  if (found === undefined) {
    throw new RangeError(`unknown language "${id}"; known: ${[...byId.keys()].join(', ')}`)
  }
  return found
}

/**
 * The id of the language a file name selects (by whole name, then by its longest known
 * ending), or null when none does. Directories in the name are ignored.
 *
 * @example grammarForFileName('src/x.ts') // => 'typescript'
 */
export const grammarForFileName = (fileName: string): string | null => {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1)
  const lower = base.toLowerCase()
  let best: LanguageSettings | null = null
  let bestLength = 0
  for (const language of LANGUAGES) {
    if (language.fileNames?.includes(base)) return language.id
    for (const extension of language.fileExtensions) {
      if (lower.endsWith(extension) && extension.length > bestLength) {
        best = language
        bestLength = extension.length
      }
    }
  }
  return best?.id ?? null
}
