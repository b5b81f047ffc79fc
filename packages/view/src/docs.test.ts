/**
 * docs/view.md: its samples run, and its key binding tables name every default binding and
 * every command the view runs.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { describeGuideSamples } from '../../../testing/guide-samples.js'
import { EDITOR_COMMANDS } from './commands.js'
import { ATOM_KEYMAP } from './keymap.js'
import { VIEW_COMMANDS } from './view-commands.js'

describeGuideSamples('docs/view.md')

const guide = readFileSync(new URL('../../../docs/view.md', import.meta.url), 'utf8')
const section = guide.slice(guide.indexOf('## Key bindings'), guide.indexOf('### Chords'))
/** The table rows of the section, by their first two cells (keys, commands). */
const rows = section
  .split('\n')
  .filter((line) => line.startsWith('| `'))
  .map((line) => line.split('|').map((cell) => cell.trim()))
const codes = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!)

describe('docs/view.md key bindings', () => {
  it('every default binding is in a row with its command', () => {
    for (const [keys, command] of Object.entries(ATOM_KEYMAP)) {
      const row = rows.find((cells) => codes(cells[1]!).includes(keys))
      expect(row, keys).toBeDefined()
      expect(codes(row![2]!), keys).toContain(command)
    }
  })

  it('every command is named, with a key or among those without one', () => {
    for (const command of Object.keys({ ...EDITOR_COMMANDS, ...VIEW_COMMANDS })) {
      expect(section, command).toContain(`\`${command}\``)
    }
  })
})
