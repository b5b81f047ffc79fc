/**
 * Package files read from the installed packages, in Node: the `#installed-files` of Node and
 * of tests. A browser bundle gets `installed-files.browser.ts` instead.
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { PackageAsset } from './assets.js'

/**
 * The bytes of a package file in the installed packages.
 *
 * @example await installedFile({ pkg: 'vscode-oniguruma', path: 'release/onig.wasm' })
 */
export const installedFile = async (asset: PackageAsset): Promise<Uint8Array> =>
  new Uint8Array(await readFile(await installedAssetPath(asset)))

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
