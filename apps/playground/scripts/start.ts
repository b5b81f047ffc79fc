/**
 * `pnpm start`: builds the playground and serves it with the Tandem server on one port, the
 * documents kept in SQLite under `./data` (beside the repository's package.json), so they are
 * still there after a restart.
 *
 * Environment: `PORT` (default 1234), `HOST` (default 127.0.0.1; `0.0.0.0` for every
 * interface), `TANDEM_DATA` (default `./data`), `TANDEM_AUTH_SECRET` (when set, every
 * connection needs a token signed with it; mint one with `tandem-server token`).
 */
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Logger, SqliteStore, StaticSite, TandemServer, tokenAuth } from '@tandem/server'
import { build } from 'vite'

const appDir = fileURLToPath(new URL('..', import.meta.url))
const repoDir = join(appDir, '../..')

/** Warnings and errors on stderr, one line each; the rest is not shown. */
const logger: Logger = {
  info() {},
  debug() {},
  warn: (fields, message) => console.error(`warning: ${message ?? ''} ${describe(fields)}`),
  error: (fields, message) => console.error(`error: ${message ?? ''} ${describe(fields)}`),
}

const describe = (fields: object): string => {
  const { err, ...rest } = fields as { err?: unknown }
  const cause = err instanceof Error ? err.message : err === undefined ? '' : String(err)
  return `${JSON.stringify(rest)} ${cause}`.trim()
}

const readPort = (): number => {
  const port = Number(process.env.PORT ?? 1234)
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new RangeError(`PORT must be a port number, got ${process.env.PORT}`)
  }
  return port
}

const main = async () => {
  const port = readPort()
  const host = process.env.HOST || '127.0.0.1'
  const data = resolve(repoDir, process.env.TANDEM_DATA || 'data')
  const secret = process.env.TANDEM_AUTH_SECRET

  console.log('Building the playground...')
  await build({ configFile: join(appDir, 'vite.config.ts'), logLevel: 'warn' })
  const site = await StaticSite.open(join(appDir, 'dist'))
  const store = SqliteStore.open({ file: join(data, 'tandem.sqlite') })
  const server = new TandemServer({
    store,
    site,
    logger,
    ...(secret ? tokenAuth(secret) : {}),
  })
  const listening = await server.listen(port, host)
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host
  console.log(`Tandem playground: http://${shown}:${listening}/`)
  console.log(`Documents are kept in ${join(data, 'tandem.sqlite')}. Ctrl-C stops.`)
  if (secret) console.log('Tokens are checked: open http://.../?token=<token>')

  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    await server.close()
    await store.close()
    console.log('Stopped; every document is saved.')
    process.exit(0)
  }
  process.on('SIGINT', () => void stop())
  process.on('SIGTERM', () => void stop())
}

main().catch((error: unknown) => {
  console.error(`pnpm start: ${error instanceof Error ? error.message : error}`)
  process.exit(1)
})
