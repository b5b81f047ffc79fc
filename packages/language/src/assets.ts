/**
 * Where the language package finds the files it loads at run time: the oniguruma and
 * tree-sitter `.wasm` files and the TextMate grammars, all shipped in npm packages.
 *
 * In Node they are read from the installed packages. In a browser there is no package
 * directory to read: the application says where each file is served, for example with a
 * bundler's asset URLs, through `setAssetLocator`.
 */

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

const installedFile = async (asset: PackageAsset): Promise<Uint8Array> => {
  const { readFile } = await import('node:fs/promises')
  return new Uint8Array(await readFile(await installedAssetPath(asset)))
}

/**
 * Where a package file is in the installed packages (Node only): what a server needs to serve
 * the language files to browsers. Throws outside Node, naming the file, and a RangeError for
 * a path that is absolute or climbs out of the package (`..`).
 *
 * @example await installedAssetPath({ pkg: 'vscode-oniguruma', path: 'release/onig.wasm' })
 */
export const installedAssetPath = async ({ pkg, path }: PackageAsset): Promise<string> => {
  if (typeof process === 'undefined' || process.versions?.node === undefined) {
    throw new Error(
      `cannot find ${pkg}/${path}: outside Node, call setAssetLocator to say where it is served`,
    )
  }
  if (path.startsWith('/') || path.split(/[/\\]/).includes('..')) {
    throw new RangeError(`${pkg}/${path} is not a path inside the package`)
  }
  const { createRequire } = await import('node:module')
  const { existsSync } = await import('node:fs')
  const { dirname, join } = await import('node:path')
  const require = createRequire(import.meta.url)
  try {
    return require.resolve(`${pkg}/${path}`)
  } catch {
    // Not exported by the package: find its root above its entry point.
    let root = dirname(require.resolve(pkg))
    while (!existsSync(join(root, 'package.json')) && dirname(root) !== root) {
      root = dirname(root)
    }
    return join(root, path)
  }
}
