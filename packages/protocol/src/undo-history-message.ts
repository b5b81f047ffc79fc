/**
 * Undo histories on the wire: each user's undo and redo steps in a room, kept by
 * `@tandem/server` so that the user can undo their own changes after a reload, a reconnect or
 * on another device.
 *
 * Every message has type `MessageType.undoHistory`, then a kind (a varint), then a user id (a
 * var-string, used only when the server did not authenticate the connection, and the user an
 * answer is for):
 *
 * - `UndoHistoryKind.request` (client to server): asks for the user's history.
 * - `UndoHistoryKind.save` (client to server): the user's history (a var-uint8-array), to keep
 *   in place of the one kept so far.
 * - `UndoHistoryKind.answer` (server to client): the user's history (a var-uint8-array; empty
 *   when none is kept).
 *
 * A history (`encodeUndoHistory`): a version (1), the undo steps (a count, then each step)
 * from the oldest to the newest, then the redo steps likewise (the last is redone first),
 * then the history's links (a var-uint8-array, opaque here; empty for none). A step is its
 * Yjs ids (a var-uint8-array, opaque here: `@tandem/buffer` writes and reads it) and the JSON
 * of the states saved before and after it (two var-strings, empty for none). Both ends cap a
 * history with `trimUndoHistory`: the oldest steps go first.
 */
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import { MessageType } from './message-type.js'

/**
 * One undo step as it travels (the same shape as `SavedUndoStep` of `@tandem/buffer`): its
 * Yjs ids, opaque, and the JSON of the states saved before and after it (null: none).
 *
 * @example const step: UndoHistoryStep = { ids, before: '{"markers:selections":[…]}', after: null }
 */
export interface UndoHistoryStep {
  /** The step's Yjs ids (opaque here). */
  readonly ids: Uint8Array
  /** JSON of the states saved before the step, or null. */
  readonly before: string | null
  /** JSON of the states saved after the step, or null. */
  readonly after: string | null
}

/**
 * A user's undo and redo steps in a room, each stack from its bottom (oldest) to its top (the
 * next to undo or redo); the same shape as `SavedUndoHistory` of `@tandem/buffer`.
 *
 * @example const history: UndoHistory = { undo: [step], redo: [] }
 */
export interface UndoHistory {
  /** The undo stack, oldest first. */
  readonly undo: readonly UndoHistoryStep[]
  /** The redo stack; the last is redone first. */
  readonly redo: readonly UndoHistoryStep[]
  /** Links from text the history's undo brought back to its copies (opaque); absent: none. */
  readonly links?: Uint8Array
}

/**
 * Caps on one user's history in one room: steps, and bytes of its encoding.
 *
 * @example trimUndoHistory(history, { maxSteps: 100, maxBytes: 64 * 1024 })
 */
export interface UndoHistoryLimits {
  /** Steps kept, undo and redo together. */
  readonly maxSteps: number
  /** Bytes of the encoded history (`encodeUndoHistory`). */
  readonly maxBytes: number
}

/**
 * The caps both ends apply unless configured otherwise: 500 steps, 512 KiB.
 *
 * @example new TandemServer({ undoHistoryLimits: DEFAULT_UNDO_HISTORY_LIMITS })
 */
export const DEFAULT_UNDO_HISTORY_LIMITS: UndoHistoryLimits = Object.freeze({
  maxSteps: 500,
  maxBytes: 512 * 1024,
})

/**
 * The kinds of undo history messages (the varint after the type).
 *
 * @example readUndoHistoryMessage(decoder).kind === UndoHistoryKind.answer
 */
export const UndoHistoryKind = {
  /** Client to server: send me my history. */
  request: 0,
  /** Client to server: keep this as my history. */
  save: 1,
  /** Server to client: your history (or none). */
  answer: 2,
} as const

/** One of `UndoHistoryKind`'s values. */
export type UndoHistoryKind = (typeof UndoHistoryKind)[keyof typeof UndoHistoryKind]

const HISTORY_VERSION = 1

const KINDS: readonly number[] = Object.values(UndoHistoryKind)

const message = (kind: UndoHistoryKind, user: string, history?: Uint8Array): Uint8Array => {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, MessageType.undoHistory)
  encoding.writeVarUint(encoder, kind)
  encoding.writeVarString(encoder, user)
  if (history !== undefined) encoding.writeVarUint8Array(encoder, history)
  return encoding.toUint8Array(encoder)
}

/**
 * A request for the history of the connection's user (`user` counts only when the server did
 * not authenticate the connection).
 *
 * @example provider.ws.send(undoHistoryRequest('ada'))
 */
export const undoHistoryRequest = (user: string): Uint8Array =>
  message(UndoHistoryKind.request, user)

/**
 * Hands the user's history (from `encodeUndoHistory`) to the server to keep.
 *
 * @example provider.ws.send(undoHistorySave('ada', encodeUndoHistory(history)))
 */
export const undoHistorySave = (user: string, history: Uint8Array): Uint8Array =>
  message(UndoHistoryKind.save, user, history)

/**
 * The server's answer: `user`'s history in the room (encoded), or none (null).
 *
 * @example peer.send(undoHistoryAnswer('ada', stored))
 */
export const undoHistoryAnswer = (user: string, history: Uint8Array | null): Uint8Array =>
  message(UndoHistoryKind.answer, user, history ?? new Uint8Array(0))

/** What an undo history message says. */
export interface UndoHistoryMessage {
  /** A request, a save or an answer. */
  readonly kind: UndoHistoryKind
  /** The user it names (empty when the server answers a connection without one). */
  readonly user: string
  /** The encoded history (saves and answers); null in a request or an answer of none. */
  readonly history: Uint8Array | null
}

/**
 * An undo history message, read after its type. Throws a `RangeError` (or lib0's error) when
 * it does not decode or has an unknown kind; the history itself is not decoded here.
 *
 * @example readUndoHistoryMessage(decoder).history // => Uint8Array | null
 */
export const readUndoHistoryMessage = (decoder: decoding.Decoder): UndoHistoryMessage => {
  const kind = decoding.readVarUint(decoder) as UndoHistoryKind
  if (!KINDS.includes(kind)) throw new RangeError(`unknown undo history kind ${kind}`)
  const user = decoding.readVarString(decoder)
  if (kind === UndoHistoryKind.request) return { kind, user, history: null }
  const history = decoding.readVarUint8Array(decoder)
  return { kind, user, history: history.length === 0 ? null : history }
}

const writeStep = (encoder: encoding.Encoder, step: UndoHistoryStep): void => {
  encoding.writeVarUint8Array(encoder, step.ids)
  encoding.writeVarString(encoder, step.before ?? '')
  encoding.writeVarString(encoder, step.after ?? '')
}

/** Bytes a var-uint `n` takes. */
const varUintBytes = (n: number): number => {
  let bytes = 1
  while (n > 0x7f) {
    n = Math.floor(n / 128)
    bytes++
  }
  return bytes
}

/** Bytes `text` takes as UTF-8 (a lone surrogate as U+FFFD, as the encoder writes it). */
const utf8Bytes = (text: string): number => {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit < 0x80) bytes += 1
    else if (unit < 0x800) bytes += 2
    else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes
}

const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff

const stringBytes = (text: string | null): number => {
  const bytes = text === null ? 0 : utf8Bytes(text)
  return varUintBytes(bytes) + bytes
}

/** Bytes `step` takes in an encoded history, counted without encoding it. */
const stepBytes = (step: UndoHistoryStep): number =>
  varUintBytes(step.ids.length) +
  step.ids.length +
  stringBytes(step.before) +
  stringBytes(step.after)

/**
 * `history` as bytes, as a save message carries it and a server keeps it.
 *
 * @example undoHistorySave('ada', encodeUndoHistory(editor.getUndoHistoryState()))
 */
export const encodeUndoHistory = (history: UndoHistory): Uint8Array => {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, HISTORY_VERSION)
  for (const stack of [history.undo, history.redo]) {
    encoding.writeVarUint(encoder, stack.length)
    for (const step of stack) writeStep(encoder, step)
  }
  encoding.writeVarUint8Array(encoder, history.links ?? new Uint8Array(0))
  return encoding.toUint8Array(encoder)
}

const readSteps = (decoder: decoding.Decoder): UndoHistoryStep[] => {
  const count = decoding.readVarUint(decoder)
  // Each step takes at least three bytes: a count cannot promise more than the bytes left.
  if (count * 3 > decoder.arr.length - decoder.pos) {
    throw new RangeError('undo history: more steps than bytes')
  }
  const steps: UndoHistoryStep[] = []
  for (let i = 0; i < count; i++) {
    const ids = decoding.readVarUint8Array(decoder)
    const before = decoding.readVarString(decoder)
    const after = decoding.readVarString(decoder)
    steps.push({ ids, before: before === '' ? null : before, after: after === '' ? null : after })
  }
  return steps
}

/**
 * The history `bytes` encode (from `encodeUndoHistory`). Throws a `RangeError` (or lib0's
 * error) when they do not decode, have another version, or carry bytes past the end.
 *
 * @example editor.restoreUndoHistory(decodeUndoHistory(answer.history))
 */
export const decodeUndoHistory = (bytes: Uint8Array): UndoHistory => {
  const decoder = decoding.createDecoder(bytes)
  const version = decoding.readVarUint(decoder)
  if (version !== HISTORY_VERSION) throw new RangeError(`unknown undo history version ${version}`)
  const undo = readSteps(decoder)
  const redo = readSteps(decoder)
  const links = decoding.readVarUint8Array(decoder)
  if (decoding.hasContent(decoder)) throw new RangeError('undo history: bytes past its end')
  return links.length === 0 ? { undo, redo } : { undo, redo, links }
}

/**
 * `history` within `limits`: the oldest steps dropped until it has at most `maxSteps` steps
 * and its encoding at most `maxBytes` bytes; the undo stack's bottom goes first, then the redo
 * stack's bottom (the step that would be redone last). Links too large to fit on their own
 * are dropped. `history` itself when it fits.
 *
 * @example trimUndoHistory(history, DEFAULT_UNDO_HISTORY_LIMITS).undo.length // <= 500
 */
export const trimUndoHistory = (history: UndoHistory, limits: UndoHistoryLimits): UndoHistory => {
  const { undo, redo } = history
  const links = history.links ?? new Uint8Array(0)
  // The version, two counts (at most what the whole stacks' take) and the links.
  const frame = 1 + varUintBytes(undo.length) + varUintBytes(redo.length)
  const linkBytes = varUintBytes(links.length) + links.length
  // The steps kept are the newest that fit: counted from the redo stack's top down, then the
  // undo stack's, stopping at the first that does not fit, so a long history costs no more
  // than its caps to cut.
  // Links that would not fit even alone are dropped (undo still works without them, only less
  // exactly); steps are worth more.
  const dropLinks = frame + linkBytes > limits.maxBytes
  let bytes = frame + (dropLinks ? 1 : linkBytes)
  let steps = 0
  let keptRedo = 0
  let keptUndo = 0
  const fits = (step: UndoHistoryStep): boolean => {
    if (steps + 1 > limits.maxSteps) return false
    const more = stepBytes(step)
    if (bytes + more > limits.maxBytes) return false
    bytes += more
    steps++
    return true
  }
  while (keptRedo < redo.length && fits(redo[redo.length - 1 - keptRedo]!)) keptRedo++
  if (keptRedo === redo.length) {
    while (keptUndo < undo.length && fits(undo[undo.length - 1 - keptUndo]!)) keptUndo++
  }
  if (keptUndo === undo.length && keptRedo === redo.length && !dropLinks) return history
  const kept = {
    undo: undo.slice(undo.length - keptUndo),
    redo: redo.slice(redo.length - keptRedo),
  }
  return links.length === 0 || dropLinks ? kept : { ...kept, links }
}

/**
 * Throws a `RangeError` unless `limits` are usable caps (positive integers, or Infinity);
 * returns them.
 *
 * @example checkUndoHistoryLimits({ maxSteps: 100, maxBytes: 65536 })
 */
export const checkUndoHistoryLimits = (limits: UndoHistoryLimits): UndoHistoryLimits => {
  for (const name of ['maxSteps', 'maxBytes'] as const) {
    const value = limits[name]
    if (!(value === Number.POSITIVE_INFINITY || (Number.isSafeInteger(value) && value > 0))) {
      throw new RangeError(
        `undo history ${name} must be a positive integer or Infinity, got ${value}`,
      )
    }
  }
  return limits
}
