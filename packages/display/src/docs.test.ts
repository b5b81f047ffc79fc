import { describeGuideSamples } from '../../../testing/guide-samples.js'

describeGuideSamples('docs/display.md')
