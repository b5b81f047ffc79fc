#!/usr/bin/env node
/**
 * `tandem-server`: runs a Tandem server from the command line.
 *
 *   tandem-server --port 1234 --host 127.0.0.1 --data ./data --log-level info
 *
 * Documents are kept in `<data>/tandem.sqlite`. SIGTERM or SIGINT stops taking connections,
 * stores every update already received, closes the connections and exits.
 */
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import pino from 'pino'
import { SqliteStore } from './storage/sqlite-store.js'
import { TandemServer } from './tandem-server.js'

const USAGE = `usage: tandem-server [--port 1234] [--host 127.0.0.1] [--data ./data] [--log-level info]`

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

/** Parses the command line; exits with the usage on bad input. */
const readOptions = () => {
  try {
    const { values } = parseArgs({
      options: {
        port: { type: 'string', default: '1234' },
        host: { type: 'string', default: '127.0.0.1' },
        data: { type: 'string', default: './data' },
        'log-level': { type: 'string', default: 'info' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    })
    if (values.help) {
      console.log(USAGE)
      process.exit(0)
    }
    const port = Number(values.port)
    if (!Number.isInteger(port) || port < 0 || port > 65_535) {
      throw new Error(`--port must be a port number, got ${values.port}`)
    }
    if (!LEVELS.includes(values['log-level'])) {
      throw new Error(`--log-level must be one of ${LEVELS.join(', ')}`)
    }
    return { port, host: values.host, data: values.data, logLevel: values['log-level'] }
  } catch (error) {
    console.error(`tandem-server: ${error instanceof Error ? error.message : error}\n${USAGE}`)
    process.exit(2)
  }
}

const main = async () => {
  const options = readOptions()
  const logger = pino({ level: options.logLevel, base: { service: 'tandem-server' } })
  const file = join(options.data, 'tandem.sqlite')
  const store = SqliteStore.open({ file })
  const server = new TandemServer({ store, logger })
  const port = await server.listen(options.port, options.host)
  logger.info({ url: `ws://${options.host}:${port}`, store: file }, 'listening')
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'shutting down')
    await server.close()
    await store.close()
    logger.info({}, 'stopped')
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
}

main().catch((error: unknown) => {
  console.error(`tandem-server: ${error instanceof Error ? error.message : error}`)
  process.exit(1)
})
