/**
 * Loads the load benchmark's peer from its published ES module build, as its users run it.
 *
 * The repository resolves imports with the `source` condition (packages run on source), and
 * the hocuspocus packages map that condition to their TypeScript sources, which neither
 * compile under this repository's compiler settings nor are what users run. So the build is
 * found through the package's `require` entry, beside which its `module` entry lies, and
 * imported by path; the few members the benchmark uses are typed here.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type * as Y from 'yjs'

const require = createRequire(import.meta.url)

/**
 * The ES module build of package `name`: the file its package.json names as `module`.
 *
 * @example const { Server } = (await importPublished('@hocuspocus/server')) as HocuspocusServerModule
 */
export const importPublished = async (name: string): Promise<unknown> => {
  const main = require.resolve(name)
  let folder = dirname(main)
  for (let depth = 0; depth < 4; depth++) {
    const file = join(folder, 'package.json')
    let manifest: { name?: string; module?: string } | null = null
    try {
      manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; module?: string }
    } catch {
      // Not the package's folder yet.
    }
    if (manifest?.name === name) {
      if (typeof manifest.module !== 'string') {
        throw new TypeError(`${name} names no ES module build in ${file}`)
      }
      return import(pathToFileURL(join(folder, manifest.module)).href)
    }
    folder = dirname(folder)
  }
  throw new Error(`cannot find the package.json of ${name} above ${main}`)
}

/** What the benchmark uses of `@hocuspocus/server`. */
export interface HocuspocusServerModule {
  readonly Server: new (configuration: {
    readonly address: string
    readonly port: number
    readonly quiet: boolean
    readonly stopOnSignals: boolean
  }) => {
    listen(): Promise<unknown>
    readonly address: { readonly port: number }
    readonly hocuspocus: { getDocumentsCount(): number }
    destroy(): Promise<void>
  }
}

/** What the benchmark uses of `@hocuspocus/provider`. */
export interface HocuspocusProviderModule {
  readonly HocuspocusProvider: new (configuration: {
    readonly url: string
    readonly name: string
    readonly document: Y.Doc
    readonly WebSocketPolyfill: unknown
  }) => {
    readonly isSynced: boolean
    on(event: 'synced', listener: () => void): unknown
    destroy(): void
  }
}
