/**
 * The command palette's titles and filtering, in Node.
 */
import { describe, expect, it } from 'vitest'
import { commandTitle, filterCommands, type PaletteCommand } from '../src/command-palette.js'

const command = (name: string, ...keys: string[]): PaletteCommand => ({
  name,
  title: commandTitle(name),
  keys,
})

const COMMANDS = [
  command('core:move-up', 'Up'),
  command('editor:move-line-up', 'Ctrl+Up'),
  command('editor:move-line-down', 'Ctrl+Down'),
  command('editor:upper-case', 'Ctrl+K Ctrl+U'),
  command('editor:lower-case', 'Ctrl+K Ctrl+L'),
  command('find-and-replace:select-next', 'Ctrl+D'),
  command('editor:duplicate-lines', 'Ctrl+Shift+D'),
  command('editor:transpose'),
]

describe('command palette', () => {
  it("titles commands as Atom's palette does", () => {
    expect(commandTitle('editor:move-line-up')).toBe('Editor: Move Line Up')
    expect(commandTitle('find-and-replace:select-next')).toBe('Find And Replace: Select Next')
    expect(commandTitle('go-to-line:toggle')).toBe('Go To Line: Toggle')
  })

  it('lists everything for no query, in order', () => {
    expect(filterCommands(COMMANDS, '  ')).toEqual(COMMANDS)
  })

  it('matches words, initials and key bindings, best first', () => {
    const names = (query: string) => filterCommands(COMMANDS, query).map((c) => c.name)
    expect(names('move line down')[0]).toBe('editor:move-line-down')
    expect(names('mld')[0]).toBe('editor:move-line-down')
    expect(names('UPPER')).toEqual(['editor:upper-case'])
    expect(names('select next')[0]).toBe('find-and-replace:select-next')
    expect(names('ctrl+shift+d')[0]).toBe('editor:duplicate-lines')
    expect(names('ctrl+k')).toEqual(
      expect.arrayContaining(['editor:upper-case', 'editor:lower-case']),
    )
    expect(names('qqq')).toEqual([])
  })
})
