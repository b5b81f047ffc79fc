import { describeGuideSamples } from '../../../testing/guide-samples.js'

describeGuideSamples({
  guide: 'docs/embedding.md',
  packageDir: 'apps/playground',
  minSamples: 1,
})
