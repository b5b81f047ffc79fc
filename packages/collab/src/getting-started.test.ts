import { describeGuideSamples } from '../../../testing/guide-samples.js'

// The guide's samples use the collab, editor and server packages and ws: the collab package
// has them all.
describeGuideSamples('docs/getting-started.md')
