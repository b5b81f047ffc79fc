/**
 * Serving and opening the view's test page (`view-page.ts`) in Chromium, for tests and for a
 * look at the view by hand.
 */
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
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
