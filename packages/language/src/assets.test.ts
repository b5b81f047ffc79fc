import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { installedAssetPath, loadAsset } from './assets.js'

describe('installedAssetPath', () => {
  it('finds exported and unexported files of installed packages', async () => {
    const onig = await installedAssetPath({ pkg: 'vscode-oniguruma', path: 'release/onig.wasm' })
    expect(existsSync(onig)).toBe(true)
    const grammar = { pkg: 'tree-sitter-javascript', path: 'tree-sitter-javascript.wasm' }
    expect(existsSync(await installedAssetPath(grammar))).toBe(true)
    // The wasm magic number: the bytes are the file's.
    expect([...(await loadAsset(grammar)).subarray(0, 4)]).toEqual([0, 0x61, 0x73, 0x6d])
  })

  it('refuses paths that leave the package', async () => {
    for (const path of ['../yjs/package.json', 'release/../../x', '/etc/passwd', 'a\\..\\b']) {
      await expect(installedAssetPath({ pkg: 'vscode-oniguruma', path })).rejects.toThrow(
        RangeError,
      )
    }
  })
})
