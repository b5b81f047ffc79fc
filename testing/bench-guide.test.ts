/**
 * The suite sample of bench/README.md: it is written into the buffer package as a suite file
 * would be, imported, and run once in quick mode, its `check` included.
 */
import { expect } from 'vitest'
import { isSuite, runSuite } from '../bench/harness.js'
import { describeGuideSamples } from './guide-samples.js'

describeGuideSamples('bench/README.md', {
  async afterImport(module, sample) {
    expect(isSuite(module.default), sample.name).toBe(true)
    if (!isSuite(module.default)) return
    const result = await runSuite(module.default, { quick: true, file: 'bench/README.md' })
    expect(result.error).toBeNull()
  },
})
