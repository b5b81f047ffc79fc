import { describeGuideSamples } from '../../../testing/guide-samples.js'

describeGuideSamples({ guide: 'docs/display.md', packageDir: 'packages/display', minSamples: 6 })
