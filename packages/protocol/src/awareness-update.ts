/**
 * Awareness updates as a server checks them before applying them: y-protocols' encoding
 * (a count, then per client its id, its clock and its state as JSON text, `null` for a
 * removal), read entry by entry, each state bounded in size and nesting and required to
 * encode again. A state the server applies is sent to every peer joining the room, so one that
 * cannot be encoded again, or that is huge, would fail or burden every join, not its sender's.
 */
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'

/** One client's entry in an awareness update. */
export interface AwarenessEntry {
  /** The awareness client id. */
  readonly client: number
  /** The state's clock: a newer state has a higher one. */
  readonly clock: number
  /** The state, or null when the client leaves. */
  readonly state: Readonly<Record<string, unknown>> | null
  /** The bytes of the state's JSON text. */
  readonly bytes: number
}

/** Bounds on an awareness update. */
export interface AwarenessLimits {
  /** Most clients one update may name. */
  readonly maxClients: number
  /** Most bytes of one state's JSON text. */
  readonly maxStateBytes: number
  /** Deepest nesting of arrays and objects in one state. */
  readonly maxDepth: number
}

/** Why an awareness update is refused: `malformed` does not decode, `policy` breaks a bound. */
export class AwarenessRefusal extends Error {
  /** Always `'AwarenessRefusal'`. */
  override readonly name = 'AwarenessRefusal'

  constructor(
    /** `malformed`: the update does not decode; `policy`: it breaks a bound. */
    readonly kind: 'malformed' | 'policy',
    message: string,
  ) {
    super(message)
  }
}

const OPEN_BRACE = 0x7b
const OPEN_BRACKET = 0x5b
const CLOSE_BRACE = 0x7d
const CLOSE_BRACKET = 0x5d
const QUOTE = 0x22
const BACKSLASH = 0x5c

/**
 * The deepest nesting of arrays and objects in the JSON text `bytes` (UTF-8), counted without
 * parsing, so that a state nested too deep costs one pass over its bytes and no recursion.
 */
export const jsonDepth = (bytes: Uint8Array): number => {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!
    if (inString) {
      if (byte === BACKSLASH) i++
      else if (byte === QUOTE) inString = false
    } else if (byte === QUOTE) {
      inString = true
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth++
      if (depth > deepest) deepest = depth
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--
    }
  }
  return deepest
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** The state a JSON text stands for; throws an `AwarenessRefusal` saying what is wrong with it. */
const readState = (
  client: number,
  bytes: Uint8Array,
  limits: AwarenessLimits,
): Readonly<Record<string, unknown>> | null => {
  if (bytes.length > limits.maxStateBytes) {
    throw new AwarenessRefusal(
      'policy',
      `awareness state of client ${client} too large: ${bytes.length} bytes (limit ${limits.maxStateBytes})`,
    )
  }
  const depth = jsonDepth(bytes)
  if (depth > limits.maxDepth) {
    throw new AwarenessRefusal(
      'policy',
      `awareness state of client ${client} nested too deep (limit ${limits.maxDepth})`,
    )
  }
  let state: unknown
  try {
    state = JSON.parse(utf8.decode(bytes))
  } catch {
    throw new AwarenessRefusal('malformed', `awareness state of client ${client} is not JSON`)
  }
  if (state === null) return null
  if (typeof state !== 'object' || Array.isArray(state)) {
    throw new AwarenessRefusal('policy', `awareness state of client ${client} is not an object`)
  }
  // What the server applies it must be able to send again to every peer that joins.
  try {
    JSON.stringify(state)
  } catch {
    throw new AwarenessRefusal('policy', `awareness state of client ${client} does not encode`)
  }
  return state as Record<string, unknown>
}

/**
 * The entries of the awareness update `update`, each state checked against `limits`. Throws an
 * `AwarenessRefusal` for an update that does not decode or breaks a bound, before anything of
 * it is applied.
 *
 * @example readAwarenessUpdate(update, limits).map((entry) => entry.client)
 */
export const readAwarenessUpdate = (
  update: Uint8Array,
  limits: AwarenessLimits,
): AwarenessEntry[] => {
  try {
    const decoder = decoding.createDecoder(update)
    const count = decoding.readVarUint(decoder)
    if (count > limits.maxClients) {
      throw new AwarenessRefusal('policy', 'too many awareness clients on one connection')
    }
    const entries: AwarenessEntry[] = []
    for (let i = 0; i < count; i++) {
      const client = decoding.readVarUint(decoder)
      const clock = decoding.readVarUint(decoder)
      const bytes = decoding.readVarUint8Array(decoder)
      entries.push({ client, clock, state: readState(client, bytes, limits), bytes: bytes.length })
    }
    return entries
  } catch (error) {
    if (error instanceof AwarenessRefusal) throw error
    throw new AwarenessRefusal('malformed', 'awareness update does not decode')
  }
}

/**
 * An awareness update of `entries` in y-protocols' encoding (states as JSON text).
 *
 * @example encodeAwarenessEntries([{ client: 7, clock: 3, state: null, bytes: 4 }])
 */
export const encodeAwarenessEntries = (entries: readonly AwarenessEntry[]): Uint8Array => {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, entries.length)
  for (const { client, clock, state } of entries) {
    encoding.writeVarUint(encoder, client)
    encoding.writeVarUint(encoder, clock)
    encoding.writeVarString(encoder, JSON.stringify(state))
  }
  return encoding.toUint8Array(encoder)
}
