/**
 * The saved messages: they read back what was written, the state vector as Yjs encodes and
 * decodes it, and anything that does not decode is a `RangeError`, never another failure.
 */
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { Random, seeds } from '../../../testing/random.js'
import {
  type DeletedRange,
  MessageType,
  messageTypeOf,
  readSavedMessage,
  savedMessage,
  savedRequest,
} from './index.js'

const body = (message: Uint8Array): decoding.Decoder => {
  const decoder = decoding.createDecoder(message)
  expect(decoding.readVarUint(decoder)).toBe(MessageType.saved)
  return decoder
}

describe('the saved messages', () => {
  it('have a type of their own, and the request no body', () => {
    expect(MessageType.saved).toBe(102)
    expect(savedRequest()).toEqual(Uint8Array.of(102))
    expect(messageTypeOf(savedMessage(Y.encodeStateVector(new Y.Doc())))).toBe(MessageType.saved)
  })

  it("carry a document's state vector as Yjs encodes it, and the deletions", () => {
    const doc = new Y.Doc()
    doc.clientID = 7
    const text = doc.getText('text')
    text.insert(0, 'hello world')
    const other = new Y.Doc()
    other.clientID = 2 ** 31 + 5
    Y.applyUpdate(other, Y.encodeStateAsUpdate(doc))
    other.getText('text').insert(0, '>> ')
    const deletions = new Map<number, DeletedRange[]>([
      [7, [{ clock: 0, length: 6 }]],
      [
        2 ** 31 + 5,
        [
          { clock: 1, length: 1 },
          { clock: 3, length: 2 ** 40 },
        ],
      ],
    ])
    const read = readSavedMessage(body(savedMessage(Y.encodeStateVector(other), deletions)))
    expect(read.stateVector).toEqual(Y.decodeStateVector(Y.encodeStateVector(other)))
    expect(read.stateVector.get(7)).toBe(11)
    expect(read.deletions).toEqual(deletions)
    expect(readSavedMessage(body(savedMessage(Y.encodeStateVector(new Y.Doc()))))).toEqual({
      stateVector: new Map(),
      deletions: new Map(),
    })
  })

  it('leave bytes after the deletions to later versions', () => {
    const encoder = encoding.createEncoder()
    encoding.writeUint8Array(encoder, savedMessage(Uint8Array.of(1, 3, 4)))
    encoding.writeVarString(encoder, 'a later field')
    expect(readSavedMessage(body(encoding.toUint8Array(encoder))).stateVector).toEqual(
      new Map([[3, 4]]),
    )
  })

  it('that do not decode throw a RangeError', () => {
    const bad = [
      [],
      [0x80],
      [5, 1, 2],
      // A state vector with a byte to spare.
      [4, 1, 3, 4, 9, 0],
      // A state vector promising two clients and holding one.
      [3, 2, 3, 4, 0],
      // Deletions promising more than there is.
      [1, 0, 1, 7, 3, 0, 1],
      [1, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f],
    ]
    for (const bytes of bad) {
      expect(
        () => readSavedMessage(decoding.createDecoder(Uint8Array.from(bytes))),
        `${bytes}`,
      ).toThrow(RangeError)
    }
  })

  it('read random bytes as a state or a RangeError, nothing else', () => {
    for (const seed of seeds(20)) {
      const random = new Random(seed)
      for (let i = 0; i < 200; i++) {
        const bytes = Uint8Array.from({ length: random.int(0, 40) }, () => random.int(0, 255))
        try {
          readSavedMessage(decoding.createDecoder(bytes))
        } catch (error) {
          expect(error, `seed ${seed}, bytes ${bytes}`).toBeInstanceOf(RangeError)
        }
      }
    }
  })
})
