/**
 * `AppendQueue` against a store whose appends the test settles one by one, in any order:
 * batches are handed on in the order they arrived, never before the store has them, and an
 * append that fails stops everything after it.
 */
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { AppendQueue, type StoredUpdate } from './append-queue.js'
import type { DocumentStore, LogSize } from './storage/document-store.js'

/** A store whose appends wait until the test settles them. */
const settledByHand = () => {
  const waiting: { update: Uint8Array; settle: (error?: Error) => void }[] = []
  let count = 0
  const store = {
    append: (_room: string, update: Uint8Array) =>
      new Promise<LogSize>((resolve, reject) => {
        waiting.push({
          update,
          settle: (error) => (error ? reject(error) : resolve({ updates: ++count, bytes: 0 })),
        })
      }),
  } as unknown as DocumentStore
  return { store, waiting }
}

/** Waits for the microtasks and promise chains of the queue to run. */
const settle = () => new Promise((resolve) => setImmediate(resolve))

/** Distinct one-character updates of one writer. */
const keystrokes = (count: number): Uint8Array[] => {
  const doc = new Y.Doc()
  const updates: Uint8Array[] = []
  doc.on('update', (update: Uint8Array) => updates.push(update))
  for (let i = 0; i < count; i++) doc.getText('text').insert(i, 'abcdefghij'[i % 10]!)
  return updates
}

const open = () => {
  const { store, waiting } = settledByHand()
  const handedOn: StoredUpdate[][] = []
  const failures: unknown[] = []
  const queue = new AppendQueue('r', store, {
    stored: (batch) => handedOn.push([...batch]),
    failed: (error) => failures.push(error),
    handlerFailed: (error) => failures.push(error),
  })
  return { queue, waiting, handedOn, failures }
}

describe('AppendQueue', () => {
  it('appends each turn of updates at once, and hands them on in order whatever order they are stored in', async () => {
    const { queue, waiting, handedOn } = open()
    const [a, b, c] = keystrokes(3) as [Uint8Array, Uint8Array, Uint8Array]
    for (const update of [a, b, c]) {
      queue.push(update, 'writer')
      await settle()
    }
    // Three batches on their way at once.
    expect(waiting.map((w) => w.update)).toEqual([a, b, c])
    waiting[2]!.settle()
    waiting[1]!.settle()
    await settle()
    expect(handedOn).toEqual([])
    waiting[0]!.settle()
    await settle()
    expect(handedOn.map((batch) => batch.map((s) => s.update))).toEqual([[a], [b], [c]])
  })

  it('merges what arrives in one turn into one update per sender', async () => {
    const { queue, waiting, handedOn } = open()
    const updates = keystrokes(4)
    queue.push(updates[0]!, 'ada')
    queue.push(updates[1]!, 'bob')
    queue.push(updates[2]!, 'ada')
    queue.push(updates[3]!, 'ada')
    await settle()
    expect(waiting).toHaveLength(2)
    for (const append of waiting) append.settle()
    await queue.flushed()
    expect(handedOn).toHaveLength(1)
    expect(handedOn[0]!.map((s) => s.origin)).toEqual(['ada', 'bob'])
    expect(handedOn[0]![0]!.update).toEqual(Y.mergeUpdates([updates[0]!, updates[2]!, updates[3]!]))
  })

  it('stops at a failed append: nothing after it is handed on, and the queue takes nothing more', async () => {
    const { queue, waiting, handedOn, failures } = open()
    const [a, b, c] = keystrokes(3) as [Uint8Array, Uint8Array, Uint8Array]
    queue.push(a, 'w')
    await settle()
    queue.push(b, 'w')
    await settle()
    waiting[1]!.settle()
    waiting[0]!.settle(new Error('disk full'))
    await settle()
    expect(handedOn).toEqual([])
    expect(failures.map(String)).toEqual(['Error: disk full'])
    expect(queue.failed).toBe(true)
    queue.push(c, 'w')
    await settle()
    expect(waiting).toHaveLength(2)
    await queue.flushed()
  })

  it('keeps at most eight batches on their way, then gathers the rest into the next', async () => {
    const { queue, waiting, handedOn } = open()
    const updates = keystrokes(12)
    for (const update of updates) {
      queue.push(update, 'w')
      await settle()
    }
    expect(waiting).toHaveLength(8)
    waiting[0]!.settle()
    await settle()
    // One done: the four that waited go as one batch.
    expect(waiting).toHaveLength(9)
    for (const append of waiting.slice(1)) append.settle()
    await queue.flushed()
    expect(handedOn.map((batch) => batch.length)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1])
    const doc = new Y.Doc()
    for (const batch of handedOn) for (const { update } of batch) Y.applyUpdate(doc, update)
    expect(doc.getText('text').toString()).toBe('abcdefghijab')
  })

  it('keeps handing on when a listener throws', async () => {
    const { store, waiting } = settledByHand()
    const failures: unknown[] = []
    let calls = 0
    const queue = new AppendQueue('r', store, {
      stored: () => {
        calls++
        throw new Error('listener broke')
      },
      failed: () => {},
      handlerFailed: (error) => failures.push(error),
    })
    for (const update of keystrokes(2)) {
      queue.push(update, 'w')
      await settle()
    }
    for (const append of waiting) append.settle()
    await queue.flushed()
    expect(calls).toBe(2)
    expect(failures).toHaveLength(2)
  })
})
