/**
 * The view's plain-data parts in Node: keystroke notation, Atom's default bindings against
 * the command table, the row cache's shifting through display changes, and clipboard metadata.
 */
import { Range } from '@tandem/text'
import { describe, expect, it } from 'vitest'
import { Random, seeds } from '../../../testing/random.js'
import { readTandemMetadata } from './clipboard.js'
import { EDITOR_COMMANDS } from './commands.js'
import {
  ATOM_KEYMAP,
  buildKeymap,
  CHORD_TIMEOUT,
  ChordResolver,
  keystrokeForEvent,
  readableKeystrokes,
} from './keymap.js'
import { shiftRow } from './lines.js'
import { VIEW_COMMANDS } from './view-commands.js'

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
    expect(keystrokeForEvent(event('F3', { shift: true }))).toBe('shift-f3')
    expect(keystrokeForEvent(event('+', { ctrl: true, shift: true }))).toBe('ctrl-+')
    expect(keystrokeForEvent(event('-', { ctrl: true }))).toBe('ctrl--')
    expect(keystrokeForEvent(event('{', { ctrl: true, alt: true, shift: true }))).toBe('ctrl-alt-{')
    expect(keystrokeForEvent(event('Enter', { ctrl: true, shift: true }))).toBe('ctrl-shift-enter')
  })

  it("holds Atom's Linux bindings for finding, lines, folding, chords and the font size", () => {
    expect(ATOM_KEYMAP).toMatchObject({
      'ctrl-f': 'find-and-replace:show',
      f3: 'find-and-replace:find-next',
      'shift-f3': 'find-and-replace:find-previous',
      'ctrl-d': 'find-and-replace:select-next',
      'ctrl-u': 'find-and-replace:select-undo',
      'ctrl-k ctrl-d': 'find-and-replace:select-skip',
      'alt-f3': 'find-and-replace:select-all',
      'ctrl-g': 'go-to-line:toggle',
      'ctrl-m': 'bracket-matcher:go-to-matching-bracket',
      'ctrl-up': 'editor:move-line-up',
      'ctrl-down': 'editor:move-line-down',
      'ctrl-shift-d': 'editor:duplicate-lines',
      'ctrl-shift-enter': 'editor:newline-above',
      'ctrl-alt-[': 'editor:fold-current-row',
      'ctrl-alt-]': 'editor:unfold-current-row',
      'ctrl-k ctrl-u': 'editor:upper-case',
      'ctrl-k ctrl-l': 'editor:lower-case',
      'ctrl-k ctrl-0': 'editor:unfold-all',
      'ctrl-k ctrl-3': 'editor:fold-at-indent-level-3',
      'ctrl-=': 'window:increase-font-size',
      'ctrl--': 'window:decrease-font-size',
      'ctrl-0': 'window:reset-font-size',
    })
  })

  it('reads keystrokes out as people write them', () => {
    expect(readableKeystrokes('ctrl-k ctrl-u')).toBe('Ctrl+K Ctrl+U')
    expect(readableKeystrokes('ctrl-shift-f3')).toBe('Ctrl+Shift+F3')
    expect(readableKeystrokes('ctrl--')).toBe('Ctrl+-')
    expect(readableKeystrokes('ctrl-alt-[')).toBe('Ctrl+Alt+[')
    expect(readableKeystrokes('pagedown')).toBe('PageDown')
  })

  it('binds only commands the view knows, and overrides add or unbind', () => {
    const known = { ...EDITOR_COMMANDS, ...VIEW_COMMANDS }
    for (const command of Object.values(ATOM_KEYMAP)) {
      expect(known, String(command)).toHaveProperty([command as string])
    }
    const keymap = buildKeymap({ 'ctrl-l': null, 'ctrl-d': 'editor:delete-line' })
    expect(keymap.get('ctrl-l')).toBeUndefined()
    expect(keymap.get('ctrl-d')).toBe('editor:delete-line')
    expect(keymap.get('ctrl-shift-k')).toBe('editor:delete-line')
  })
})

describe('ChordResolver', () => {
  const keymap = new Map([
    ['ctrl-k ctrl-u', 'editor:upper-case'],
    ['ctrl-k ctrl-d', 'find-and-replace:select-skip'],
    ['ctrl-d', 'find-and-replace:select-next'],
    ['ctrl-x ctrl-y ctrl-z', 'three'],
    ['ctrl-x', 'cut'],
    ['escape', 'editor:consolidate-selections'],
  ])

  it('runs a one-keystroke binding at once and lets unbound keys go on', () => {
    const chords = new ChordResolver(keymap)
    expect(chords.press('ctrl-d', 0)).toEqual({
      kind: 'command',
      command: 'find-and-replace:select-next',
      keystrokes: 'ctrl-d',
    })
    expect(chords.press('a', 1)).toEqual({ kind: 'none', keystrokes: 'a' })
    expect(chords.getPending()).toBeNull()
  })

  it('waits after the first keystroke of a chord and runs the chord on the second', () => {
    const chords = new ChordResolver(keymap)
    expect(chords.press('ctrl-k', 100)).toEqual({ kind: 'pending', keystrokes: 'ctrl-k' })
    expect(chords.getPending()).toBe('ctrl-k')
    expect(chords.getDeadline()).toBe(100 + CHORD_TIMEOUT)
    expect(chords.press('ctrl-u', 600)).toEqual({
      kind: 'command',
      command: 'editor:upper-case',
      keystrokes: 'ctrl-k ctrl-u',
    })
    expect(chords.getPending()).toBeNull()
    chords.press('ctrl-k', 700)
    expect(chords.press('ctrl-d', 800)).toMatchObject({ command: 'find-and-replace:select-skip' })
  })

  it('follows chords of three keystrokes; the deadline runs from the first', () => {
    const chords = new ChordResolver(keymap)
    expect(chords.press('ctrl-x', 0).kind).toBe('pending')
    expect(chords.press('ctrl-y', 500)).toEqual({ kind: 'pending', keystrokes: 'ctrl-x ctrl-y' })
    expect(chords.getDeadline()).toBe(CHORD_TIMEOUT)
    expect(chords.press('ctrl-z', 900)).toMatchObject({ kind: 'command', command: 'three' })
  })

  it('escape cancels a pending chord and runs nothing', () => {
    const chords = new ChordResolver(keymap)
    chords.press('ctrl-k', 0)
    expect(chords.press('escape', 10)).toEqual({ kind: 'cancelled', keystrokes: 'ctrl-k escape' })
    expect(chords.getPending()).toBeNull()
    expect(chords.press('escape', 20)).toMatchObject({ command: 'editor:consolidate-selections' })
  })

  it('a keystroke that continues no chord ends it and counts on its own', () => {
    const chords = new ChordResolver(keymap)
    chords.press('ctrl-k', 0)
    expect(chords.press('a', 10)).toEqual({ kind: 'none', keystrokes: 'a' })
    expect(chords.getPending()).toBeNull()
    chords.press('ctrl-k', 20)
    expect(chords.press('ctrl-d', 30)).toMatchObject({ command: 'find-and-replace:select-skip' })
    chords.press('ctrl-k', 40)
    // ctrl-d is no continuation here: ctrl-k ctrl-k ends the first chord and starts another.
    expect(chords.press('ctrl-k', 50)).toEqual({ kind: 'pending', keystrokes: 'ctrl-k' })
    expect(chords.getDeadline()).toBe(50 + CHORD_TIMEOUT)
  })

  it('times out: a late second keystroke counts on its own, and expire runs what was typed', () => {
    const chords = new ChordResolver(keymap)
    chords.press('ctrl-k', 0)
    expect(chords.expire(CHORD_TIMEOUT - 1)).toBeNull()
    expect(chords.press('ctrl-u', CHORD_TIMEOUT)).toEqual({ kind: 'none', keystrokes: 'ctrl-u' })
    chords.press('ctrl-k', 5000)
    expect(chords.expire(5000 + CHORD_TIMEOUT)).toEqual({ kind: 'none', keystrokes: 'ctrl-k' })
    expect(chords.getPending()).toBeNull()
    // ctrl-x is bound and begins a chord: it waits, and runs when the wait is over.
    expect(chords.press('ctrl-x', 9000).kind).toBe('pending')
    expect(chords.expire(9000 + CHORD_TIMEOUT)).toEqual({
      kind: 'command',
      command: 'cut',
      keystrokes: 'ctrl-x',
    })
    expect(chords.expire(99_999)).toBeNull()
  })

  it("resolves Atom's keymap the same as a reference that tries every binding", () => {
    const map = buildKeymap()
    const strokes = [...new Set([...map.keys()].flatMap((k) => k.split(' ')))]
    strokes.push('a', 'escape')
    for (const seed of seeds(10)) {
      const random = new Random(seed)
      const chords = new ChordResolver(map)
      let typed: string[] = []
      let since = 0
      let now = 0
      for (let step = 0; step < 200; step++) {
        const stroke = strokes[random.int(0, strokes.length - 1)]!
        now += random.int(0, 3) === 0 ? CHORD_TIMEOUT : 10
        const got = chords.press(stroke, now)
        if (typed.length > 0 && now >= since + CHORD_TIMEOUT) typed = []
        // Reference: what the keystrokes typed so far (within the wait) and this one are.
        const isPrefix = (keys: string) => [...map.keys()].some((k) => k.startsWith(`${keys} `))
        const expected = (keys: string[]): string => {
          const joined = keys.join(' ')
          if (isPrefix(joined)) return `pending ${joined}`
          if (map.has(joined)) return `command ${map.get(joined)}`
          return 'none'
        }
        let want: string
        if (typed.length > 0 && stroke === 'escape') want = 'cancelled'
        else if (typed.length > 0 && expected([...typed, stroke]) !== 'none') {
          want = expected([...typed, stroke])
        } else want = expected([stroke])
        const label = got.kind === 'command' ? `command ${got.command}` : got.kind
        const gotText = got.kind === 'pending' ? `pending ${got.keystrokes}` : label
        expect(gotText, `seed ${seed}, step ${step}`).toBe(want)
        if (got.kind === 'pending' && got.keystrokes.split(' ').length === 1) since = now
        typed = got.kind === 'pending' ? got.keystrokes.split(' ') : []
        if (random.int(0, 5) === 0) {
          now += CHORD_TIMEOUT
          chords.expire(now)
          typed = []
        }
      }
    }
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
