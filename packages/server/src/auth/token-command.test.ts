/**
 * `tandem-server token`, as a function and as a process, and `tandem-server --auth-secret`:
 * a token the command prints opens a server started with the same secret, and no other.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { openClient, type StockClient } from '../testing/clients.js'
import { ServerProcess } from '../testing/server-process.js'
import { SECRET_VARIABLE, TOKEN_USAGE, tokenCommand, UsageError } from './token-command.js'
import { verifyToken } from './tokens.js'

const CLI = fileURLToPath(new URL('../cli.ts', import.meta.url))
const WAIT = { timeout: 15_000, interval: 10 }
const SECRET = 'one secret for the command line tests!!'
const OTHER_SECRET = 'and another one, of the same good length'
const NOW = 1_750_000_000

describe('tokenCommand', () => {
  const args = ['--room', 'team/*', '--role', 'read', '--user', 'ada', '--ttl', '120']

  it('signs the claims it is given, with the secret of --secret or of the environment', () => {
    const claims = { room: 'team/*', role: 'read', sub: 'ada', iat: NOW, exp: NOW + 120 }
    const fromFlag = tokenCommand([...args, '--secret', SECRET], {}, NOW)
    expect(verifyToken(fromFlag, SECRET, { now: NOW })).toEqual(claims)
    const fromEnv = tokenCommand(args, { [SECRET_VARIABLE]: SECRET }, NOW)
    expect(fromEnv).toBe(fromFlag)
    // The flag wins over the environment.
    const both = tokenCommand(
      [...args, '--secret', OTHER_SECRET],
      { [SECRET_VARIABLE]: SECRET },
      NOW,
    )
    expect(verifyToken(both, OTHER_SECRET, { now: NOW })).toEqual(claims)
    const hour = tokenCommand(args.slice(0, 6), { [SECRET_VARIABLE]: SECRET }, NOW)
    expect(verifyToken(hour, SECRET, { now: NOW }).exp).toBe(NOW + 3600)
    const month = tokenCommand(
      [...args.slice(0, 6), '--ttl', '2592000'],
      { [SECRET_VARIABLE]: SECRET },
      NOW,
    )
    expect(verifyToken(month, SECRET, { now: NOW }).exp).toBe(NOW + 2_592_000)
    expect(tokenCommand(['--help'], {})).toBe(TOKEN_USAGE)
  })

  it('refuses a bad command line with a UsageError that says what is wrong', () => {
    const env = { [SECRET_VARIABLE]: SECRET }
    const cases: [string[], Record<string, string>, string][] = [
      [args, {}, `a secret is needed: --secret or the environment variable ${SECRET_VARIABLE}`],
      [[...args, '--secret', 'short'], {}, 'the secret must have at least 32 bytes'],
      [args.slice(2), env, '--room is needed'],
      [['--room', 'x', '--role', 'admin', '--user', 'u'], env, '--role must be read or write'],
      [['--room', 'x', '--role', 'read'], env, '--user is needed'],
      [['--room', 'x', '--role', 'read', '--user', 'u', '--ttl', '0'], env, '--ttl must be'],
      [['--room', 'x', '--role', 'read', '--user', 'u', '--ttl', '1.5'], env, '--ttl must be'],
      [['--room', 'x', '--role', 'read', '--user', 'u', '--ttl=-3'], env, '--ttl must be'],
      [
        ['--room', 'x', '--role', 'read', '--user', 'u', '--ttl', '2592001'],
        env,
        '--ttl must be at most 2592000 seconds (30 days): servers refuse longer-lived tokens',
      ],
      [['--room', 'x', '--role', 'read', '--user', 'u', '--ttl', '1e308'], env, '--ttl must be'],
      [[...args, '--colour', 'blue'], env, "Unknown option '--colour'"],
      [[...args, 'extra'], env, 'extra'],
    ]
    for (const [line, environment, message] of cases) {
      expect(() => tokenCommand(line, environment, NOW), line.join(' ')).toThrow(UsageError)
      expect(() => tokenCommand(line, environment, NOW), line.join(' ')).toThrow(message)
    }
  })
})

/** Runs the command line to its end (at most 20 s); resolves with its exit code and output. */
const runCli = async (args: readonly string[], env: NodeJS.ProcessEnv = {}) => {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', CLI, ...args], {
    env: { ...process.env, [SECRET_VARIABLE]: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
  const [code] = (await once(child, 'exit')) as [number | null]
  clearTimeout(timer)
  return { code, stdout, stderr }
}

describe('tandem-server token and --auth-secret, as processes', () => {
  const root = mkdtempSync(join(tmpdir(), 'tandem-token-process-'))
  afterAll(() => rmSync(root, { recursive: true, force: true }))
  const processes: ServerProcess[] = []
  const clients: StockClient[] = []
  afterEach(async () => {
    for (const c of clients.splice(0)) c.destroy()
    for (const p of processes.splice(0)) await p.kill('SIGKILL')
  })
  const client = (url: string, room: string, token: string) => {
    const c = openClient(url, room, { token })
    clients.push(c)
    return c
  }
  /** The answer to a plain GET of `room` with `token`, as the server would refuse an upgrade. */
  const probe = async (server: ServerProcess, room: string, token: string) => {
    const response = await fetch(`http://127.0.0.1:${server.port}/${room}?token=${token}`)
    return { status: response.status, body: await response.text() }
  }

  it('prints a token a server with the same secret accepts and one with another secret refuses', async () => {
    const [minted, readOnly] = await Promise.all([
      runCli(['token', '--room', 'notes', '--role', 'write', '--user', 'ada', '--secret', SECRET]),
      runCli(['token', '--room', 'no*', '--role', 'read', '--user', 'vi', '--ttl', '600'], {
        [SECRET_VARIABLE]: SECRET,
      }),
    ])
    expect(minted).toMatchObject({ code: 0, stderr: '' })
    expect(readOnly).toMatchObject({ code: 0, stderr: '' })
    const [writeToken, readToken] = [minted.stdout.trim(), readOnly.stdout.trim()]
    expect(writeToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)

    const [same, other] = await Promise.all([
      ServerProcess.start({ data: join(root, 'same'), args: ['--auth-secret', SECRET] }),
      ServerProcess.start({ data: join(root, 'other'), env: { [SECRET_VARIABLE]: OTHER_SECRET } }),
    ])
    processes.push(same, other)
    expect(same.output).toContain('"auth":"signed tokens"')
    expect(other.output).toContain('"auth":"signed tokens"')

    const writer = client(same.url, 'notes', writeToken)
    const reader = client(same.url, 'notes', readToken)
    await Promise.all([writer.synced(), reader.synced()])
    writer.text.insert(0, 'typed with a minted token')
    await vi.waitFor(() => expect(reader.text.toString()).toBe('typed with a minted token'), WAIT)
    reader.text.insert(0, 'no: ')
    await vi.waitFor(() => expect(reader.denied).toHaveLength(1), WAIT)

    expect(await probe(same, 'notes', 'x')).toMatchObject({ status: 401 })
    expect(await probe(same, 'elsewhere', writeToken)).toMatchObject({ status: 403 })
    expect(await probe(other, 'notes', writeToken)).toEqual({
      status: 401,
      body: 'invalid token: bad signature',
    })
    expect(await probe(other, 'notes', readToken)).toMatchObject({ status: 401 })
  })

  it('exits with 2 and the usage on a bad command line or a short secret', async () => {
    const [badRole, shortSecret] = await Promise.all([
      runCli(['token', '--room', 'x', '--role', 'admin', '--user', 'u', '--secret', SECRET]),
      runCli(['--port', '0', '--data', join(root, 'never')], { [SECRET_VARIABLE]: 'short' }),
    ])
    expect(badRole.code).toBe(2)
    expect(badRole.stdout).toBe('')
    expect(badRole.stderr).toContain('tandem-server token: --role must be read or write, got admin')
    expect(badRole.stderr).toContain(TOKEN_USAGE)
    expect(shortSecret.code).toBe(2)
    expect(shortSecret.stderr).toContain('the secret must have at least 32 bytes to be safe, got 5')
  })
})
