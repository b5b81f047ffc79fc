import { Disposable } from '@tandem/text'
import * as Y from 'yjs'

/**
 * State saved with every undo step and put back on undo (the state before the step) and
 * redo (the state after it), such as the selections as relative positions.
 *
 * @example buffer.registerUndoState({ capture: () => saveSelections(), restore: (s) => load(s) })
 */
export interface UndoStateProvider<State = unknown> {
  /** Returns the state to save with the undo step being made. */
  capture(): State
  /** Puts back a state that `capture` returned. */
  restore(state: State): void
}

/** A place in the undo history made by `createCheckpoint`. */
interface Checkpoint {
  /** Steps below it, counting the ones dropped from the bottom of the history since. */
  position: number
  top: StackItem | null
}

type StackItem = Y.UndoManager['undoStack'][number]
type DeleteSet = StackItem['deletions']
type DeleteRun = DeleteSet['clients'] extends Map<number, (infer Run)[]> ? Run : never
type States = Map<UndoStateProvider, unknown>

const BEFORE = 'tandem:before'
const AFTER = 'tandem:after'
const GROUPABLE_UNTIL = 'tandem:groupable-until'

/** Atom's default number of undo steps a buffer keeps. */
export const DEFAULT_MAX_UNDO_ENTRIES = 10_000

/**
 * One local step in the shape `Y.UndoManager` pops: what a buffer transaction deleted (the
 * transaction's own delete set) and inserted. The insertions are one run of the local client's
 * clocks, turned into a delete set only when the step is undone; `meta` is made on first use.
 * Recording a step is then a few fields instead of the manager's per-transaction bookkeeping.
 */
class LocalStep {
  private inserted: DeleteSet | null = null
  private savedMeta: Map<unknown, unknown> | null = null

  constructor(
    public deletions: DeleteSet,
    private readonly client: number,
    private readonly fromClock: number,
    private readonly toClock: number,
  ) {}

  get insertions(): DeleteSet {
    if (this.inserted === null) {
      this.inserted = Y.createDeleteSet()
      if (this.toClock > this.fromClock) {
        const run = { clock: this.fromClock, len: this.toClock - this.fromClock }
        this.inserted.clients.set(this.client, [run as DeleteRun])
      }
    }
    return this.inserted
  }

  set insertions(value: DeleteSet) {
    this.inserted = value
  }

  get meta(): Map<unknown, unknown> {
    this.savedMeta ??= new Map()
    return this.savedMeta
  }
}

/**
 * Undo and redo of one buffer's own changes, on a `Y.UndoManager` that tracks only the
 * buffer's origin: a remote peer's changes are never undone, and remote edits made between
 * two local steps are kept.
 *
 * Every buffer transaction is one step; `transact(groupingInterval, fn)` merges a step into
 * the previous one while that one is still groupable, as Atom does. The buffer records its
 * own steps (`record`) and the manager performs undo and redo and records the steps those
 * make. At most `maxEntries` steps are kept; older ones are dropped, as in Atom.
 */
export class UndoHistory {
  readonly manager: Y.UndoManager
  private readonly providers = new Set<UndoStateProvider>()
  private readonly checkpoints = new Map<number, Checkpoint>()
  private nextCheckpointId = 1
  private pendingBefore: States | null = null
  private pendingAfter: States | null = null
  private pendingGroupingInterval = 0
  /** Steps dropped from the bottom of the undo stack so far. */
  private dropped = 0

  constructor(
    ytext: Y.Text,
    origin: object,
    private readonly maxEntries = DEFAULT_MAX_UNDO_ENTRIES,
  ) {
    this.manager = new Y.UndoManager(ytext, {
      trackedOrigins: new Set([origin]),
      captureTimeout: 0,
      // The buffer's own transactions are recorded by `record`; the manager records its own.
      captureTransaction: (transaction) => transaction.origin !== origin,
    })
    this.manager.on('stack-item-added', this.onStackItemAdded)
  }

  /**
   * Records a transaction of the buffer's that changed the text as one undo step (called from
   * the text's observer, before Yjs collects deleted items). Forgets the redo history.
   * `onlyLocalClient` tells that only this document's own client inserted anything.
   */
  record(transaction: Y.Transaction, onlyLocalClient = false): void {
    const client = transaction.doc.clientID
    const fromClock = transaction.beforeState.get(client) ?? 0
    const toClock = transaction.afterState.get(client) ?? 0
    const step = new LocalStep(transaction.deleteSet, client, fromClock, toClock)
    if (!onlyLocalClient && !onlyClientGrew(transaction, client))
      step.insertions = insertionsOf(transaction)
    if (transaction.deleteSet.clients.size > 0) keepDeletedItems(transaction)
    this.push(step)
  }

  /** Puts a new step on the undo stack, with the state from before it; forgets the redo history. */
  private push(step: LocalStep): void {
    const manager = this.manager
    if (manager.redoStack.length > 0) manager.clear(false, true)
    if (this.providers.size > 0) step.meta.set(BEFORE, this.pendingBefore ?? this.capture())
    const stack = manager.undoStack
    stack.push(step as unknown as StackItem)
    while (stack.length > this.maxEntries) {
      stack.shift()
      this.dropped++
    }
  }

  /**
   * Records a step that changed nothing, as Atom does for an edit that replaced nothing with
   * nothing (pasting an empty clipboard): undoing it only puts the saved state back.
   */
  recordEmpty(): void {
    this.push(new LocalStep(Y.createDeleteSet(), 0, 0, 0))
  }

  /** Registers state to save with each step; dispose to stop. */
  register<State>(provider: UndoStateProvider<State>): Disposable {
    this.providers.add(provider as UndoStateProvider)
    return new Disposable(() => this.providers.delete(provider as UndoStateProvider))
  }

  /** Called before a local transaction starts: saves the state to restore on undo. */
  willTransact(groupingInterval: number): void {
    this.pendingBefore = this.providers.size > 0 ? this.capture() : null
    this.pendingGroupingInterval = groupingInterval
  }

  /**
   * Saves the state to restore on redo, as the transaction's edits left it: called once the
   * text has taken them in, before anyone hears of them (and so before selections merge).
   */
  captureAfter(): void {
    this.pendingAfter = this.providers.size > 0 ? this.capture() : null
  }

  /** Called after a local transaction ended. Merges it into the previous step if still groupable. */
  didTransact(stepAdded: StackItem | null): void {
    const after = this.pendingAfter
    this.pendingBefore = null
    this.pendingAfter = null
    if (stepAdded === null) return
    if (this.providers.size > 0) stepAdded.meta.set(AFTER, after ?? this.capture())
    const stack = this.manager.undoStack
    const previous = stack[stack.length - 2]
    if (this.pendingGroupingInterval === 0) return
    const now = Date.now()
    if (
      previous !== undefined &&
      ((previous.meta.get(GROUPABLE_UNTIL) as number | undefined) ?? 0) > now
    ) {
      this.mergeTopInto(stack.length - 2)
    }
    stack[stack.length - 1]!.meta.set(GROUPABLE_UNTIL, now + this.pendingGroupingInterval)
  }

  /** The step on top of the undo stack (to tell whether a transaction added one). */
  top(): StackItem | null {
    const stack = this.manager.undoStack
    return stack[stack.length - 1] ?? null
  }

  /** Reverts the last local step and restores the state from before it. */
  undo(): boolean {
    const { undoStack, redoStack } = this.manager
    if (isEmptyStep(undoStack[undoStack.length - 1])) {
      const step = undoStack.pop()!
      redoStack.push(step)
      this.restore(step.meta.get(BEFORE) as States | undefined)
      return true
    }
    const redoDepth = this.manager.redoStack.length
    const item = this.manager.undo()
    if (item === null) return false
    const redone = this.manager.redoStack[redoDepth]
    if (redone !== undefined) copyMeta(item, redone)
    this.restore(item.meta.get(BEFORE) as States | undefined)
    return true
  }

  /** Applies the last undone step again and restores the state from after it. */
  redo(): boolean {
    const { undoStack, redoStack } = this.manager
    if (isEmptyStep(redoStack[redoStack.length - 1])) {
      const step = redoStack.pop()!
      undoStack.push(step)
      this.restore(step.meta.get(AFTER) as States | undefined)
      return true
    }
    const undoDepth = this.manager.undoStack.length
    const item = this.manager.redo()
    if (item === null) return false
    const again = this.manager.undoStack[undoDepth]
    if (again !== undefined) copyMeta(item, again)
    this.restore(item.meta.get(AFTER) as States | undefined)
    return true
  }

  /** Marks the current place in the history; see `revertToCheckpoint`. */
  createCheckpoint(): number {
    const id = this.nextCheckpointId++
    const position = this.dropped + this.manager.undoStack.length
    this.checkpoints.set(id, { position, top: this.top() })
    return id
  }

  /**
   * Undoes every step made since the checkpoint, without keeping them for redo. False when
   * the checkpoint is unknown or its place in the history was undone.
   */
  revertToCheckpoint(id: number): boolean {
    const checkpoint = this.validCheckpoint(id)
    if (checkpoint === undefined) return false
    const depth = checkpoint.position - this.dropped
    while (this.manager.undoStack.length > depth) {
      const redoDepth = this.manager.redoStack.length
      if (!this.undo()) break
      this.manager.redoStack.length = redoDepth
    }
    return true
  }

  /** Merges every step made since the checkpoint into one. False when the checkpoint is not valid. */
  groupChangesSinceCheckpoint(id: number): boolean {
    const checkpoint = this.validCheckpoint(id)
    if (checkpoint === undefined) return false
    const stack = this.manager.undoStack
    const depth = checkpoint.position - this.dropped
    while (stack.length > depth + 1) this.mergeTopInto(stack.length - 2)
    return true
  }

  /** Merges the last two steps into one. False when there are fewer than two. */
  groupLastChanges(): boolean {
    const stack = this.manager.undoStack
    if (stack.length < 2) return false
    this.mergeTopInto(stack.length - 2)
    return true
  }

  /** Forgets every undo step (redo steps are kept). */
  clearUndoStack(): void {
    this.manager.clear(true, false)
    this.checkpoints.clear()
  }

  /** Forgets every redo step. */
  clearRedoStack(): void {
    this.manager.clear(false, true)
  }

  /** Stops tracking changes. */
  destroy(): void {
    this.manager.off('stack-item-added', this.onStackItemAdded)
    this.manager.destroy()
    this.providers.clear()
  }

  private readonly onStackItemAdded = (): void => {
    // Undo and redo make steps of their own; they carry the states over (see `undo`/`redo`).
    const stack = this.manager.undoStack
    while (stack.length > this.maxEntries) {
      stack.shift()
      this.dropped++
    }
  }

  private capture(): States {
    const states: States = new Map()
    for (const provider of this.providers) states.set(provider, provider.capture())
    return states
  }

  private restore(states: States | undefined): void {
    if (states === undefined) return
    for (const [provider, state] of states) {
      if (this.providers.has(provider)) provider.restore(state)
    }
  }

  private validCheckpoint(id: number): Checkpoint | undefined {
    const checkpoint = this.checkpoints.get(id)
    if (checkpoint === undefined) return undefined
    const stack = this.manager.undoStack
    const depth = checkpoint.position - this.dropped
    if (depth < 0 || stack.length < depth) return undefined
    const atDepth = depth === 0 ? null : stack[depth - 1]!
    return atDepth === checkpoint.top ? checkpoint : undefined
  }

  /** Folds the top step into the step at `index` (the one below it) and drops the top. */
  private mergeTopInto(index: number): void {
    const stack = this.manager.undoStack
    const top = stack.pop()!
    const target = stack[index]!
    target.insertions = Y.mergeDeleteSets([target.insertions, top.insertions])
    target.deletions = Y.mergeDeleteSets([target.deletions, top.deletions])
    if (top.meta.has(AFTER)) target.meta.set(AFTER, top.meta.get(AFTER))
    if (top.meta.has(GROUPABLE_UNTIL))
      target.meta.set(GROUPABLE_UNTIL, top.meta.get(GROUPABLE_UNTIL))
  }
}

/** Whether `step` inserts and deletes nothing (Yjs would skip it: it is handled here). */
const isEmptyStep = (step: StackItem | undefined): step is StackItem =>
  step !== undefined && step.insertions.clients.size === 0 && step.deletions.clients.size === 0

const copyMeta = (from: StackItem, to: StackItem): void => {
  for (const [key, value] of from.meta) to.meta.set(key, value)
}

/** Whether `client` is the only one whose clock advanced in `transaction`. */
const onlyClientGrew = (transaction: Y.Transaction, client: number): boolean => {
  for (const [other, after] of transaction.afterState) {
    if (other !== client && after !== (transaction.beforeState.get(other) ?? 0)) return false
  }
  return true
}

/** Everything `transaction` inserted, as a delete set (what Y.UndoManager keeps as insertions). */
const insertionsOf = (transaction: Y.Transaction): DeleteSet => {
  const insertions = Y.createDeleteSet()
  for (const [client, after] of transaction.afterState) {
    const before = transaction.beforeState.get(client) ?? 0
    if (after > before) {
      const run = { clock: before, len: after - before } as DeleteRun
      insertions.clients.set(client, [run])
    }
  }
  return insertions
}

/** Keeps the items `transaction` deleted (and the types holding them) from garbage collection, so undo can restore them. */
const keepDeletedItems = (transaction: Y.Transaction): void => {
  Y.iterateDeletedStructs(transaction, transaction.deleteSet, keepItem)
}

const keepItem = (struct: Y.Item | Y.GC): void => {
  let item: Y.Item | null = struct instanceof Y.Item ? struct : null
  while (item !== null && !item.keep) {
    item.keep = true
    item = (item.parent as Y.AbstractType<unknown>)._item
  }
}
