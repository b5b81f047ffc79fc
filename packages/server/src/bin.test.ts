/**
 * The `tandem-server` command as a user runs it in the repository, right after `pnpm install`:
 * the package's bin, linked into the root, with no build first.
 */
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { verifyToken } from './auth/tokens.js'

const run = promisify(execFile)
const rootDir = fileURLToPath(new URL('../../../', import.meta.url))
const linked = `${rootDir}node_modules/.bin/tandem-server`
const SECRET = 'a secret of more than thirty-two bytes, for tests only'

describe('the tandem-server command', () => {
  it('is the package bin, linked into the root by the workspace', () => {
    const pkg = JSON.parse(readFileSync(`${rootDir}packages/server/package.json`, 'utf8'))
    expect(pkg.bin).toEqual({ 'tandem-server': './bin/tandem-server.js' })
    expect(pkg.files).toContain('bin')
    const root = JSON.parse(readFileSync(`${rootDir}package.json`, 'utf8'))
    expect(root.devDependencies['@tandem/server']).toBe('workspace:*')
  })

  it('mints a token that verifies, from the sources, with no build', async () => {
    const { stdout } = await run(
      linked,
      ['token', '--room', 'notes', '--role', 'read', '--user', 'ada', '--ttl', '60'],
      { env: { ...process.env, TANDEM_AUTH_SECRET: SECRET }, cwd: rootDir },
    )
    const claims = verifyToken(stdout.trim(), SECRET)
    expect(claims).toMatchObject({ room: 'notes', role: 'read', sub: 'ada' })
  })

  it('prints its usage and exits 2 for a bad flag', async () => {
    const failed = await run(linked, ['--prot', '1'], { cwd: rootDir }).catch((error) => error)
    expect(failed.code).toBe(2)
    expect(failed.stderr).toMatch(/--prot/)
    expect(failed.stderr).toMatch(/usage: tandem-server/)
  })
})
