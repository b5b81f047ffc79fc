import { describeGuideSamples } from '../../../testing/guide-samples.js'

describeGuideSamples({ guide: 'docs/api/cursor.md', packageDir: 'packages/editor', minSamples: 13 })
