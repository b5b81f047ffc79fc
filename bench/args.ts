/**
 * The command line of `pnpm bench`, parsed into options without touching the file system.
 */
import { parseArgs } from 'node:util'
import type { GcMode } from './harness.js'

/** Where `--json` without a file writes, relative to the repository root. */
export const DEFAULT_JSON_FILE = '.bench-results/bench.json'
/** Where plots go without `--plots`, relative to the repository root. */
export const DEFAULT_PLOTS_DIR = '.bench-results'

/** The help text, also printed under a usage error. */
export const USAGE = `usage: pnpm bench [options] [filter...]

  --quick            small sizes and few runs (CI); finishes in seconds
  --filter <text>    run only suites whose name or file contains <text> (repeatable)
  --json [file]      also write all results as JSON, to ${DEFAULT_JSON_FILE} without a file
                     (a file name must end in .json or contain a /; --json=<file> always works)
  --plots <dir>      write the plots' SVG files to <dir> instead of ${DEFAULT_PLOTS_DIR}
  --detail           print every suite's detailed table to stdout, not to stderr
  --gc <mode>        collection before each timed run: minor (default), major or none
  --list             list the suites and exit
  -h, --help         show this help
`

/** What one `pnpm bench` invocation asks for. */
export interface BenchOptions {
  readonly quick: boolean
  /** From `--filter` and bare words, in order. */
  readonly filters: readonly string[]
  /** The JSON file as given (relative to the working directory), the default one, or null. */
  readonly json: { readonly file: string; readonly isDefault: boolean } | null
  /** The plot directory as given, or null for {@link DEFAULT_PLOTS_DIR}. */
  readonly plotsDir: string | null
  readonly detail: boolean
  /** Null leaves each suite's own mode. */
  readonly gc: GcMode | null
  readonly list: boolean
  readonly help: boolean
}

/** A bad command line; the message says what is wrong. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

/**
 * Parses `pnpm bench` arguments. `--json` takes the next argument as its file only when it
 * looks like one (ends in `.json` or contains a `/`), so `--json --quick` and `--json ytext`
 * write the default file: `['--json', 'out/run.json']` → json file `out/run.json`.
 */
export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  // `pnpm bench -- --quick` passes the separator through; it means nothing here.
  const args = argv.filter((a) => a !== '--')
  let json: BenchOptions['json'] = null
  const rest: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === '--json') {
      const next = args[i + 1]
      if (next !== undefined && looksLikeJsonFile(next)) {
        json = { file: next, isDefault: false }
        i++
      } else {
        json = { file: DEFAULT_JSON_FILE, isDefault: true }
      }
    } else if (arg.startsWith('--json=')) {
      const file = arg.slice('--json='.length)
      if (file === '') throw new UsageError('bench: --json= needs a file name')
      json = { file, isDefault: false }
    } else {
      rest.push(arg)
    }
  }
  let parsed: ReturnType<typeof parseRest>
  try {
    parsed = parseRest(rest)
  } catch (error) {
    throw new UsageError(`bench: ${error instanceof Error ? error.message : String(error)}`)
  }
  const { values, positionals } = parsed
  const gc = values.gc ?? null
  if (gc !== null && gc !== 'minor' && gc !== 'major' && gc !== 'none') {
    throw new UsageError('bench: --gc must be minor, major or none')
  }
  if (values.plots === '') throw new UsageError('bench: --plots needs a directory')
  return {
    quick: values.quick === true,
    filters: [...(values.filter ?? []), ...positionals],
    json,
    plotsDir: values.plots ?? null,
    detail: values.detail === true,
    gc,
    list: values.list === true,
    help: values.help === true,
  }
}

function looksLikeJsonFile(arg: string): boolean {
  return !arg.startsWith('-') && (arg.endsWith('.json') || arg.includes('/'))
}

function parseRest(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      quick: { type: 'boolean' },
      filter: { type: 'string', multiple: true },
      plots: { type: 'string' },
      detail: { type: 'boolean' },
      gc: { type: 'string' },
      list: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}
