/**
 * `pnpm bench`: finds the suites in `bench/suites/*.bench.ts` and `packages/*\/bench/*.bench.ts`,
 * runs them one after another, prints a table per suite to stdout and progress to stderr.
 *
 *   pnpm bench [--quick] [--filter <text>]... [--json <file>] [--list]
 *
 * Exits 1 when a suite or case threw (or a flag is wrong), 0 otherwise: a missed ratio target
 * is reported in the table and the summary, not turned into a failure.
 */
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { gcExposed, isSuite, runSuite, type Suite, type SuiteResult } from './harness.js'
import { formatSuite, formatSummary } from './table.js'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

const USAGE = `usage: pnpm bench [options] [filter...]

  --quick            small sizes and few runs (CI); finishes in seconds
  --filter <text>    run only suites whose name or file contains <text> (repeatable)
  --json <file>      also write all results as JSON to <file>
  --gc <mode>        collection before each timed run: minor (default), major or none
  --list             list the suites and exit
  -h, --help         show this help
`

/** Machine-readable results of one `pnpm bench` run, as written by `--json`. */
interface BenchResults {
  readonly date: string
  readonly node: string
  readonly platform: string
  readonly cpus: number
  readonly cpuModel: string
  readonly quick: boolean
  readonly gcExposed: boolean
  readonly filters: readonly string[]
  readonly durationMs: number
  /** False when a suite or case threw. */
  readonly ok: boolean
  readonly suites: readonly SuiteResult[]
}

interface Found {
  readonly file: string
  readonly suite: Suite
}

/** Suite files, root suites first, each list sorted. */
function discoverSuiteFiles(root: string = REPO_ROOT): string[] {
  const files = benchFilesIn(join(root, 'bench', 'suites'))
  const packages = join(root, 'packages')
  if (existsSync(packages)) {
    for (const name of readdirSync(packages).sort()) {
      const dir = join(packages, name, 'bench')
      if (existsSync(dir) && statSync(dir).isDirectory()) files.push(...benchFilesIn(dir))
    }
  }
  return files
}

function benchFilesIn(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((name) => name.endsWith('.bench.ts'))
    .sort()
    .map((name) => join(dir, name))
}

async function loadSuites(files: readonly string[]): Promise<{ found: Found[]; errors: string[] }> {
  const found: Found[] = []
  const errors: string[] = []
  for (const file of files) {
    const shown = relative(REPO_ROOT, file)
    try {
      const module = (await import(pathToFileURL(file).href)) as { default?: unknown }
      if (!isSuite(module.default)) {
        errors.push(`${shown}: the default export is not a suite made by defineSuite()`)
        continue
      }
      found.push({ file: shown, suite: module.default })
    } catch (error) {
      errors.push(
        `${shown}: failed to load: ${error instanceof Error ? error.stack : String(error)}`,
      )
    }
  }
  return { found, errors }
}

function matches(found: Found, filters: readonly string[]): boolean {
  if (filters.length === 0) return true
  const name = found.suite.name.toLowerCase()
  const file = found.file.toLowerCase()
  return filters.some((f) => name.includes(f.toLowerCase()) || file.includes(f.toLowerCase()))
}

async function main(argv: readonly string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(argv)
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`)
    return 2
  }
  const { values, positionals } = parsed
  if (values.help === true) {
    process.stdout.write(USAGE)
    return 0
  }
  const quick = values.quick === true
  const gcMode = values.gc
  if (gcMode !== undefined && gcMode !== 'minor' && gcMode !== 'major' && gcMode !== 'none') {
    process.stderr.write(`bench: --gc must be minor, major or none\n\n${USAGE}`)
    return 2
  }
  const filters = [...(values.filter ?? []), ...positionals]
  const started = performance.now()

  const { found, errors } = await loadSuites(discoverSuiteFiles())
  for (const error of errors) process.stderr.write(`bench: ${error}\n`)
  const selected = found.filter((f) => matches(f, filters))
  if (values.list === true) {
    for (const f of selected) {
      process.stdout.write(
        `${f.suite.name}  ${f.file}${f.suite.description ? `  ${f.suite.description}` : ''}\n`,
      )
    }
    return errors.length > 0 ? 1 : 0
  }
  if (selected.length === 0) {
    process.stderr.write(
      `bench: no suite matches ${filters.map((f) => JSON.stringify(f)).join(', ')}\n`,
    )
    return errors.length > 0 ? 1 : 2
  }

  const cpuList = cpus()
  process.stdout.write(
    `Tandem benchmarks · node ${process.version} · ${process.platform} ${process.arch} · ` +
      `${cpuList.length} CPUs · ${quick ? 'quick' : 'full'}` +
      `${gcExposed ? '' : ' · no --expose-gc (runs are noisier)'}\n\n`,
  )
  if (!gcExposed) {
    process.stderr.write('bench: run node with --expose-gc so runs can be separated by a GC\n')
  }

  const results: SuiteResult[] = []
  for (const { file, suite } of selected) {
    const result = await runSuite(
      suite,
      gcMode === undefined ? { quick, file } : { quick, file, gc: gcMode },
    )
    results.push(result)
    process.stdout.write(`${formatSuite(result)}\n`)
  }
  process.stdout.write(formatSummary(results))
  for (const error of errors) process.stdout.write(`  failed   ${error.split('\n')[0]}\n`)

  const ok = errors.length === 0 && results.every((r) => r.error === null)
  if (values.json !== undefined) {
    const output: BenchResults = {
      date: new Date().toISOString(),
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      cpus: cpuList.length,
      cpuModel: cpuList[0]?.model ?? '',
      quick,
      gcExposed,
      filters,
      durationMs: performance.now() - started,
      ok,
      suites: results,
    }
    const file = resolve(process.cwd(), values.json)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, `${JSON.stringify(output, null, 2)}\n`)
    process.stderr.write(`bench: results written to ${file}\n`)
  }
  return ok ? 0 : 1
}

function parse(argv: readonly string[]) {
  return parseArgs({
    // `pnpm bench -- --quick` passes the separator through; it means nothing here.
    args: argv.filter((a) => a !== '--'),
    allowPositionals: true,
    options: {
      quick: { type: 'boolean' },
      filter: { type: 'string', multiple: true },
      json: { type: 'string' },
      gc: { type: 'string' },
      list: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}

const code = await main(process.argv.slice(2))
process.exitCode = code
// A suite that leaves a socket or timer open must not keep the process alive.
setTimeout(() => process.exit(code), 1_000).unref()
