import { Disposable } from '@tandem/text'
import * as Y from 'yjs'

/**
 * State saved with every undo step and put back on undo (the state before the step) and
 * redo (the state after it), such as the selections as relative positions.
 *
 * @example buffer.registerUndoState({ capture: () => saveSelections(), restore: (s) => load(s) })
 */
export interface UndoStateProvider<State = unknown> {
  capture(): State
  restore(state: State): void
}

/** A place in the undo history made by `createCheckpoint`. */
interface Checkpoint {
  depth: number
  top: StackItem | null
}

type StackItem = Y.UndoManager['undoStack'][number]
type States = Map<UndoStateProvider, unknown>

const BEFORE = 'tandem:before'
const AFTER = 'tandem:after'
const GROUPABLE_UNTIL = 'tandem:groupable-until'

/**
 * Undo and redo of one buffer's own changes, on a `Y.UndoManager` that tracks only the
 * buffer's origin: a remote peer's changes are never undone, and remote edits made between
 * two local steps are kept.
 *
 * Every buffer transaction is one step; `transact(groupingInterval, fn)` merges a step into
 * the previous one while that one is still groupable, as Atom does.
 */
export class UndoHistory {
  readonly manager: Y.UndoManager
  private readonly providers = new Set<UndoStateProvider>()
  private readonly checkpoints = new Map<number, Checkpoint>()
  private nextCheckpointId = 1
  private pendingBefore: States | null = null
  private pendingGroupingInterval = 0

  constructor(ytext: Y.Text, origin: object) {
    this.manager = new Y.UndoManager(ytext, {
      trackedOrigins: new Set([origin]),
      captureTimeout: 0,
    })
    this.manager.on('stack-item-added', this.onStackItemAdded)
  }

  /** Registers state to save with each step; dispose to stop. */
  register<State>(provider: UndoStateProvider<State>): Disposable {
    this.providers.add(provider as UndoStateProvider)
    return new Disposable(() => this.providers.delete(provider as UndoStateProvider))
  }

  /** Called before a local transaction starts: saves the state to restore on undo. */
  willTransact(groupingInterval: number): void {
    this.pendingBefore = this.capture()
    this.pendingGroupingInterval = groupingInterval
  }

  /** Called after a local transaction ended. Merges it into the previous step if still groupable. */
  didTransact(stepAdded: StackItem | null): void {
    this.pendingBefore = null
    if (stepAdded === null) return
    const stack = this.manager.undoStack
    const previous = stack[stack.length - 2]
    const now = Date.now()
    if (
      this.pendingGroupingInterval > 0 &&
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
    this.checkpoints.set(id, { depth: this.manager.undoStack.length, top: this.top() })
    return id
  }

  /**
   * Undoes every step made since the checkpoint, without keeping them for redo. False when
   * the checkpoint is unknown or its place in the history was undone.
   */
  revertToCheckpoint(id: number): boolean {
    const checkpoint = this.validCheckpoint(id)
    if (checkpoint === undefined) return false
    while (this.manager.undoStack.length > checkpoint.depth) {
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
    while (stack.length > checkpoint.depth + 1) this.mergeTopInto(stack.length - 2)
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

  private readonly onStackItemAdded = (event: { stackItem: StackItem }): void => {
    if (this.manager.undoing || this.manager.redoing) return
    const meta = event.stackItem.meta
    meta.set(BEFORE, this.pendingBefore ?? this.capture())
    meta.set(AFTER, this.capture())
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
    if (stack.length < checkpoint.depth) return undefined
    const atDepth = checkpoint.depth === 0 ? null : stack[checkpoint.depth - 1]!
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

const copyMeta = (from: StackItem, to: StackItem): void => {
  for (const [key, value] of from.meta) to.meta.set(key, value)
}
