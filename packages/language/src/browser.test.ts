import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../../../testing/browser.js'
import { type PageServer, servePage } from '../../../testing/page-server.js'
import { type LanguageProbe, probeLanguages } from './testing/language-probe.js'

describe('languages in a browser', () => {
  let browser: Browser
  let server: PageServer

  beforeAll(async () => {
    server = await servePage({
      entry: fileURLToPath(new URL('./testing/browser-page.ts', import.meta.url)),
    })
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('loads the wasm runtimes and grammars over HTTP and answers as in Node', async () => {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(server.url)
    const inBrowser = (await page.evaluate(
      () => (globalThis as unknown as { languageProbe: Promise<unknown> }).languageProbe,
    )) as LanguageProbe | { error: string }
    expect(errors).toEqual([])
    if ('error' in inBrowser) throw new Error(`the page failed: ${inBrowser.error}`)

    const inNode = await probeLanguages()
    expect(inBrowser).toEqual(inNode)
    // Answers from the parsers, not from the settings the modes start with.
    expect(inBrowser.loaded).toBe(true)
    expect(inBrowser.templateScopes).toContain('meta.template.expression.js')
    expect(inBrowser.templateNodes).toContain('template_substitution')
    expect(inBrowser.pythonNodes).toContain('return_statement')
    expect(inBrowser.nodesAfterEdit).toContain('template_string')

    // Every runtime and grammar came from the page's server, by URL.
    for (const file of [
      '/packages/vscode-oniguruma/release/onig.wasm',
      '/packages/web-tree-sitter/web-tree-sitter.wasm',
      '/packages/tree-sitter-javascript/tree-sitter-javascript.wasm',
      '/packages/tree-sitter-python/tree-sitter-python.wasm',
    ]) {
      expect(server.requests).toContain(file)
    }
    expect(server.requests.some((path) => path.startsWith('/packages/tm-grammars/'))).toBe(true)
    await page.close()
  })
})
