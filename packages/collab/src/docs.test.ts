import { afterAll, beforeAll } from 'vitest'
import { describeGuideSamples } from '../../../testing/guide-samples.js'
import { YWebsocketServer } from './testing/y-websocket-server.js'

// The connection samples talk to a real y-websocket server, found through TANDEM_SERVER.
let server: YWebsocketServer | null = null
beforeAll(async () => {
  server = await YWebsocketServer.start()
  process.env.TANDEM_SERVER = server.url
})
afterAll(async () => {
  delete process.env.TANDEM_SERVER
  await server?.stop()
})

describeGuideSamples({
  guide: 'docs/collaboration.md',
  packageDir: 'packages/collab',
  minSamples: 3,
})
