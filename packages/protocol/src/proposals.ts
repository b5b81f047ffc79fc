/**
 * Proposals: changes a program suggests instead of making, for a person with write rights to
 * accept or reject.
 *
 * They live in the room's document, in a `Y.Map` beside the text (`proposalsMapName`), one
 * plain JSON value per proposal keyed by its id. So they sync, persist, reach other server
 * instances and survive going offline as the text does, and a client that knows nothing of
 * them (a stock y-websocket client) ignores them. Their places are relative positions, so a
 * proposal still means the text it was made against while people type around it.
 *
 * Accepting one applies its changes to the text and removes it, in one transaction; rejecting
 * removes it and changes no text. The map's values are untrusted input: readers check them
 * (`readProposal`) and skip what does not parse.
 *
 * @module
 */
import * as Y from 'yjs'
import {
  type RelativePositionJSON,
  relativePositionFromJSON,
  relativePositionToJSON,
} from './relative-json.js'
import { offsetsInText } from './relative-offsets.js'

/** The most changes one proposal holds. */
export const MAX_PROPOSAL_CHANGES = 1_000

/** The longest message a proposal carries, in UTF-16 units. */
export const MAX_PROPOSAL_MESSAGE_LENGTH = 500

/** The most text a proposal inserts, all its changes together, in UTF-16 units. */
export const MAX_PROPOSAL_TEXT_LENGTH = 1 << 20

/** The longest proposal id. */
export const MAX_PROPOSAL_ID_LENGTH = 64

/** One change of a proposal: replace the text between two places with `insert`. */
export interface ProposalChangeJSON {
  /** Where the replaced text starts (sticks to its first character). */
  readonly from: RelativePositionJSON
  /**
   * Where it ends (sticks to its last character); equal to `from` for a pure insertion, which
   * sticks to the character before it.
   */
  readonly to: RelativePositionJSON
  /** The text to put there. */
  readonly insert: string
}

/** A proposal as the document holds it. */
export interface ProposalJSON {
  /** Its id, also its key in the map. */
  readonly id: string
  /** The user id of the program that proposed it. */
  readonly user: string
  /** The program's name as people see it. */
  readonly name: string
  /** The program's colour, a CSS colour, or null. */
  readonly color: string | null
  /** What the program says of it, or null. */
  readonly message: string | null
  /** When it was proposed, ms since the epoch. */
  readonly at: number
  /** Its changes, in text order when made. */
  readonly changes: readonly ProposalChangeJSON[]
}

/** A proposal's change as it reads in the text now: offsets in the current text. */
export interface ResolvedProposalChange {
  /** Offset of the first replaced character. */
  readonly from: number
  /** Offset after the last replaced character (`from` for a pure insertion). */
  readonly to: number
  /** The text proposed in its place. */
  readonly insert: string
}

/**
 * The name of the map holding the proposals on the text named `textName`.
 *
 * @example doc.getMap(proposalsMapName('text'))
 */
export const proposalsMapName = (textName: string): string => `${textName}:proposals`

/** Whether `id` can name a proposal: 1 to 64 letters, digits, `-` or `_`. */
export const isProposalId = (id: string): boolean => /^[A-Za-z0-9_-]{1,64}$/.test(id)

/** A fresh random proposal id (16 hex digits). */
export const newProposalId = (): string => {
  const bytes = new Uint8Array(8)
  crypto.getRandomValues(bytes)
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')
}

/**
 * The change replacing `text`'s offsets `from` to `to` with `insert`, with its places as
 * relative positions. Throws a RangeError for offsets outside the text.
 *
 * @example proposalChange(ytext, 0, 5, 'Hello')
 */
export const proposalChange = (
  text: Y.Text,
  from: number,
  to: number,
  insert: string,
): ProposalChangeJSON => {
  if (!(Number.isSafeInteger(from) && Number.isSafeInteger(to) && 0 <= from && from <= to)) {
    throw new RangeError(`a change needs 0 <= from <= to, got ${from} and ${to}`)
  }
  if (to > text.length) throw new RangeError(`${to} is past the text's end (${text.length})`)
  if (to === from) {
    // A pure insertion sticks to the character before it, as a caret that typed there would.
    const at = relativePositionToJSON(
      Y.createRelativePositionFromTypeIndex(text, from, from > 0 ? -1 : 0),
    )
    return { from: at, to: at, insert }
  }
  const start = relativePositionToJSON(Y.createRelativePositionFromTypeIndex(text, from, 0))
  const end = relativePositionToJSON(Y.createRelativePositionFromTypeIndex(text, to, -1))
  return { from: start, to: end, insert }
}

/**
 * `value` as a proposal with key `id`, or null when it is not a well-formed one.
 *
 * @example readProposal(id, map.get(id))?.changes.length
 */
export const readProposal = (id: string, value: unknown): ProposalJSON | null => {
  if (!isProposalId(id) || typeof value !== 'object' || value === null) return null
  const json = value as Record<string, unknown>
  const { user, name, color, message, at, changes } = json
  if (json.id !== id || typeof user !== 'string' || user.length === 0 || user.length > 200) {
    return null
  }
  if (typeof name !== 'string' || name.length > 200) return null
  if (color !== null && (typeof color !== 'string' || color.length > 64)) return null
  if (
    message !== null &&
    (typeof message !== 'string' || message.length > MAX_PROPOSAL_MESSAGE_LENGTH)
  )
    return null
  if (typeof at !== 'number' || !Number.isFinite(at)) return null
  if (!Array.isArray(changes) || changes.length === 0 || changes.length > MAX_PROPOSAL_CHANGES) {
    return null
  }
  let textLength = 0
  const read: ProposalChangeJSON[] = []
  for (const change of changes as unknown[]) {
    if (typeof change !== 'object' || change === null) return null
    const { from, to, insert } = change as Record<string, unknown>
    if (typeof insert !== 'string') return null
    textLength += insert.length
    if (textLength > MAX_PROPOSAL_TEXT_LENGTH) return null
    if (relativePositionFromJSON(from) === null || relativePositionFromJSON(to) === null) {
      return null
    }
    read.push({ from: from as RelativePositionJSON, to: to as RelativePositionJSON, insert })
  }
  return { id, user, name, color, message, at, changes: read }
}

/**
 * The well-formed proposals on the text named `textName`, oldest first.
 *
 * @example proposalsIn(doc, 'text').map((proposal) => proposal.name)
 */
export const proposalsIn = (doc: Y.Doc, textName: string): ProposalJSON[] => {
  const proposals: ProposalJSON[] = []
  doc.getMap(proposalsMapName(textName)).forEach((value, id) => {
    const proposal = readProposal(id, value)
    if (proposal !== null) proposals.push(proposal)
  })
  return proposals.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1))
}

/**
 * Where `proposal`'s changes are in `text` now, sorted and never overlapping: a change whose
 * places no longer resolve is left out, and one whose replaced text others deleted becomes an
 * insertion where it was.
 *
 * @example resolveProposal(doc.getText('text'), proposal) // => [{ from: 4, to: 9, insert: 'world' }]
 */
export const resolveProposal = (text: Y.Text, proposal: ProposalJSON): ResolvedProposalChange[] =>
  resolveProposals(text, [proposal])[0]!

/**
 * `resolveProposal` for each of `proposals`, all their places found in one walk of the text
 * (see `offsetsInText`), so listing many proposals costs about what one does.
 *
 * @example resolveProposals(text, proposalsIn(doc, 'text')).map((changes) => changes.length)
 */
export const resolveProposals = (
  text: Y.Text,
  proposals: readonly ProposalJSON[],
): ResolvedProposalChange[][] => {
  const positions: (Y.RelativePosition | null)[] = []
  for (const proposal of proposals) {
    for (const change of proposal.changes) {
      positions.push(relativePositionFromJSON(change.from), relativePositionFromJSON(change.to))
    }
  }
  const offsets = offsetsInText(text, positions)
  let next = 0
  return proposals.map((proposal) => {
    const resolved: ResolvedProposalChange[] = []
    for (const change of proposal.changes) {
      const from = offsets[next++]!
      const to = offsets[next++]!
      if (from === null) continue
      resolved.push({ from, to: Math.max(from, to ?? from), insert: change.insert })
    }
    resolved.sort((a, b) => a.from - b.from || a.to - b.to)
    // Concurrent edits can make two ranges overlap: each starts where the one before ended.
    let end = 0
    return resolved.map((change) => {
      const from = Math.max(change.from, end)
      const to = Math.max(from, change.to)
      end = to
      return { from, to, insert: change.insert }
    })
  })
}

/**
 * Applies `changes` (as `resolveProposal` gives them) to `text`, last first so each offset
 * still holds. Call it inside a transaction to make it one change.
 *
 * @example doc.transact(() => applyResolvedChanges(text, resolveProposal(text, proposal)))
 */
export const applyResolvedChanges = (
  text: Y.Text,
  changes: readonly ResolvedProposalChange[],
): void => {
  for (let i = changes.length - 1; i >= 0; i--) {
    const { from, to, insert } = changes[i]!
    if (to > from) text.delete(from, to - from)
    if (insert !== '') text.insert(from, insert)
  }
}
