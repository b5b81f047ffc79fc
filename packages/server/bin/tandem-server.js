#!/usr/bin/env node
/**
 * The `tandem-server` command. Installed from a package, it runs the compiled command line
 * (`dist/cli.js`). In the repository, where the TypeScript sources sit beside it, it runs those
 * through tsx, so the command works right after `pnpm install`, with no build first and never
 * an old build.
 */
import { existsSync } from 'node:fs'

const source = new URL('../src/cli.ts', import.meta.url)
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api')
  register()
  await import(source.href)
} else {
  await import(new URL('../dist/cli.js', import.meta.url).href)
}
