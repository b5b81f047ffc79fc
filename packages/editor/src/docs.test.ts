import { describeGuideSamples } from '../../../testing/guide-samples.js'

describeGuideSamples('docs/api/cursor.md')
