import { Emitter, Point, Range } from '@tandem/text'
import type * as Y from 'yjs'
import { BufferBase, type TextBufferOptions } from './buffer-base.js'
import type {
  BufferChange,
  BufferChangeEvent,
  BufferStoppedChangingEvent,
} from './buffer-change.js'
import {
  BufferTransaction,
  firstFailure,
  type LocalBatch,
  type LocalEdit,
  NO_FAILURE,
  ParticipantList,
  type StageFailure,
  type TransactionParticipant,
  throwFailure,
} from './buffer-transaction.js'
import type { TextChange } from './item-index.js'
import { extentForText } from './line-endings.js'
import { LineStore } from './line-store.js'
import { repairSplitSurrogates } from './surrogates.js'
import { UndoHistory } from './undo-history.js'
import { deletedLength, nextClock, onlyClientAdvancedBy } from './yjs-internals.js'

/** The buffer's events and what each carries. */
export interface BufferEvents {
  'did-change': BufferChangeEvent
  'did-stop-changing': BufferStoppedChangingEvent
  'did-destroy': undefined
}

/** The order participants are called in: markers settle, then the history saves them, then followers hear. */
export enum Rank {
  MarkerLayer = 0,
  History = 1,
  Follower = 2,
}

/** An edit checked and clipped, in offsets and points of the text before it. */
export interface PreparedEdit {
  startPoint: Point
  endPoint: Point
  start: number
  end: number
  text: string
}

/**
 * The second of the buffer's layers: how changes come into the text. A local edit is applied
 * at once, inside its transaction (`edit`, `editMany`): Yjs first, then the line store, then
 * the participants (marker layers, the undo history, followers). Every Yjs transaction that
 * changed the Y.Text, local or not, reaches the observer (`onTextEvent`) when it ends: it is
 * taken into the item index, a change made elsewhere reaches the line store and the
 * participants there, and the buffer's change events are emitted (`did-change`, and
 * `did-stop-changing` after a quiet spell). The transaction under way, the participants and
 * the text version live here because both paths need them; `TextBuffer` above opens the
 * transactions and offers the editing, undo and marker API.
 */
export class BufferIntake extends BufferBase {
  /** @internal This buffer's own transactions, as undo steps. */
  protected readonly history: UndoHistory
  /** @internal */ protected readonly emitter = new Emitter<BufferEvents>()
  /** @internal Who takes part in each transaction: marker layers, the history, followers. */
  protected readonly participants = new ParticipantList()
  /** @internal Counts the changes to the text (see `TextBuffer.version`). */
  protected textVersion = 0
  /** @internal The transaction under way (the innermost, in `transact` inside `holdingUpdates`). */
  protected current: BufferTransaction | null = null
  private readonly stoppedChangingDelay: number
  private stoppedChangingTimer: ReturnType<typeof setTimeout> | null = null
  private lastChangeTime = 0
  private pendingStoppedChanges: BufferChange[] = []

  /** @internal Made by `TextBuffer`'s constructor, which documents the options. */
  constructor(settings: TextBufferOptions) {
    super(settings)
    this.stoppedChangingDelay = settings.stoppedChangingDelay ?? 300
    this.history = new UndoHistory(this.ytext, this)
    this.participants.join(this.historyParticipant(), Rank.History)
    this.ytext.observe(this.onTextEvent)
  }

  /** @internal Stops following the Y.Text: no more changes come in, no more events go out. */
  protected stopTakingIn(): void {
    this.ytext.unobserve(this.onTextEvent)
    if (this.stoppedChangingTimer !== null) clearTimeout(this.stoppedChangingTimer)
  }

  /** How the undo history takes part in transactions. */
  private historyParticipant(): TransactionParticipant {
    const history = this.history
    return {
      willCommit: (transaction) => {
        const yjs = transaction.yjs
        if (transaction.kind !== 'edit' || yjs === null || yjs.origin !== this) return
        // Recorded before Yjs collects the deleted items; saved markers are anchored by now.
        history.record(yjs, transaction.tookInSoleBatch)
        if (transaction.appliedEdits) history.captureAfter()
      },
      didCommit: (transaction) => {
        if (transaction.kind === 'edit') history.didTransact(transaction)
      },
    }
  }

  private readonly onTextEvent = (_event: Y.YTextEvent, yjs: Y.Transaction): void => {
    const transaction = this.transactionOf(yjs.origin)
    const standalone = transaction !== this.current
    // A participant that throws keeps neither the others nor the later stages from running.
    let failure: StageFailure = NO_FAILURE
    const calls = transaction.unsettledEditCalls
    const batch = transaction.soleBatch
    transaction.settle()
    const applied = calls > 0
    const changes = this.takeIn(yjs, calls, batch, transaction)
    transaction.yjs = yjs
    transaction.appliedEdits = applied
    if (applied && this.lines.length !== this.index.length) {
      // Someone edited the Y.Text directly inside this buffer's transaction: read it again.
      this.lines = new LineStore(this.ytext.toString())
      this.textVersion++
      failure = this.participants.textDidReset(transaction)
    }
    if (changes.length > 0) {
      transaction.textChanged = true
      if (!applied) {
        this.applyToLines(changes)
        this.textVersion++
        failure = firstFailure(failure, this.participants.textDidChange(transaction, changes))
      }
    }
    failure = firstFailure(failure, this.participants.willCommit(transaction))
    if (changes.length > 0) {
      try {
        this.emitChanges(transaction, changes, yjs.origin)
      } catch (error) {
        failure = firstFailure(failure, error)
      }
    }
    if (standalone) failure = firstFailure(failure, this.participants.didCommit(transaction))
    throwFailure(failure)
  }

  /** Emits `did-change` (and schedules `did-stop-changing`) for a transaction's changes. */
  private emitChanges(
    transaction: BufferTransaction,
    changes: readonly TextChange[],
    origin: unknown,
  ): void {
    const wantsChanges = this.emitter.listenerCountForEventName('did-change') > 0
    const wantsStop = this.emitter.listenerCountForEventName('did-stop-changing') > 0
    if (!wantsChanges && !wantsStop) return
    const described = transaction.describe(changes, this.describe)
    if (wantsChanges) this.emitDidChange(described, transaction.local, origin)
    if (wantsStop) this.scheduleStoppedChanging(described)
  }

  /**
   * The buffer transaction a Yjs transaction with `origin` belongs to: the one under way for
   * the buffer's own edits and undo steps; a transaction of its own for anything else.
   */
  private transactionOf(origin: unknown): BufferTransaction {
    const running = this.current
    const manager = this.history.manager
    if (running !== null) {
      if (origin === this && running.kind === 'edit') return running
      if (origin === manager && running.holdsMarkerEvents) return running
    }
    const kind = origin === manager ? 'undo' : origin === this ? 'edit' : 'remote'
    return new BufferTransaction(kind, origin)
  }

  /**
   * The transaction's changes, taken into the item index. A transaction that made exactly
   * one edit call through this buffer, and nothing else, is taken in from that call's edits.
   */
  private takeIn(
    yjs: Y.Transaction,
    calls: number,
    batch: LocalBatch | null,
    transaction: BufferTransaction,
  ): TextChange[] {
    transaction.tookInSoleBatch = false
    if (calls === 1 && batch !== null && isOnlyBatch(yjs, batch)) {
      for (const edit of batch.edits) {
        this.index.noteLocalEdit(edit.offset, edit.deleted, batch.client, edit.clock, edit.inserted)
      }
      transaction.tookInSoleBatch = true
      return batch.changes
    }
    return this.index.ingest(yjs)
  }

  private emitDidChange(changes: BufferChange[], local: boolean, origin: unknown): void {
    const first = changes[0]!
    const last = changes[changes.length - 1]!
    this.emitter.emit('did-change', {
      changes,
      oldRange: new Range(first.oldRange.start, last.oldRange.end),
      newRange: new Range(first.newRange.start, last.newRange.end),
      local,
      remote: !local,
      origin,
    })
  }

  /**
   * @internal One edit inside a transaction: Yjs first, then the line store and markers at
   * once, so reads later in the same transaction see it (Yjs reports it only when the
   * transaction ends).
   */
  protected edit(start: number, end: number, text: string): void {
    const client = this.doc.clientID
    const clock = nextClock(this.doc, client)
    if (end > start) this.ytext.delete(start, end - start)
    if (text !== '') this.ytext.insert(start, text)
    const oldText = this.lines.splice(start, end - start, text)
    const change: TextChange = {
      oldStart: start,
      oldEnd: end,
      newStart: start,
      newEnd: start + text.length,
      text,
      oldText,
    }
    this.textVersion++
    const edits = [{ offset: start, deleted: end - start, inserted: text.length, clock }]
    this.editsMade({ client, changes: [change], edits, described: null })
  }

  /**
   * @internal Several edits inside a transaction, sorted and apart, in offsets before any of
   * them: Yjs first, then the line store, markers and followers once for all of them, as one
   * batch.
   */
  protected editMany(edits: readonly PreparedEdit[]): void {
    const client = this.doc.clientID
    const changes: TextChange[] = []
    const made: LocalEdit[] = []
    let shift = 0
    for (const { start, end, text } of edits) {
      const at = start + shift
      const clock = nextClock(this.doc, client)
      if (end > start) this.ytext.delete(at, end - start)
      if (text !== '') this.ytext.insert(at, text)
      made.push({ offset: at, deleted: end - start, inserted: text.length, clock })
      changes.push({
        oldStart: start,
        oldEnd: end,
        newStart: at,
        newEnd: at + text.length,
        text,
        oldText: '',
      })
      shift += text.length - (end - start)
    }
    for (let i = changes.length - 1; i >= 0; i--) {
      const c = changes[i]!
      c.oldText = this.lines.splice(c.oldStart, c.oldEnd - c.oldStart, c.text)
    }
    this.textVersion++
    this.editsMade({ client, changes, edits: made, described: null })
  }

  /** Notes a call's edits in the running transaction and tells the participants. */
  private editsMade(batch: LocalBatch): void {
    const transaction = this.current!
    transaction.noteEdits(batch)
    const changes = batch.changes
    throwFailure(this.participants.textDidChange(transaction, changes))
  }

  /** Applies changes to the line store, last first (old offsets stay valid to their left). */
  private applyToLines(changes: TextChange[]): void {
    repairSplitSurrogates(changes, this.lines, this.index)
    for (let i = changes.length - 1; i >= 0; i--) {
      const c = changes[i]!
      this.lines.splice(c.oldStart, c.oldEnd - c.oldStart, c.text)
    }
  }

  /**
   * @internal Describes changes in rows and columns, from the text as it is now: the text between two
   * changes is the same before and after, so old positions follow from the new ones and the
   * old texts.
   */
  protected readonly describe = (changes: readonly TextChange[]): BufferChange[] => {
    let oldEnd = Point.ZERO
    let newEnd = Point.ZERO
    return changes.map((c) => {
      const newStart = this.pointAt(c.newStart)
      const oldStart = oldEnd.traverse(newStart.traversalFrom(newEnd))
      newEnd = c.newEnd === c.newStart ? newStart : this.pointAt(c.newEnd)
      oldEnd = oldStart.traverse(extentForText(c.oldText))
      return {
        oldRange: new Range(oldStart, oldEnd),
        newRange: new Range(newStart, newEnd),
        oldText: c.oldText,
        newText: c.text,
      }
    })
  }

  private pointAt(offset: number): Point {
    const { row, column } = this.lines.positionForOffset(offset)
    return new Point(row, column)
  }

  /**
   * Collects changes for `onDidStopChanging` and fires it once the text has been quiet for
   * the delay. One timer serves a burst of changes: when it fires early it waits out the rest.
   */
  private scheduleStoppedChanging(changes: BufferChange[]): void {
    for (const change of changes) this.pendingStoppedChanges.push(change)
    this.lastChangeTime = performance.now()
    if (this.stoppedChangingTimer === null) this.armStoppedChanging(this.stoppedChangingDelay)
  }

  private armStoppedChanging(delay: number): void {
    this.stoppedChangingTimer = setTimeout(this.onStoppedChangingTimer, delay)
  }

  private readonly onStoppedChangingTimer = (): void => {
    this.stoppedChangingTimer = null
    const quiet = performance.now() - this.lastChangeTime
    if (quiet < this.stoppedChangingDelay) {
      this.armStoppedChanging(this.stoppedChangingDelay - quiet)
      return
    }
    const pending = this.pendingStoppedChanges
    this.pendingStoppedChanges = []
    if (pending.length > 0) this.emitter.emit('did-stop-changing', { changes: pending })
  }
}

/**
 * Whether `transaction` holds nothing but `batch`: only the local client's clock advanced, by
 * the inserted length (one item per edit), and the delete set covers exactly the deleted length.
 */
const isOnlyBatch = (transaction: Y.Transaction, batch: LocalBatch): boolean => {
  let inserted = 0
  let deleted = 0
  for (const edit of batch.edits) {
    inserted += edit.inserted
    deleted += edit.deleted
  }
  return (
    onlyClientAdvancedBy(transaction, batch.client, inserted) &&
    deletedLength(transaction) === deleted
  )
}
