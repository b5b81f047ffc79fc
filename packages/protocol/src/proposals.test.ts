import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import {
  applyResolvedChanges,
  newProposalId,
  type ProposalJSON,
  proposalChange,
  proposalsIn,
  proposalsMapName,
  readProposal,
  resolveProposal,
} from './proposals.js'

const docWith = (content: string) => {
  const doc = new Y.Doc()
  doc.getText('text').insert(0, content)
  return doc
}

const propose = (doc: Y.Doc, changes: [number, number, string][]): ProposalJSON => {
  const text = doc.getText('text')
  const id = newProposalId()
  const proposal: ProposalJSON = {
    id,
    user: 'bot',
    name: 'Bot',
    color: null,
    message: 'tidy',
    at: Date.now(),
    changes: changes.map(([from, to, insert]) => proposalChange(text, from, to, insert)),
  }
  doc.getMap(proposalsMapName('text')).set(id, proposal)
  return proposal
}

const sync = (from: Y.Doc, to: Y.Doc) =>
  Y.applyUpdate(to, Y.encodeStateAsUpdate(from, Y.encodeStateVector(to)))

describe('proposals', () => {
  it('still mean the text they were made against after others type around and inside', () => {
    const doc = docWith('one two three')
    const proposal = propose(doc, [
      [4, 7, 'TWO'],
      [13, 13, '!'],
    ])
    const other = new Y.Doc()
    sync(doc, other)
    const text = other.getText('text')
    text.insert(0, '>> ') // before
    text.insert(8, 'x') // inside "two": "tx wo"? offsets move with it
    text.insert(text.length, ' four') // after the insertion point
    const read = proposalsIn(other, 'text')
    expect(read).toHaveLength(1)
    const changes = resolveProposal(text, read[0]!)
    other.transact(() => applyResolvedChanges(text, changes))
    expect(text.toString()).toBe('>> one TWO three! four')
    expect(proposal.changes[1]!.from).toEqual(proposal.changes[1]!.to)
  })

  it('turns a change whose text others deleted into an insertion where it was', () => {
    const doc = docWith('keep gone keep')
    const proposal = propose(doc, [[5, 9, 'new']])
    doc.getText('text').delete(4, 5)
    const changes = resolveProposal(doc.getText('text'), proposal)
    expect(changes).toEqual([{ from: 4, to: 4, insert: 'new' }])
  })

  it('skips malformed values, which come from the network', () => {
    const doc = docWith('abc')
    const good = propose(doc, [[0, 1, 'A']])
    const map = doc.getMap(proposalsMapName('text'))
    map.set('bad id!', { ...good, id: 'bad id!' })
    map.set('other', { ...good }) // id differs from key
    map.set('empty', { ...good, id: 'empty', changes: [] })
    map.set('nopos', { ...good, id: 'nopos', changes: [{ from: 1, to: 2, insert: 'x' }] })
    map.set('text', 'just a string')
    expect(proposalsIn(doc, 'text').map((p) => p.id)).toEqual([good.id])
    expect(readProposal(good.id, { ...good, message: 'x'.repeat(501) })).toBeNull()
  })

  it('refuses offsets outside the text', () => {
    const text = docWith('abc').getText('text')
    expect(() => proposalChange(text, 2, 1, '')).toThrow(RangeError)
    expect(() => proposalChange(text, 0, 4, '')).toThrow(RangeError)
  })
})
