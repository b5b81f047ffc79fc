import { defineConfig } from 'vitest/config'

// Packages run on source: the `source` export condition points at src/index.ts.
const conditions = ['source', 'module', 'node', 'development|production']

export default defineConfig({
  ssr: { resolve: { conditions } },
  resolve: { conditions },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/bench/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
      'bench/**/*.test.ts',
      'testing/**/*.test.ts',
    ],
    testTimeout: 60_000,
  },
})
