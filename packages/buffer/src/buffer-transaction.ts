import type * as Y from 'yjs'
import type { BufferChange } from './buffer-change.js'
import type { TextChange } from './item-index.js'

/**
 * What a buffer transaction is: `transact` (`'edit'`), `holdingUpdates` (`'hold'`), an undo
 * or a redo, or a Yjs transaction that did not come from this buffer (`'remote'`).
 */
export type TransactionKind = 'edit' | 'hold' | 'undo' | 'redo' | 'remote'

/** One edit as it was made on the Y.Text: at `offset` then, its inserted item's clock. */
export interface LocalEdit {
  readonly offset: number
  readonly deleted: number
  readonly inserted: number
  readonly clock: number
}

/** Edits made through the buffer in one call (`edit` or `editMany`), and the changes they came to. */
export interface LocalBatch {
  readonly client: number
  readonly changes: TextChange[]
  readonly edits: LocalEdit[]
  /** The changes in rows and columns, once described for the buffer's followers. */
  described: BufferChange[] | null
}

/**
 * One transaction of a buffer, from its start to its end: what kind it is, where it came
 * from, and the edits made in it so far. It is handed to every participant (marker layers,
 * edit followers, the undo history) at each stage, and is the only per-transaction state
 * the buffer keeps.
 */
export class BufferTransaction {
  /** Calls that edited the text (`edit`, `editMany`) whose edits Yjs has not reported yet. */
  unsettledEditCalls = 0
  /** The edits of the only such call, while there has been exactly one. */
  soleBatch: LocalBatch | null = null
  /** Whether it replaced nothing with nothing somewhere (Atom makes an undo step of that too). */
  madeEmptyEdit = false
  /** Whether the text changed (set once Yjs reports it). */
  textChanged = false
  /** Its function threw: its changes are reverted. */
  failed = false
  /** The last Yjs transaction of it that changed the text, once Yjs reported it. */
  yjs: Y.Transaction | null = null
  /** Whether the buffer's edits had already applied that Yjs transaction's changes. */
  appliedEdits = false
  /** Whether that Yjs transaction held nothing but one call's edits (taken in from them). */
  tookInSoleBatch = false
  private lastDescribed: { changes: readonly TextChange[]; described: BufferChange[] } | null = null

  constructor(
    /** What started it. */
    readonly kind: TransactionKind,
    /** The Yjs origin of its changes. */
    readonly origin: unknown,
    /** The transaction running when this one started (a `transact` inside `holdingUpdates`). */
    readonly outer: BufferTransaction | null = null,
  ) {}

  /** Whether its changes are this buffer's own (an edit, an undo or a redo). */
  get local(): boolean {
    return this.kind !== 'remote'
  }

  /** Whether marker change events wait for its end (undo and redo put markers back last). */
  get holdsMarkerEvents(): boolean {
    return this.kind === 'undo' || this.kind === 'redo'
  }

  /** Notes an edit call; its batch is kept while it is the only one. */
  noteEdits(batch: LocalBatch): void {
    this.unsettledEditCalls++
    this.soleBatch = this.unsettledEditCalls === 1 ? batch : null
  }

  /**
   * `changes` in rows and columns, described by `describe` once however many participants
   * ask (and the change event after them).
   */
  describe(
    changes: readonly TextChange[],
    describe: (changes: readonly TextChange[]) => BufferChange[],
  ): BufferChange[] {
    if (this.lastDescribed?.changes !== changes) {
      this.lastDescribed = { changes, described: describe(changes) }
    }
    return this.lastDescribed.described
  }

  /** Forgets the unsettled edits: Yjs reported them (read them first). */
  settle(): void {
    this.unsettledEditCalls = 0
    this.soleBatch = null
  }
}

/**
 * A part of the buffer that takes part in its transactions: marker layers, edit followers,
 * the undo history. The buffer calls every participant at each stage, in the order they
 * joined; one that throws does not keep the others, or the later stages, from being called:
 * the first error is thrown once they all ran (see `ParticipantList`).
 */
export interface TransactionParticipant {
  /**
   * Edits were applied to the text, sorted, in offsets: a local edit as it is made (inside
   * its Yjs transaction), or what another transaction did, once Yjs reports it.
   */
  textDidChange?(transaction: BufferTransaction, changes: readonly TextChange[]): void
  /** The whole text was read again (the Y.Text changed behind the buffer's back). */
  textDidReset?(transaction: BufferTransaction): void
  /** Yjs reported the transaction's changes and the buffer took them in; its change event is next. */
  willCommit?(transaction: BufferTransaction): void
  /** The transaction is over: its events went out (held ones go out now). */
  didCommit?(transaction: BufferTransaction): void
}

/** What a stage of `ParticipantList` returns when no participant threw. */
export const NO_FAILURE: unique symbol = Symbol('no failure')

/** The first error a stage threw, or `NO_FAILURE`. */
export type StageFailure = unknown

/**
 * The participants of a buffer's transactions, in the order they are called: by rank, then
 * in the order they joined. Each stage calls every participant, even when some throw, and
 * returns the first error (or `NO_FAILURE`) for the buffer to throw once its stages are done.
 */
export class ParticipantList {
  private readonly entries: Array<{ participant: TransactionParticipant; rank: number }> = []
  private list: TransactionParticipant[] = []

  /** Adds a participant at `rank`; returns a function that takes it out again. */
  join(participant: TransactionParticipant, rank: number): () => void {
    let at = this.entries.length
    while (at > 0 && this.entries[at - 1]!.rank > rank) at--
    this.entries.splice(at, 0, { participant, rank })
    this.list = this.entries.map((entry) => entry.participant)
    return () => {
      const index = this.entries.findIndex((entry) => entry.participant === participant)
      if (index < 0) return
      this.entries.splice(index, 1)
      this.list = this.entries.map((entry) => entry.participant)
    }
  }

  /** Calls `textDidChange` of every participant. */
  textDidChange(transaction: BufferTransaction, changes: readonly TextChange[]): StageFailure {
    let failure: StageFailure = NO_FAILURE
    for (const participant of this.list) {
      try {
        participant.textDidChange?.(transaction, changes)
      } catch (error) {
        if (failure === NO_FAILURE) failure = error
      }
    }
    return failure
  }

  /** Calls `textDidReset` of every participant. */
  textDidReset(transaction: BufferTransaction): StageFailure {
    let failure: StageFailure = NO_FAILURE
    for (const participant of this.list) {
      try {
        participant.textDidReset?.(transaction)
      } catch (error) {
        if (failure === NO_FAILURE) failure = error
      }
    }
    return failure
  }

  /** Calls `willCommit` of every participant. */
  willCommit(transaction: BufferTransaction): StageFailure {
    let failure: StageFailure = NO_FAILURE
    for (const participant of this.list) {
      try {
        participant.willCommit?.(transaction)
      } catch (error) {
        if (failure === NO_FAILURE) failure = error
      }
    }
    return failure
  }

  /** Calls `didCommit` of every participant. */
  didCommit(transaction: BufferTransaction): StageFailure {
    let failure: StageFailure = NO_FAILURE
    for (const participant of this.list) {
      try {
        participant.didCommit?.(transaction)
      } catch (error) {
        if (failure === NO_FAILURE) failure = error
      }
    }
    return failure
  }
}

/** The first of two stage results that is a failure. */
export const firstFailure = (earlier: StageFailure, later: StageFailure): StageFailure =>
  earlier === NO_FAILURE ? later : earlier

/** Throws a stage's failure, if there was one. */
export const throwFailure = (failure: StageFailure): void => {
  if (failure !== NO_FAILURE) throw failure
}
