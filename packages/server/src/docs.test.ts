import { describeGuideSamples } from '../../../testing/guide-samples.js'

describeGuideSamples({
  guide: 'docs/server.md',
  packageDir: 'packages/server',
  minSamples: 1,
})
