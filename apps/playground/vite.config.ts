/**
 * Builds the playground into `dist/`, which `tandem-server --static` serves. Packages are
 * bundled from source (the `source` export condition). The language files that
 * `@tandem/language` loads at run time (the oniguruma and tree-sitter runtimes, the
 * tree-sitter grammars and the TextMate grammars) are copied to `dist/languages/<package>/`.
 * `vite` (the dev server) forwards `/ws/` to a server on port 1234.
 */
import { cpSync, existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin } from 'vite'

const here = dirname(fileURLToPath(import.meta.url))

/** Files of the language packages the app loads, by package: single files or whole folders. */
const LANGUAGE_FILES: Record<string, readonly string[]> = {
  'vscode-oniguruma': ['release/onig.wasm'],
  'web-tree-sitter': ['web-tree-sitter.wasm'],
  'tree-sitter-javascript': ['tree-sitter-javascript.wasm'],
  'tree-sitter-typescript': ['tree-sitter-typescript.wasm', 'tree-sitter-tsx.wasm'],
  'tree-sitter-python': ['tree-sitter-python.wasm'],
  'tm-grammars': ['grammars'],
}

/** The folder of package `name` as Node finds it from `@tandem/language`. */
const packageRoot = (name: string): string => {
  for (let dir = join(here, '../../packages/language'); ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return candidate
    if (dirname(dir) === dir) throw new Error(`${name} is not installed: run pnpm install`)
  }
}

/** Copies the language files into the build, under `languages/`. */
const languageFiles = (): Plugin => {
  let outDir = ''
  return {
    name: 'tandem-language-files',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir
    },
    closeBundle() {
      for (const [name, paths] of Object.entries(LANGUAGE_FILES)) {
        const root = packageRoot(name)
        for (const path of paths) {
          cpSync(join(root, path), join(outDir, 'languages', name, path), { recursive: true })
        }
      }
    },
  }
}

export default defineConfig({
  root: here,
  // The packages' sources, and their browser builds (no Node modules in a page).
  resolve: { conditions: ['source', 'module', 'browser', 'development|production'] },
  plugins: [languageFiles()],
  build: {
    outDir: join(here, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 4096,
    rolldownOptions: {
      onwarn(warning, warn) {
        // web-tree-sitter's Emscripten loader evaluates code it was built with; expected.
        if (warning.code === 'EVAL' && warning.id?.includes('web-tree-sitter')) return
        warn(warning)
      },
    },
  },
  server: {
    proxy: { '/ws': { target: 'ws://127.0.0.1:1234', ws: true } },
  },
})
