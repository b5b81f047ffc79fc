/**
 * The view's plain-data parts in Node: keystroke notation, Atom's default bindings against
 * the command table, the row cache's shifting through display changes, and clipboard metadata.
 */
import { Range } from '@tandem/text'
import { describe, expect, it } from 'vitest'
import { Random, seeds } from '../../../testing/random.js'
import { readTandemMetadata } from './clipboard.js'
import { EDITOR_COMMANDS } from './commands.js'
import { ATOM_KEYMAP, buildKeymap, keystrokeForEvent } from './keymap.js'
import { shiftRow } from './lines.js'

const event = (
  key: string,
  mods: Partial<Record<'ctrl' | 'alt' | 'shift' | 'meta', boolean>> = {},
) => ({
  key,
  ctrlKey: mods.ctrl ?? false,
  altKey: mods.alt ?? false,
  shiftKey: mods.shift ?? false,
  metaKey: mods.meta ?? false,
})

describe('keymap', () => {
  it("writes keystrokes in Atom's notation", () => {
    expect(keystrokeForEvent(event('Z', { ctrl: true, shift: true }))).toBe('ctrl-shift-z')
    expect(keystrokeForEvent(event('ArrowLeft', { alt: true, shift: true }))).toBe('alt-shift-left')
    expect(keystrokeForEvent(event('?', { ctrl: true, shift: true }))).toBe('ctrl-?')
    expect(keystrokeForEvent(event('PageDown'))).toBe('pagedown')
    expect(keystrokeForEvent(event('Shift', { shift: true }))).toBeNull()
  })

  it('binds only commands the view knows, and overrides add or unbind', () => {
    for (const command of Object.values(ATOM_KEYMAP)) {
      expect(EDITOR_COMMANDS, String(command)).toHaveProperty([command as string])
    }
    const keymap = buildKeymap({ 'ctrl-l': null, 'ctrl-d': 'editor:delete-line' })
    expect(keymap.get('ctrl-l')).toBeUndefined()
    expect(keymap.get('ctrl-d')).toBe('editor:delete-line')
    expect(keymap.get('ctrl-shift-k')).toBe('editor:delete-line')
  })
})

describe('shiftRow', () => {
  it('moves each row where splicing an array of the rows puts it', () => {
    for (const seed of seeds(20)) {
      const random = new Random(seed)
      const changes: { oldRange: Range; newRange: Range }[] = []
      let oldAt = 0
      let shift = 0
      for (let run = 0; run < 4; run++) {
        const start = oldAt + random.int(0, 8)
        const oldCount = random.int(0, 4)
        const newCount = random.int(0, 4)
        changes.push({
          oldRange: new Range([start, 0], [start + oldCount, 0]),
          newRange: new Range([start + shift, 0], [start + shift + newCount, 0]),
        })
        shift += newCount - oldCount
        oldAt = start + oldCount + 1
      }
      // Reference: splice the rows from the last run back, so old coordinates stay valid.
      const rows: (number | null)[] = Array.from({ length: 60 }, (_, i) => i)
      for (const { oldRange, newRange } of [...changes].reverse()) {
        const count = newRange.end.row - newRange.start.row
        rows.splice(
          oldRange.start.row,
          oldRange.end.row - oldRange.start.row,
          ...Array(count).fill(null),
        )
      }
      for (let row = 0; row < 60; row++) {
        const index = rows.indexOf(row)
        expect(shiftRow(row, changes), `seed ${seed}, row ${row}`).toBe(index === -1 ? null : index)
      }
    }
  })
})

describe('readTandemMetadata', () => {
  it('takes metadata only for the text it was written with', () => {
    const payload = JSON.stringify({ text: 'a\n', metadata: { fullLine: true } })
    expect(readTandemMetadata('a\n', payload)).toEqual({ fullLine: true })
    expect(readTandemMetadata('b\n', payload)).toBeNull()
    expect(readTandemMetadata('a\n', '{not json')).toBeNull()
    expect(readTandemMetadata('a\n', '')).toBeNull()
  })
})
