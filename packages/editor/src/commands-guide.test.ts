import { describeGuideSamples } from '../../../testing/guide-samples.js'

describeGuideSamples('docs/commands.md')
