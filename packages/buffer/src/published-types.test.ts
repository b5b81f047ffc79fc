import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const PACKAGE = fileURLToPath(new URL('..', import.meta.url))
const TSC = fileURLToPath(new URL('../../../node_modules/.bin/tsc', import.meta.url))

// What other packages use of the buffer is public; what only the buffer's own modules use is
// `@internal` or private, and the published declarations (built as `pnpm build` builds them,
// with `stripInternal`) must not offer it.
const CONSUMER = `
import { TextBuffer } from './index.js'
const buffer = new TextBuffer('abc')
const layer = buffer.addMarkerLayer()
const marker = layer.markRange([[0, 0], [0, 1]])
// Used by the editor: public.
export const offsets: number = marker.start + marker.end + marker.headOffset
export const claimed: boolean = layer.claimView({})
marker.view = null
export const transacting: boolean = buffer.isTransacting()
// Between buffer modules only: not published.
// @ts-expect-error internal
buffer.itemIndex
// @ts-expect-error internal
buffer.allocateMarkerId()
// @ts-expect-error internal
buffer.offsetOfClipped(marker.getRange().start)
// @ts-expect-error internal
marker.startAnchor
// @ts-expect-error internal
marker.tailed = false
// @ts-expect-error internal
layer.applyChanges([], true)
// @ts-expect-error internal
layer.updateMarker(marker, {})
// @ts-expect-error internal
layer.host
// The buffer's layers share their state with the layers above, never with a subclass.
export class Subclass extends TextBuffer {
  peek(): unknown[] {
    return [
      // @ts-expect-error internal
      this.lines,
      // @ts-expect-error internal
      this.current,
      // @ts-expect-error internal
      this.participants,
      // @ts-expect-error internal
      this.edit(0, 0, ''),
    ]
  }
}
`

describe('published types of @tandem/buffer', () => {
  it('offer what other packages use and lack the members only buffer modules use', () => {
    // Inside the package, so that its dependencies resolve from the declarations.
    const out = mkdtempSync(join(PACKAGE, 'node_modules', '.types-'))
    try {
      const build = ['-p', join(PACKAGE, 'tsconfig.build.json'), '--outDir', out]
      execFileSync(TSC, [...build, '--emitDeclarationOnly', '--declarationMap', 'false'])
      writeFileSync(join(out, 'consumer.ts'), CONSUMER)
      const check = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution']
      const options = [...check, 'nodenext', '--target', 'es2022', '--types', 'node']
      const run = () =>
        execFileSync(TSC, [...options, '--customConditions', 'source', join(out, 'consumer.ts')], {
          encoding: 'utf8',
        })
      expect(run).not.toThrow()
    } finally {
      rmSync(out, { recursive: true, force: true })
    }
  })
})
