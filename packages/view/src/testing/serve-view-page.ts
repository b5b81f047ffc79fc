/**
 * Serving and opening the view's test page (`view-page.ts`) in Chromium, for tests and for a
 * look at the view by hand.
 */
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, expect } from 'vitest'
import { launchChromium } from '../../../../testing/browser.js'
import { type PageServer, servePage } from '../../../../testing/page-server.js'

/**
 * Bundles `view-page.ts` and serves it on 127.0.0.1.
 *
 * @example const server = await serveViewPage(); await page.goto(server.url)
 */
export const serveViewPage = (): Promise<PageServer> =>
  servePage({ entry: fileURLToPath(new URL('./view-page.ts', import.meta.url)) })

/**
 * A new page of `browser` showing the served view page, once `globalThis.viewPage` is there.
 * Errors thrown in the page are collected in `errors`.
 *
 * @example const { page, errors } = await openViewPage(browser, server)
 */
export const openViewPage = async (
  browser: Browser,
  server: PageServer,
  viewport = { width: 1400, height: 900 },
): Promise<{ page: Page; errors: string[] }> => {
  const page = await browser.newPage({ viewport })
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(server.url)
  await page.waitForFunction(() => 'viewPage' in globalThis)
  return { page, errors }
}

/**
 * Sets up, for the tests of the enclosing `describe`, one Chromium and the served view page
 * (screenshots go to `artifacts`). `openPage()` gives a fresh page; it is closed after each
 * test, and a test fails when its page threw.
 *
 * @example const view = useViewPage(ARTIFACTS); it('…', async () => { const page = await view.openPage() })
 */
export const useViewPage = (artifacts: string): { openPage(): Promise<Page> } => {
  let browser: Browser | undefined
  let server: PageServer | undefined
  let opened: { page: Page; errors: string[] } | null = null
  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true })
    ;[browser, server] = await Promise.all([launchChromium(), serveViewPage()])
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })
  afterEach(async () => {
    const last = opened
    opened = null
    if (last === null) return
    await last.page.close()
    expect(last.errors).toEqual([])
  })
  return {
    async openPage() {
      if (!browser || !server) throw new Error('useViewPage: Chromium is not up yet')
      opened = await openViewPage(browser, server)
      return opened.page
    },
  }
}
