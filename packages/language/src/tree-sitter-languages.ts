/**
 * Loading tree-sitter: the web-tree-sitter runtime (one WebAssembly module per process) and
 * the grammars, each a `.wasm` file shipped in its npm package. Every file is read through
 * `loadAsset`, so Node reads the installed packages and a browser gets what its asset locator
 * says, and nothing is fetched behind the locator's back.
 */

import { Language, Parser } from 'web-tree-sitter'
import { loadAsset, type PackageAsset } from './assets.js'
import type { TreeSitterLanguage } from './syntax-node.js'

/** The grammars `loadTreeSitterLanguage` knows. */
export type TreeSitterLanguageId = 'javascript' | 'typescript' | 'tsx' | 'python'

/**
 * Where each grammar's `.wasm` file is, as a package file for `loadAsset`.
 *
 * @example TREE_SITTER_GRAMMARS.tsx // => { pkg: 'tree-sitter-typescript', path: 'tree-sitter-tsx.wasm' }
 */
export const TREE_SITTER_GRAMMARS: Readonly<Record<TreeSitterLanguageId, PackageAsset>> = {
  javascript: { pkg: 'tree-sitter-javascript', path: 'tree-sitter-javascript.wasm' },
  typescript: { pkg: 'tree-sitter-typescript', path: 'tree-sitter-typescript.wasm' },
  tsx: { pkg: 'tree-sitter-typescript', path: 'tree-sitter-tsx.wasm' },
  python: { pkg: 'tree-sitter-python', path: 'tree-sitter-python.wasm' },
}

const RUNTIME_ASSET: PackageAsset = { pkg: 'web-tree-sitter', path: 'web-tree-sitter.wasm' }

let runtime: Promise<void> | null = null
/** Loads under way or done, by `pkg/path` of the grammar file. */
const languages = new Map<string, Promise<Language>>()

/**
 * Starts the web-tree-sitter runtime, once per process: later and concurrent calls share the
 * first call's promise. When starting fails the promise rejects and the next call tries again.
 *
 * @example await initTreeSitter(); const parser = new Parser()
 */
export const initTreeSitter = (): Promise<void> => {
  runtime ??= startRuntime().catch((error: unknown) => {
    runtime = null
    throw new Error(`cannot start the tree-sitter runtime: ${describeError(error)}`, {
      cause: error,
    })
  })
  return runtime
}

const startRuntime = async (): Promise<void> => {
  const wasmBinary = await loadAsset(RUNTIME_ASSET)
  // Handing over the bytes keeps Emscripten from looking for the file by path or URL.
  await Parser.init({ wasmBinary })
}

/**
 * A tree-sitter grammar, by id or by its `.wasm` package file, loaded once per process
 * (concurrent calls share one load; an id and its file are the same grammar). A failed load
 * rejects with an error naming the grammar and is forgotten, so a later call loads it again.
 * An unknown id is a `TypeError`.
 *
 * @example const javascript = await loadTreeSitterLanguage('javascript')
 * @example await loadTreeSitterLanguage({ pkg: 'tree-sitter-python', path: 'tree-sitter-python.wasm' })
 */
export const loadTreeSitterLanguage = (
  grammar: TreeSitterLanguageId | PackageAsset,
): Promise<TreeSitterLanguage> => {
  let asset: PackageAsset
  if (typeof grammar === 'string') {
    if (!Object.hasOwn(TREE_SITTER_GRAMMARS, grammar)) {
      const known = Object.keys(TREE_SITTER_GRAMMARS).join(', ')
      return Promise.reject(
        new TypeError(`unknown tree-sitter language ${JSON.stringify(grammar)} (known: ${known})`),
      )
    }
    asset = TREE_SITTER_GRAMMARS[grammar]
  } else {
    asset = grammar
  }
  const key = `${asset.pkg}/${asset.path}`
  let loading = languages.get(key)
  if (loading === undefined) {
    loading = loadGrammar(asset).catch((error: unknown) => {
      languages.delete(key)
      const name = typeof grammar === 'string' ? `${grammar} (${key})` : key
      throw new Error(`cannot load the tree-sitter grammar ${name}: ${describeError(error)}`, {
        cause: error,
      })
    })
    languages.set(key, loading)
  }
  return loading
}

const loadGrammar = async (asset: PackageAsset): Promise<Language> => {
  const [bytes] = await Promise.all([loadAsset(asset), initTreeSitter()])
  return Language.load(bytes)
}

const describeError = (error: unknown): string =>
  error instanceof Error ? error.message : String(error)
