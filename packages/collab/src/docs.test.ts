import { describeGuideSamples } from '../../../testing/guide-samples.js'

describeGuideSamples({
  guide: 'docs/collaboration.md',
  packageDir: 'packages/collab',
  minSamples: 2,
})
