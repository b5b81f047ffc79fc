import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { type DeletedText, ProgramChangeLog } from './change-log.js'
import { decodeProgramChange, encodeProgramChange } from './change-log-codec.js'

/** A logged change that inserted into one doc's text and deleted some of it. */
const loggedChange = () => {
  const doc = new Y.Doc()
  const text = doc.getText('text')
  text.insert(0, 'alpha beta gamma')
  const at = Y.createRelativePositionFromTypeIndex(text, 5, 0)
  const deleted: DeletedText[] = [{ text: ' beta', at }]
  const log = new ProgramChangeLog()
  const change = log.record('notes', {
    user: 'trim-bot',
    message: 'Drops beta 🐝',
    inserted: new Map([[doc.clientID, [{ clock: 0, length: 16 }]]]),
    deleted,
  })
  log.extend(change, { inserted: new Map([[7, [{ clock: 3, length: 2 }]]]), deleted: [] })
  return { doc, change }
}

describe('a program change as bytes', () => {
  it('reads back as it was, relative positions included', () => {
    const { doc, change } = loggedChange()
    change.undoneBy = 'ada'
    const decoded = decodeProgramChange('notes', encodeProgramChange(change))
    expect({ ...decoded, deleted: [] }).toEqual({ ...change, deleted: [] })
    // A position at an item needs no type name: the item knows its type.
    expect(decoded?.deleted.map(({ text, at }) => [text, Y.encodeRelativePosition(at)])).toEqual(
      change.deleted.map(({ text, at }) => [text, Y.encodeRelativePosition(at)]),
    )
    const at = Y.createAbsolutePositionFromRelativePosition(decoded!.deleted[0]!.at, doc)
    expect(at?.index).toBe(5)
    const fresh = { ...change, message: null, undoneBy: null, deleted: [], restorable: false }
    expect(decodeProgramChange('notes', encodeProgramChange(fresh))).toMatchObject({
      message: null,
      undoneBy: null,
      deleted: [],
      restorable: false,
    })
  })

  it('is null for bytes cut short, with more after them, or of another format', () => {
    const bytes = encodeProgramChange(loggedChange().change)
    for (let length = 0; length < bytes.length; length++) {
      expect(decodeProgramChange('notes', bytes.subarray(0, length))).toBeNull()
    }
    expect(decodeProgramChange('notes', new Uint8Array([...bytes, 0]))).toBeNull()
    expect(decodeProgramChange('notes', new Uint8Array([2, ...bytes.subarray(1)]))).toBeNull()
  })
})
