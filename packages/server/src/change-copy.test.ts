import { describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import { ChangeCopy } from './change-copy.js'

const roomDoc = (content: string) => {
  const doc = new Y.Doc()
  doc.getText('text').insert(0, content)
  return doc
}

describe('ChangeCopy', () => {
  it("gives a change's own update, leaving the room's document untouched until it applies it", () => {
    const doc = roomDoc('hello')
    const copies = new ChangeCopy(doc)
    const update = copies.change((copy) => copy.getText('text').insert(5, ' world'))!
    expect(doc.getText('text').toString()).toBe('hello')
    // The update holds the change alone: applied to a document with the text, it adds it.
    const other = roomDoc('')
    Y.applyUpdate(other, Y.encodeStateAsUpdate(doc))
    Y.applyUpdate(other, update)
    expect(other.getText('text').toString()).toBe('hello world')
    expect(update.length).toBeLessThan(40)
    Y.applyUpdate(doc, update)
    expect(doc.getText('text').toString()).toBe('hello world')
    copies.drop()
  })

  it("follows what the room's document applies, and makes its changes as one client", () => {
    const doc = roomDoc('abc')
    const copies = new ChangeCopy(doc)
    const first = copies.change((copy) => copy.getText('text').insert(0, '1'))!
    Y.applyUpdate(doc, first)
    doc.getText('text').insert(doc.getText('text').length, 'Z') // someone else's change
    const second = copies.change((copy) =>
      copy.getText('text').insert(copy.getText('text').length, '2'),
    )!
    Y.applyUpdate(doc, second)
    expect(doc.getText('text').toString()).toBe('1abcZ2')
    const clients = [...Y.decodeStateVector(Y.encodeStateVector(doc)).keys()]
    expect(clients).toHaveLength(2)
    expect(copies.change(() => {})).toBeNull()
    copies.drop()
  })

  it('drops a copy whose edit threw, so its half-made change is never built on', () => {
    const doc = roomDoc('abc')
    const copies = new ChangeCopy(doc)
    expect(() =>
      copies.change((copy) => {
        copy.getText('text').insert(0, 'half')
        throw new Error('no')
      }),
    ).toThrow('no')
    expect(copies.isOpen).toBe(false)
    const update = copies.change((copy) => copy.getText('text').insert(3, '!'))!
    Y.applyUpdate(doc, update)
    expect(doc.getText('text').toString()).toBe('abc!')
    copies.drop()
  })

  it('lets an idle copy go', () => {
    vi.useFakeTimers()
    try {
      const copies = new ChangeCopy(roomDoc('abc'), 1_000)
      copies.change((copy) => copy.getText('text').insert(0, 'x'))
      expect(copies.isOpen).toBe(true)
      vi.advanceTimersByTime(1_001)
      expect(copies.isOpen).toBe(false)
    } finally {
      vi.useRealTimers()
    }
  })
})
