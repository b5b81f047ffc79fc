/**
 * Runs every TypeScript sample of a guide in docs/, so a guide cannot drift from the code.
 *
 * Each ```ts block is a complete module that imports the packages by name and states its
 * results with `node:assert`. It is written to `<package>/.docs-samples/` (inside the package
 * that owns the guide, so its dependencies resolve as they would for a user) and imported;
 * every sample is also type-checked with the repository's settings.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const rootDir = join(dirname(fileURLToPath(import.meta.url)), '..')

/** One fenced ```ts block of the guide. */
interface Sample {
  /** The heading the block sits under, numbered when a heading has several blocks. */
  name: string
  code: string
  /** Line of the guide (1-based) where the code starts. */
  line: number
}

/**
 * The ```ts blocks of `markdown`, each named after the nearest heading above it.
 *
 * @example extractSamples('## Hi\n```ts\nx\n```\n') // => [{ name: 'Hi', code: 'x\n', line: 3 }]
 */
export const extractSamples = (markdown: string): Sample[] => {
  const samples: Sample[] = []
  const perHeading = new Map<string, number>()
  let heading = '(before any heading)'
  // The open fence, while inside a code block; `lines` is null for blocks that are not samples.
  let block: { fence: string; line: number; lines: string[] | null } | null = null
  const lines = markdown.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!
    if (block !== null) {
      if (text.trim() !== block.fence) {
        block.lines?.push(text)
        continue
      }
      if (block.lines !== null) {
        const count = (perHeading.get(heading) ?? 0) + 1
        perHeading.set(heading, count)
        const name = count === 1 ? heading : `${heading} (${count})`
        samples.push({ name, code: `${block.lines.join('\n')}\n`, line: block.line })
      }
      block = null
      continue
    }
    const fence = /^(`{3,})(\S*)/.exec(text)
    if (fence !== null) {
      block = { fence: fence[1]!, line: i + 2, lines: fence[2] === 'ts' ? [] : null }
      continue
    }
    const title = /^#{1,6}\s+(.*)$/.exec(text)
    if (title !== null) heading = title[1]!.replace(/`/g, '').trim()
  }
  if (block !== null) throw new Error(`the code block at line ${block.line - 1} is never closed`)
  return samples
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Where a guide lives and which package runs its samples. */
export interface GuideSpec {
  /** The guide, relative to the repository root, e.g. `docs/buffer.md`. */
  readonly guide: string
  /** The package directory, relative to the root, whose dependencies the samples use. */
  readonly packageDir: string
  /** The guide must hold at least this many samples. */
  readonly minSamples: number
}

/**
 * Declares the tests of one guide: it has samples, each runs, and all type-check.
 *
 * @example describeGuideSamples({ guide: 'docs/buffer.md', packageDir: 'packages/buffer', minSamples: 10 })
 */
export function describeGuideSamples(spec: GuideSpec): void {
  const guidePath = join(rootDir, spec.guide)
  const samplesDir = join(rootDir, spec.packageDir, '.docs-samples')
  const guide = readFileSync(guidePath, 'utf8')
  const samples = extractSamples(guide)
  let runDir = ''
  const files = new Map<Sample, string>()

  beforeAll(() => {
    mkdirSync(samplesDir, { recursive: true })
    runDir = mkdtempSync(join(samplesDir, 'run-'))
    samples.forEach((sample, i) => {
      const slug = sample.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')
      const file = join(runDir, `${String(i + 1).padStart(2, '0')}-${slug}.ts`)
      writeFileSync(file, sample.code)
      files.set(sample, file)
    })
  })

  afterAll(() => {
    if (runDir !== '') rmSync(runDir, { recursive: true, force: true })
    try {
      rmdirSync(samplesDir) // only when no other run is using it
    } catch {}
  })

  describe(spec.guide, () => {
    it('has samples, each stating its results with assert', () => {
      expect(samples.length).toBeGreaterThanOrEqual(spec.minSamples)
      for (const sample of samples) {
        expect(sample.code, `${sample.name} (line ${sample.line})`).toMatch(/\bassert\b/)
      }
    })

    for (const sample of samples) {
      it(sample.name, async () => {
        const file = files.get(sample)!
        try {
          await import(/* @vite-ignore */ pathToFileURL(file).href)
        } catch (error) {
          if (error instanceof Error) {
            // Point at the failing line of the guide when the stack names one in the sample.
            const at = new RegExp(`${escapeRegExp(file)}:(\\d+)`).exec(error.stack ?? '')
            const line = at === null ? sample.line : sample.line + Number(at[1]) - 1
            error.message += `\n    in the sample at ${spec.guide}:${line}`
          }
          throw error
        }
      })
    }

    it('samples type-check', () => {
      const config = ts.readConfigFile(join(rootDir, 'tsconfig.base.json'), ts.sys.readFile)
      const { options } = ts.convertCompilerOptionsFromJson(config.config.compilerOptions, rootDir)
      const program = ts.createProgram([...files.values()], { ...options, noEmit: true })
      const problems = ts
        .getPreEmitDiagnostics(program)
        .filter((d) => d.file === undefined || d.file.fileName.startsWith(runDir))
        .map((d) => {
          const message = ts.flattenDiagnosticMessageText(d.messageText, '\n')
          const file = d.file
          if (file === undefined) return message
          const sample = [...files].find(([, path]) => path === file.fileName)![0]
          const { line } = file.getLineAndCharacterOfPosition(d.start ?? 0)
          const where = `${spec.guide}:${sample.line + line} (${sample.name})`
          return `${where}: ${message}`
        })
      expect(problems, relative(rootDir, runDir)).toEqual([])
    })
  })
}
