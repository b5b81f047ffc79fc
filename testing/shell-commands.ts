/**
 * Checks the command lines of the docs' ```sh blocks against what they run: pnpm scripts of
 * the workspace, the flags `pnpm bench` and `tandem-server` accept, paths given to
 * `pnpm test`, environment variables the code reads, and the flags of PostgreSQL's tools.
 * Commands cheap and safe to run (`tandem-server token`) are run.
 */
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseBenchArgs } from '../bench/args.js'
import { tokenCommand } from '../packages/server/src/auth/token-command.js'
import { verifyToken } from '../packages/server/src/auth/tokens.js'
import { parseBackupArgs } from '../packages/server/src/backup-command.js'
import { parseServerArgs } from '../packages/server/src/cli-options.js'

const rootDir = fileURLToPath(new URL('..', import.meta.url))

/** One command of a block: its environment assignments, its words, and its line in the file. */
export interface ShellCommand {
  readonly assignments: ReadonlyMap<string, string>
  readonly words: readonly string[]
  readonly line: number
}

/** The words of `text` as a POSIX shell splits them (quotes removed, `$(...)` kept whole). */
const splitWords = (text: string): string[] => {
  const words: string[] = []
  let word: string | null = null
  let i = 0
  const add = (part: string) => {
    word = (word ?? '') + part
  }
  while (i < text.length) {
    const c = text[i]!
    if (/\s/.test(c)) {
      if (word !== null) words.push(word)
      word = null
      i++
    } else if (c === '#' && word === null) {
      break
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1)
      add(text.slice(i + 1, end))
      i = end + 1
    } else if (c === '"') {
      const end = text.indexOf('"', i + 1)
      add(text.slice(i + 1, end))
      i = end + 1
    } else if (c === '$' && text[i + 1] === '(') {
      let depth = 0
      let j = i + 1
      for (; j < text.length; j++) {
        if (text[j] === '(') depth++
        if (text[j] === ')' && --depth === 0) break
      }
      add(text.slice(i, j + 1))
      i = j + 1
    } else if (c === '&' && text[i + 1] === '&' && word === null) {
      words.push('&&')
      i += 2
    } else {
      add(c)
      i++
    }
  }
  if (word !== null) words.push(word)
  return words
}

/**
 * The commands of a ```sh block whose code starts at `firstLine` of its file: lines joined
 * at a trailing `\`, comments dropped, `a && b` split in two.
 *
 * @example shellCommands('FOO=1 pnpm test x # why\n', 10) // => [{ assignments: FOO=1, words: ['pnpm', 'test', 'x'], line: 10 }]
 */
export const shellCommands = (code: string, firstLine: number): ShellCommand[] => {
  const commands: ShellCommand[] = []
  const lines = code.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = firstLine + i
    let text = lines[i]!
    while (text.endsWith('\\') && i + 1 < lines.length) text = text.slice(0, -1) + lines[++i]
    let words: string[] = []
    for (const word of [...splitWords(text), '&&']) {
      if (word !== '&&') {
        words.push(word)
        continue
      }
      const assignments = new Map<string, string>()
      while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) {
        const [name, ...value] = words.shift()!.split('=')
        assignments.set(name!, value.join('='))
      }
      if (words.length > 0 || assignments.size > 0) commands.push({ assignments, words, line })
      words = []
    }
  }
  return commands
}

/** Every TypeScript source of the repository, to look environment variables up in. */
const sourceText = (() => {
  let text: string | null = null
  const walk = (dir: string, out: string[]) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name.startsWith('.') || name === 'dist') continue
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path, out)
      else if (name.endsWith('.ts') || name.endsWith('.sh')) out.push(readFileSync(path, 'utf8'))
    }
  }
  return () => {
    if (text === null) {
      const files: string[] = []
      for (const dir of ['packages', 'apps', 'bench', 'scripts']) walk(join(rootDir, dir), files)
      text = files.join('\n')
    }
    return text
  }
})()

const readJson = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(rootDir, path), 'utf8')) as Record<string, unknown>

/** The workspace's packages: name to directory (relative) and scripts. */
const workspacePackages = (): Map<string, { dir: string; scripts: Record<string, string> }> => {
  const packages = new Map<string, { dir: string; scripts: Record<string, string> }>()
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(rootDir, group))) {
      const dir = `${group}/${name}`
      if (!existsSync(join(rootDir, dir, 'package.json'))) continue
      const json = readJson(`${dir}/package.json`)
      packages.set(json.name as string, {
        dir,
        scripts: (json.scripts ?? {}) as Record<string, string>,
      })
    }
  }
  return packages
}

/** The version of pnpm the root package.json pins (`packageManager`). */
export const pinnedPnpm = (): string =>
  /^pnpm@(.+)$/.exec(readJson('package.json').packageManager as string)![1]!

const rootScripts = (): Record<string, string> =>
  readJson('package.json').scripts as Record<string, string>

/** What a bench flag value may be, past what `parseArgs` checks. */
const checkBench = (args: readonly string[]): string[] => {
  let parsed: ReturnType<typeof parseBenchArgs>
  try {
    parsed = parseBenchArgs(args)
  } catch (error) {
    return [`pnpm bench does not accept ${args.join(' ')}: ${(error as Error).message}`]
  }
  const problems: string[] = []
  const suiteFiles = [
    'bench/suites',
    ...readdirSync(join(rootDir, 'packages')).map((p) => `packages/${p}/bench`),
  ]
    .filter((dir) => existsSync(join(rootDir, dir)))
    .flatMap((dir) => readdirSync(join(rootDir, dir)).map((name) => `${dir}/${name}`))
    .filter((file) => file.endsWith('.bench.ts'))
  for (const filter of parsed.filters) {
    if (!suiteFiles.some((file) => file.includes(filter.toLowerCase()))) {
      problems.push(`pnpm bench: no suite file matches the filter "${filter}"`)
    }
  }
  return problems
}

/** Checks `pnpm <args>`. */
const checkPnpm = (args: readonly string[], env: Record<string, string>): string[] => {
  const [first, ...rest] = args
  // The server's command, linked into the root by the workspace (`pnpm tandem-server` runs it
  // as `pnpm exec tandem-server` does).
  if (first === 'tandem-server') return [...checkServerBin(), ...checkServerCli(rest, env)]
  if (first === 'exec' && rest[0] === 'tandem-server') {
    return [...checkServerBin(), ...checkServerCli(rest.slice(1), env)]
  }
  if (first === 'install') return rest.length === 0 ? [] : [`pnpm install takes no arguments here`]
  if (first === '-r') return checkPack(rest)
  if (first === '--filter') {
    const [name, script] = rest
    const found = workspacePackages().get(name ?? '')
    if (found === undefined) return [`pnpm --filter ${name}: no workspace package has that name`]
    if (script === undefined || !(script in found.scripts)) {
      return [`pnpm --filter ${name} ${script}: ${found.dir}/package.json has no such script`]
    }
    return []
  }
  if (first === undefined || !(first in rootScripts())) {
    return [`pnpm ${first}: the root package.json has no such script`]
  }
  if (first === 'bench') return checkBench(rest)
  if (first === 'test') {
    return rest
      .filter((path) => !existsSync(join(rootDir, path)))
      .map((path) => `pnpm test ${path}: no such file`)
  }
  return rest.length === 0 ? [] : [`pnpm ${first} is given arguments it does not take`]
}

/** Expands the `$(...)` the docs use: `openssl rand -base64 N` gives N random bytes. */
const expand = (value: string): string =>
  value.replace(/\$\(openssl rand -base64 (\d+)\)/g, (_all, bytes: string) =>
    randomBytes(Number(bytes)).toString('base64'),
  )

/**
 * Checks that the server package's `tandem-server` bin is the launcher in the repository,
 * which runs `dist/cli.js` once the package is installed.
 */
const checkServerBin = (): string[] => {
  const bin = (readJson('packages/server/package.json').bin as Record<string, string>)[
    'tandem-server'
  ]
  if (bin === undefined) return ['packages/server/package.json has no tandem-server bin']
  const launcher = join(rootDir, 'packages/server', bin)
  if (!existsSync(launcher)) return [`tandem-server is ${bin}, which does not exist`]
  return readFileSync(launcher, 'utf8').includes('../dist/cli.js')
    ? []
    : [`tandem-server (${bin}) does not run dist/cli.js`]
}

/** `pnpm -r --filter ./packages/* exec pnpm pack --pack-destination DIR`: packs every package. */
const checkPack = (args: readonly string[]): string[] => {
  const expected = ['--filter', './packages/*', 'exec', 'pnpm', 'pack', '--pack-destination']
  const same = expected.every((arg, i) => args[i] === arg) && args.length === expected.length + 1
  return same ? [] : [`pnpm -r ${args.join(' ')}: expected pnpm -r ${expected.join(' ')} DIR`]
}

/** The packages a project installs beside Tandem's, as its peer dependencies and `ws`. */
const COMPANIONS = new Set(['yjs', 'y-protocols', 'lib0', 'ws'])

/**
 * `npm install <tarballs and companions>`: every tarball is one `pnpm pack` makes of a
 * workspace package (`tandem-<dir>-<version>.tgz`), every other name a companion.
 */
const checkNpmInstall = (args: readonly string[]): string[] => {
  const problems: string[] = []
  const packages = new Map<string, string>()
  for (const dir of readdirSync(join(rootDir, 'packages'))) {
    const manifest = join(rootDir, 'packages', dir, 'package.json')
    if (!existsSync(manifest)) continue
    const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as {
      name: string
      version: string
    }
    packages.set(`${name.replace('@', '').replace('/', '-')}-${version}.tgz`, name)
  }
  for (const arg of args) {
    if (arg.endsWith('.tgz')) {
      const file = arg.split('/').pop() ?? ''
      if (!packages.has(file)) problems.push(`npm install ${arg}: pnpm pack makes no such tarball`)
    } else if (!COMPANIONS.has(arg)) {
      problems.push(`npm install ${arg}: not a companion of the packages`)
    }
  }
  return problems
}

/** The esbuild flags the docs may use. */
const ESBUILD_FLAGS =
  /^--(bundle|minify|sourcemap|format=(esm|iife|cjs)|platform=(browser|node|neutral)|outdir=\S+|outfile=\S+|conditions=\S+|target=\S+)$/

/** Checks `npx esbuild <entry> <flags>`: esbuild is installed here, and every flag exists. */
const checkEsbuild = (args: readonly string[]): string[] => {
  const problems: string[] = []
  const root = readJson('package.json') as { devDependencies?: Record<string, string> }
  if (root.devDependencies?.esbuild === undefined) problems.push('esbuild is not a dev dependency')
  const entries = args.filter((arg) => !arg.startsWith('-'))
  if (entries.length !== 1)
    problems.push(`npx esbuild: expected one entry point, got ${entries.length}`)
  for (const flag of args.filter((arg) => arg.startsWith('-'))) {
    if (!ESBUILD_FLAGS.test(flag)) problems.push(`npx esbuild: unknown flag ${flag}`)
  }
  return problems
}

/** Checks `tandem-server <args>`, running the `token` command. */
const checkServerCli = (args: readonly string[], env: Record<string, string>): string[] => {
  const [command, ...rest] = args
  const shown = `tandem-server ${args.join(' ')}`
  try {
    if (command === 'token') {
      const token = tokenCommand(rest, env)
      const secret = rest.includes('--secret')
        ? rest[rest.indexOf('--secret') + 1]!
        : env.TANDEM_AUTH_SECRET!
      verifyToken(token, secret)
    } else if (command === 'backup') {
      parseBackupArgs(rest)
    } else {
      parseServerArgs(args, env)
    }
    return []
  } catch (error) {
    return [`${shown}: ${(error as Error).message}`]
  }
}

/** Checks `pg_dump` or `pg_restore`: every long flag is one its `--help` lists. */
const checkPostgresTool = (tool: string, args: readonly string[]): string[] => {
  let help: string
  try {
    help = execFileSync(tool, ['--help'], { encoding: 'utf8' })
  } catch {
    console.warn(`Not checking the ${tool} flags of the docs: ${tool} is not installed`)
    return []
  }
  return args
    .filter((arg) => arg.startsWith('--'))
    .map((arg) => arg.split('=')[0]!)
    .filter((flag) => !new RegExp(`\\s${flag}[=\\s,]`).test(help))
    .map((flag) => `${tool} has no flag ${flag}`)
}

/**
 * What is wrong with the commands of a ```sh block (none when every line checks out); each
 * problem names the line of `file`. Variables exported by a line hold for the lines below.
 *
 * @example await checkShellBlock('pnpm lint\n', 'README.md', 30) // => []
 */
export const checkShellBlock = (code: string, file: string, firstLine: number): string[] => {
  const env: Record<string, string> = {}
  const problems: string[] = []
  for (const command of shellCommands(code, firstLine)) {
    const at = (problem: string) => problems.push(`${file}:${command.line}: ${problem}`)
    const assignments = new Map(command.assignments)
    let [program, ...args] = command.words
    const exported = program === 'export'
    if (exported) {
      for (const word of args) {
        const [name, ...value] = word.split('=')
        assignments.set(name!, value.join('='))
      }
      program = undefined
      args = []
    }
    for (const [name, value] of assignments) {
      if (!new RegExp(`\\b${name}\\b`).test(sourceText())) {
        at(`the environment variable ${name} is read nowhere in the code`)
      }
      if (exported) env[name] = expand(value)
    }
    const commandEnv = { ...env, ...Object.fromEntries(assignments) }
    if (program === undefined) continue
    if (program === 'pnpm') {
      checkPnpm(args, commandEnv).forEach(at)
    } else if (program === 'npm' && args[0] === 'install' && args[1] !== '-g') {
      checkNpmInstall(args.slice(1)).forEach(at)
    } else if (program === 'npm') {
      const version = /^pnpm@(.+)$/.exec(args[2] ?? '')?.[1]
      if (
        args[0] !== 'install' ||
        args[1] !== '-g' ||
        version !== pinnedPnpm() ||
        args.length !== 3
      ) {
        at(`npm ${args.join(' ')}: expected npm install -g pnpm@${pinnedPnpm()} (package.json)`)
      }
    } else if (program === 'node' && args[0] === 'packages/server/dist/cli.js') {
      // The compiled command, after `pnpm build`: what the package's bin runs once installed.
      checkServerBin().forEach(at)
      checkServerCli(args.slice(1), commandEnv).forEach(at)
    } else if (program === 'tandem-server') {
      checkServerCli(args, commandEnv).forEach(at)
    } else if (program === 'npx' && args[0] === 'esbuild') {
      checkEsbuild(args.slice(1)).forEach(at)
    } else if (program === 'pg_dump' || program === 'pg_restore') {
      checkPostgresTool(program, args).forEach(at)
    } else {
      at(`nothing checks the command ${program}: add a check to testing/shell-commands.ts`)
    }
  }
  return problems
}
