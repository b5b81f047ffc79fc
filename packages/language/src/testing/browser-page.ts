/**
 * A browser page that loads the language package's files over HTTP, as an application
 * would, and publishes the probe's answers as `globalThis.languageProbe` (a promise).
 */
import { setAssetLocator } from '../assets.js'
import { probeLanguages } from './language-probe.js'

const page = globalThis as unknown as { location: { href: string }; languageProbe: unknown }

setAssetLocator(({ pkg, path }) => new URL(`/packages/${pkg}/${path}`, page.location.href))
page.languageProbe = probeLanguages().catch((error: unknown) => ({
  error: error instanceof Error ? `${error.message}\n${error.stack}` : String(error),
}))
