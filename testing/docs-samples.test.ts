/**
 * Every code block of the docs is run or checked by a test: ```ts samples belong to a guide
 * of `guides.ts` whose test file declares them, ```sh command lines are checked against what
 * they run (`shell-commands.ts`), and ```text blocks are output, diagrams or configuration.
 * Any other block fails, naming its file and line.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { type FencedBlock, fencedBlocks, isBrowserSample } from './guide-samples.js'
import { GUIDES } from './guides.js'
import { checkShellBlock, pinnedPnpm, shellCommands } from './shell-commands.js'

const rootDir = fileURLToPath(new URL('..', import.meta.url))
/** Generated from the code's doc comments; it has no samples of its own. */
const GENERATED = 'docs/api/reference/'

const markdownUnder = (dir: string): string[] =>
  readdirSync(join(rootDir, dir)).flatMap((name) => {
    const path = `${dir}/${name}`
    if (statSync(join(rootDir, path)).isDirectory()) return markdownUnder(path)
    return name.endsWith('.md') ? [path] : []
  })

/** The docs: README.md, bench/README.md and every guide under docs/. */
const DOCS = ['README.md', 'bench/README.md', ...markdownUnder('docs')].filter(
  (path) => !path.startsWith(GENERATED),
)

const read = (path: string) => readFileSync(join(rootDir, path), 'utf8')

/** Why `block` of `file` is not covered by a test, or null when it is. */
const uncovered = (file: string, block: FencedBlock): string | null => {
  const where = `${file}:${block.line - 1}`
  if (block.lang === 'text' || block.lang === 'sh') return null
  if (block.lang !== 'ts') {
    return `${where}: a \`\`\`${block.lang || '(no language)'} block is run by no test; make it \`\`\`ts (run), \`\`\`sh (checked) or \`\`\`text`
  }
  const spec = GUIDES.find((entry) => entry.guide === file)
  if (spec === undefined) return `${where}: ${file} has samples but is not in testing/guides.ts`
  const [test, call] = isBrowserSample(block)
    ? [spec.browserTest, `describeBrowserGuideSamples('${file}'`]
    : [spec.test, `describeGuideSamples('${file}'`]
  if (test === undefined) return `${where}: no browser test is listed for ${file} in guides.ts`
  if (!read(test).includes(call)) return `${where}: ${test} does not call ${call})`
  return null
}

describe('code blocks of the docs', () => {
  it('finds the docs', () => {
    expect(DOCS).toContain('docs/server.md')
    expect(DOCS.length).toBeGreaterThan(8)
  })

  it('every block is run or checked by a test', () => {
    const problems = DOCS.flatMap((file) =>
      fencedBlocks(read(file)).map((block) => uncovered(file, block)),
    ).filter((problem) => problem !== null)
    expect(problems).toEqual([])
  })

  it('every guide of the registry exists and its test file declares it', () => {
    for (const spec of GUIDES) {
      expect(DOCS, spec.guide).toContain(spec.guide)
      expect(read(spec.test), spec.test).toContain(`describeGuideSamples('${spec.guide}'`)
    }
  })

  it("the README's set-up is two commands on the pinned pnpm", () => {
    const blocks = fencedBlocks(read('README.md')).filter((block) => block.lang === 'sh')
    const setUp = blocks.find((block) => block.name === 'Set up')!
    const commands = shellCommands(setUp.code, setUp.line)
    const lines = new Set(commands.map((command) => command.line))
    expect(lines.size).toBe(2)
    expect(commands.map((command) => command.words.join(' '))).toEqual([
      `npm install -g pnpm@${pinnedPnpm()}`,
      'pnpm install',
      'pnpm start',
      `npm install -g pnpm@${pinnedPnpm()}`,
      'pnpm install',
      'pnpm test',
    ])
  })

  it('the command-line check catches what would be stale', () => {
    const check = (code: string) => checkShellBlock(code, 'x.md', 1)
    expect(check('pnpm bench --quik\n')[0]).toMatch(/x\.md:1: pnpm bench does not accept --quik/)
    expect(check('pnpm bench --filter no-such-suite\n')[0]).toMatch(/no suite file matches/)
    expect(check('pnpm tset\n')[0]).toMatch(/no such script/)
    expect(check('pnpm --filter @tandem/server bulid\n')[0]).toMatch(/no such script/)
    expect(check('pnpm test packages/none.test.ts\n')[0]).toMatch(/no such file/)
    expect(check('NO_SUCH_VARIABLE_X=1 pnpm lint\n')[0]).toMatch(/read nowhere/)
    expect(check('node packages/server/dist/cli.js --prot 1\n')[0]).toMatch(/--prot/)
    expect(check('tandem-server backup --data d\n')[0]).toMatch(/--out is needed/)
    expect(check('tandem-server token --room a --role read --user u\n')[0]).toMatch(/secret/)
    expect(check('npm install -g pnpm@1.0.0\n')[0]).toMatch(/expected npm install -g pnpm@/)
    expect(check('curl http://x\n')[0]).toMatch(/nothing checks the command curl/)
  })

  for (const file of DOCS) {
    const blocks = fencedBlocks(read(file)).filter((block) => block.lang === 'sh')
    if (blocks.length === 0) continue
    describe(`${relative('.', file)} command lines`, () => {
      for (const block of blocks) {
        it(`${block.name} (line ${block.line - 1})`, () => {
          expect(shellCommands(block.code, block.line).length).toBeGreaterThan(0)
          expect(checkShellBlock(block.code, file, block.line)).toEqual([])
        })
      }
    })
  }
})
