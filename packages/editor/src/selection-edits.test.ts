import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { Random, seeds } from '../../../testing/random.js'
import { Clipboard, type Range, TextEditor } from './index.js'
import { connectedEditors } from './testing/peers.js'

const rg = (range: Range) => range.serialize()
const ranges = (editor: TextEditor) => editor.getSelectedBufferRanges().map(rg)

describe('Selection.insertText and TextEditor.insertText: input', () => {
  it('throws a TypeError for text that is not a string', () => {
    const editor = new TextEditor({ text: 'abc' })
    expect(() => editor.insertText(42 as unknown as string)).toThrow(TypeError)
    expect(() => editor.getLastSelection().insertText(null as unknown as string)).toThrow(TypeError)
    expect(editor.getText()).toBe('abc')
  })

  it('pastes 10 MB in one step', () => {
    const clipboard = new Clipboard()
    const editor = new TextEditor({ text: 'start\n', clipboard })
    const line = `${'x'.repeat(99)}\n`
    const big = line.repeat(100_000)
    clipboard.write(big)
    editor.setCursorBufferPosition([1, 0])
    editor.pasteText()
    expect(editor.getBuffer().getLength()).toBe(6 + big.length)
    expect(editor.getCursorBufferPosition().toArray()).toEqual([100_001, 0])
    editor.undo()
    expect(editor.getText()).toBe('start\n')
  })

  it("turns inserted line endings into the buffer's unless told not to", () => {
    const editor = new TextEditor({ text: 'a\r\nb' })
    editor.setCursorBufferPosition([1, 1])
    editor.insertText('\nc\rd')
    expect(editor.getText()).toBe('a\r\nb\r\nc\r\nd')
    editor.insertText('\ne', { normalizeLineEndings: false })
    expect(editor.getText()).toBe('a\r\nb\r\nc\r\nd\ne')
  })
})

describe('Read-only editors', () => {
  it('refuses text changes without bypassReadOnly and reports each attempt', () => {
    const editor = new TextEditor({ text: 'one two', readOnly: true })
    const attempts: string[] = []
    editor.onDidAttemptReadOnlyEdit(({ operation }) => attempts.push(operation))
    editor.insertText('x')
    editor.getLastSelection().backspace()
    editor.getLastSelection().deleteLine()
    editor.cutSelectedText()
    editor.undo()
    expect(editor.getText()).toBe('one two')
    expect(attempts).toEqual(['insertText', 'backspace', 'deleteLine', 'cutSelectedText', 'undo'])
    editor.insertText('x', { bypassReadOnly: true })
    expect(editor.getText()).toBe('xone two')
    expect(attempts).toHaveLength(5)
  })

  it('still copies', () => {
    const clipboard = new Clipboard()
    const editor = new TextEditor({ text: 'one two', readOnly: true, clipboard })
    editor.setSelectedBufferRange([
      [0, 0],
      [0, 3],
    ])
    editor.copySelectedText()
    expect(clipboard.read()).toBe('one')
  })
})

describe('Typing at many cursors', () => {
  const manyCursors = (count: number) => {
    const doc = new Y.Doc()
    const lines = Array.from({ length: count }, (_, i) => `line ${i}`)
    const editor = new TextEditor({ doc, text: lines.join('\n') })
    for (let row = 1; row < count; row++) {
      editor.addCursorAtBufferPosition([row, 0], { autoscroll: false })
    }
    return { doc, editor, lines }
  }

  it('is one Y transaction and one undo step', () => {
    const { doc, editor, lines } = manyCursors(50)
    let transactions = 0
    doc.on('afterTransaction', () => transactions++)
    editor.insertText('> ')
    expect(transactions).toBe(1)
    expect(editor.getText()).toBe(lines.map((line) => `> ${line}`).join('\n'))
    editor.undo()
    expect(editor.getText()).toBe(lines.join('\n'))
    expect(editor.getCursors()).toHaveLength(50)
  })

  it('fires one cursor event per cursor, after the text changed', () => {
    const { editor } = manyCursors(20)
    const seen: string[] = []
    editor.onDidChangeCursorPosition((event) => {
      seen.push(editor.lineTextForBufferRow(event.newBufferPosition.row)!.slice(0, 1))
    })
    editor.insertText('#')
    expect(seen).toEqual(Array.from({ length: 20 }, () => '#'))
  })
})

describe('Typing at many cursors at once matches typing at each in turn', () => {
  const ALPHABET = ['a', 'é', '\t', ' ', '\u{1F600}', 'xyz', '(']

  /** Two editors on equal texts and cursors; `reference` types selection by selection. */
  const pair = (random: Random) => {
    const rows = random.int(2, 12)
    const text = Array.from({ length: rows }, () => random.string(random.int(0, 8), ALPHABET)).join(
      '\n',
    )
    const make = () => {
      const editor = new TextEditor({ doc: new Y.Doc(), text, autoIndent: random.chance(0.5) })
      const log: string[] = []
      editor.onDidChangeCursorPosition((e) =>
        log.push(
          `cursor ${e.oldBufferPosition}->${e.newBufferPosition} ${e.oldScreenPosition}->${e.newScreenPosition} ${e.textChanged}`,
        ),
      )
      editor.onDidChangeSelectionRange((e) =>
        log.push(`selection ${e.oldBufferRange}->${e.newBufferRange}`),
      )
      editor.onDidRequestAutoscroll((request) => log.push(`scroll ${request.screenRange}`))
      return { editor, log }
    }
    return { fast: make(), reference: make(), rows }
  }

  for (const seed of seeds(10)) {
    it(`for text, selections, markers, events and undo (seed ${seed})`, () => {
      const random = new Random(seed)
      const { fast, reference, rows } = pair(random)
      // Only the reference listens for each insertion, which keeps it on the per-selection path.
      const insertions: string[] = []
      reference.editor.onDidInsertText(({ range }) => insertions.push(`${range}`))
      const cursorRows = Array.from({ length: rows }, (_, row) => row).filter(() =>
        random.chance(0.6),
      )
      if (cursorRows.length < 2) cursorRows.splice(0, cursorRows.length, 0, rows - 1)
      const points = cursorRows.map((row) => {
        const line = fast.editor.lineTextForBufferRow(row)!
        return [row, random.int(0, line.length)] as [number, number]
      })
      const markerRange = [points[0]!, points[points.length - 1]!] as [
        [number, number],
        [number, number],
      ]
      const markers = [fast, reference].map(({ editor }) => {
        editor.setCursorBufferPosition(points[0]!)
        for (const point of points.slice(1)) editor.addCursorAtBufferPosition(point)
        return editor.markBufferRange(markerRange)
      })
      for (const side of [fast, reference]) side.log.length = 0
      for (let keystroke = 0; keystroke < 3; keystroke++) {
        const text = random.string(random.int(1, 3), ALPHABET)
        const fastRanges = fast.editor.insertText(text)
        const referenceRanges = reference.editor.insertText(text)
        expect(String(fastRanges)).toBe(String(referenceRanges))
        expect(String(fastRanges)).toBe(insertions.splice(0).join(','))
        expect(fast.editor.getText()).toBe(reference.editor.getText())
        expect(ranges(fast.editor)).toEqual(ranges(reference.editor))
        expect(fast.log).toEqual(reference.log)
        expect(`${markers[0]!.getBufferRange()}`).toBe(`${markers[1]!.getBufferRange()}`)
      }
      for (const side of [fast, reference]) {
        side.editor.undo()
        side.editor.undo()
      }
      expect(fast.editor.getText()).toBe(reference.editor.getText())
      expect(ranges(fast.editor)).toEqual(ranges(reference.editor))
      fast.editor.redo()
      reference.editor.redo()
      expect(fast.editor.getText()).toBe(reference.editor.getText())
      expect(ranges(fast.editor)).toEqual(ranges(reference.editor))
      // Another peer reading the fast editor's document sees the same text.
      const peer = new TextEditor({ doc: new Y.Doc() })
      Y.applyUpdate(peer.getBuffer().doc, Y.encodeStateAsUpdate(fast.editor.getBuffer().doc))
      expect(peer.getText()).toBe(fast.editor.getText())
    })
  }
})

describe('Undo and redo with selections', () => {
  it('restores the selections from before and after each step', () => {
    const editor = new TextEditor({ text: 'alpha beta gamma' })
    editor.setSelectedBufferRanges([
      [
        [0, 0],
        [0, 5],
      ],
      [
        [0, 11],
        [0, 16],
      ],
    ])
    editor.insertText('X')
    expect(editor.getText()).toBe('X beta X')
    expect(ranges(editor)).toEqual([
      [
        [0, 1],
        [0, 1],
      ],
      [
        [0, 8],
        [0, 8],
      ],
    ])
    editor.setCursorBufferPosition([0, 3])
    editor.undo()
    expect(editor.getText()).toBe('alpha beta gamma')
    expect(ranges(editor)).toEqual([
      [
        [0, 0],
        [0, 5],
      ],
      [
        [0, 11],
        [0, 16],
      ],
    ])
    editor.redo()
    expect(editor.getText()).toBe('X beta X')
    expect(ranges(editor)).toEqual([
      [
        [0, 1],
        [0, 1],
      ],
      [
        [0, 8],
        [0, 8],
      ],
    ])
  })

  it('redo restores the selections as the edit left them, before they merged', () => {
    const editor = new TextEditor({ text: 'abcd' })
    editor.setSelectedBufferRanges([
      [
        [0, 0],
        [0, 2],
      ],
      [
        [0, 3],
        [0, 3],
      ],
    ])
    editor.getCursors()[1]!.moveLeft()
    editor.getSelections()[0]!.deleteSelectedText()
    expect(editor.getCursors()).toHaveLength(1)
    editor.undo()
    expect(editor.getText()).toBe('abcd')
    expect(editor.getCursors()).toHaveLength(2)
    editor.redo()
    expect(editor.getText()).toBe('cd')
    expect(editor.getCursorBufferPositions().map((p) => p.toArray())).toEqual([
      [0, 0],
      [0, 0],
    ])
  })

  it('makes an undo step of an empty insertion that puts the selections back', () => {
    const editor = new TextEditor({ text: 'abc' })
    editor.setCursorBufferPosition([0, 1])
    editor.insertText('')
    editor.setCursorBufferPosition([0, 3])
    editor.undo()
    expect(editor.getText()).toBe('abc')
    expect(editor.getCursorBufferPosition().toArray()).toEqual([0, 1])
  })

  it('a selection brought back by undo reports the moves later edits cause', () => {
    const editor = new TextEditor({ text: 'abc\ndef' })
    editor.addCursorAtBufferPosition([1, 1])
    editor.insertText('x')
    editor.setCursorBufferPosition([0, 0])
    expect(editor.getCursors()).toHaveLength(1)
    editor.undo()
    const restored = editor.getCursors().find((cursor) => cursor.getBufferRow() === 1)!
    const moves: string[] = []
    restored.onDidChangePosition(({ newBufferPosition, textChanged }) =>
      moves.push(`${newBufferPosition} ${textChanged}`),
    )
    editor.getBuffer().insert([0, 0], 'new line\n')
    expect(moves).toEqual(['(2, 1) true'])
  })

  it('puts back a caret left between the halves of a pair by a multi-edit transaction', () => {
    const editor = new TextEditor({ text: 'ab\n\u00e9\u{1F600}c' })
    editor.onDidInsertText(() => {})
    editor.setCursorBufferPosition([0, 1])
    editor.addCursorAtBufferPosition([1, 2])
    editor.insertText('xy')
    editor.insertText('z')
    editor.undo()
    expect(editor.getCursorBufferPositions().map(String)).toEqual(['(0, 3)', '(1, 4)'])
  })

  it("never undoes a remote peer's change, and restores selections on the text after remote edits", () => {
    const { a, b } = connectedEditors('one two three')
    a.setSelectedBufferRange([
      [0, 4],
      [0, 7],
    ])
    a.insertText('TWO')
    b.setCursorBufferPosition([0, 0])
    b.insertText('zero ')
    expect(a.getText()).toBe('zero one TWO three')
    a.undo()
    expect(a.getText()).toBe('zero one two three')
    expect(b.getText()).toBe('zero one two three')
    // The selection comes back on "two", where the remote insertion moved it.
    expect(a.getSelectedBufferRange().serialize()).toEqual([
      [0, 9],
      [0, 12],
    ])
  })
})

describe('Concurrent editing with several selections per peer', () => {
  /**
   * Peers whose updates wait in per-peer inboxes and arrive in random order (each update is
   * delivered whole; Yjs holds back what it cannot apply yet).
   */
  const network = (peerCount: number, random: Random) => {
    const docs = Array.from({ length: peerCount }, () => new Y.Doc())
    const inboxes = docs.map(() => [] as Uint8Array[])
    docs.forEach((doc, from) => {
      doc.on('update', (update: Uint8Array, origin: unknown) => {
        if (origin === 'remote') return
        inboxes.forEach((inbox, to) => {
          if (to !== from) inbox.push(update)
        })
      })
    })
    const deliverSome = () => {
      for (const [to, inbox] of inboxes.entries()) {
        while (inbox.length > 0 && random.chance(0.5)) {
          const [update] = inbox.splice(random.int(0, inbox.length - 1), 1)
          Y.applyUpdate(docs[to]!, update!, 'remote')
        }
      }
    }
    const deliverAll = () => {
      while (inboxes.some((inbox) => inbox.length > 0)) {
        for (const [to, inbox] of inboxes.entries()) {
          const pending = inbox.splice(0)
          for (const update of pending) Y.applyUpdate(docs[to]!, update, 'remote')
        }
      }
    }
    return { docs, deliverSome, deliverAll }
  }

  const step = (editor: TextEditor, random: Random) => {
    const buffer = editor.getBuffer()
    const roll = random.next()
    const somewhere = () => {
      const row = random.int(0, buffer.getLastRow())
      return [row, random.int(0, buffer.lineLengthForRow(row) ?? 0)] as [number, number]
    }
    if (roll < 0.15) editor.addCursorAtBufferPosition(somewhere(), { autoscroll: false })
    else if (roll < 0.25) editor.setSelectedBufferRange([somewhere(), somewhere()])
    else if (roll < 0.5) editor.insertText(random.string(random.int(1, 4), ['a', 'b', ' ', '\n']))
    else if (roll < 0.6) editor.backspace()
    else if (roll < 0.7) editor.delete()
    else if (roll < 0.8) editor.deleteToEndOfWord()
    else if (roll < 0.9) editor.undo()
    else editor.redo()
  }

  const inText = (editor: TextEditor) => {
    const buffer = editor.getBuffer()
    for (const range of editor.getSelectedBufferRanges()) {
      for (const point of [range.start, range.end]) {
        expect(point.row).toBeGreaterThanOrEqual(0)
        expect(point.row).toBeLessThanOrEqual(buffer.getLastRow())
        expect(point.column).toBeLessThanOrEqual(buffer.lineLengthForRow(point.row)!)
      }
    }
  }

  for (const peerCount of [2, 3]) {
    for (const seed of seeds(3)) {
      it(`${peerCount} peers converge, with every selection inside the text (seed ${seed})`, () => {
        const random = new Random(seed)
        const { docs, deliverSome, deliverAll } = network(peerCount, random)
        const editors = docs.map((doc) => new TextEditor({ doc }))
        editors[0]!.getBuffer().setText('one two three\nfour five six\nseven eight nine')
        deliverAll()
        for (let round = 0; round < 150; round++) {
          const editor = editors[random.int(0, editors.length - 1)]!
          step(editor, random)
          deliverSome()
          for (const peer of editors) inText(peer)
        }
        deliverAll()
        const text = editors[0]!.getText()
        for (const editor of editors) {
          expect(editor.getText()).toBe(text)
          inText(editor)
        }
      })
    }
  }

  it("each peer's undo reverts only its own edits and restores its own selections", () => {
    const random = new Random(11)
    const { docs, deliverSome, deliverAll } = network(3, random)
    const [a, b, c] = docs.map((doc) => new TextEditor({ doc })) as [
      TextEditor,
      TextEditor,
      TextEditor,
    ]
    a.getBuffer().setText('aaaa\nbbbb\ncccc')
    a.getBuffer().clearUndoStack()
    deliverAll()
    a.setCursorBufferPosition([0, 4])
    a.addCursorAtBufferPosition([0, 0])
    b.setCursorBufferPosition([1, 4])
    c.setCursorBufferPosition([2, 4])
    a.insertText('A')
    deliverSome()
    b.insertText('B')
    deliverSome()
    c.insertText('C')
    deliverAll()
    expect(a.getText()).toBe('AaaaaA\nbbbbB\nccccC')
    const aBefore = ranges(a)
    a.setCursorBufferPosition([1, 0])
    a.undo()
    deliverAll()
    for (const editor of [a, b, c]) expect(editor.getText()).toBe('aaaa\nbbbbB\nccccC')
    expect(ranges(a)).toEqual([
      [
        [0, 4],
        [0, 4],
      ],
      [
        [0, 0],
        [0, 0],
      ],
    ])
    a.redo()
    deliverAll()
    expect(ranges(a)).toEqual(aBefore)
    expect(c.getText()).toBe('AaaaaA\nbbbbB\nccccC')
  })
})
