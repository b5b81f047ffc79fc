/**
 * Runs the ```ts browser samples of a guide in Chromium, each in a page served by a real
 * `TandemServer` on loopback (the page at `/`, the rooms under `/ws/`), so a guide's in-page
 * code cannot drift from the packages either.
 *
 * A sample is bundled with esbuild from the package that owns the guide (packages from
 * their sources), its `node:assert/strict` replaced by `browser-assert.ts`, and imported by a
 * small entry module that records in the page whether it finished or threw. The sample's
 * assertions run in the page; the test fails with the first one that fails, naming the
 * guide's line, and when the page logs an error. Samples are type-checked with the DOM types.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'esbuild'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SqliteStore, StaticSite, TandemServer } from '../packages/server/src/index.js'
import { launchChromium } from './browser.js'
import {
  extractBrowserSamples,
  type Sample,
  typeCheckSamples,
  writeSampleFiles,
} from './guide-samples.js'
import { guideSpec } from './guides.js'

const rootDir = fileURLToPath(new URL('..', import.meta.url))
const BROWSER_ASSERT = fileURLToPath(new URL('browser-assert.ts', import.meta.url))

/** What a sample's entry module leaves in the page once the sample has run. */
interface SampleResult {
  readonly ok: boolean
  readonly error?: string
}

/** The server a sample's page came from, for checks after the sample ran. */
export interface SamplePageServer {
  /** Where stock y-websocket clients find its rooms: `ws://127.0.0.1:<port>/ws`. */
  readonly roomsUrl: string
}

/** What a browser docs test adds to the samples of its guide. */
export interface BrowserSampleOptions {
  /** Runs after a sample passed in its page, e.g. to check what it stored on the server. */
  readonly afterRun?: (server: SamplePageServer, sample: Sample) => Promise<void>
}

/**
 * `node:assert` becomes the in-page asserts. No other Node module is left out: the packages'
 * browser builds import none, and a sample that did would fail to bundle.
 */
const browserModules: Plugin = {
  name: 'browser-modules',
  setup(build) {
    build.onResolve({ filter: /^(node:)?assert(\/strict)?$/ }, () => ({ path: BROWSER_ASSERT }))
  },
}

const entryCode = (sampleFile: string): string => `
const page = globalThis as { sampleResult?: { ok: boolean; error?: string } }
try {
  await import('./${basename(sampleFile)}')
  page.sampleResult = { ok: true }
} catch (error) {
  page.sampleResult = {
    ok: false,
    error: error instanceof Error ? \`\${error.name}: \${error.message}\\n\${error.stack}\` : String(error),
  }
}
`

/** Bundles `entry` (and the sample it imports) with an HTML page into the folder `out`. */
const bundlePage = async (entry: string, out: string): Promise<void> => {
  await build({
    entryPoints: { page: entry },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outdir: out,
    conditions: ['source'],
    plugins: [browserModules],
    logLevel: 'silent',
  })
  writeFileSync(
    join(out, 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>sample</title><link rel="icon" href="data:,"><script type="module" src="/page.js"></script>',
  )
}

/**
 * Declares the browser tests of one guide of the registry (`GUIDES`): it has browser samples,
 * each runs in Chromium against a real server, and all type-check.
 *
 * @example describeBrowserGuideSamples('docs/embedding.md')
 */
export function describeBrowserGuideSamples(
  guide: string,
  options: BrowserSampleOptions = {},
): void {
  const spec = guideSpec(guide)
  const samples = extractBrowserSamples(readFileSync(join(rootDir, spec.guide), 'utf8'))
  let written: ReturnType<typeof writeSampleFiles> | null = null
  let browser: Browser | undefined

  beforeAll(async () => {
    written = writeSampleFiles(spec.packageDir, samples)
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    written?.remove()
  })

  describe(`${spec.guide} in Chromium`, () => {
    it('has browser samples, each stating its results with assert', () => {
      expect(samples.length).toBeGreaterThanOrEqual(spec.minBrowserSamples ?? 1)
      for (const sample of samples) {
        expect(sample.code, `${sample.name} (line ${sample.line})`).toMatch(/\bassert\b/)
      }
    })

    for (const sample of samples) {
      it(sample.name, async () => {
        const file = written!.files.get(sample)!
        const entry = file.replace(/\.ts$/, '.entry.ts')
        writeFileSync(entry, entryCode(file))
        const app = mkdtempSync(join(tmpdir(), 'tandem-sample-page-'))
        const data = mkdtempSync(join(tmpdir(), 'tandem-sample-data-'))
        const store = SqliteStore.open({ file: join(data, 'tandem.sqlite') })
        let server: TandemServer | null = null
        const page = await browser!.newPage()
        try {
          await bundlePage(entry, app)
          server = new TandemServer({ store, site: await StaticSite.open(app) })
          const port = await server.listen(0, '127.0.0.1')
          const errors: string[] = []
          page.on('pageerror', (error) => errors.push(error.message))
          page.on('console', (message) => {
            if (message.type() === 'error') errors.push(message.text())
          })
          await page.goto(`http://127.0.0.1:${port}/`)
          await page.waitForFunction(() => 'sampleResult' in globalThis, null, {
            timeout: 30_000,
          })
          const result = await page.evaluate(
            () => (globalThis as { sampleResult?: SampleResult }).sampleResult!,
          )
          if (!result.ok) {
            const at = /\/page\.js:(\d+)/.exec(result.error ?? '')
            throw new Error(
              `${result.error}\n    in the browser sample at ${spec.guide}:${sample.line}` +
                (at === null ? '' : ` (bundle line ${at[1]})`),
            )
          }
          expect(errors).toEqual([])
          await options.afterRun?.({ roomsUrl: `ws://127.0.0.1:${port}/ws` }, sample)
        } finally {
          await page.close()
          await server?.close()
          await store.close()
          rmSync(entry, { force: true })
          rmSync(app, { recursive: true, force: true })
          rmSync(data, { recursive: true, force: true })
        }
      })
    }

    it('browser samples type-check', () => {
      const lib = ['ES2022', 'DOM', 'DOM.Iterable']
      const problems = typeCheckSamples(spec.guide, written!.files, lib)
      expect(problems, relative(rootDir, written!.dir)).toEqual([])
    })
  })
}
