/**
 * Where the language package finds the files it loads at run time: the oniguruma and
 * tree-sitter `.wasm` files and the TextMate grammars, all shipped in npm packages.
 *
 * In Node they are read from the installed packages (`#installed-files`). In a browser there
 * is no package directory to read: the application says where each file is served, for
 * example with a bundler's asset URLs, through `setAssetLocator`; the package's `browser`
 * build of `#installed-files` has no Node imports, so a bundle needs no externals.
 */
import { installedFile } from '#installed-files'

export { installedAssetPath } from '#installed-files'

/** A file of an npm package: `{ pkg: 'vscode-oniguruma', path: 'release/onig.wasm' }`. */
export interface PackageAsset {
  /** The npm package name. */
  readonly pkg: string
  /** The file's path inside the package. */
  readonly path: string
}

/** Tells where a package file is: a URL to fetch, or its bytes. */
export type AssetLocator = (asset: PackageAsset) => string | URL | Uint8Array

let locator: AssetLocator | null = null

/**
 * Sets how package files are found (browsers must; Node reads the installed packages when
 * none is set).
 *
 * @example setAssetLocator(({ pkg, path }) => `/assets/${pkg}/${path}`)
 */
export const setAssetLocator = (next: AssetLocator | null): void => {
  locator = next
}

/**
 * The bytes of a package file, through the locator when one is set, else from the installed
 * package (Node). Fails with the package and path named when the file cannot be had.
 *
 * @example const wasm = await loadAsset({ pkg: 'vscode-oniguruma', path: 'release/onig.wasm' })
 */
export const loadAsset = async (asset: PackageAsset): Promise<Uint8Array> => {
  const where = locator?.(asset) ?? (await installedFile(asset))
  if (where instanceof Uint8Array) return where
  const response = await fetch(where)
  if (!response.ok) {
    throw new Error(`cannot load ${asset.pkg}/${asset.path} from ${where}: ${response.status}`)
  }
  return new Uint8Array(await response.arrayBuffer())
}

/** The text of a package file (a grammar), decoded as UTF-8. */
export const loadTextAsset = async (asset: PackageAsset): Promise<string> =>
  new TextDecoder().decode(await loadAsset(asset))
