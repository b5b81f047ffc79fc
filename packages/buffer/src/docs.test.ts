import { describeGuideSamples } from '../../../testing/guide-samples.js'

describeGuideSamples({ guide: 'docs/buffer.md', packageDir: 'packages/buffer', minSamples: 10 })
