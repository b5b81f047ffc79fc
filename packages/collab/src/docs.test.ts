import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SqliteStore, TandemServer } from '@tandem/server'
import { afterAll, beforeAll } from 'vitest'
import { describeGuideSamples } from '../../../testing/guide-samples.js'
import { YWebsocketServer } from './testing/y-websocket-server.js'

// The connection samples talk to a real y-websocket server, found through TANDEM_SERVER; the
// session sample to a real Tandem server (which keeps sessions), through TANDEM_SESSION_SERVER.
let server: YWebsocketServer | null = null
const dir = mkdtempSync(join(tmpdir(), 'tandem-docs-'))
const store = SqliteStore.open({ file: join(dir, 'docs.sqlite') })
const tandem = new TandemServer({ store })
beforeAll(async () => {
  server = await YWebsocketServer.start()
  process.env.TANDEM_SERVER = server.url
  process.env.TANDEM_SESSION_SERVER = `ws://127.0.0.1:${await tandem.listen(0)}`
})
afterAll(async () => {
  delete process.env.TANDEM_SERVER
  delete process.env.TANDEM_SESSION_SERVER
  await server?.stop()
  await tandem.close()
  await store.close()
  rmSync(dir, { recursive: true, force: true })
})

describeGuideSamples('docs/collaboration.md')
describeGuideSamples('docs/agents.md')
