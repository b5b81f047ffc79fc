/**
 * The in-page sample of docs/embedding.md, run in Chromium against a real server; afterwards
 * a stock client checks that what the page typed was stored.
 */
import { expect, vi } from 'vitest'
import { openClient } from '../../../packages/server/src/testing/clients.js'
import { describeBrowserGuideSamples } from '../../../testing/browser-samples.js'

describeBrowserGuideSamples('docs/embedding.md', {
  async afterRun(server) {
    const reader = openClient(server.roomsUrl, 'handbook')
    try {
      await reader.synced()
      await vi.waitFor(() => expect(reader.text.toString()).toContain('Hello from the page'))
    } finally {
      reader.destroy()
    }
  },
})
