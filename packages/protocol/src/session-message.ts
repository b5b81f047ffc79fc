/**
 * Editing sessions on the wire: where a user last had their selections in a room, kept by
 * `@tandem/server` and asked for by a returning client.
 *
 * - The request (client to server): type `MessageType.session`, then a user id (a
 *   var-string), used only when the server did not authenticate the connection.
 * - The answer (server to client): the same type, then the user id it is for and the session
 *   (two var-strings; an empty session means there is none).
 * - The session itself is JSON text, `{"selections": [{anchor, head}, ...]}`, taken from the
 *   user's awareness state (see `sessionFromState`) and read back with `readSelections`.
 */
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import { MAX_REMOTE_SELECTIONS } from './awareness-fields.js'
import { MessageType } from './message-type.js'

/** A session's JSON may be at most this many UTF-16 units; a larger one is not kept. */
export const MAX_SESSION_LENGTH = 1024 * 1024

const sessionMessage = (first: string, second?: string): Uint8Array => {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, MessageType.session)
  encoding.writeVarString(encoder, first)
  if (second !== undefined) encoding.writeVarString(encoder, second)
  return encoding.toUint8Array(encoder)
}

/**
 * A request for the session of the connection's user. `user` names that user only when the
 * server did not authenticate the connection (with a token, the token's user is used).
 *
 * @example provider.ws.send(sessionRequest('ada@example.org'))
 */
export const sessionRequest = (user: string): Uint8Array => sessionMessage(user)

/**
 * The user id a session request names, read after its type. Throws when it does not decode.
 *
 * @example readSessionRequest(decoder) // => 'ada@example.org'
 */
export const readSessionRequest = (decoder: decoding.Decoder): string =>
  decoding.readVarString(decoder)

/**
 * The answer to a session request: `user`'s last session in the room, or none (null).
 *
 * @example peer.send(sessionAnswer('ada', '{"selections":[…]}'))
 */
export const sessionAnswer = (user: string, session: string | null): Uint8Array =>
  sessionMessage(user, session ?? '')

/** What a session answer says. */
export interface SessionAnswer {
  /** The user the session is for (empty when the connection has none). */
  readonly user: string
  /** The session's JSON, or null when there is none. */
  readonly session: string | null
}

/**
 * The server's answer, read after its type: the user it is for and the session (or null).
 * Throws when it does not decode.
 *
 * @example readSessionAnswer(decoder).session // => '{"selections":[…]}'
 */
export const readSessionAnswer = (decoder: decoding.Decoder): SessionAnswer => {
  const user = decoding.readVarString(decoder)
  const session = decoding.readVarString(decoder)
  return { user, session: session === '' ? null : session }
}

/**
 * The session an awareness state describes, as the JSON a server keeps: its `selections` (the
 * first `MAX_REMOTE_SELECTIONS`), else its `cursor`, as they are. Null when the state shows no
 * selection, or the JSON would be longer than `MAX_SESSION_LENGTH`.
 *
 * @example sessionFromState({ cursor: { anchor, head } }) // => '{"selections":[{"anchor":…}]}'
 */
export const sessionFromState = (state: Readonly<Record<string, unknown>>): string | null => {
  const { selections, cursor } = state
  const entries = Array.isArray(selections)
    ? selections.slice(0, MAX_REMOTE_SELECTIONS)
    : typeof cursor === 'object' && cursor !== null
      ? [cursor]
      : []
  if (entries.length === 0) return null
  const json = JSON.stringify({ selections: entries })
  return json.length > MAX_SESSION_LENGTH ? null : json
}
