/**
 * The packages as another project gets them: every package packed (`pnpm pack`, which builds
 * it), the tarballs installed with npm into an empty project in a temporary folder outside the
 * workspace, and there:
 * - a Node script connects two `TextEditor`s through the packed `tandem-server` command;
 * - `tsc --noEmit` type-checks a file using every package, `strict`, `skipLibCheck: false`;
 * - a page bundled by esbuild and by Vite, at their default settings (no externals), co-edits
 *   in Chromium, served by the packed server.
 * Slow (it installs from the npm registry), so it runs once, in one test.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { Browser, Page } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { launchChromium } from './browser.js'
import { freePort, type StartedProcess, startNodeProcess, stopProcess } from './processes.js'

const run = promisify(execFile)
const rootDir = fileURLToPath(new URL('../', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'tandem-outside-'))
const project = join(work, 'project')
const tarballs = join(work, 'tarballs')
const started: StartedProcess[] = []
let browser: Browser | undefined

afterAll(async () => {
  await browser?.close()
  for (const server of started.splice(0)) await stopProcess(server.child, 'SIGKILL')
  rmSync(work, { recursive: true, force: true })
})

const readJson = (path: string) => JSON.parse(readFileSync(join(rootDir, path), 'utf8'))

/** The versions this repository pins, so the project installs what the packages were built with. */
const pinned = () => {
  const root = readJson('package.json')
  const server = readJson('packages/server/package.json')
  const playground = readJson('apps/playground/package.json')
  return {
    yjs: root.dependencies.yjs,
    'y-protocols': root.dependencies['y-protocols'],
    lib0: root.dependencies.lib0,
    ws: server.dependencies.ws,
    typescript: root.devDependencies.typescript,
    '@types/node': root.devDependencies['@types/node'],
    '@types/ws': server.devDependencies['@types/ws'],
    esbuild: root.devDependencies.esbuild,
    vite: playground.devDependencies.vite,
  }
}

const NODE_SCRIPT = `
import assert from 'node:assert/strict'
import { connect } from '@tandem/collab'
import { TextEditor } from '@tandem/editor'
import WebSocket from 'ws'

const url = process.argv[2]
const open = (name) => {
  const editor = new TextEditor()
  const connection = connect(editor, { url, room: 'outside', user: { name, color: '#336699' }, WebSocket, crossTab: false })
  return { editor, connection }
}
const ada = open('Ada')
await ada.connection.whenSynced
ada.editor.insertText('typed by Ada')
const bob = open('Bob')
await bob.connection.whenSynced
for (let i = 0; i < 500 && bob.editor.getText() !== 'typed by Ada'; i++) {
  await new Promise((resolve) => setTimeout(resolve, 10))
}
assert.equal(bob.editor.getText(), 'typed by Ada')
for (const peer of [ada, bob]) peer.connection.destroy()
console.log('co-edited')
`

const TYPED_FILE = `
import { TextBuffer } from '@tandem/buffer'
import { connect, type CollabConnection } from '@tandem/collab'
import { DisplayLayer } from '@tandem/display'
import { TextEditor } from '@tandem/editor'
import { loadLanguage, type SyntaxNode } from '@tandem/language'
import { type AwarenessFields, MessageType, readSelections } from '@tandem/protocol'
import { SqliteStore, TandemServer } from '@tandem/server'
import { Point } from '@tandem/text'
import { EditorView } from '@tandem/view'

export const editor: TextEditor = new TextEditor({ buffer: new TextBuffer() })
export const display: DisplayLayer = editor.displayLayer
export const point: Point = new Point(0, 0)
export const parts = [connect, loadLanguage, readSelections, SqliteStore, TandemServer, EditorView]
export const session: number = MessageType.session
export type Parts = CollabConnection | SyntaxNode | AwarenessFields
`

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    types: ['node'],
    strict: true,
    skipLibCheck: false,
    noEmit: true,
  },
  include: ['typed.ts'],
}

const PAGE = `
import { connect } from '@tandem/collab'
import { TextEditor } from '@tandem/editor'
import { EditorView } from '@tandem/view'
import * as Y from 'yjs'

const room = new URLSearchParams(location.search).get('room') ?? 'page'
const element = document.createElement('div')
element.style.height = '300px'
document.body.append(element)
const editor = new TextEditor({ doc: new Y.Doc() })
new EditorView(editor, element)
const connection = connect(editor, {
  url: \`ws://\${location.host}/ws\`,
  room,
  user: { name: 'Ada', color: '#336699' },
  crossTab: false,
})
;(globalThis as { tandem?: unknown }).tandem = { editor, connection }
`

const HTML = (script: string) =>
  `<!doctype html><meta charset="utf-8"><title>outside</title><script type="module" src="${script}"></script>`

/** Starts the packed server's command on a free port. */
const startServer = async (args: string[]): Promise<string> => {
  const port = await freePort()
  // The command npm linked for the packed server package.
  const bin = join(project, 'node_modules/.bin/tandem-server')
  const data = join(work, `data-${port}`)
  const server = await startNodeProcess({
    args: [bin, '--port', String(port), '--data', data, ...args],
    ready: 'listening',
    timeoutMs: 30_000,
  })
  started.push(server)
  return `127.0.0.1:${port}`
}

/** Two pages of the app at `host` co-edit: one types, the other shows it in its view. */
const coEdit = async (host: string, room: string): Promise<void> => {
  browser ??= await launchChromium()
  const open = async (): Promise<Page> => {
    const page = await browser!.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(`http://${host}/?room=${room}`)
    await page.waitForFunction(
      () =>
        (globalThis as { tandem?: { connection: { status: string } } }).tandem?.connection
          .status === 'synced',
      undefined,
      { timeout: 20_000 },
    )
    expect(errors).toEqual([])
    return page
  }
  const [ada, bob] = [await open(), await open()]
  await ada.evaluate(() =>
    (
      globalThis as { tandem?: { editor: { insertText(text: string): void } } }
    ).tandem!.editor.insertText('from the bundle'),
  )
  await bob.waitForFunction(
    () => document.querySelector('.tandem-line')?.textContent === 'from the bundle',
    undefined,
    { timeout: 20_000 },
  )
  await ada.close()
  await bob.close()
}

describe('the packages from another project', () => {
  it('pack, install with npm, type-check strictly, co-edit in Node and in bundled pages', async () => {
    mkdirSync(tarballs, { recursive: true })
    await run(
      'pnpm',
      ['-r', '--filter', './packages/*', 'exec', 'pnpm', 'pack', '--pack-destination', tarballs],
      { cwd: rootDir, maxBuffer: 64 * 1024 * 1024 },
    )
    const packed = readdirSync(tarballs).filter((name) => name.endsWith('.tgz'))
    expect(packed.sort()).toEqual(
      [
        'buffer',
        'collab',
        'display',
        'editor',
        'language',
        'protocol',
        'server',
        'text',
        'view',
      ].map((name) => `tandem-${name}-0.1.0.tgz`),
    )

    mkdirSync(project, { recursive: true })
    const dependencies: Record<string, string> = { ...pinned() }
    for (const file of packed) {
      const name = `@tandem/${file.replace(/^tandem-/, '').replace(/-0\.1\.0\.tgz$/, '')}`
      dependencies[name] = `file:${join(tarballs, file)}`
    }
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'outside', private: true, type: 'module', dependencies }, null, 2),
    )
    await run('npm', ['install', '--no-audit', '--no-fund'], {
      cwd: project,
      maxBuffer: 64 * 1024 * 1024,
    })

    // Node: two editors through the packed server's command.
    const bare = await startServer([])
    writeFileSync(join(project, 'coedit.mjs'), NODE_SCRIPT)
    const { stdout } = await run(process.execPath, ['coedit.mjs', `ws://${bare}`], {
      cwd: project,
    })
    expect(stdout.trim()).toBe('co-edited')

    // Types: strict, with every library's declarations checked.
    writeFileSync(join(project, 'typed.ts'), TYPED_FILE)
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2))
    const typed = await run(join(project, 'node_modules/.bin/tsc'), ['-p', '.'], {
      cwd: project,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }))
    expect(typed.stdout).toBe('')

    // esbuild, browser platform, no externals.
    const esbuildOut = join(project, 'esbuild-app')
    mkdirSync(esbuildOut, { recursive: true })
    writeFileSync(join(project, 'page.ts'), PAGE)
    await run(
      join(project, 'node_modules/.bin/esbuild'),
      [
        'page.ts',
        '--bundle',
        '--format=esm',
        '--platform=browser',
        `--outfile=${join(esbuildOut, 'page.js')}`,
      ],
      { cwd: project },
    )
    writeFileSync(join(esbuildOut, 'index.html'), HTML('/page.js'))
    await coEdit(await startServer(['--static', esbuildOut]), 'esbuild')

    // Vite, its defaults.
    const viteRoot = join(project, 'vite-app')
    mkdirSync(viteRoot, { recursive: true })
    writeFileSync(join(viteRoot, 'page.ts'), PAGE)
    writeFileSync(join(viteRoot, 'index.html'), HTML('./page.ts'))
    await run(join(project, 'node_modules/.bin/vite'), ['build', '--logLevel', 'error'], {
      cwd: viteRoot,
    })
    await coEdit(await startServer(['--static', join(viteRoot, 'dist')]), 'vite')
  }, 600_000)
})
