/**
 * Loading TextMate grammars: the oniguruma regular-expression engine (a `.wasm` file, loaded
 * once per process), and one vscode-textmate registry that reads grammars from `tm-grammars`
 * by scope name, so a grammar and the grammars it embeds (the JavaScript and CSS inside HTML,
 * the fenced code blocks of Markdown) are read once and shared by every language using them.
 */
import type { GrammarInfo } from 'tm-grammars'
import oniguruma from 'vscode-oniguruma'
import type { IGrammar, IOnigLib, IRawGrammar, Registry } from 'vscode-textmate'
import textmate from 'vscode-textmate'
import { loadAsset, loadTextAsset } from './assets.js'

/**
 * A TextMate grammar ready to tokenize lines, with the names it is known by.
 *
 * @example const { scopeName } = await loadTextMateGrammar('javascript') // 'source.js'
 */
export interface TextMateGrammar {
  /** The language's name in `tm-grammars`, e.g. `'javascript'` (even when loaded by an alias). */
  readonly name: string
  /** The root scope every token of this language starts with, e.g. `'source.js'`. */
  readonly scopeName: string
  /** The compiled grammar; its `tokenizeLine` takes one line and the state the line before left. */
  readonly compiled: IGrammar
}

const ONIGURUMA_WASM = { pkg: 'vscode-oniguruma', path: 'release/onig.wasm' } as const

let onigurumaLoad: Promise<IOnigLib> | null = null

/**
 * The oniguruma engine vscode-textmate matches with, its `.wasm` loaded on the first call and
 * shared afterwards. A failure to read the file is not remembered: the next call tries again.
 * (A `.wasm` that was read but would not instantiate keeps failing, as vscode-oniguruma
 * instantiates only once per process.)
 *
 * @example const onigLib = await loadOniguruma()
 */
export const loadOniguruma = (): Promise<IOnigLib> => {
  onigurumaLoad ??= instantiateOniguruma().catch((error: unknown) => {
    onigurumaLoad = null
    throw new Error(`cannot load the oniguruma engine: ${messageOf(error)}`, { cause: error })
  })
  return onigurumaLoad
}

const instantiateOniguruma = async (): Promise<IOnigLib> => {
  await oniguruma.loadWASM(await loadAsset(ONIGURUMA_WASM))
  return {
    createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
    createOnigString: (text) => new oniguruma.OnigString(text),
  }
}

/** What `tm-grammars` has, by the names callers use and by the scope names grammars include. */
interface Catalog {
  /** Grammars by name and by alias (`'javascript'`, `'js'`). */
  readonly byLanguageName: ReadonlyMap<string, GrammarInfo>
  /** Grammars and injection grammars by scope name (`'source.js'`). */
  readonly byScopeName: ReadonlyMap<string, GrammarInfo>
  /** The scope names of the injection grammars meant for a grammar, by that grammar's name. */
  readonly injectionsByLanguageName: ReadonlyMap<string, readonly string[]>
}

let catalogLoad: Promise<Catalog> | null = null

// The metadata module is large (every grammar's description), so it is imported only once a
// TextMate grammar is asked for.
const loadCatalog = (): Promise<Catalog> => {
  catalogLoad ??= import('tm-grammars').then(buildCatalog, (error: unknown) => {
    catalogLoad = null
    throw error
  })
  return catalogLoad
}

const buildCatalog = ({
  grammars,
  injections,
}: {
  grammars: readonly GrammarInfo[]
  injections: readonly GrammarInfo[]
}): Catalog => {
  const byLanguageName = new Map<string, GrammarInfo>()
  const byScopeName = new Map<string, GrammarInfo>()
  const injectionsByLanguageName = new Map<string, string[]>()
  for (const info of grammars) {
    byScopeName.set(info.scopeName, info)
    byLanguageName.set(info.name, info)
  }
  // Aliases after names, so that no alias hides a grammar's own name.
  for (const info of grammars) {
    for (const alias of info.aliases ?? []) {
      if (!byLanguageName.has(alias)) byLanguageName.set(alias, info)
    }
  }
  for (const info of injections) {
    if (!byScopeName.has(info.scopeName)) byScopeName.set(info.scopeName, info)
    for (const host of info.embeddedIn ?? []) {
      const list = injectionsByLanguageName.get(host)
      if (list === undefined) injectionsByLanguageName.set(host, [info.scopeName])
      else list.push(info.scopeName)
    }
  }
  return { byLanguageName, byScopeName, injectionsByLanguageName }
}

const readRawGrammar = async (info: GrammarInfo): Promise<IRawGrammar> => {
  const path = `grammars/${info.name}.json`
  return textmate.parseRawGrammar(await loadTextAsset({ pkg: 'tm-grammars', path }), path)
}

const createRegistry = (catalog: Catalog): Registry =>
  new textmate.Registry({
    onigLib: loadOniguruma(),
    // A scope that tm-grammars does not have (grammars include some optional ones) is left
    // out: the patterns including it match nothing.
    loadGrammar: async (scopeName) => {
      const info = catalog.byScopeName.get(scopeName)
      return info === undefined ? null : readRawGrammar(info)
    },
    getInjections: (scopeName) => {
      const info = catalog.byScopeName.get(scopeName)
      return info === undefined
        ? undefined
        : [...(catalog.injectionsByLanguageName.get(info.name) ?? [])]
    },
  })

// vscode-textmate remembers a grammar file that failed to load as failed for good, so after a
// failure the next load gets a fresh registry. Grammars the old one compiled keep working.
let registry: Registry | null = null

const grammarLoads = new Map<string, Promise<TextMateGrammar>>()

/**
 * Loads the TextMate grammar of a language from `tm-grammars`, by its name or an alias
 * (`'javascript'` or `'js'`, `'typescript'`, `'python'`, `'json'`, `'markdown'`, `'css'`,
 * `'html'`, ...), with every grammar it embeds. Calls for the same language share one load
 * and one result. Rejects with a `RangeError` for a name `tm-grammars` does not know, and with
 * an `Error` naming the grammar when a file cannot be read; a failed load is forgotten, so a
 * later call tries again.
 *
 * @example const grammar = await loadTextMateGrammar('javascript')
 */
export const loadTextMateGrammar = async (languageName: string): Promise<TextMateGrammar> => {
  if (typeof languageName !== 'string') {
    throw new TypeError(`languageName must be a string, got ${typeof languageName}`)
  }
  const catalog = await loadCatalog()
  const info = catalog.byLanguageName.get(languageName)
  if (info === undefined) {
    throw new RangeError(
      `tm-grammars has no TextMate grammar named ${JSON.stringify(languageName)}`,
    )
  }
  let load = grammarLoads.get(info.name)
  if (load === undefined) {
    load = compileGrammar(catalog, info)
    grammarLoads.set(info.name, load)
    load.catch(() => {
      if (grammarLoads.get(info.name) === load) grammarLoads.delete(info.name)
    })
  }
  return load
}

const compileGrammar = async (catalog: Catalog, info: GrammarInfo): Promise<TextMateGrammar> => {
  const used = registry ?? createRegistry(catalog)
  registry = used
  try {
    const compiled = await used.loadGrammar(info.scopeName)
    if (compiled === null) throw new Error(`no grammar has the scope ${info.scopeName}`)
    return { name: info.name, scopeName: info.scopeName, compiled }
  } catch (error) {
    if (registry === used) registry = null
    throw new Error(
      `cannot load the TextMate grammar '${info.name}' (${info.scopeName}): ${messageOf(error)}`,
      { cause: error },
    )
  }
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error)
