/**
 * A web app served by a real `TandemServer` over a real SQLite file, next to its rooms, which
 * then live under `/ws/`.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { startNodeProcess } from '../../../testing/processes.js'
import { type Authorize, AuthRefusal } from './server-options.js'
import { StaticSite } from './static-site.js'
import { ServerProcess } from './testing/server-process.js'
import { useTestServers } from './testing/test-servers.js'

const dir = mkdtempSync(join(tmpdir(), 'tandem-static-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// The app as a bundler leaves it, a secret beside it, and a link from inside to the secret.
const app = join(dir, 'app')
mkdirSync(join(app, 'assets'), { recursive: true })
mkdirSync(join(app, 'guide'))
writeFileSync(join(app, 'index.html'), '<!doctype html><title>app</title>')
writeFileSync(join(app, 'assets', 'index-B3x9_kQa.js'), 'console.log("app")')
writeFileSync(join(app, 'assets', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
writeFileSync(join(app, 'guide', 'index.html'), '<!doctype html><title>guide</title>')
writeFileSync(join(app, 'grammar.wasm'), new Uint8Array([0, 97, 115, 109]))
writeFileSync(join(app, '.env'), 'SECRET=1')
writeFileSync(join(dir, 'secret.txt'), 'not for the web')
symlinkSync(join(dir, 'secret.txt'), join(app, 'linked.txt'))
// Links inside the folder whose names look harmless but lead to hidden files and folders.
mkdirSync(join(app, '.private'))
writeFileSync(join(app, '.private', 'notes.txt'), 'PRIVATE NOTES')
writeFileSync(join(app, '.private', 'index.html'), 'PRIVATE PAGE')
symlinkSync('.env', join(app, 'visible-env.txt'))
symlinkSync('.private', join(app, 'public'))
symlinkSync(join(app, '.private', 'notes.txt'), join(app, 'assets', 'notes.txt'))

const servers = useTestServers('site')
const start = async (options: { authorize?: Authorize } = {}) => {
  const { port } = await servers.start({ site: await StaticSite.open(app), ...options })
  return { http: `http://127.0.0.1:${port}`, ws: `ws://127.0.0.1:${port}` }
}

/** A GET (or `method`) with the path sent exactly as written, as `fetch` would not. */
const raw = (base: string, path: string, method = 'GET', headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const { hostname, port } = new URL(base)
      const req = httpRequest({ hostname, port, path, method, headers }, (response) => {
        let body = ''
        response.on('data', (chunk: Buffer) => (body += chunk.toString()))
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        )
      })
      req.on('error', reject)
      req.end()
    },
  )

describe('TandemServer with a StaticSite', () => {
  it('serves the app with content types, and index.html for app routes', async () => {
    const { http } = await start()
    const page = await fetch(`${http}/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('cache-control')).toBe('no-cache')
    expect(await page.text()).toBe('<!doctype html><title>app</title>')

    const route = await fetch(`${http}/notes/today`)
    expect(route.status).toBe(200)
    expect(await route.text()).toBe('<!doctype html><title>app</title>')
    expect(await (await fetch(`${http}/guide/`)).text()).toBe('<!doctype html><title>guide</title>')
    expect(await (await fetch(`${http}/guide`)).text()).toBe('<!doctype html><title>guide</title>')

    const svg = await fetch(`${http}/assets/logo.svg`)
    expect(svg.headers.get('content-type')).toBe('image/svg+xml')
    const wasm = await fetch(`${http}/grammar.wasm`)
    expect(wasm.headers.get('content-type')).toBe('application/wasm')
    expect([...new Uint8Array(await wasm.arrayBuffer())]).toEqual([0, 97, 115, 109])

    const missing = await fetch(`${http}/assets/gone-B3x9_kQa.js`)
    expect(missing.status).toBe(404)
    expect(await missing.text()).toBe('no such file: /assets/gone-B3x9_kQa.js')
  })

  it('lets browsers keep hashed assets for good, and revalidates the rest by ETag', async () => {
    const { http } = await start()
    const script = await fetch(`${http}/assets/index-B3x9_kQa.js`)
    expect(script.status).toBe(200)
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(await script.text()).toBe('console.log("app")')
    expect((await fetch(`${http}/assets/logo.svg`)).headers.get('cache-control')).toBe('no-cache')

    const etag = script.headers.get('etag')!
    expect(etag).toMatch(/^".+"$/)
    const again = await raw(http, '/assets/index-B3x9_kQa.js', 'GET', { 'if-none-match': etag })
    expect(again.status).toBe(304)
    expect(again.body).toBe('')
    const head = await raw(http, '/index.html', 'HEAD')
    expect(head.status).toBe(200)
    expect(head.headers['content-length']).toBe('33')
    expect(head.body).toBe('')
    const post = await raw(http, '/index.html', 'POST')
    expect(post.status).toBe(405)
    expect(post.headers.allow).toBe('GET, HEAD')
  })

  it('never serves a file outside the folder, a hidden file, or a link leading out or to a hidden file', async () => {
    const { http } = await start()
    for (const path of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/..%5csecret.txt',
      '/%2e%2e%5csecret.txt',
      '/.env',
      '/assets/%2eenv',
      '/index.html%00.js',
      '/%E0%A4%A.txt',
      '/linked.txt',
      '/visible-env.txt',
      '/public/notes.txt',
      '/assets/notes.txt',
    ]) {
      const answer = await raw(http, path)
      expect(answer.status, path).toBe(404)
      expect(answer.body, path).not.toContain('not for the web')
      expect(answer.body, path).not.toContain('SECRET')
      expect(answer.body, path).not.toContain('PRIVATE')
    }
    // A link to a hidden folder is no page either: an app route gets the app's own page.
    for (const path of ['/public', '/public/', '/public/index.html']) {
      const answer = await raw(http, path)
      expect(answer.body, path).not.toContain('PRIVATE')
    }
  })

  it('keeps rooms under /ws/: stock clients sync there, and the app paths are not rooms', async () => {
    const { http, ws } = await start()
    const [a, b] = [servers.client(`${ws}/ws`, 'notes'), servers.client(`${ws}/ws`, 'notes')]
    await Promise.all([a.synced(), b.synced()])
    a.text.insert(0, 'next to the app')
    await expect.poll(() => b.text.toString(), { timeout: 10_000 }).toBe('next to the app')

    const refused = await new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(`${ws}/notes`)
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0))
      socket.on('open', () => reject(new Error('an app path opened a room')))
      socket.on('error', () => {})
    })
    expect(refused).toBe(400)
    const probe = await fetch(`${http}/ws/notes`)
    expect(probe.status).toBe(426)
    expect(await probe.text()).toBe('this address takes WebSocket connections')
    expect((await fetch(`${http}/healthz`)).status).toBe(200)
    const list = await fetch(`${http}/ws/`)
    expect(list.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await list.json()).toEqual({ rooms: ['notes'] })
  })

  it('answers the probe of a refused client under /ws/, and keeps the room list to itself', async () => {
    const authorize: Authorize = (request) => {
      const token = new URL(request.url ?? '/', 'http://x').searchParams.get('token')
      if (token !== 'good') throw new AuthRefusal(403, 'no access to this room')
      return { role: 'write' }
    }
    const { http, ws } = await start({ authorize })
    const probe = await fetch(`${http}/ws/secret%20plans?token=bad`)
    expect(probe.status).toBe(403)
    expect(probe.headers.get('access-control-allow-origin')).toBe('*')
    expect(await probe.text()).toBe('no access to this room')
    const client = servers.client(`${ws}/ws`, 'secret plans', { token: 'good' })
    await client.synced()
    const list = await fetch(`${http}/ws/`)
    expect(list.status).toBe(403)
    expect(await list.json()).toEqual({ error: 'the room list is not public' })
    // The app itself needs no token.
    expect((await fetch(`${http}/`)).status).toBe(200)
  })

  it('refuses a folder without an index.html with a TypeError', async () => {
    await expect(StaticSite.open(join(dir, 'nowhere'))).rejects.toThrow(
      new TypeError(
        `${join(dir, 'nowhere')} is not a folder with an index.html (build the app first?)`,
      ),
    )
    await expect(StaticSite.open(join(app, 'assets'))).rejects.toThrow(TypeError)
    await expect(StaticSite.open('')).rejects.toThrow(TypeError)
  })
})

describe('tandem-server --static', () => {
  it('serves the app and the rooms on one port, and keeps documents across restarts', async () => {
    const server = await ServerProcess.start({
      data: join(dir, 'cli-data'),
      args: ['--static', app],
    })
    try {
      expect(server.output).toContain(`"app":"http://127.0.0.1:${server.port}/"`)
      expect(server.output).toContain(`"url":"ws://127.0.0.1:${server.port}/ws"`)
      const page = await fetch(`http://127.0.0.1:${server.port}/some/route`)
      expect(await page.text()).toBe('<!doctype html><title>app</title>')
      const writer = servers.client(`${server.url}/ws`, 'kept')
      await writer.synced()
      writer.text.insert(0, 'through a restart')
      const reader = servers.client(`${server.url}/ws`, 'kept')
      await expect.poll(() => reader.text.toString(), { timeout: 10_000 }).toBe('through a restart')
      servers.destroyClients()
      expect(await server.kill('SIGTERM')).toBe(0)
      await server.start()
      const back = servers.client(`${server.url}/ws`, 'kept')
      await back.synced()
      expect(back.text.toString()).toBe('through a restart')
    } finally {
      await server.kill('SIGKILL')
    }
  })

  it('exits with a clear message when the folder has no built app', async () => {
    const cli = new URL('./cli.ts', import.meta.url).pathname
    const started = startNodeProcess({
      args: [
        '--conditions=source',
        '--import',
        'tsx',
        cli,
        '--port',
        '0',
        '--data',
        join(dir, 'unused'),
        '--static',
        dir,
      ],
      env: { TANDEM_AUTH_SECRET: undefined },
      ready: 'listening',
    })
    await expect(started).rejects.toThrow(
      `the process exited with 1: tandem-server: ${dir} is not a folder with an index.html (build the app first?)`,
    )
  })
})
