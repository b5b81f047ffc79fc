import { describeGuideSamples } from '../../../testing/guide-samples.js'

describeGuideSamples('docs/brackets.md')
