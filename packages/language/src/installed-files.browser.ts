/**
 * The browser's `#installed-files`: a page has no installed packages to read, so every file
 * must come through `setAssetLocator`. No Node module is imported, so bundlers need no
 * externals for the language package.
 */
import type { PackageAsset } from './assets.js'

const outsideNode = ({ pkg, path }: PackageAsset): Error =>
  new Error(
    `cannot find ${pkg}/${path}: outside Node, call setAssetLocator to say where it is served`,
  )

/**
 * Fails: a browser reads no installed package (see `setAssetLocator`).
 *
 * @example await installedFile(asset) // throws, naming the file
 */
export const installedFile = async (asset: PackageAsset): Promise<Uint8Array> => {
  throw outsideNode(asset)
}

/**
 * Fails: a browser has no installed packages (see `setAssetLocator`).
 *
 * @example await installedAssetPath(asset) // throws, naming the file
 */
export const installedAssetPath = async (asset: PackageAsset): Promise<string> => {
  throw outsideNode(asset)
}
