/**
 * The API reference in docs/api/reference is generated from the doc comments by TypeDoc
 * (`pnpm docs:api`, configured by typedoc.json). This test generates it again into a temporary
 * directory and fails when the committed copy differs, or when TypeDoc warns: an export without
 * a doc comment, a broken `{@link}`, or a type the public API uses that no entry point exports.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Application, Logger, LogLevel } from 'typedoc'
import { afterAll, describe, expect, it } from 'vitest'

const rootDir = join(dirname(fileURLToPath(import.meta.url)), '../../..')
const referenceDir = join(rootDir, 'docs/api/reference')
const PACKAGES = ['buffer', 'collab', 'display', 'editor', 'language', 'server', 'text', 'view']

/** Keeps every warning and error TypeDoc reports, instead of printing them. */
class CollectingLogger extends Logger {
  readonly messages: string[] = []

  override log(message: string, level: LogLevel): void {
    super.log(message, level)
    if (level >= LogLevel.Warn) this.messages.push(message)
  }
}

/** Every file under `dir`, as paths relative to it, sorted. */
const listFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort()

/** The warnings of `notExported`, checked once per package: TypeDoc checks only one package. */
const validateExportsPerPackage = (app: Application, project: { packageName?: string }) => {
  const validation = app.options.getValue('validation')
  const ownName = project.packageName
  app.options.setValue('validation', {
    notExported: true,
    notDocumented: false,
    invalidLink: false,
    invalidPath: false,
    rewrittenLink: false,
    unusedMergeModuleWith: false,
  })
  for (const name of PACKAGES) {
    project.packageName = `@tandem/${name}`
    app.validate(project as Parameters<Application['validate']>[0])
  }
  project.packageName = ownName
  app.options.setValue('validation', validation)
}

describe('API reference', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'tandem-api-reference-'))
  afterAll(() => rmSync(outDir, { recursive: true, force: true }))

  it('is generated without warnings and matches docs/api/reference', {
    timeout: 300_000,
  }, async () => {
    const app = await Application.bootstrapWithPlugins({
      options: join(rootDir, 'typedoc.json'),
      out: outDir,
    })
    const logger = new CollectingLogger()
    logger.level = LogLevel.Warn
    app.logger = logger
    const project = await app.convert()
    expect(project, 'TypeDoc could not convert the packages').toBeDefined()
    app.validate(project!)
    validateExportsPerPackage(app, project!)
    expect(logger.messages, 'TypeDoc warnings: document or export what they name').toEqual([])
    await app.generateOutputs(project!)

    const stale = 'docs/api/reference is out of date: run `pnpm docs:api` and commit the result'
    const generated = listFiles(outDir)
    expect(listFiles(referenceDir), stale).toEqual(generated)
    const differing = generated.filter(
      (file) =>
        readFileSync(join(outDir, file), 'utf8') !== readFileSync(join(referenceDir, file), 'utf8'),
    )
    expect(differing, stale).toEqual([])
  })
})
