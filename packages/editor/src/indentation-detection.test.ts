import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { TextEditor } from './text-editor.js'

const unitOf = (editor: TextEditor) => ({
  softTabs: editor.getSoftTabs(),
  tabLength: editor.getTabLength(),
})

/** Puts the cursor at the end of `row` and presses Enter; returns the new row's text. */
const enterAfterRow = (editor: TextEditor, row: number): string => {
  editor.setCursorBufferPosition([row, Number.POSITIVE_INFINITY])
  editor.insertNewline()
  return editor.lineTextForBufferRow(row + 1) ?? ''
}

describe('indentation detected from the text', () => {
  it('takes four-space indentation in a JavaScript file', () => {
    const editor = new TextEditor({ text: 'if (a) {\n    b()\n}\nf() {', grammar: 'javascript' })
    expect(unitOf(editor)).toEqual({ softTabs: true, tabLength: 4 })
    expect(enterAfterRow(editor, 3)).toBe('    ')
  })

  it('indents a Python class body by the file’s four spaces, or its two', () => {
    const four = new TextEditor({ text: 'def f():\n    return 1\n\nclass A:', grammar: 'python' })
    expect(enterAfterRow(four, 3)).toBe('    ')
    const two = new TextEditor({ text: 'def f():\n  return 1\n\nclass A:', grammar: 'python' })
    expect(enterAfterRow(two, 3)).toBe('  ')
  })

  it('takes hard tabs', () => {
    const editor = new TextEditor({ text: 'f() {\n\tg()\n}\nh() {', grammar: 'javascript' })
    expect(editor.getSoftTabs()).toBe(false)
    expect(enterAfterRow(editor, 3)).toBe('\t')
  })

  it('indents and outdents rows by the detected unit', () => {
    const editor = new TextEditor({ text: 'a:\n   b\nc' })
    expect(unitOf(editor)).toEqual({ softTabs: true, tabLength: 3 })
    editor.setCursorBufferPosition([2, 0])
    editor.indentSelectedRows()
    expect(editor.lineTextForBufferRow(2)).toBe('   c')
    editor.outdentSelectedRows()
    expect(editor.lineTextForBufferRow(2)).toBe('c')
  })

  it('uses the language default when no row is indented', () => {
    expect(unitOf(new TextEditor({ text: 'x = 1', grammar: 'python' }))).toEqual({
      softTabs: true,
      tabLength: 4,
    })
    expect(new TextEditor({ text: 'package main', grammar: 'go' }).getSoftTabs()).toBe(false)
    expect(unitOf(new TextEditor({ text: 'x', grammar: 'javascript' }))).toEqual({
      softTabs: true,
      tabLength: 2,
    })
  })

  it('keeps what the application gave, and detects nothing when told not to', () => {
    const given = new TextEditor({ text: 'a\n\tb', tabLength: 3 })
    expect(unitOf(given)).toEqual({ softTabs: false, tabLength: 3 })
    const both = new TextEditor({ text: 'a\n\tb', tabLength: 3, softTabs: true })
    expect(unitOf(both)).toEqual({ softTabs: true, tabLength: 3 })
    const off = new TextEditor({ text: 'a\n\tb', grammar: 'python', detectIndentation: false })
    expect(unitOf(off)).toEqual({ softTabs: true, tabLength: 2 })
    off.setText('a\n    b')
    expect(unitOf(off)).toEqual({ softTabs: true, tabLength: 2 })
  })

  it('detects again when the whole text is set, except what was set since', () => {
    const editor = new TextEditor({ text: 'a\n  b' })
    editor.setText('a\n\tb')
    expect(editor.getSoftTabs()).toBe(false)
    editor.setText('a\n    b')
    expect(unitOf(editor)).toEqual({ softTabs: true, tabLength: 4 })
    editor.setTabLength(8)
    editor.setText('a\n  b')
    expect(unitOf(editor)).toEqual({ softTabs: true, tabLength: 8 })
  })

  it('detects when an empty document first arrives from a peer', () => {
    const server = new Y.Doc()
    server.getText('text').insert(0, 'def f():\n\treturn 1\n')
    const doc = new Y.Doc()
    const editor = new TextEditor({ doc, grammar: 'python' })
    expect(unitOf(editor)).toEqual({ softTabs: true, tabLength: 4 })
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(server))
    expect(editor.getSoftTabs()).toBe(false)
    // Later edits from the peer change nothing.
    server.getText('text').insert(0, 'if x:\n    y()\n')
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(server))
    expect(editor.getSoftTabs()).toBe(false)
  })

  it('leaves a document typed in before any peer’s text arrived', () => {
    const doc = new Y.Doc()
    const editor = new TextEditor({ doc })
    editor.insertText('x')
    const server = new Y.Doc()
    server.getText('text').insert(0, 'a\n\tb\n')
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(server))
    expect(editor.getSoftTabs()).toBe(true)
  })

  it('detects with the document already in the Y.Doc it is made over', () => {
    const doc = new Y.Doc()
    doc.getText('text').insert(0, 'a {\n        b\n}')
    expect(new TextEditor({ doc }).getTabLength()).toBe(8)
  })

  it('takes the new language’s comments and default until someone edits', () => {
    const editor = new TextEditor({ text: 'import os' })
    editor.setGrammar('python')
    expect(editor.getTabLength()).toBe(4)
    editor.insertText('x')
    editor.setGrammar('javascript')
    expect(editor.getTabLength()).toBe(4)
  })
})
