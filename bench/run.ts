/**
 * `pnpm bench`: finds the suites in `bench/suites/*.bench.ts` and `packages/*\/bench/*.bench.ts`,
 * runs them one after another and prints one table of every row to stdout; each suite's
 * detailed table and progress go to stderr as it finishes. Every plot a suite declares is
 * written as SVG.
 *
 *   pnpm bench [--quick] [--filter <text>]... [--json [file]] [--plots <dir>] [--detail] [--list]
 *
 * Exits 1 when a suite or case threw, 2 for a bad command line, 0 otherwise: a missed ratio
 * target is reported in the table and the summary, not turned into a failure.
 */
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { type BenchOptions, DEFAULT_PLOTS_DIR, parseBenchArgs, USAGE, UsageError } from './args.js'
import { gcExposed, isSuite, runSuite, type Suite, type SuiteResult } from './harness.js'
import { plotFileName, renderPlotSvg } from './plot.js'
import { formatRun, formatSuite } from './table.js'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

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
  let options: BenchOptions
  try {
    options = parseBenchArgs(argv)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    process.stderr.write(`${error.message}\n\n${USAGE}`)
    return 2
  }
  if (options.help) {
    process.stdout.write(USAGE)
    return 0
  }
  const { quick, filters } = options
  const started = performance.now()

  const { found, errors } = await loadSuites(discoverSuiteFiles())
  for (const error of errors) process.stderr.write(`bench: ${error}\n`)
  const selected = found.filter((f) => matches(f, filters))
  if (options.list) {
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
  const machine =
    `node ${process.version} · ${process.platform} ${process.arch} · ` +
    `${cpuList.length} CPUs${cpuList[0]?.model ? ` (${cpuList[0].model.trim()})` : ''}`
  const heading =
    `Tandem benchmarks · ${machine} · ${quick ? 'quick' : 'full'}` +
    `${gcExposed ? '' : ' · no --expose-gc (runs are noisier)'}`
  process.stderr.write(`${heading}\n\n`)
  if (!gcExposed) {
    process.stderr.write('bench: run node with --expose-gc so runs can be separated by a GC\n')
  }

  const detail = options.detail ? process.stdout : process.stderr
  const results: SuiteResult[] = []
  for (const { file, suite } of selected) {
    const result = await runSuite(
      suite,
      options.gc === null ? { quick, file } : { quick, file, gc: options.gc },
    )
    results.push(result)
    detail.write(`\n${formatSuite(result)}\n`)
  }
  process.stdout.write(`${heading}\n\n${formatRun(results)}`)
  for (const error of errors) process.stdout.write(`  failed   ${error.split('\n')[0]}\n`)

  const plotsDir =
    options.plotsDir === null
      ? join(REPO_ROOT, DEFAULT_PLOTS_DIR)
      : resolve(process.cwd(), options.plotsDir)
  writePlots(results, plotsDir, `${machine} · ${quick ? 'quick' : 'full'} run`)

  const ok = errors.length === 0 && results.every((r) => r.error === null)
  if (options.json !== null) {
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
    const file = options.json.isDefault
      ? join(REPO_ROOT, options.json.file)
      : resolve(process.cwd(), options.json.file)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, `${JSON.stringify(output, null, 2)}\n`)
    process.stderr.write(`bench: results written to ${shownPath(file)}\n`)
  }
  return ok ? 0 : 1
}

/** Writes every plot of every suite as `<dir>/<name>.svg` and lists the files on stderr. */
function writePlots(results: readonly SuiteResult[], dir: string, machine: string): void {
  const plots = results.flatMap((r) => r.plots)
  if (plots.length === 0) return
  mkdirSync(dir, { recursive: true })
  const written = new Set<string>()
  for (const plot of plots) {
    const file = join(dir, plotFileName(plot.name))
    if (written.has(file)) {
      process.stderr.write(`bench: two plots are named ${plot.name}; the later one is kept\n`)
    }
    written.add(file)
    writeFileSync(file, renderPlotSvg(plot, { machine }))
    process.stderr.write(`bench: plot written to ${shownPath(file)}\n`)
  }
}

/** A path relative to the working directory when it lies beneath it. */
function shownPath(file: string): string {
  const shown = relative(process.cwd(), file)
  return shown.startsWith('..') ? file : shown
}

const code = await main(process.argv.slice(2))
process.exitCode = code
// A suite that leaves a socket or timer open must not keep the process alive.
setTimeout(() => process.exit(code), 1_000).unref()
