/**
 * Tandem's messages against y-protocols' and y-websocket's own: the numbers agree, and every
 * message reads back what was written, through lib0's decoders as the other end reads it.
 */
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import { describe, expect, it } from 'vitest'
import * as authProtocol from 'y-protocols/auth'
import { messageAuth, messageAwareness, messageQueryAwareness, messageSync } from 'y-websocket'
import * as Y from 'yjs'
import {
  AUTH_CLOSE_CODES,
  AuthCloseCode,
  MessageType,
  messageTypeOf,
  permissionDeniedMessage,
  READ_ONLY_REASON,
  readSessionAnswer,
  readSessionRequest,
  readTokenMessage,
  sessionAnswer,
  sessionRequest,
  tokenMessage,
} from './index.js'

/** A decoder positioned after the message's type, which must be `type`. */
const body = (message: Uint8Array, type: number): decoding.Decoder => {
  const decoder = decoding.createDecoder(message)
  expect(decoding.readVarUint(decoder)).toBe(type)
  return decoder
}

describe('message types', () => {
  it("are y-websocket's for its messages, and Tandem's own lie outside them", () => {
    expect(MessageType.sync).toBe(messageSync)
    expect(MessageType.awareness).toBe(messageAwareness)
    expect(MessageType.auth).toBe(messageAuth)
    expect(MessageType.queryAwareness).toBe(messageQueryAwareness)
    const values = Object.values(MessageType)
    expect(new Set(values).size).toBe(values.length)
    expect(MessageType.session).toBeGreaterThanOrEqual(100)
    expect(MessageType.token).toBeGreaterThanOrEqual(100)
  })

  it('are read from the start of a message, -1 when there is none', () => {
    expect(messageTypeOf(tokenMessage('t'))).toBe(MessageType.token)
    expect(messageTypeOf(sessionRequest('ada'))).toBe(MessageType.session)
    expect(messageTypeOf(new Uint8Array())).toBe(-1)
    // A varint whose continuation bit promises a byte that never comes.
    expect(messageTypeOf(Uint8Array.of(0x80))).toBe(-1)
  })
})

describe('the session messages', () => {
  it('carry the user asked for, and the answer carries user and session back', () => {
    for (const user of ['ada@example.org', '', 'Zoë 🐢', 'x'.repeat(10_000)]) {
      expect(readSessionRequest(body(sessionRequest(user), MessageType.session))).toBe(user)
      const session = JSON.stringify({ selections: [{ anchor: 1, head: user }] })
      expect(readSessionAnswer(body(sessionAnswer(user, session), MessageType.session))).toEqual({
        user,
        session,
      })
    }
  })

  it('answer "no session" as an empty body that reads back as null', () => {
    const message = sessionAnswer('ada', null)
    expect(readSessionAnswer(body(message, MessageType.session))).toEqual({
      user: 'ada',
      session: null,
    })
    const decoder = body(message, MessageType.session)
    decoding.readVarString(decoder)
    expect(decoding.readVarString(decoder)).toBe('')
  })

  it('throw when a body is cut short', () => {
    const whole = sessionAnswer('ada', '{"selections":[]}')
    const cut = whole.subarray(0, whole.length - 3)
    expect(() => readSessionAnswer(body(cut, MessageType.session))).toThrow()
    expect(() => readSessionRequest(body(Uint8Array.of(MessageType.session), 100))).toThrow()
  })
})

describe('the token message', () => {
  it('carries the token, and a cut one throws', () => {
    const token = 'eyJyb29tIjoibm90ZXMifQ.c2lnbmF0dXJl'
    expect(readTokenMessage(body(tokenMessage(token), MessageType.token))).toBe(token)
    const message = tokenMessage(token)
    expect(() => readTokenMessage(body(message.subarray(0, 4), MessageType.token))).toThrow()
  })
})

describe('refused access', () => {
  it("is y-protocols' permission-denied message, with its reason", () => {
    const decoder = body(permissionDeniedMessage(READ_ONLY_REASON), MessageType.auth)
    let told: string | null = null
    authProtocol.readAuthMessage(decoder, new Y.Doc(), (_doc, reason) => {
      told = reason
    })
    expect(told).toBe(READ_ONLY_REASON)
  })

  it('closes with 4000 plus the HTTP status, and only those codes mean "not allowed"', () => {
    expect(AuthCloseCode).toEqual({ unauthorized: 4401, forbidden: 4403 })
    expect([...AUTH_CLOSE_CODES].sort()).toEqual([4401, 4403])
    expect(AUTH_CLOSE_CODES.has(1006)).toBe(false)
  })
})

describe('a message written by hand', () => {
  it('reads the same as one these functions write', () => {
    const encoder = encoding.createEncoder()
    encoding.writeVarUint(encoder, 101)
    encoding.writeVarString(encoder, 'fresh')
    expect(encoding.toUint8Array(encoder)).toEqual(tokenMessage('fresh'))
  })
})
