/**
 * Serves a test page on loopback: a TypeScript entry bundled for the browser (packages built
 * from source, as the tests run them), and the files of installed npm packages under
 * `/packages/<name>/<path>`, for code that loads `.wasm` files and grammars at run time.
 */
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { build } from 'esbuild'
import { installedAssetPath } from '../packages/language/src/assets.js'

/** A page being served; `close` stops the server. */
export interface PageServer {
  /** The page's address, `http://127.0.0.1:PORT/`. */
  readonly url: string
  /** Paths asked for so far, in order (`/page.js`, `/packages/...`). */
  readonly requests: readonly string[]
  close(): Promise<void>
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
}

const typeOf = (path: string): string =>
  TYPES[path.slice(path.lastIndexOf('.'))] ?? 'application/octet-stream'

/**
 * Bundles `entry` and serves it with an empty HTML page on 127.0.0.1, on a free port; package
 * files are found as `@tandem/language` finds them in Node (`installedAssetPath`).
 *
 * @example const server = await servePage({ entry: fileURLToPath(new URL('page.ts', import.meta.url)) })
 */
export const servePage = async (options: { entry: string }): Promise<PageServer> => {
  const bundle = await build({
    entryPoints: [options.entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    // No externals: the packages' browser builds import no Node module.
    conditions: ['source'],
    logLevel: 'silent',
  })
  const script = bundle.outputFiles[0]!.contents
  const html =
    '<!doctype html><meta charset="utf-8"><title>test</title><script type="module" src="/page.js"></script>'
  const requests: string[] = []

  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)
    requests.push(path)
    const send = (status: number, type: string, body: string | Uint8Array) => {
      response.writeHead(status, { 'content-type': type })
      response.end(body)
    }
    if (path === '/') return send(200, TYPES['.html']!, html)
    if (path === '/page.js') return send(200, TYPES['.js']!, script)
    const match = /^\/packages\/((?:@[^/]+\/)?[^/]+)\/(.+)$/.exec(path)
    if (match === null) return send(404, 'text/plain', `no ${path}`)
    installedAssetPath({ pkg: match[1]!, path: match[2]! })
      .then(async (file) => send(200, typeOf(file), await readFile(file)))
      .catch(() => send(404, 'text/plain', `no ${path}`))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}
