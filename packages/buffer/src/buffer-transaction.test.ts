import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import type { EditFollower } from './buffer-change.js'
import { BufferTransaction, NO_FAILURE, ParticipantList } from './buffer-transaction.js'
import { TextBuffer } from './text-buffer.js'

/** A follower that records what it hears, and throws from `failIn` when asked to. */
const follower = (log: string[], name: string, failIn: keyof EditFollower | null = null) => {
  const hear = (what: keyof EditFollower) => {
    log.push(`${name}.${what}`)
    if (what === failIn) throw new Error(`${name} fails in ${what}`)
  }
  return {
    textDidChange: () => hear('textDidChange'),
    textDidReset: () => hear('textDidReset'),
    transactionDidEnd: () => hear('transactionDidEnd'),
  }
}

describe('buffer transactions and their participants', () => {
  it('a stage calls every participant, by rank, even when some throw, and returns the first error', () => {
    const list = new ParticipantList()
    const called: string[] = []
    const participant = (name: string, fails: boolean) => ({
      willCommit: () => {
        called.push(name)
        if (fails) throw new Error(name)
      },
    })
    list.join(participant('follower', true), 2)
    list.join(participant('layer', true), 0)
    const leave = list.join(participant('history', false), 1)
    const transaction = new BufferTransaction('edit', null)
    expect((list.willCommit(transaction) as Error).message).toBe('layer')
    expect(called).toEqual(['layer', 'history', 'follower'])
    leave()
    called.length = 0
    expect(list.didCommit(transaction)).toBe(NO_FAILURE)
    list.willCommit(transaction)
    expect(called).toEqual(['layer', 'follower'])
  })

  it('a follower that throws on a remote change keeps the others, the markers and the change event going', () => {
    const buffer = new TextBuffer('hello world')
    const peer = new Y.Doc()
    Y.applyUpdate(peer, Y.encodeStateAsUpdate(buffer.doc))
    const log: string[] = []
    buffer.followEdits(follower(log, 'first', 'textDidChange'))
    buffer.followEdits(follower(log, 'second'))
    const marker = buffer.markRange([
      [0, 6],
      [0, 11],
    ])
    const moves: string[] = []
    marker.onDidChange((event) => moves.push(event.newHeadPosition.toString()))
    const events: boolean[] = []
    buffer.onDidChange((event) => events.push(event.remote))
    peer.getText('text').insert(0, '>> ')
    expect(() => Y.applyUpdate(buffer.doc, Y.encodeStateAsUpdate(peer))).toThrow(
      'first fails in textDidChange',
    )
    expect(buffer.getText()).toBe('>> hello world')
    expect(log).toEqual([
      'first.textDidChange',
      'second.textDidChange',
      'first.transactionDidEnd',
      'second.transactionDidEnd',
      'first.transactionDidEnd',
      'second.transactionDidEnd',
    ])
    expect(marker.getRange().toString()).toBe('[(0, 9) - (0, 14)]')
    expect(moves).toEqual(['(0, 14)'])
    expect(events).toEqual([true])
  })

  it('a follower that throws when a local transaction ends keeps the markers and the history going', () => {
    const buffer = new TextBuffer('abc')
    const log: string[] = []
    const layer = buffer.addMarkerLayer()
    const marker = layer.markPosition([0, 3])
    let updates = 0
    layer.onDidUpdate(() => updates++)
    const moves: string[] = []
    marker.onDidChange((event) => moves.push(event.newHeadPosition.toString()))
    buffer.followEdits(follower(log, 'first', 'transactionDidEnd'))
    buffer.followEdits(follower(log, 'second'))
    expect(() => buffer.transact(() => buffer.insert([0, 0], 'xy'))).toThrow(
      'first fails in transactionDidEnd',
    )
    expect(buffer.getText()).toBe('xyabc')
    // The second follower heard the end, the marker reported its move, the layer updated.
    expect(log.filter((entry) => entry.startsWith('second'))).toEqual([
      'second.textDidChange',
      'second.transactionDidEnd',
      'second.transactionDidEnd',
    ])
    expect(moves).toEqual(['(0, 5)'])
    expect(updates).toBe(1)
    // The history recorded the step: undo takes it back.
    log.length = 0
    expect(() => buffer.undo()).toThrow('first fails in transactionDidEnd')
    expect(buffer.getText()).toBe('abc')
    expect(marker.getHeadPosition().toString()).toBe('(0, 3)')
  })
})
