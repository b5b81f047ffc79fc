/**
 * The guides whose ```ts samples run as tests: where each guide is, which package's
 * dependencies its samples use, and which test file declares its tests. The docs coverage
 * test (`docs-samples.test.ts`) checks that every sample in the docs belongs to a guide
 * listed here and that the named test file declares it.
 */

/** Where a guide lives, which package runs its samples and which test declares them. */
export interface GuideSpec {
  /** The guide, relative to the repository root, e.g. `docs/buffer.md`. */
  readonly guide: string
  /** The package directory, relative to the root, whose dependencies the samples use. */
  readonly packageDir: string
  /** The guide must hold at least this many Node samples (```ts). */
  readonly minSamples: number
  /** The test file calling `describeGuideSamples(guide)`. */
  readonly test: string
  /** The guide must hold at least this many browser samples (```ts browser). */
  readonly minBrowserSamples?: number
  /** The test file calling `describeBrowserGuideSamples(guide)`, for guides with browser samples. */
  readonly browserTest?: string
}

/** Every guide with samples. */
export const GUIDES: readonly GuideSpec[] = [
  {
    guide: 'docs/buffer.md',
    packageDir: 'packages/buffer',
    minSamples: 10,
    test: 'packages/buffer/src/docs.test.ts',
  },
  {
    guide: 'docs/display.md',
    packageDir: 'packages/display',
    minSamples: 6,
    test: 'packages/display/src/docs.test.ts',
  },
  {
    // The guide's samples use the editor too, so they run from the editor package.
    guide: 'docs/language.md',
    packageDir: 'packages/editor',
    minSamples: 3,
    test: 'packages/language/src/docs.test.ts',
  },
  {
    guide: 'docs/api/cursor.md',
    packageDir: 'packages/editor',
    minSamples: 13,
    test: 'packages/editor/src/docs.test.ts',
  },
  {
    guide: 'docs/commands.md',
    packageDir: 'packages/editor',
    minSamples: 4,
    test: 'packages/editor/src/commands-guide.test.ts',
  },
  {
    guide: 'docs/find.md',
    packageDir: 'packages/editor',
    minSamples: 10,
    test: 'packages/editor/src/find-guide.test.ts',
  },
  {
    guide: 'docs/brackets.md',
    packageDir: 'packages/editor',
    minSamples: 6,
    test: 'packages/editor/src/brackets-guide.test.ts',
  },
  {
    guide: 'docs/agents.md',
    packageDir: 'packages/collab',
    minSamples: 3,
    test: 'packages/collab/src/docs.test.ts',
  },
  {
    guide: 'docs/history.md',
    packageDir: 'packages/server',
    minSamples: 1,
    test: 'packages/server/src/docs.test.ts',
  },
  {
    guide: 'docs/collaboration.md',
    packageDir: 'packages/collab',
    minSamples: 4,
    test: 'packages/collab/src/docs.test.ts',
  },
  {
    guide: 'docs/getting-started.md',
    packageDir: 'packages/collab',
    minSamples: 1,
    test: 'packages/collab/src/getting-started.test.ts',
  },
  {
    guide: 'docs/server.md',
    packageDir: 'packages/server',
    minSamples: 4,
    test: 'packages/server/src/docs.test.ts',
  },
  {
    guide: 'docs/embedding.md',
    packageDir: 'apps/playground',
    minSamples: 1,
    test: 'apps/playground/test/docs.test.ts',
    minBrowserSamples: 1,
    browserTest: 'apps/playground/test/docs.browser.test.ts',
  },
  {
    guide: 'docs/view.md',
    packageDir: 'packages/view',
    minSamples: 2,
    test: 'packages/view/src/docs.test.ts',
  },
  {
    // The sample is a suite of the buffer package, importing it by relative paths.
    guide: 'bench/README.md',
    packageDir: 'packages/buffer',
    minSamples: 1,
    test: 'testing/bench-guide.test.ts',
  },
]

/**
 * The registry's entry for `guide`; throws when the guide is not listed.
 *
 * @example guideSpec('docs/buffer.md').packageDir // => 'packages/buffer'
 */
export const guideSpec = (guide: string): GuideSpec => {
  const spec = GUIDES.find((entry) => entry.guide === guide)
  if (spec === undefined) throw new Error(`${guide} is not listed in testing/guides.ts`)
  return spec
}
