/**
 * Serving a built web app (a folder of static files, as `vite build` leaves it) from the
 * server's own port, next to its WebSocket rooms.
 *
 * Paths are resolved inside the folder only: a path that is not valid percent-encoding, holds
 * a NUL or a backslash, names a hidden file (a segment starting with `.`, which also covers
 * `..`) or, once symbolic links are followed, leads outside the folder or to a hidden file,
 * is answered 404. Both rules hold for the path asked for and for the real path it resolves
 * to (relative to the folder's real path): a link named `visible.txt` that points to `.env`
 * serves nothing. A path without a file extension that names no file is an app route
 * (`/notes/today`) and gets `index.html`, so the app can read its own URL.
 */
import { createReadStream } from 'node:fs'
import { realpath, stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, join, sep } from 'node:path'

/** Content types by file extension; anything else is `application/octet-stream`. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
}

/**
 * A file name a bundler made unique by its content (`index-B3x9_kQa.js`): such a file never
 * changes, so browsers may keep it for a year without asking again.
 */
const HASHED_NAME = /[-.][A-Za-z0-9_-]{8,}\.[a-z0-9]+$/

/** Under the app's assets folder, a file with a hashed name is cached for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable'

/** Everything else is revalidated on each use (cheaply, through its ETag). */
const REVALIDATE = 'no-cache'

/** Whether a path segment names a hidden file or folder (`.env`, `.git`, and `..`). */
const isHidden = (segment: string): boolean => segment.startsWith('.')

/** A file found for a request. */
interface Found {
  readonly file: string
  readonly size: number
  readonly mtimeMs: number
}

/**
 * The files of a folder, answered to GET and HEAD requests.
 *
 * @example
 * const site = await StaticSite.open('apps/playground/dist')
 * http.createServer((request, response) => void site.answer(request, response))
 */
export class StaticSite {
  private constructor(
    /** The folder, with symbolic links resolved. */
    readonly root: string,
  ) {}

  /** Serves the folder `dir`; rejects with a `TypeError` when it is not a folder with an `index.html`. */
  static async open(dir: string): Promise<StaticSite> {
    if (typeof dir !== 'string' || dir === '') {
      throw new TypeError(`a static folder must be a path, got ${JSON.stringify(dir)}`)
    }
    let root: string
    try {
      root = await realpath(dir)
      if (!(await stat(join(root, 'index.html'))).isFile()) throw new Error('not a file')
    } catch {
      throw new TypeError(`${dir} is not a folder with an index.html (build the app first?)`)
    }
    return new StaticSite(root)
  }

  /** Answers `request` with a file, a 304, a 404 or (for other methods than GET and HEAD) a 405. */
  async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return void response
        .writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' })
        .end('only GET and HEAD are answered here')
    }
    const path = new URL(request.url ?? '/', 'http://localhost').pathname
    const found = await this.find(path)
    if (found === null) {
      return void response
        .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
        .end(`no such file: ${path.slice(0, 200)}`)
    }
    const etag = `"${found.size.toString(36)}-${Math.floor(found.mtimeMs).toString(36)}"`
    const relative = found.file
      .slice(this.root.length + 1)
      .split(sep)
      .join('/')
    const headers = {
      'content-type':
        CONTENT_TYPES[extname(found.file).toLowerCase()] ?? 'application/octet-stream',
      'cache-control':
        relative.startsWith('assets/') && HASHED_NAME.test(relative) ? IMMUTABLE : REVALIDATE,
      etag,
      'x-content-type-options': 'nosniff',
    }
    if (request.headers['if-none-match'] === etag) {
      return void response.writeHead(304, headers).end()
    }
    response.writeHead(200, { ...headers, 'content-length': found.size })
    if (request.method === 'HEAD') return void response.end()
    const stream = createReadStream(found.file)
    stream.on('error', () => response.destroy())
    stream.pipe(response)
  }

  /** The file `path` names, `index.html` for an app route, or null. */
  private async find(path: string): Promise<Found | null> {
    let decoded: string
    try {
      decoded = decodeURIComponent(path)
    } catch {
      return null
    }
    const segments = decoded.split('/').filter((segment) => segment !== '')
    if (decoded.includes('\0') || decoded.includes('\\') || segments.some(isHidden)) return null
    const exact = await this.fileAt(join(this.root, ...segments))
    if (exact !== null) return exact
    const last = segments.at(-1) ?? ''
    // A directory (`/docs/`) or an app route (`/notes/today`): the app's page.
    if (extname(last) === '') return this.fileAt(join(this.root, ...segments, 'index.html'), true)
    return null
  }

  /**
   * The file at `file` when it is a regular file inside the folder and, once links are
   * followed, not hidden, or null. With `orIndex`, falls back to the folder's own `index.html`.
   */
  private async fileAt(file: string, orIndex = false): Promise<Found | null> {
    try {
      const real = await realpath(file)
      // The link's own name was checked by `find`; what it leads to must pass the same rules.
      if (!real.startsWith(this.root + sep)) return null
      if (
        real
          .slice(this.root.length + 1)
          .split(sep)
          .some(isHidden)
      )
        return null
      const info = await stat(real)
      if (info.isFile()) return { file: real, size: info.size, mtimeMs: info.mtimeMs }
      if (info.isDirectory()) return this.fileAt(join(real, 'index.html'), orIndex)
    } catch {}
    return orIndex ? this.fileAt(join(this.root, 'index.html')) : null
  }
}
