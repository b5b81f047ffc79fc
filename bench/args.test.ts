import { describe, expect, it } from 'vitest'
import { DEFAULT_JSON_FILE, parseBenchArgs, UsageError } from './args.js'

describe('parseBenchArgs', () => {
  it('writes no JSON and keeps each suite’s gc mode by default', () => {
    const options = parseBenchArgs([])
    expect(options.json).toBeNull()
    expect(options.gc).toBeNull()
    expect(options.plotsDir).toBeNull()
    expect(options.detail).toBe(false)
    expect(options.quick).toBe(false)
  })

  it('writes the default JSON file for a bare --json, last or before another flag', () => {
    const defaults = { file: DEFAULT_JSON_FILE, isDefault: true }
    expect(parseBenchArgs(['--json']).json).toEqual(defaults)
    const options = parseBenchArgs(['--json', '--quick', '--filter', 'ytext'])
    expect(options.json).toEqual(defaults)
    expect(options.quick).toBe(true)
    expect(options.filters).toEqual(['ytext'])
  })

  it('leaves a following word that is not a file name as a filter', () => {
    const options = parseBenchArgs(['--quick', '--json', 'ytext'])
    expect(options.json).toEqual({ file: DEFAULT_JSON_FILE, isDefault: true })
    expect(options.filters).toEqual(['ytext'])
  })

  it('takes a following argument ending in .json or holding a / as the file', () => {
    expect(parseBenchArgs(['--json', 'run.json']).json).toEqual({
      file: 'run.json',
      isDefault: false,
    })
    const options = parseBenchArgs(['--json', 'out/run', 'trace'])
    expect(options.json).toEqual({ file: 'out/run', isDefault: false })
    expect(options.filters).toEqual(['trace'])
  })

  it('keeps --json=FILE, whatever the file is called', () => {
    expect(parseBenchArgs(['--json=results']).json).toEqual({ file: 'results', isDefault: false })
    expect(() => parseBenchArgs(['--json='])).toThrow(UsageError)
  })

  it('reads --plots, --detail, --gc, --list and repeated filters; ignores a lone --', () => {
    const options = parseBenchArgs([
      '--',
      '--plots',
      'docs/images',
      '--detail',
      '--gc',
      'major',
      '--list',
      '--filter',
      'a',
      'b',
    ])
    expect(options.plotsDir).toBe('docs/images')
    expect(options.detail).toBe(true)
    expect(options.gc).toBe('major')
    expect(options.list).toBe(true)
    expect(options.filters).toEqual(['a', 'b'])
  })

  it('rejects unknown flags, a bad --gc and a missing --plots directory', () => {
    expect(() => parseBenchArgs(['--fast'])).toThrow(UsageError)
    expect(() => parseBenchArgs(['--gc', 'full'])).toThrow(/--gc must be/)
    expect(() => parseBenchArgs(['--plots'])).toThrow(UsageError)
  })
})
