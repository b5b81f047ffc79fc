/**
 * The in-page samples of docs/embedding.md, run in Chromium against a real server; afterwards
 * a stock client checks that what the page typed was stored.
 */
import { expect, vi } from 'vitest'
import { openClient } from '../../../packages/server/src/testing/clients.js'
import { describeBrowserGuideSamples } from '../../../testing/browser-samples.js'

/** The room each sample writes to, and text it leaves there. */
const STORED: Record<string, [room: string, text: string]> = {
  'In the page': ['handbook', 'Hello from the page'],
  'Who wrote what, and earlier versions': ['credits', 'Written by Ada.'],
}

describeBrowserGuideSamples('docs/embedding.md', {
  async afterRun(server, sample) {
    const [room, text] = STORED[sample.name] ?? []
    expect(room, `the room of sample "${sample.name}"`).toBeDefined()
    const reader = openClient(server.roomsUrl, room!)
    try {
      await reader.synced()
      await vi.waitFor(() => expect(reader.text.toString()).toContain(text))
    } finally {
      reader.destroy()
    }
  },
})
