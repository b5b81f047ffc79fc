/**
 * Runs every TypeScript sample of a guide in docs/, so a guide cannot drift from the code.
 *
 * Each ```ts block is a complete module that imports the packages by name and states its
 * results with `node:assert`. It is written to `<package>/.docs-samples/` (inside the package
 * that owns the guide, so its dependencies resolve as they would for a user) and imported;
 * every sample is also type-checked with the repository's settings. Which package runs a
 * guide, and which test file declares it, is listed in `guides.ts`. A block fenced
 * ```ts browser runs in Chromium instead (`browser-samples.ts`); one fenced
 * ```ts needs=postgres,redis runs when the test can provide those services.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { guideSpec } from './guides.js'

const rootDir = join(dirname(fileURLToPath(import.meta.url)), '..')

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** One fenced code block of a markdown file. */
export interface FencedBlock {
  /** The language, the first word of the fence's info string (`''` when there is none). */
  lang: string
  /** The other words of the info string, e.g. `browser` or `needs=postgres,redis`. */
  attributes: string[]
  /** The heading the block sits under, numbered when a heading has several blocks of its kind. */
  name: string
  code: string
  /** Line of the file (1-based) where the code starts; the fence is the line before. */
  line: number
}

/** A sample of a guide: a ```ts block. */
export type Sample = FencedBlock

/**
 * Every fenced code block of `markdown`, each named after the nearest heading above it
 * (numbered per language and attributes when a heading has several).
 *
 * @example fencedBlocks('## Hi\n```sh\nls\n```\n') // => [{ lang: 'sh', attributes: [], name: 'Hi', code: 'ls\n', line: 3 }]
 */
export const fencedBlocks = (markdown: string): FencedBlock[] => {
  const blocks: FencedBlock[] = []
  const perHeading = new Map<string, number>()
  let heading = '(before any heading)'
  // The open fence, while inside a code block.
  let block: { fence: string; info: string[]; line: number; lines: string[] } | null = null
  const lines = markdown.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!
    if (block !== null) {
      if (text.trim() !== block.fence) {
        block.lines.push(text)
        continue
      }
      const [lang = '', ...attributes] = block.info
      const kind = `${heading}\u0000${block.info.join(' ')}`
      const count = (perHeading.get(kind) ?? 0) + 1
      perHeading.set(kind, count)
      const name = count === 1 ? heading : `${heading} (${count})`
      blocks.push({ lang, attributes, name, code: `${block.lines.join('\n')}\n`, line: block.line })
      block = null
      continue
    }
    const fence = /^(`{3,})(.*)$/.exec(text)
    if (fence !== null) {
      const info = fence[2]!
        .trim()
        .split(/\s+/)
        .filter((word) => word !== '')
      block = { fence: fence[1]!, info, line: i + 2, lines: [] }
      continue
    }
    const title = /^#{1,6}\s+(.*)$/.exec(text)
    if (title !== null) heading = title[1]!.replace(/`/g, '').trim()
  }
  if (block !== null) throw new Error(`the code block at line ${block.line - 1} is never closed`)
  return blocks
}

/** Whether `block` is a sample run in Chromium (```ts browser) rather than in Node. */
export const isBrowserSample = (block: FencedBlock): boolean =>
  block.lang === 'ts' && block.attributes.includes('browser')

/** The services a sample says it needs (`needs=postgres,redis`), none when it says nothing. */
export const neededBy = (block: FencedBlock): string[] =>
  block.attributes
    .filter((word) => word.startsWith('needs='))
    .flatMap((word) => word.slice('needs='.length).split(','))
    .filter((name) => name !== '')

/**
 * The ```ts blocks of `markdown` that run in Node, each named after the nearest heading above it.
 *
 * @example extractSamples('## Hi\n```ts\nx\n```\n') // => [{ name: 'Hi', code: 'x\n', line: 3, ... }]
 */
export const extractSamples = (markdown: string): Sample[] =>
  fencedBlocks(markdown).filter((block) => block.lang === 'ts' && !isBrowserSample(block))

/** The ```ts browser blocks of `markdown`, run in a page by `describeBrowserGuideSamples`. */
export const extractBrowserSamples = (markdown: string): Sample[] =>
  fencedBlocks(markdown).filter(isBrowserSample)

/**
 * Where the samples of one run are written: files `run-<id>-NN-<slug>.ts` directly in
 * `<packageDir>/.docs-samples/`, one folder below the package, so a sample's relative
 * imports resolve as from any of the package's folders (`../src/index.js`).
 */
export const writeSampleFiles = (
  packageDir: string,
  samples: readonly Sample[],
): { dir: string; files: Map<Sample, string>; remove(): void } => {
  const dir = join(rootDir, packageDir, '.docs-samples')
  mkdirSync(dir, { recursive: true })
  const run = `run-${process.pid}-${randomBytes(4).toString('hex')}`
  const files = new Map<Sample, string>()
  samples.forEach((sample, i) => {
    const slug = sample.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')
    const file = join(dir, `${run}-${String(i + 1).padStart(2, '0')}-${slug}.ts`)
    writeFileSync(file, sample.code)
    files.set(sample, file)
  })
  return {
    dir,
    files,
    remove() {
      for (const name of readdirSync(dir)) {
        if (name.startsWith(`${run}-`)) rmSync(join(dir, name), { force: true })
      }
      try {
        rmdirSync(dir) // only when no other run is using it
      } catch {}
    },
  }
}

/**
 * Type-checks the sample files with the repository's settings (plus `lib` when given);
 * resolves with one line per problem, naming the guide's line.
 */
export const typeCheckSamples = (
  guide: string,
  files: ReadonlyMap<Sample, string>,
  lib?: readonly string[],
): string[] => {
  const config = ts.readConfigFile(join(rootDir, 'tsconfig.base.json'), ts.sys.readFile)
  const json = { ...config.config.compilerOptions, ...(lib ? { lib } : {}) }
  const { options } = ts.convertCompilerOptionsFromJson(json, rootDir)
  const program = ts.createProgram([...files.values()], { ...options, noEmit: true })
  const ours = new Set(files.values())
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file === undefined || ours.has(d.file.fileName))
    .map((d) => {
      const message = ts.flattenDiagnosticMessageText(d.messageText, '\n')
      const file = d.file
      if (file === undefined) return message
      const sample = [...files].find(([, path]) => path === file.fileName)![0]
      const { line } = file.getLineAndCharacterOfPosition(d.start ?? 0)
      return `${guide}:${sample.line + line} (${sample.name}): ${message}`
    })
}

/**
 * Adds the guide's line to `error` when its stack names a line of the sample's `file`.
 */
export const pointAtGuide = (error: unknown, file: string, guide: string, sample: Sample) => {
  if (!(error instanceof Error)) return
  const at = new RegExp(`${escapeRegExp(file)}:(\\d+)`).exec(error.stack ?? '')
  const line = at === null ? sample.line : sample.line + Number(at[1]) - 1
  error.message += `\n    in the sample at ${guide}:${line}`
}

/** What a docs test adds to the samples of its guide. */
export interface GuideSampleOptions {
  /**
   * Why a sample needing `services` (its `needs=...`) cannot run here, or null when it can;
   * a sample that needs services fails when this is not given.
   */
  readonly services?: (services: readonly string[]) => Promise<string | null>
  /** Runs after a sample is imported, with its module: e.g. to run what it exports. */
  readonly afterImport?: (module: Record<string, unknown>, sample: Sample) => Promise<void>
}

/**
 * Declares the tests of one guide of the registry (`GUIDES`): it has samples, each runs, and
 * all type-check.
 *
 * @example describeGuideSamples('docs/buffer.md')
 */
export function describeGuideSamples(guide: string, options: GuideSampleOptions = {}): void {
  const spec = guideSpec(guide)
  const samples = extractSamples(readFileSync(join(rootDir, spec.guide), 'utf8'))
  let written: ReturnType<typeof writeSampleFiles> | null = null

  beforeAll(() => {
    written = writeSampleFiles(spec.packageDir, samples)
  })
  afterAll(() => written?.remove())

  describe(spec.guide, () => {
    it('has samples, each stating its results with assert', () => {
      expect(samples.length).toBeGreaterThanOrEqual(spec.minSamples)
      for (const sample of samples) {
        expect(sample.code, `${sample.name} (line ${sample.line})`).toMatch(/\bassert\b/)
      }
    })

    for (const sample of samples) {
      it(sample.name, async (context) => {
        const needs = neededBy(sample)
        if (needs.length > 0) {
          if (options.services === undefined) {
            throw new Error(`${spec.guide}:${sample.line} needs ${needs.join(', ')}, never given`)
          }
          const reason = await options.services(needs)
          if (reason !== null) return context.skip(reason)
        }
        const file = written!.files.get(sample)!
        try {
          const module = await import(/* @vite-ignore */ pathToFileURL(file).href)
          await options.afterImport?.(module, sample)
        } catch (error) {
          pointAtGuide(error, file, spec.guide, sample)
          throw error
        }
      })
    }

    it('samples type-check', () => {
      const problems = typeCheckSamples(spec.guide, written!.files)
      expect(problems, relative(rootDir, written!.dir)).toEqual([])
    })
  })
}
