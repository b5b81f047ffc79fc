/**
 * Interoperation with other Yjs editor bindings through awareness: a peer that writes the
 * `cursor` field as y-codemirror.next does (relative position objects, serialized by
 * y-protocols' awareness encoding), and a peer that reads Tandem's `cursor` field as it does.
 */
import { TextEditor } from '@tandem/editor'
import { relativePositionFromJSON, relativePositionToJSON } from '@tandem/protocol'
import { afterEach, describe, expect, it } from 'vitest'
import * as awarenessProtocol from 'y-protocols/awareness'
import * as Y from 'yjs'
import { type AwarenessBinding, bindAwareness } from './bind-awareness.js'

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

/** A Tandem editor and a plain Yjs peer (text and awareness only) sharing one document. */
const pair = (text: string) => {
  const tandemDoc = new Y.Doc()
  const editor = new TextEditor({ doc: tandemDoc, text })
  const tandemAwareness = new awarenessProtocol.Awareness(tandemDoc)
  const binding: AwarenessBinding = bindAwareness(editor, tandemAwareness, {
    user: { name: 'Tandem user', color: '#36c', colorLight: '#36c4' },
    throttleMs: 0,
  })
  const otherDoc = new Y.Doc()
  Y.applyUpdate(otherDoc, Y.encodeStateAsUpdate(tandemDoc))
  const otherAwareness = new awarenessProtocol.Awareness(otherDoc)
  tandemDoc.on('update', (update: Uint8Array) => Y.applyUpdate(otherDoc, update, 'net'))
  otherDoc.on('update', (update: Uint8Array, origin: unknown) => {
    if (origin !== 'net') Y.applyUpdate(tandemDoc, update, 'net')
  })
  /** Sends one side's awareness state to the other, encoded as on the wire. */
  const send = (from: awarenessProtocol.Awareness, to: awarenessProtocol.Awareness) =>
    awarenessProtocol.applyAwarenessUpdate(
      to,
      awarenessProtocol.encodeAwarenessUpdate(from, [from.clientID]),
      'net',
    )
  cleanups.push(() => {
    binding.dispose()
    editor.destroy()
    tandemAwareness.destroy()
    otherAwareness.destroy()
  })
  return { editor, binding, tandemAwareness, otherDoc, otherAwareness, send }
}

describe('y-codemirror.next awareness interop', () => {
  it("shows a peer's cursor written as y-codemirror.next writes it", () => {
    const { editor, binding, tandemAwareness, otherDoc, otherAwareness, send } = pair('hello world')
    const ytext = otherDoc.getText('text')
    ytext.insert(11, '!')
    // y-codemirror.next puts Y.RelativePosition objects in the state; JSON carries their fields.
    otherAwareness.setLocalStateField('user', {
      name: 'cm user',
      color: '#30bced',
      colorLight: '#30bced33',
    })
    otherAwareness.setLocalStateField('cursor', {
      anchor: Y.createRelativePositionFromTypeIndex(ytext, 6),
      head: Y.createRelativePositionFromTypeIndex(ytext, 11),
    })
    send(otherAwareness, tandemAwareness)
    expect(editor.getText()).toBe('hello world!')
    const [remote] = binding.getRemoteCursors()
    expect(remote?.user.name).toBe('cm user')
    expect(remote?.selections.map((s) => s.range.toString())).toEqual(['[(0, 6) - (0, 11)]'])
    expect(editor.getDecorations({ type: 'highlight' })[0]?.getProperties().color).toBe('#30bced33')

    // Its caret stays on its text while the Tandem user types before it.
    editor.setCursorBufferPosition([0, 0])
    editor.insertText('oh, ')
    expect(binding.getRemoteCursors()[0]?.selections[0]?.range.toString()).toBe(
      '[(0, 10) - (0, 15)]',
    )
  })

  it('writes a cursor that a y-codemirror.next peer resolves in its own document', () => {
    const { editor, binding, tandemAwareness, otherDoc, otherAwareness, send } =
      pair('one two three')
    editor.setSelectedBufferRange(
      [
        [0, 4],
        [0, 7],
      ],
      { reversed: true },
    )
    binding.flush()
    send(tandemAwareness, otherAwareness)
    const state = otherAwareness.getStates().get(tandemAwareness.clientID)!
    // What y-codemirror.next does with a remote state.
    const resolve = (json: unknown) =>
      Y.createAbsolutePositionFromRelativePosition(Y.createRelativePositionFromJSON(json), otherDoc)
    expect(resolve(state.cursor.anchor)?.index).toBe(7)
    expect(resolve(state.cursor.head)?.index).toBe(4)
    expect(state.user).toEqual({ name: 'Tandem user', color: '#36c', colorLight: '#36c4' })
  })
})

describe('relative positions as JSON', () => {
  it('round-trips, and reads the compact form Yjs writes', () => {
    const doc = new Y.Doc()
    const text = doc.getText('text')
    text.insert(0, 'abc')
    const position = Y.createRelativePositionFromTypeIndex(text, 2, -1)
    const full = relativePositionToJSON(position)
    expect(full).toEqual({
      type: null,
      tname: 'text',
      item: { client: doc.clientID, clock: 1 },
      assoc: -1,
    })
    expect(Y.compareRelativePositions(relativePositionFromJSON(full), position)).toBe(true)
    const compact = Y.relativePositionToJSON(position)
    expect(Y.compareRelativePositions(relativePositionFromJSON(compact), position)).toBe(true)
  })

  it('reads anything else as null: awareness states are untrusted', () => {
    for (const bad of [
      null,
      42,
      'x',
      {},
      { item: { client: -1, clock: 0 } },
      { item: { client: 1, clock: 1.5 } },
      { item: { client: '1', clock: 1 } },
      { tname: 7 },
      { tname: 'text', assoc: 'left' },
      { type: 'x', tname: 'text' },
    ]) {
      expect(relativePositionFromJSON(bad), JSON.stringify(bad)).toBeNull()
    }
  })

  it('skips malformed selections and odd user fields of a peer', async () => {
    const { readSelections, readUser } = await import('@tandem/protocol')
    const good = {
      anchor: { tname: 'text', item: null, type: null, assoc: 0 },
      head: { tname: 'text' },
    }
    expect(readSelections({ selections: [good, { anchor: 1 }, null, 'x'] })).toHaveLength(1)
    expect(readSelections({ cursor: good })).toHaveLength(1)
    expect(readSelections({ cursor: null })).toEqual([])
    expect(readUser({ user: { name: '', color: 'url(javascript:x)' } }, 7)).toEqual({
      name: 'peer 7',
      color: '#888888',
    })
  })
})
