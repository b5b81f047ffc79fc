import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { Random, seeds } from '../../../testing/random.js'
import { EditorSearch, type Range, type SearchQuery, TextEditor } from './index.js'
import { connectedEditors } from './testing/peers.js'

const rg = (range: Range | undefined) => range?.serialize()
const ranges = (search: EditorSearch) => search.getMatchRanges().map(rg)

const searchIn = async (text: string, query: SearchQuery) => {
  const editor = new TextEditor({ text })
  const search = new EditorSearch(editor)
  await search.search(query)
  return { editor, search }
}

/** Resolves once the search has re-checked every edit, however many slices that takes. */
const settled = async (search: EditorSearch) => {
  while (search.isSearching()) await new Promise((resolve) => setImmediate(resolve))
}

/**
 * A clock on which every slice of a search is over after its first piece, as on a machine
 * busy elsewhere: what is left waits for a later slice, whatever the machine's speed.
 */
const slowClock = () => {
  let time = 0
  return vi.spyOn(performance, 'now').mockImplementation(() => {
    time += 1_000
    return time
  })
}

describe('EditorSearch: finding', () => {
  it('finds a literal, case-insensitive by default, as Atom', async () => {
    const { search } = await searchIn('Foo foo\nfOO.', { text: 'foo' })
    expect(ranges(search)).toEqual([
      [
        [0, 0],
        [0, 3],
      ],
      [
        [0, 4],
        [0, 7],
      ],
      [
        [1, 0],
        [1, 3],
      ],
    ])
    expect(search.getMatchCount()).toBe(3)
    expect(search.markerLayer.getMarkers()).toHaveLength(3)
  })

  it('has no smart case: an upper-case letter does not make the search case-sensitive', async () => {
    const { search } = await searchIn('Foo foo', { text: 'Foo' })
    expect(search.getMatchCount()).toBe(2)
    await search.search({ text: 'Foo', caseSensitive: true })
    expect(ranges(search)).toEqual([
      [
        [0, 0],
        [0, 3],
      ],
    ])
  })

  it('reads regex characters literally unless regex is set', async () => {
    const { search } = await searchIn('a.c abc a-c', { text: 'a.c' })
    expect(search.getMatchCount()).toBe(1)
    await search.search({ text: 'a.c', regex: true })
    expect(search.getMatchCount()).toBe(3)
    await search.search({ text: 'a-c' })
    expect(search.getMatchCount()).toBe(1)
  })

  it('finds whole words only when asked', async () => {
    const { search } = await searchIn('cat concat cats cat_ cat.', { text: 'cat', wholeWord: true })
    expect(ranges(search)).toEqual([
      [
        [0, 0],
        [0, 3],
      ],
      [
        [0, 21],
        [0, 24],
      ],
    ])
    await search.search({ text: 'c|d', regex: true, wholeWord: true })
    expect(search.getMatchCount()).toBe(0)
  })

  it('runs ^ and $ per line and finds literals across line breaks', async () => {
    const { search } = await searchIn('ab\nab\r\nxab', { text: '^ab$', regex: true })
    expect(search.getMatchCount()).toBe(2)
    await search.search({ text: 'b\na' })
    expect(ranges(search)).toEqual([
      [
        [0, 1],
        [1, 1],
      ],
    ])
    await search.search({ text: 'b\\s+\\w', regex: true })
    expect(search.getMatchCount()).toBe(2)
  })

  it('matches non-ASCII text without regard to case, and dashes literally', async () => {
    const { search } = await searchIn('Été été ete a-é', { text: 'été' })
    expect(search.getMatchCount()).toBe(2)
    await search.search({ text: 'a-é' })
    expect(search.getMatchCount()).toBe(1)
  })

  it('re-finds across line breaks after an edit, with a line break typed into a regex or an octal escape', async () => {
    for (const text of ['b\nc', 'b\\12c']) {
      const { editor, search } = await searchIn('ab\nxd', { text, regex: true })
      expect(search.getMatchCount()).toBe(0)
      editor.setTextInBufferRange(
        [
          [1, 0],
          [1, 1],
        ],
        'c',
      )
      await settled(search)
      expect(ranges(search), text).toEqual([
        [
          [0, 1],
          [1, 1],
        ],
      ])
    }
  })

  it('reports a bad regex through getError and finds nothing', async () => {
    const { search } = await searchIn('a(b', { text: 'a', regex: true })
    expect(search.getMatchCount()).toBe(1)
    await expect(search.search({ text: 'a(', regex: true })).resolves.toBeUndefined()
    expect(search.getError()).toMatch(/Invalid regular expression|Unterminated group/)
    expect(search.getMatchCount()).toBe(0)
    expect(search.findNext()).toBeUndefined()
    await search.search({ text: 'a(' })
    expect(search.getError()).toBeUndefined()
    expect(search.getMatchCount()).toBe(1)
  })

  it('finds nothing for empty text and never makes empty matches', async () => {
    const { search } = await searchIn('abc', { text: '' })
    expect(search.getMatchCount()).toBe(0)
    await search.search({ text: 'x*', regex: true })
    expect(search.getMatchCount()).toBe(0)
    await search.search({ text: 'b*', regex: true })
    expect(ranges(search)).toEqual([
      [
        [0, 1],
        [0, 2],
      ],
    ])
  })

  it('searches only inside the selections when inSelection is set', async () => {
    const editor = new TextEditor({ text: 'aaa\naaa\naaa' })
    editor.setSelectedBufferRanges([
      [
        [0, 1],
        [0, 3],
      ],
      [
        [2, 0],
        [2, 2],
      ],
    ])
    const search = new EditorSearch(editor)
    await search.search({ text: 'a', inSelection: true })
    expect(search.getMatchCount()).toBe(4)
    editor.setCursorBufferPosition([0, 0])
    await search.search({ text: 'a', inSelection: true })
    expect(search.getMatchCount()).toBe(9)
  })

  it('keeps getQuery and rejects a query of the wrong shape', async () => {
    const { search } = await searchIn('abc', { text: 'b', regex: false })
    expect(search.getQuery()).toEqual({ text: 'b', regex: false })
    expect(() => search.search({ text: 3 } as unknown as SearchQuery)).toThrow(TypeError)
    expect(() => search.search({ text: 'a', regex: 'yes' } as unknown as SearchQuery)).toThrow(
      /query.regex/,
    )
  })
})

describe('EditorSearch: next and previous', () => {
  it('selects the next match after the selection, wrapping, and centers it', async () => {
    const { editor, search } = await searchIn('ab ab\nab', { text: 'ab' })
    const scrolls: boolean[] = []
    editor.onDidRequestAutoscroll(({ options }) => scrolls.push(options.center === true))
    editor.setCursorBufferPosition([0, 1])
    expect(rg(search.findNext())).toEqual([
      [0, 3],
      [0, 5],
    ])
    expect(search.getCurrentMatchIndex()).toBe(1)
    expect(rg(search.findNext())).toEqual([
      [1, 0],
      [1, 2],
    ])
    expect(rg(search.findNext())).toEqual([
      [0, 0],
      [0, 2],
    ])
    expect(rg(editor.getSelectedBufferRange())).toEqual([
      [0, 0],
      [0, 2],
    ])
    expect(scrolls).toContain(true)
  })

  it('selects the previous match, wrapping', async () => {
    const { editor, search } = await searchIn('ab ab\nab', { text: 'ab' })
    editor.setCursorBufferPosition([0, 4])
    expect(rg(search.findPrevious())).toEqual([
      [0, 0],
      [0, 2],
    ])
    expect(search.getCurrentMatchIndex()).toBe(0)
    expect(rg(search.findPrevious())).toEqual([
      [1, 0],
      [1, 2],
    ])
    expect(search.getCurrentMatchIndex()).toBe(2)
  })

  it('counts the current match only when the selection is exactly a match', async () => {
    const { editor, search } = await searchIn('ab ab', { text: 'ab' })
    let updates = 0
    search.onDidUpdate(() => updates++)
    expect(search.getCurrentMatchIndex()).toBe(-1)
    editor.setSelectedBufferRange([
      [0, 3],
      [0, 5],
    ])
    expect(search.getCurrentMatchIndex()).toBe(1)
    expect(updates).toBe(1)
    editor.setSelectedBufferRange([
      [0, 3],
      [0, 4],
    ])
    expect(search.getCurrentMatchIndex()).toBe(-1)
    expect(updates).toBe(2)
    expect(search.getCurrentMatch()).toBeUndefined()
    search.findNext() // from the end of (0, 3)-(0, 4): wraps around
    expect(rg(search.getCurrentMatch()?.getBufferRange())).toEqual([
      [0, 0],
      [0, 2],
    ])
  })

  it('goes to the next and previous match among many, far apart', async () => {
    const text = `${'x'.repeat(100_000)}ab${'\nab'.repeat(30_000)}${'y'.repeat(100_000)}`
    const { editor, search } = await searchIn(text, { text: 'ab' })
    expect(search.getMatchCount()).toBe(30_001)
    editor.setCursorBufferPosition([0, 0])
    expect(rg(search.findNext())).toEqual([
      [0, 100_000],
      [0, 100_002],
    ])
    expect(rg(search.findPrevious())).toEqual([
      [30_000, 0],
      [30_000, 2],
    ])
    expect(search.getCurrentMatchIndex()).toBe(30_000)
    editor.setCursorBufferPosition([30_000, 50])
    expect(rg(search.findNext())).toEqual([
      [0, 100_000],
      [0, 100_002],
    ])
  })
})

describe('EditorSearch: replacing', () => {
  it('replaces the selected match, then selects the next one', async () => {
    const { editor, search } = await searchIn('cat cat cat', { text: 'cat' })
    editor.setSelectedBufferRange([
      [0, 4],
      [0, 7],
    ])
    expect(rg(search.replaceNext('dog'))).toEqual([
      [0, 4],
      [0, 7],
    ])
    expect(editor.getText()).toBe('cat dog cat')
    expect(rg(editor.getSelectedBufferRange())).toEqual([
      [0, 8],
      [0, 11],
    ])
    expect(search.getMatchCount()).toBe(2)
    search.replaceNext('dog')
    expect(editor.getText()).toBe('cat dog dog')
    expect(rg(editor.getSelectedBufferRange())).toEqual([
      [0, 0],
      [0, 3],
    ])
  })

  it('replaces the next match when the selection is not one', async () => {
    const { editor, search } = await searchIn('cat cat', { text: 'cat' })
    editor.setCursorBufferPosition([0, 1])
    search.replaceNext('x')
    expect(editor.getText()).toBe('cat x')
  })

  it('does not select a match inside its own replacement', async () => {
    const { editor, search } = await searchIn('a b a', { text: 'a' })
    editor.setSelectedBufferRange([
      [0, 0],
      [0, 1],
    ])
    search.replaceNext('aa')
    expect(editor.getText()).toBe('aa b a')
    expect(rg(editor.getSelectedBufferRange())).toEqual([
      [0, 5],
      [0, 6],
    ])
    expect(search.getMatchCount()).toBe(3)
  })

  it('fills in groups in a regex replacement', async () => {
    const { editor, search } = await searchIn('john smith\njane doe', {
      text: '(?<first>\\w+) (\\w+)',
      regex: true,
    })
    expect(search.replaceAll('$2, $<first> ($&) $$1\\t')).toBe(2)
    expect(editor.getText()).toBe('smith, john (john smith) $1\t\ndoe, jane (jane doe) $1\t')
  })

  it('reads $ in a replacement as String.prototype.replace does', async () => {
    const { editor, search } = await searchIn('ab', { text: '(a)b', regex: true })
    search.replaceAll('[$10|$0|$2|$<x>|$$&|$]')
    expect(editor.getText()).toBe('[a0|$0|$2|$<x>|$&|$]')
  })

  it('replaces literally for a literal query', async () => {
    const { editor, search } = await searchIn('a.b', { text: '.' })
    search.replaceAll('$&\\n')
    expect(editor.getText()).toBe('a$&\\nb')
  })

  it('replaces all in one undo step and returns the count', async () => {
    const { editor, search } = await searchIn('a-a-a\na', { text: 'a' })
    expect(search.replaceAll('bb')).toBe(4)
    expect(editor.getText()).toBe('bb-bb-bb\nbb')
    expect(search.getMatchCount()).toBe(0)
    editor.undo()
    expect(editor.getText()).toBe('a-a-a\na')
    expect(search.getMatchCount()).toBe(4)
  })

  it('respects a read-only editor unless bypassReadOnly is set', async () => {
    const { editor, search } = await searchIn('a a', { text: 'a' })
    const attempts: string[] = []
    editor.onDidAttemptReadOnlyEdit(({ operation }) => attempts.push(operation))
    editor.setReadOnly(true)
    expect(search.replaceAll('b')).toBe(0)
    expect(search.replaceNext('b')).toBeUndefined()
    expect(editor.getText()).toBe('a a')
    expect(attempts).toEqual(['replaceAll', 'replaceNext'])
    expect(search.replaceAll('b', { bypassReadOnly: true })).toBe(2)
    expect(editor.getText()).toBe('b b')
  })

  it('selects every match as its own selection', async () => {
    const { editor, search } = await searchIn('x a x a', { text: 'a' })
    search.selectAllMatches()
    expect(editor.getSelectedBufferRanges().map(rg)).toEqual([
      [
        [0, 2],
        [0, 3],
      ],
      [
        [0, 6],
        [0, 7],
      ],
    ])
  })
})

describe('EditorSearch: following edits', () => {
  it('drops a match an edit breaks and finds one typing makes', async () => {
    const { editor, search } = await searchIn('foo bar\nfo', { text: 'foo' })
    let updates = 0
    search.onDidUpdate(() => updates++)
    expect(search.getMatchCount()).toBe(1)
    editor.setCursorBufferPosition([1, 2])
    editor.insertText('o')
    expect(search.getMatchCount()).toBe(2)
    expect(updates).toBeGreaterThan(0)
    editor.setCursorBufferPosition([0, 1])
    editor.insertText('x')
    expect(ranges(search)).toEqual([
      [
        [1, 0],
        [1, 3],
      ],
    ])
    editor.undo()
    expect(search.getMatchCount()).toBe(2)
  })

  it('follows remote edits', async () => {
    const { a, b } = connectedEditors('one two one')
    const search = new EditorSearch(b)
    await search.search({ text: 'one' })
    expect(search.getMatchCount()).toBe(2)
    a.getBuffer().insert([0, 0], 'none\n')
    expect(ranges(search)).toEqual([
      [
        [0, 1],
        [0, 4],
      ],
      [
        [1, 0],
        [1, 3],
      ],
      [
        [1, 8],
        [1, 11],
      ],
    ])
    a.getBuffer().delete([
      [1, 1],
      [1, 2],
    ])
    expect(search.getMatchCount()).toBe(2)
  })

  it('re-checks the rows around an edit for a literal that spans lines', async () => {
    const { editor, search } = await searchIn('a\na\na\na', { text: 'a\na' })
    expect(search.getMatchCount()).toBe(2)
    editor.getBuffer().insert([0, 0], 'a\n')
    expect(ranges(search)).toEqual([
      [
        [0, 0],
        [1, 1],
      ],
      [
        [2, 0],
        [3, 1],
      ],
    ])
    editor.getBuffer().delete([
      [0, 0],
      [1, 0],
    ])
    expect(search.getMatchCount()).toBe(2)
  })
})

describe('EditorSearch: following edits on a busy machine', () => {
  it('re-checks an edit in one piece when a match it makes runs into the next row', async () => {
    const { editor, search } = await searchIn('x\na\nb\na', { text: 'b\\n+a', regex: true })
    expect(search.getMatchCount()).toBe(1)
    const clock = slowClock()
    try {
      editor.getBuffer().setTextInRange(
        [
          [0, 0],
          [0, 1],
        ],
        'b',
      )
      // Nothing past the new match changed: no slice is left for later, so a slow one cannot
      // leave the matches behind the text.
      expect(search.isSearching()).toBe(false)
      expect(ranges(search)).toEqual([
        [
          [0, 0],
          [1, 1],
        ],
        [
          [2, 0],
          [3, 1],
        ],
      ])
    } finally {
      clock.mockRestore()
    }
  })

  it('finds the match a broken one hid, past the edited rows, in a later slice', async () => {
    const { editor, search } = await searchIn('a\nb\na\nb\na', { text: 'a\nb\na' })
    expect(ranges(search)).toEqual([
      [
        [0, 0],
        [2, 1],
      ],
    ])
    const clock = slowClock()
    try {
      editor.getBuffer().setTextInRange(
        [
          [0, 0],
          [0, 1],
        ],
        'x',
      )
      await settled(search)
      expect(ranges(search)).toEqual([
        [
          [2, 0],
          [4, 1],
        ],
      ])
    } finally {
      clock.mockRestore()
    }
  })
})

describe('EditorSearch: in selection, following edits', () => {
  it('finds what typing makes inside the searched selections only', async () => {
    const editor = new TextEditor({ text: 'ab ab\nab ab' })
    editor.setSelectedBufferRange([
      [0, 0],
      [0, 5],
    ])
    const search = new EditorSearch(editor)
    await search.search({ text: 'ab', inSelection: true })
    expect(search.getMatchCount()).toBe(2)
    editor.getBuffer().insert([0, 2], 'ab')
    expect(search.getMatchCount()).toBe(3)
    editor.getBuffer().insert([1, 0], 'ab')
    expect(search.getMatchCount()).toBe(3)
  })
})

describe('EditorSearch: large documents', () => {
  const bigText = (lines: number) => {
    const row = 'lorem ipsum dolor sit amet, consectetur adipiscing elit sed do eiusmod tempor'
    return Array.from({ length: lines }, (_, i) => (i % 10 === 0 ? `${row} needle` : row)).join(
      '\n',
    )
  }

  it('gives way to timers between slices and reports progress', async () => {
    const editor = new TextEditor({ text: bigText(130_000) }) // about 10 MB
    const search = new EditorSearch(editor)
    let ticks = 0
    let ticking = true
    const tick = () => {
      ticks++
      if (ticking) setTimeout(tick, 0)
    }
    setTimeout(tick, 0)
    let updates = 0
    search.onDidUpdate(() => updates++)
    const done = search.search({ text: 'needle' })
    expect(search.isSearching()).toBe(true)
    const afterFirstSlice = search.getMatchCount()
    expect(afterFirstSlice).toBeLessThan(13_000)
    await done
    ticking = false
    expect(search.getMatchCount()).toBe(13_000)
    expect(updates).toBeGreaterThan(2)
    expect(ticks).toBeGreaterThan(0)
  }, 60_000)

  it('re-checks a keystroke typed at many cursors at once', async () => {
    const editor = new TextEditor({ text: 'item\n'.repeat(10_000) })
    const search = new EditorSearch(editor)
    await search.search({ text: 'items' })
    expect(search.getMatchCount()).toBe(0)
    editor.setSelectedBufferRanges(
      Array.from({ length: 10_000 }, (_, row) => [
        [row, 4],
        [row, 4],
      ]),
    )
    const settled = async () => {
      while (search.isSearching()) await new Promise((resolve) => setTimeout(resolve, 0))
    }
    editor.insertText('s')
    await settled()
    expect(search.getMatchCount()).toBe(10_000)
    editor.insertText('x')
    await settled()
    expect(search.getMatchCount()).toBe(10_000)
    editor.backspace()
    editor.backspace()
    await settled()
    expect(search.getMatchCount()).toBe(0)
  })

  it('yields through a MessageChannel where there is no setImmediate, as in browsers', async () => {
    const editor = new TextEditor({ text: bigText(30_000) })
    const search = new EditorSearch(editor)
    vi.stubGlobal('setImmediate', undefined)
    try {
      const done = search.search({ text: 'needle' })
      expect(search.isSearching()).toBe(true)
      await done
    } finally {
      vi.unstubAllGlobals()
    }
    expect(search.getMatchCount()).toBe(3_000)
  })

  it('stops at maxMatches and says there are more', async () => {
    const editor = new TextEditor({ text: 'a'.repeat(50) })
    const search = new EditorSearch(editor, { maxMatches: 10 })
    await search.search({ text: 'a' })
    expect(search.getMatchCount()).toBe(10)
    expect(search.hasMoreMatches()).toBe(true)
    // Edits go on being re-checked, within the cap.
    editor.getBuffer().setTextInRange(
      [
        [0, 0],
        [0, 50],
      ],
      'b a b',
    )
    expect(search.isSearching()).toBe(false)
    expect(search.getMatchCount()).toBe(1)
    editor.getBuffer().insert([0, 0], 'a\n'.repeat(20))
    expect(search.isSearching()).toBe(false)
    expect(search.getMatchCount()).toBe(10)
  })

  it('cancels a running search, and a new search replaces it', async () => {
    const editor = new TextEditor({ text: bigText(20_000) })
    const search = new EditorSearch(editor)
    const first = search.search({ text: 'needle' })
    search.cancel()
    await first
    expect(search.isSearching()).toBe(false)
    expect(search.getMatchCount()).toBeLessThan(2_000)
    const second = search.search({ text: 'lorem' })
    const third = search.search({ text: 'dolor' })
    await Promise.all([second, third])
    expect(search.getMatchCount()).toBe(20_000)
    expect(search.getQuery()?.text).toBe('dolor')
  })
})

describe('EditorSearch: random edits against a reference', () => {
  const simpleReference = (text: string, needle: string): number => text.split(needle).length - 1

  for (const seed of seeds(3)) {
    it(`finds what a fresh search finds after edits made while it runs (seed ${seed})`, async () => {
      const random = new Random(seed)
      const lines = Array.from({ length: 40_000 }, (_, i) =>
        i % 7 === 0 ? `row ${i} has a needle` : `row ${i} has hay`,
      )
      const { a, b } = connectedEditors(lines.join('\n'))
      const search = new EditorSearch(b)
      const done = search.search({ text: 'needle', caseSensitive: true })
      let edits = 0
      while (search.isSearching()) {
        const editor = random.chance(0.5) ? a : b
        const buffer = editor.getBuffer()
        const row = random.int(0, buffer.getLastRow())
        const column = random.int(0, buffer.lineLengthForRow(row)!)
        if (random.chance(0.5))
          buffer.insert([row, column], random.pick(['needle', 'nee', 'dle\n']))
        else
          buffer.delete([
            [row, column],
            [row, column + random.int(1, 8)],
          ])
        edits++
        await new Promise((resolve) => setTimeout(resolve, 0))
      }
      await done
      expect(edits, `seed ${seed}`).toBeGreaterThan(0)
      expect(search.getMatchCount(), `seed ${seed}`).toBe(simpleReference(b.getText(), 'needle'))
    })
  }

  const QUERIES: SearchQuery[] = [
    { text: 'ab' },
    { text: 'a', caseSensitive: true },
    { text: 'b\na' },
    { text: 'ab', wholeWord: true },
    { text: 'a+b?', regex: true },
    { text: '^b', regex: true },
    { text: 'a\\s*b', regex: true },
    { text: '[ab]{2}$', regex: true },
    { text: 'b\\n+a', regex: true },
    { text: 'a\nb\na' },
  ]
  const ALPHABET = ['a', 'b', 'A', 'B', ' ', '\n', 'ab', '.']

  /** Every non-empty match over the whole text, as a plain RegExp over a string sees it. */
  const reference = (text: string, query: SearchQuery): string[] => {
    const literal = (s: string) => s.replace(/[/\\^$*+?.()|[\]{}]/g, '\\$&')
    let source = query.regex === true ? query.text : literal(query.text)
    if (query.wholeWord === true) source = `\\b(?:${source})\\b`
    const regex = new RegExp(source, `gm${query.caseSensitive === true ? '' : 'i'}`)
    const found: string[] = []
    for (const match of text.matchAll(regex)) {
      if (match[0].length > 0) found.push(`${match.index}:${match.index + match[0].length}`)
    }
    return found
  }

  const offsets = (editor: TextEditor, search: EditorSearch) =>
    search.getMatchRanges().map((range) => {
      const buffer = editor.getBuffer()
      return `${buffer.characterIndexForPosition(range.start)}:${buffer.characterIndexForPosition(range.end)}`
    })

  // Slices run one piece each (a slow clock), so where they stop does not depend on the
  // machine; edits land between them, and the matches are compared once the search settled.
  for (const seed of seeds(12)) {
    it(`matches String.prototype.matchAll after local and remote edits (seed ${seed})`, async () => {
      const random = new Random(seed)
      const { a, b } = connectedEditors(random.string(60, ALPHABET))
      const query = random.pick(QUERIES)
      const search = new EditorSearch(b)
      const clock = slowClock()
      onTestFinished(() => clock.mockRestore())
      await search.search(query)
      for (let step = 0; step < 60; step++) {
        const editor = random.chance(0.5) ? a : b
        const buffer = editor.getBuffer()
        const length = buffer.getLength()
        const start = random.int(0, length)
        const end = Math.min(length, start + random.int(0, random.chance(0.2) ? 20 : 3))
        buffer.setTextInRange(
          [buffer.positionForCharacterIndex(start), buffer.positionForCharacterIndex(end)],
          random.string(random.int(0, 4), ALPHABET),
        )
        // Now and then the next edit comes before the search has caught up with this one.
        if (random.chance(0.3)) continue
        await settled(search)
        expect(
          offsets(b, search),
          `seed ${seed} step ${step} query ${JSON.stringify(query)}`,
        ).toEqual(reference(b.getText(), query))
      }
      await settled(search)
      expect(offsets(b, search), `seed ${seed} at the end`).toEqual(reference(b.getText(), query))
    })
  }
})
