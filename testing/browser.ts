/**
 * Real Chromium for browser tests: Debian's `chromium` (installed by
 * `scripts/install-chromium.sh`, which `pnpm test` runs first) driven by playwright-core.
 */
import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'

/** Where Chromium is: `TANDEM_CHROMIUM`, else Debian's `/usr/bin/chromium`. */
export const CHROMIUM_PATH = process.env.TANDEM_CHROMIUM ?? '/usr/bin/chromium'

/**
 * Headless, no sandbox (tests may run as root), no GPU, and none of the browser's own
 * connections: tests reach only loopback.
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
]

/**
 * Starts Chromium. Fails with what to do when it is not installed.
 *
 * @example const browser = await launchChromium(); const page = await browser.newPage()
 */
export const launchChromium = async (): Promise<Browser> => {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}: run scripts/install-chromium.sh ` +
        '(pnpm test runs it) or set TANDEM_CHROMIUM to a Chromium binary',
    )
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, headless: true })
}
