import { describeGuideSamples } from '../../../testing/guide-samples.js'

// The guide's samples use the editor too, so they run from the editor package.
describeGuideSamples({ guide: 'docs/language.md', packageDir: 'packages/editor', minSamples: 3 })
