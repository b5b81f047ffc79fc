/**
 * The bracket matcher through the editor as a user drives it: typing (`insertText`, as a view
 * does for each key), Backspace and Enter through the matcher first, and the commands. The
 * cases follow Atom's bracket-matcher spec; the JavaScript ones need the grammar loaded.
 */
import { loadLanguage } from '@tandem/language'
import { beforeAll, describe, expect, it } from 'vitest'
import { Random, seeds } from '../../../testing/random.js'
import {
  BracketMatcher,
  type BracketMatcherOptions,
  Clipboard,
  type Range,
  TextEditor,
} from './index.js'
import { connectedEditors } from './testing/peers.js'

type Position = [number, number]

/** An editor holding `text` (a `|` marks each cursor), with a bracket matcher. */
const setUp = (
  text: string,
  options: { grammar?: string; readOnly?: boolean } = {},
  matcherOptions?: BracketMatcherOptions,
) => {
  const cursors: Position[] = []
  const rows = text.split('\n').map((line, row) => {
    let column = line.indexOf('|')
    while (column >= 0) {
      cursors.push([row, column])
      line = line.slice(0, column) + line.slice(column + 1)
      column = line.indexOf('|')
    }
    return line
  })
  const editor = new TextEditor({ text: rows.join('\n'), ...options })
  editor.getBuffer().clearUndoStack()
  const first = cursors[0] ?? [0, 0]
  editor.setCursorBufferPosition(first)
  for (const cursor of cursors.slice(1)) editor.addCursorAtBufferPosition(cursor)
  const matcher = new BracketMatcher(editor, matcherOptions)
  return { editor, matcher }
}

/** The text with a `|` at each cursor (selections as `[` head-less ranges are not shown). */
const shown = (editor: TextEditor): string => {
  const lines = editor.getText().split('\n')
  const positions = editor
    .getCursorBufferPositions()
    .map((p) => p.toArray())
    .sort((a, b) => b[0]! - a[0]! || b[1]! - a[1]!)
  for (const [row, column] of positions) {
    const line = lines[row!]!
    lines[row!] = `${line.slice(0, column)}|${line.slice(column)}`
  }
  return lines.join('\n')
}

/** Types each character as a view does: `insertText` with `groupUndo`. */
const type = (editor: TextEditor, text: string) => {
  for (const character of text) editor.insertText(character, { groupUndo: true })
}

const ranges = (pair: readonly [Range, Range] | undefined) =>
  pair?.map((range) => range.serialize())

describe('typing an opener', () => {
  it('puts its closer after the cursor', () => {
    for (const [opener, closer] of [
      '()',
      '[]',
      '{}',
      '""',
      "''",
      '``',
      '\u201c\u201d',
      '\u00ab\u00bb',
    ]) {
      const { editor } = setUp('|')
      type(editor, opener!)
      expect(shown(editor)).toBe(`${opener}|${closer}`)
    }
  })

  it('completes before a non-word character, not before a word character', () => {
    const { editor } = setUp('|}\nab')
    type(editor, '{')
    expect(shown(editor)).toBe('{|}}\nab')
    editor.setCursorBufferPosition([1, 1])
    type(editor, '(')
    expect(shown(editor)).toBe('{}}\na(|b')
  })

  it('leaves text of more than one character alone', () => {
    const { editor } = setUp('|')
    editor.insertText('woah(')
    expect(shown(editor)).toBe('woah(|')
  })

  it('does not complete a quote after a word character or the same quote', () => {
    const { editor } = setUp('|')
    type(editor, "don't")
    expect(shown(editor)).toBe("don't|")
    editor.setText('')
    type(editor, 'a "')
    expect(shown(editor)).toBe('a "|"')
    // After the quote just typed over, another quote is not completed.
    type(editor, '"')
    expect(shown(editor)).toBe('a ""|')
    type(editor, '"')
    expect(shown(editor)).toBe('a """|')
  })

  it('completes typographic quotes after a word, as Atom does', () => {
    const { editor } = setUp('said|')
    type(editor, '\u201c')
    expect(shown(editor)).toBe('said\u201c|\u201d')
  })

  it('does not complete an escaped quote, and completes one after an escaped backslash', () => {
    const { editor } = setUp('|')
    type(editor, '"\\""')
    expect(editor.getText()).toBe('"\\""')
    editor.setText('')
    type(editor, '"\\\\"')
    expect(shown(editor)).toBe('"\\\\"|')
    editor.setText('')
    type(editor, '"\\\\\\"')
    expect(shown(editor)).toBe('"\\\\\\"|"')
  })

  it('is one undo step, apart from the typing before it', () => {
    const { editor } = setUp('|', {}, {})
    editor.insertText('f')
    type(editor, '(')
    expect(shown(editor)).toBe('f(|)')
    editor.undo()
    expect(shown(editor)).toBe('f|')
    editor.redo()
    expect(shown(editor)).toBe('f(|)')
  })

  it('does nothing more with autoClose off', () => {
    const { editor, matcher } = setUp('|}', {}, { autoClose: false })
    type(editor, '{')
    expect(shown(editor)).toBe('{|}')
    expect(matcher.backspace()).toBe(false)
  })

  it('uses the pairs given', () => {
    const { editor } = setUp('|', {}, { pairs: ['<>'] })
    type(editor, '<(')
    expect(shown(editor)).toBe('<(|>')
  })

  it('uses per-language pairs', () => {
    const { editor } = setUp('|', {}, { languagePairs: { plaintext: ['()'] } })
    type(editor, '"(')
    expect(shown(editor)).toBe('"(|)')
  })
})

describe('typing a closer', () => {
  it('steps over a closer put in for a typed opener, once', () => {
    const { editor } = setUp('|')
    type(editor, '(')
    editor.setCursorBufferPosition([0, 1])
    type(editor, ')')
    expect(shown(editor)).toBe('()|')
    editor.setCursorBufferPosition([0, 1])
    type(editor, ')')
    expect(shown(editor)).toBe('()|)')
  })

  it('types a closer that was there before', () => {
    const { editor } = setUp('(|)x')
    type(editor, ')')
    expect(shown(editor)).toBe('()|)x')
  })

  it('steps over after other text, nested and mixed', () => {
    const { editor } = setUp('|')
    type(editor, '(ok cool)')
    expect(shown(editor)).toBe('(ok cool)|')
    editor.setText('')
    type(editor, '(1(2')
    expect(shown(editor)).toBe('(1(2|))')
    type(editor, '))')
    expect(shown(editor)).toBe('(1(2))|')
    editor.setText('')
    type(editor, '(})')
    expect(shown(editor)).toBe('(})|')
    editor.setText('')
    type(editor, '"ok"')
    expect(shown(editor)).toBe('"ok"|')
  })

  it('remembers the last few hundred closers put in, not a whole session of them', () => {
    const { editor } = setUp('|')
    type(editor, '('.repeat(300))
    type(editor, ')'.repeat(300))
    // The 256 innermost closers are stepped over; the 44 outermost were forgotten.
    expect(editor.getText()).toBe('('.repeat(300) + ')'.repeat(344))
  })

  it('always steps over with alwaysSkipClosingPairs', () => {
    const { editor } = setUp('(|)', {}, { alwaysSkipClosingPairs: true })
    type(editor, ')')
    expect(shown(editor)).toBe('()|')
  })
})

describe('typing an opener with text selected', () => {
  it('wraps the selection and keeps it selected, reversed or not', () => {
    const { editor } = setUp('text')
    editor.setSelectedBufferRange(
      [
        [0, 0],
        [0, 4],
      ],
      { reversed: true },
    )
    type(editor, '(')
    expect(editor.getText()).toBe('(text)')
    expect(editor.getSelectedBufferRange().serialize()).toEqual([
      [0, 1],
      [0, 5],
    ])
    expect(editor.getLastSelection().isReversed()).toBe(true)
    editor.undo()
    expect(editor.getText()).toBe('text')
  })

  it('wraps several lines', () => {
    const { editor } = setUp('text\nabcd')
    editor.selectAll()
    type(editor, '"')
    expect(editor.getText()).toBe('"text\nabcd"')
    expect(editor.getSelectedBufferRange().serialize()).toEqual([
      [0, 1],
      [1, 4],
    ])
  })

  it('wraps every non-empty selection and types nothing at empty ones, as Atom', () => {
    const { editor } = setUp('ab cd |ef')
    editor.addSelectionForBufferRange([
      [0, 0],
      [0, 2],
    ])
    type(editor, '[')
    expect(editor.getText()).toBe('[ab] cd ef')
  })

  it('replaces the selection with wrapSelections off', () => {
    const { editor } = setUp('text', {}, { wrapSelections: false })
    editor.selectAll()
    type(editor, '(')
    expect(shown(editor)).toBe('(|)')
  })
})

describe('what is not typing', () => {
  it('a paste inserts the clipboard as it is', () => {
    const clipboard = new Clipboard()
    const editor = new TextEditor({ clipboard })
    new BracketMatcher(editor)
    clipboard.write('(')
    editor.pasteText()
    expect(shown(editor)).toBe('(|')
  })

  it('onWillInsertText names the call and its options', () => {
    const clipboard = new Clipboard()
    const editor = new TextEditor({ clipboard })
    const seen: string[] = []
    editor.onWillInsertText(({ text, source, options }) => {
      seen.push(`${source} ${text} ${JSON.stringify(options)}`)
    })
    editor.insertText('a', { groupUndo: true })
    clipboard.write('b')
    editor.pasteText({ autoIndent: false })
    expect(seen).toEqual(['insertText a {"groupUndo":true}', 'pasteText b {"autoIndent":false}'])
  })

  it('IME composition text (select) and undo: skip are left alone', () => {
    const { editor } = setUp('|')
    editor.insertText('(', { select: true })
    expect(editor.getText()).toBe('(')
    editor.setText('')
    editor.insertText('(', { undo: 'skip' })
    expect(editor.getText()).toBe('(')
  })

  it('a program calling insertText with one opener gets a pair, as in Atom', () => {
    const { editor } = setUp('|')
    expect(editor.insertText('[')).toBe(false)
    expect(shown(editor)).toBe('[|]')
  })

  it('a matcher ends with its editor', () => {
    const { editor, matcher } = setUp('(|)')
    type(editor, '[')
    editor.destroy()
    expect(matcher.matchingBracketRanges()).toBeUndefined()
    matcher.destroy()
  })

  it('a destroyed matcher does nothing', () => {
    const { editor, matcher } = setUp('|')
    matcher.destroy()
    matcher.destroy()
    type(editor, '(')
    expect(shown(editor)).toBe('(|')
    expect(matcher.matchingBracketRanges()).toBeUndefined()
  })
})

describe('read-only editors', () => {
  it('change nothing', () => {
    const { editor, matcher } = setUp('(|)', { readOnly: true })
    const attempts: string[] = []
    editor.onDidAttemptReadOnlyEdit(({ operation }) => attempts.push(operation))
    type(editor, '[')
    expect(matcher.backspace()).toBe(false)
    expect(matcher.newline()).toBe(false)
    matcher.removeBrackets()
    expect(matcher.removeBracketsFromSelection()).toBe(false)
    expect(shown(editor)).toBe('(|)')
    expect(attempts).toEqual(['insertText', 'removeBrackets', 'removeBracketsFromSelection'])
  })

  it('still match and move', () => {
    const { editor, matcher } = setUp('(a|)', { readOnly: true })
    expect(ranges(matcher.matchingBracketRanges())).toEqual([
      [
        [0, 2],
        [0, 3],
      ],
      [
        [0, 0],
        [0, 1],
      ],
    ])
    matcher.goToMatchingBracket()
    expect(shown(editor)).toBe('(|a)')
  })
})

describe('many cursors', () => {
  it('complete and step over at every cursor when the rule holds at each', () => {
    const { editor } = setUp('a |\nb |')
    type(editor, '(')
    expect(shown(editor)).toBe('a (|)\nb (|)')
    type(editor, 'x)')
    expect(shown(editor)).toBe('a (x)|\nb (x)|')
    editor.undo()
    editor.undo()
    expect(shown(editor)).toBe('a |\nb |')
  })

  it('insert as typed when the rule fails at one cursor', () => {
    const { editor } = setUp('()\na|b\n[]\n1|2')
    editor.addCursorAtBufferPosition([0, 1])
    editor.addCursorAtBufferPosition([2, 1])
    type(editor, ')')
    expect(editor.getText()).toBe('())\na)b\n[)]\n1)2')
    editor.setText('x \ny')
    editor.setCursorBufferPosition([0, 2])
    editor.addCursorAtBufferPosition([1, 1])
    type(editor, "'")
    expect(shown(editor)).toBe("x '|\ny'|")
  })

  it('delete empty pairs and split pairs at every cursor', () => {
    // Plain text has no indentation rules: the new rows keep the row's indentation.
    const { editor, matcher } = setUp('  {|}\n  [|]')
    expect(matcher.newline()).toBe(true)
    expect(shown(editor)).toBe('  {\n  |\n  }\n  [\n  |\n  ]')
    editor.undo()
    expect(shown(editor)).toBe('  {|}\n  [|]')
    expect(matcher.backspace()).toBe(true)
    expect(shown(editor)).toBe('  |\n  |')
    editor.undo()
    expect(shown(editor)).toBe('  {|}\n  [|]')
  })
})

describe('backspace and enter', () => {
  it('backspace deletes an empty pair, and only that', () => {
    const { editor, matcher } = setUp('f|')
    type(editor, '(')
    expect(matcher.backspace()).toBe(true)
    expect(shown(editor)).toBe('f|')
    editor.setText('(|a)')
    editor.setCursorBufferPosition([0, 1])
    expect(matcher.backspace()).toBe(false)
    editor.setText('"\\(")')
    editor.setCursorBufferPosition([0, 3])
    expect(matcher.backspace()).toBe(false)
  })

  it('backspace deletes an empty pair that was typed as two characters, as Atom', () => {
    const { editor, matcher } = setUp('[|]')
    expect(matcher.backspace()).toBe(true)
    expect(shown(editor)).toBe('|')
  })

  it('enter between a pair puts the closer on its own line', () => {
    const { editor, matcher } = setUp('function f() {|}')
    expect(matcher.newline()).toBe(true)
    expect(shown(editor)).toBe('function f() {\n|\n}')
    editor.undo()
    expect(shown(editor)).toBe('function f() {|}')
    editor.setText('"|"')
    editor.setCursorBufferPosition([0, 1])
    expect(matcher.newline()).toBe(false)
  })

  it('enter does not apply with a selection', () => {
    const { editor, matcher } = setUp('{}')
    editor.selectAll()
    expect(matcher.newline()).toBe(false)
    expect(matcher.backspace()).toBe(false)
  })
})

describe('matching brackets', () => {
  it('finds the partner of the bracket after the cursor, else before it', () => {
    const { editor, matcher } = setUp('|((1 + 1) * 2)')
    expect(ranges(matcher.matchingBracketRanges())).toEqual([
      [
        [0, 0],
        [0, 1],
      ],
      [
        [0, 12],
        [0, 13],
      ],
    ])
    editor.setCursorBufferPosition([0, 1])
    expect(ranges(matcher.matchingBracketRanges())?.[0]).toEqual([
      [0, 1],
      [0, 2],
    ])
    editor.setCursorBufferPosition([0, 2])
    expect(ranges(matcher.matchingBracketRanges())?.[1]).toEqual([
      [0, 7],
      [0, 8],
    ])
    editor.setCursorBufferPosition([0, 4])
    expect(matcher.matchingBracketRanges()).toBeUndefined()
  })

  it('finds nothing for unpaired brackets, quotes or a selection', () => {
    const { editor, matcher } = setUp('|(()')
    expect(matcher.matchingBracketRanges()).toBeUndefined()
    editor.setCursorBufferPosition([0, 2])
    expect(ranges(matcher.matchingBracketRanges())?.[1]).toEqual([
      [0, 2],
      [0, 3],
    ])
    editor.setText("'hello'")
    editor.setCursorBufferPosition([0, 0])
    expect(matcher.matchingBracketRanges()).toBeUndefined()
    editor.setText('(x)')
    editor.selectAll()
    expect(matcher.matchingBracketRanges()).toBeUndefined()
  })

  it('looks past a quote next to the cursor', () => {
    const { matcher } = setUp('(|"x")')
    expect(ranges(matcher.matchingBracketRanges())?.[1]).toEqual([
      [0, 4],
      [0, 5],
    ])
  })

  it('matches across rows', () => {
    const { matcher } = setUp('{|\n  a\n}')
    expect(ranges(matcher.matchingBracketRanges())?.[1]).toEqual([
      [2, 0],
      [2, 1],
    ])
  })

  it('tells when the match may have changed', () => {
    const { editor, matcher } = setUp('(a)|')
    let calls = 0
    const subscription = matcher.onDidChangeMatch(() => calls++)
    editor.moveLeft()
    expect(calls).toBeGreaterThan(0)
    calls = 0
    editor.getBuffer().insert([0, 0], '(')
    expect(calls).toBeGreaterThan(0)
    subscription.dispose()
    calls = 0
    editor.moveLeft()
    expect(calls).toBe(0)
  })

  it('gives up beyond the scan limit', () => {
    const { editor, matcher } = setUp(`|(\n${'\n'.repeat(10_001)})`)
    expect(matcher.matchingBracketRanges()).toBeUndefined()
    editor.setText(`(\n${'\n'.repeat(9_999)})`)
    editor.setCursorBufferPosition([0, 0])
    expect(ranges(matcher.matchingBracketRanges())?.[1]).toEqual([
      [10_000, 0],
      [10_000, 1],
    ])
  })
})

describe('commands', () => {
  it('go to matching bracket: before or after a bracket, else the enclosing one', () => {
    const { editor, matcher } = setUp('f(a, |(b)) {\n  x|\n}')
    matcher.goToMatchingBracket()
    expect(shown(editor)).toBe('f(a, (b)|) |{\n  x\n}')
    matcher.goToMatchingBracket()
    expect(shown(editor)).toBe('f(a, |(b)) {\n  x\n}|')
    editor.setCursorBufferPosition([0, 3])
    matcher.goToMatchingBracket()
    expect(shown(editor)).toBe('f|(a, (b)) {\n  x\n}')
    editor.setCursorBufferPosition([0, 0])
    matcher.goToMatchingBracket()
    expect(shown(editor)).toBe('|f(a, (b)) {\n  x\n}')
  })

  it('go to enclosing bracket, at every cursor', () => {
    const { editor, matcher } = setUp('f(a, [b|]) {\n  x|\n}\n|')
    matcher.goToEnclosingBracket()
    expect(shown(editor)).toBe('f(a, |[b]) |{\n  x\n}\n|')
  })

  it('select inside brackets, at every cursor', () => {
    const { editor, matcher } = setUp('f(a, b) [c|d] {|e}')
    matcher.selectInsideBrackets()
    expect(editor.getSelectedBufferRanges().map((r) => r.serialize())).toEqual([
      [
        [0, 9],
        [0, 11],
      ],
      [
        [0, 14],
        [0, 15],
      ],
    ])
    editor.setCursorBufferPosition([0, 7])
    matcher.selectInsideBrackets()
    expect(editor.getSelectedText()).toBe('a, b')
  })

  it('select matching brackets, then type a bracket to change the pair', () => {
    const { editor, matcher } = setUp('f|(a, [b])')
    matcher.selectMatchingBrackets()
    expect(editor.getSelectedBufferRanges().map((r) => r.serialize())).toEqual([
      [
        [0, 1],
        [0, 2],
      ],
      [
        [0, 8],
        [0, 9],
      ],
    ])
    type(editor, ']')
    expect(shown(editor)).toBe('f[|a, [b]]|')
    editor.undo()
    expect(editor.getText()).toBe('f(a, [b])')
    editor.setCursorBufferPosition([0, 1])
    matcher.selectMatchingBrackets()
    editor.setCursorBufferPosition([0, 8])
    type(editor, '{')
    expect(shown(editor)).toBe('f(a, [b]{|})')
  })

  it('remove brackets deletes a bracket and its partner, else backspaces', () => {
    const { editor, matcher } = setUp('f(a, (b)|)')
    matcher.removeBrackets()
    expect(shown(editor)).toBe('f(a, b|)')
    editor.setCursorBufferPosition([0, 2])
    matcher.removeBrackets()
    expect(shown(editor)).toBe('f|a, b')
    editor.undo()
    expect(shown(editor)).toBe('f(|a, b)')
    editor.setCursorBufferPosition([0, 4])
    matcher.removeBrackets()
    expect(shown(editor)).toBe('f(a| b)')
  })

  it('remove brackets backspaces as the editor does where there is no pair', () => {
    const { editor, matcher } = setUp('  |x\n|(y)')
    matcher.removeBrackets()
    expect(shown(editor)).toBe('|x|(y)')
    editor.setText('(a)\n  b')
    editor.setCursorBufferPosition([0, 3])
    editor.addCursorAtBufferPosition([1, 2])
    matcher.removeBrackets()
    expect(shown(editor)).toBe('a|\n|b')
    editor.undo()
    expect(editor.getText()).toBe('(a)\n  b')
  })

  it('remove brackets across rows, and with the bracket selected', () => {
    const { editor, matcher } = setUp('{|\n  a\n}')
    matcher.removeBrackets()
    expect(shown(editor)).toBe('|\n  a\n')
    editor.setText('x = (y)')
    editor.setSelectedBufferRange([
      [0, 6],
      [0, 7],
    ])
    matcher.removeBrackets()
    expect(shown(editor)).toBe('x = y|')
  })

  it('remove brackets from a selection keeps the inside selected', () => {
    const { editor, matcher } = setUp('it "does something", :meta => true')
    editor.setSelectedBufferRange([
      [0, 3],
      [0, 19],
    ])
    expect(matcher.removeBracketsFromSelection()).toBe(true)
    expect(editor.getText()).toBe('it does something, :meta => true')
    expect(editor.getSelectedText()).toBe('does something')
    editor.setText('it ("does something" do\nend)')
    editor.setSelectedBufferRange([
      [0, 3],
      [1, 4],
    ])
    expect(matcher.removeBracketsFromSelection()).toBe(true)
    expect(editor.getText()).toBe('it "does something" do\nend')
    expect(editor.getSelectedText()).toBe('"does something" do\nend')
    editor.setText('"woah(')
    editor.selectAll()
    expect(matcher.removeBracketsFromSelection()).toBe(false)
  })
})

describe('JavaScript', () => {
  beforeAll(() => loadLanguage('javascript'), 60_000)

  const js = (text: string, matcherOptions?: BracketMatcherOptions) =>
    setUp(text, { grammar: 'javascript' }, matcherOptions)

  it('skips brackets in comments', () => {
    const { editor, matcher } = js('|(//)')
    expect(matcher.matchingBracketRanges()).toBeUndefined()
    editor.setText('[/*]*/]')
    editor.setCursorBufferPosition([0, 0])
    expect(ranges(matcher.matchingBracketRanges())?.[1]).toEqual([
      [0, 6],
      [0, 7],
    ])
    editor.setCursorBufferPosition([0, 3])
    expect(matcher.matchingBracketRanges()).toBeUndefined()
  })

  it('skips brackets in strings and regular expressions', () => {
    const { editor, matcher } = js("(')')")
    expect(ranges(matcher.matchingBracketRanges())?.[1]).toEqual([
      [0, 4],
      [0, 5],
    ])
    editor.setCursorBufferPosition([0, 2])
    expect(matcher.matchingBracketRanges()).toBeUndefined()
    editor.setText('(/[)]/)')
    editor.setCursorBufferPosition([0, 7])
    expect(ranges(matcher.matchingBracketRanges())?.[1]).toEqual([
      [0, 0],
      [0, 1],
    ])
  })

  it('matches brackets in code embedded in a template string', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source with a template string
    const { editor, matcher } = js("(`${('(1+1)')}`)")
    expect(ranges(matcher.matchingBracketRanges())?.[1]).toEqual([
      [0, 15],
      [0, 16],
    ])
    editor.setCursorBufferPosition([0, 4])
    expect(ranges(matcher.matchingBracketRanges())?.[1]).toEqual([
      [0, 12],
      [0, 13],
    ])
    editor.setCursorBufferPosition([0, 6])
    expect(matcher.matchingBracketRanges()).toBeUndefined()
  })

  it('completes backticks and quotes in code', () => {
    const { editor } = js('const a = |')
    type(editor, '`')
    expect(shown(editor)).toBe('const a = `|`')
    type(editor, '${')
    // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source with a template string
    expect(shown(editor)).toBe('const a = `${|}`')
  })

  it('does not complete what is typed inside strings and comments, unless told to as Atom does', () => {
    const { editor } = js('const s = "a |" // b |')
    type(editor, "'")
    expect(shown(editor)).toBe(`const s = "a '|" // b '|`)
    type(editor, '(')
    expect(shown(editor)).toBe(`const s = "a '(|" // b '(|`)

    const after = js('f("a"|) /* c */|')
    type(after.editor, '[')
    expect(shown(after.editor)).toBe('f("a"[|]) /* c */[|]')

    const atom = js('const s = "a |" // b |', { closeInStringsAndComments: true })
    type(atom.editor, "'")
    expect(shown(atom.editor)).toBe(`const s = "a '|'" // b '|'`)
  })

  it('enter inside braces indents the new line', () => {
    const { editor, matcher } = js('if (a) {|}')
    expect(matcher.newline()).toBe(true)
    expect(shown(editor)).toBe('if (a) {\n  |\n}')
  })
})

describe('remote edits', () => {
  it('a closer still steps over after a peer edits elsewhere', () => {
    const { a, b } = connectedEditors('x')
    const matcher = new BracketMatcher(b)
    b.setCursorBufferPosition([0, 1])
    type(b, '(')
    a.getBuffer().insert([0, 0], 'let ')
    a.getBuffer().insert([0, 7], ' end')
    expect(shown(b)).toBe('let x(|) end')
    type(b, 'y)')
    expect(shown(b)).toBe('let x(y)| end')
    expect(a.getText()).toBe('let x(y) end')
    matcher.destroy()
  })

  it('a closer typed after a peer typed at the cursor is typed', () => {
    const { a, b } = connectedEditors('')
    new BracketMatcher(b)
    type(b, '(')
    a.getBuffer().insert([0, 1], 'z')
    expect(shown(b)).toBe('(|z)')
    type(b, ')')
    expect(shown(b)).toBe('()|z)')
  })

  it('undo takes back only the pair, never the peer', () => {
    const { a, b } = connectedEditors('')
    new BracketMatcher(b)
    type(b, '[')
    a.getBuffer().insert([0, 0], 'q = ')
    b.undo()
    expect(a.getText()).toBe('q = ')
  })

  it('the match follows remote edits', () => {
    const { a, b } = connectedEditors('(a)')
    const matcher = new BracketMatcher(b)
    b.setCursorBufferPosition([0, 0])
    let changes = 0
    matcher.onDidChangeMatch(() => changes++)
    a.getBuffer().insert([0, 2], 'bc')
    expect(changes).toBeGreaterThan(0)
    expect(ranges(matcher.matchingBracketRanges())?.[1]).toEqual([
      [0, 4],
      [0, 5],
    ])
  })
})

describe('the remembered match against a fresh search', () => {
  const PIECES = ['(', ')', '[', ']', '{', '}', '"', 'a', ' ', '\n']
  for (const seed of seeds(3)) {
    it(`agree through random typing, moves and remote edits (seed ${seed})`, () => {
      const random = new Random(seed)
      const { a, b } = connectedEditors(random.string(60, PIECES))
      const matcher = new BracketMatcher(b)
      const fresh = () => {
        const probe = new BracketMatcher(b)
        const answer = ranges(probe.matchingBracketRanges())
        probe.destroy()
        return answer
      }
      for (let step = 0; step < 150; step++) {
        const length = b.getText().length
        const choice = random.int(0, 4)
        if (choice === 0) type(b, random.pick(PIECES))
        else if (choice === 1) {
          const at = a.getBuffer().positionForCharacterIndex(random.int(0, length))
          a.getBuffer().insert(at, random.pick(PIECES))
        } else if (choice === 2 && length > 0) {
          const start = random.int(0, length - 1)
          const buffer = a.getBuffer()
          buffer.delete([
            buffer.positionForCharacterIndex(start),
            buffer.positionForCharacterIndex(start + 1),
          ])
        } else if (choice === 3) {
          b.setCursorBufferPosition(b.getBuffer().positionForCharacterIndex(random.int(0, length)))
        } else if (!matcher.backspace()) b.backspace()
        expect(ranges(matcher.matchingBracketRanges()), `step ${step}`).toEqual(fresh())
        expect(a.getText()).toBe(b.getText())
      }
    })
  }
})
