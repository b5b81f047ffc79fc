/**
 * Editing sessions kept by `@tandem/server`: where a user last had their selections in a room.
 * A returning client asks for its user's session as soon as its socket opens (before it
 * publishes its own selections, which would otherwise replace it) and puts the editor's
 * selections back where they were once the document has synced. The positions are Yjs
 * relative positions, so they land on the same text whatever others did meanwhile.
 */
import { Range, type TextEditor } from '@tandem/editor'
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import { readSelections } from './awareness-fields.js'

/** The message type of a session request and its answer (as `@tandem/server` numbers it). */
export const SESSION_MESSAGE = 100

/**
 * A request for the session of the connection's user. `user` names that user only when the
 * server did not authenticate the connection (with a token, the token's user is used).
 *
 * @example provider.ws.send(sessionRequest('ada@example.org'))
 */
export const sessionRequest = (user: string): Uint8Array => {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, SESSION_MESSAGE)
  encoding.writeVarString(encoder, user)
  return encoding.toUint8Array(encoder)
}

/** The server's answer, read after its type: the user it is for and the session (or null). */
export const readSessionAnswer = (
  decoder: decoding.Decoder,
): { readonly user: string; readonly session: string | null } => {
  const user = decoding.readVarString(decoder)
  const session = decoding.readVarString(decoder)
  return { user, session: session === '' ? null : session }
}

/**
 * Selects in `editor` what the session `json` holds (the primary selection last, as in
 * awareness); selections whose text this document does not have are skipped. Returns the
 * ranges selected, or null when nothing could be (the editor is then left as it was).
 *
 * @example restoreSession(editor, '{"selections":[{"anchor":…,"head":…}]}')
 */
export const restoreSession = (editor: TextEditor, json: string): Range[] | null => {
  let parsed: unknown
  try {
    parsed = JSON.parse(json)
  } catch {
    return null
  }
  if (typeof parsed !== 'object' || parsed === null) return null
  const buffer = editor.getBuffer()
  const restored: { range: Range; reversed: boolean }[] = []
  for (const { anchor, head } of readSelections(parsed as Record<string, unknown>)) {
    const from = buffer.positionForRelativePosition(anchor)
    const to = buffer.positionForRelativePosition(head)
    if (from === null || to === null) continue
    const reversed = to.isLessThan(from)
    restored.push({ range: new Range(reversed ? to : from, reversed ? from : to), reversed })
  }
  if (restored.length === 0) return null
  restored.forEach(({ range, reversed }, index) => {
    const last = index === restored.length - 1
    if (index === 0) editor.setSelectedBufferRange(range, { reversed, autoscroll: last })
    else editor.addSelectionForBufferRange(range, { reversed, autoscroll: last })
  })
  return restored.map(({ range }) => range)
}
