import * as decoding from 'lib0/decoding'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_UNDO_HISTORY_LIMITS,
  decodeUndoHistory,
  encodeUndoHistory,
  MessageType,
  messageTypeOf,
  readUndoHistoryMessage,
  trimUndoHistory,
  type UndoHistory,
  UndoHistoryKind,
  undoHistoryAnswer,
  undoHistoryRequest,
  undoHistorySave,
} from './index.js'

const step = (n: number, size = 4) => ({
  ids: new Uint8Array(size).fill(n),
  before: n % 2 === 0 ? `{"n":${n}}` : null,
  after: `{"n":${n + 1}}`,
})

const history = (undo: number, redo = 0): UndoHistory => ({
  undo: Array.from({ length: undo }, (_, i) => step(i)),
  redo: Array.from({ length: redo }, (_, i) => step(100 + i)),
})

const body = (message: Uint8Array) => {
  const decoder = decoding.createDecoder(message)
  expect(decoding.readVarUint(decoder)).toBe(MessageType.undoHistory)
  return readUndoHistoryMessage(decoder)
}

describe('undo history messages', () => {
  it('is type 103, apart from every other type', () => {
    expect(MessageType.undoHistory).toBe(103)
    expect(messageTypeOf(undoHistoryRequest('ada'))).toBe(103)
  })

  it('reads back requests, saves and answers', () => {
    expect(body(undoHistoryRequest('ada'))).toEqual({
      kind: UndoHistoryKind.request,
      user: 'ada',
      history: null,
    })
    const bytes = encodeUndoHistory(history(2, 1))
    expect(body(undoHistorySave('ada', bytes))).toEqual({
      kind: UndoHistoryKind.save,
      user: 'ada',
      history: bytes,
    })
    expect(body(undoHistoryAnswer('ada', null)).history).toBeNull()
    expect(body(undoHistoryAnswer('ada', bytes)).history).toEqual(bytes)
  })

  it('encodes a history and decodes it again', () => {
    const original = history(3, 2)
    expect(decodeUndoHistory(encodeUndoHistory(original))).toEqual(original)
    expect(decodeUndoHistory(encodeUndoHistory(history(0)))).toEqual(history(0))
  })

  it('throws on what does not decode, never takes it as a history', () => {
    const bytes = encodeUndoHistory(history(2))
    expect(() => decodeUndoHistory(new Uint8Array([]))).toThrow()
    expect(() => decodeUndoHistory(new Uint8Array([2, 0, 0]))).toThrow(/version/)
    expect(() => decodeUndoHistory(bytes.slice(0, bytes.length - 1))).toThrow()
    expect(() => decodeUndoHistory(new Uint8Array([...bytes, 0]))).toThrow(/past its end/)
    expect(() => decodeUndoHistory(new Uint8Array([1, 0xff, 0xff, 0xff, 0x7f]))).toThrow()
    const garbage = new Uint8Array([103, 9, 1, 97])
    const decoder = decoding.createDecoder(garbage)
    decoding.readVarUint(decoder)
    expect(() => readUndoHistoryMessage(decoder)).toThrow(/kind/)
    for (let seed = 1; seed < 200; seed++) {
      const random = new Uint8Array(seed % 40).map((_, i) => (seed * 31 + i * 17) & 0xff)
      try {
        const read = decodeUndoHistory(random)
        expect(Array.isArray(read.undo)).toBe(true)
      } catch (error) {
        expect(error).toBeInstanceOf(Error)
      }
    }
  })

  it('trims to the caps, oldest first: the undo bottom, then the redo bottom', () => {
    const full = history(5, 2)
    expect(trimUndoHistory(full, DEFAULT_UNDO_HISTORY_LIMITS)).toBe(full)
    const bySteps = trimUndoHistory(full, { maxSteps: 4, maxBytes: Infinity })
    expect(bySteps.undo).toEqual(full.undo.slice(3))
    expect(bySteps.redo).toEqual(full.redo)
    const onlyRedo = trimUndoHistory(full, { maxSteps: 1, maxBytes: Infinity })
    expect(onlyRedo).toEqual({ undo: [], redo: [full.redo[1]] })
    const big = { undo: [step(1, 1000), step(2, 1000), step(3, 10)], redo: [] }
    const byBytes = trimUndoHistory(big, { maxSteps: 100, maxBytes: 1100 })
    expect(byBytes.undo).toEqual([big.undo[1], big.undo[2]])
    expect(encodeUndoHistory(byBytes).length).toBeLessThanOrEqual(1100)
    expect(trimUndoHistory(big, { maxSteps: 100, maxBytes: 500 }).undo).toEqual([big.undo[2]])
  })

  it('counts bytes as the encoding takes them: a history of exactly the cap is kept whole', () => {
    const texts = ['plain', 'é and ü', '漢字', '😀 emoji', 'lone \ud800 half', 'x'.repeat(300)]
    const full: UndoHistory = {
      undo: texts.map((text, i) => ({ ids: new Uint8Array(i * 50), before: text, after: null })),
      redo: [{ ids: new Uint8Array(200), before: null, after: texts.join('|') }],
    }
    const size = encodeUndoHistory(full).length
    expect(trimUndoHistory(full, { maxSteps: 100, maxBytes: size })).toBe(full)
    const less = trimUndoHistory(full, { maxSteps: 100, maxBytes: size - 1 })
    expect(less.undo).toEqual(full.undo.slice(1))
    expect(encodeUndoHistory(less).length).toBeLessThanOrEqual(size - 1)
  })

  it('carries the links, and drops them when they would not fit on their own', () => {
    const links = new Uint8Array(200).fill(3)
    const withLinks = { ...history(2, 1), links }
    expect(decodeUndoHistory(encodeUndoHistory(withLinks))).toEqual(withLinks)
    expect(decodeUndoHistory(encodeUndoHistory(history(1))).links).toBeUndefined()
    expect(trimUndoHistory(withLinks, { maxSteps: 1, maxBytes: Infinity })).toEqual({
      undo: [],
      redo: withLinks.redo,
      links,
    })
    const trimmed = trimUndoHistory(withLinks, { maxSteps: 10, maxBytes: 100 })
    expect(trimmed).toEqual({ undo: withLinks.undo, redo: withLinks.redo })
    const fits = trimUndoHistory(withLinks, { maxSteps: 10, maxBytes: 240 })
    expect(encodeUndoHistory(fits).length).toBeLessThanOrEqual(240)
    expect(fits.links).toEqual(links)
  })
})
