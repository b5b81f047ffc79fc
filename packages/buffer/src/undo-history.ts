import { Disposable, Emitter } from '@tandem/text'
import * as Y from 'yjs'
import {
  addRuns,
  decodeRedoneLinks,
  decodeUndoItem,
  emptyUndoItem,
  encodeRedoneLinks,
  encodeUndoItem,
  isEmptyUndoItem,
  joinUndoItems,
  noRuns,
  redoWith,
  releaseUndoItems,
  type UndoItem,
  undoItemOf,
  undoWith,
} from './yjs-internals.js'

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
  /**
   * Names the state in a saved history (`TextBuffer.saveUndoHistory`). A provider with a key,
   * `serialize` and `deserialize` has its states saved and loaded with the steps; others
   * are left out of a saved history.
   */
  key?: string
  /** The state as JSON-compatible data (relative positions in their JSON form, say). */
  serialize?(state: State): unknown
  /** A state from what `serialize` returned, or null when it cannot be read. */
  deserialize?(data: unknown): State | null
}

/**
 * One undo step in a form that can be stored and sent: its Yjs ids with what another copy of
 * the document needs to undo them (`ids`, binary), and the states saved before and after it
 * (JSON text of the registered providers' serialized states by key; null when none).
 *
 * @example const { ids, before, after } = buffer.saveUndoHistory().undo[0]
 */
export interface SavedUndoStep {
  /** The step's Yjs ids, with deleted text and `redone` links (binary, see `encodeUndoItem`). */
  readonly ids: Uint8Array
  /** JSON of the states to restore on undo (by provider key), or null. */
  readonly before: string | null
  /** JSON of the states to restore on redo, or null. */
  readonly after: string | null
}

/**
 * A buffer's undo and redo stacks in a form that can be stored and sent, each from its oldest
 * step (bottom) to its newest (top), as `TextBuffer.saveUndoHistory` returns them.
 *
 * @example buffer.loadUndoHistory(other.saveUndoHistory())
 */
export interface SavedUndoHistory {
  /** The undo stack, oldest first: the last is undone first. */
  readonly undo: readonly SavedUndoStep[]
  /** The redo stack: the last is redone first. */
  readonly redo: readonly SavedUndoStep[]
  /**
   * The links from the text the history's undo and redo brought back to the copies they made
   * (binary): undo, and relative positions, follow them. Absent: none.
   */
  readonly links?: Uint8Array
}

/** Atom's default number of undo steps a buffer keeps. */
export const DEFAULT_MAX_UNDO_ENTRIES = 10_000

type States = Map<UndoStateProvider, unknown>

/** One undo step: what it inserted and deleted, and the states saved around it. */
export interface UndoStep {
  /** The step's Yjs ids, in the shape the manager undoes. */
  item: UndoItem
  /** Saved states to restore on undo; null when nothing registered state. */
  before: States | null
  /** Saved states to restore on redo. */
  after: States | null
  /** Until when (ms since the epoch) a later transaction with a grouping interval joins it; 0: never. */
  groupableUntil: number
}

/** How a transaction announced by `willTransact` went. */
export interface TransactionOutcome {
  /** Its function threw: its changes are reverted and forgotten. */
  readonly failed: boolean
  /** It replaced nothing with nothing somewhere (Atom makes an undo step of that too). */
  readonly madeEmptyEdit: boolean
}

/** A place in the undo history made by `createCheckpoint`. */
interface Checkpoint {
  /** Steps below it, counting the ones dropped from the bottom of the history since. */
  position: number
  top: UndoStep | null
}

/**
 * Undo and redo of one buffer's own changes: a remote peer's changes are never undone, and
 * remote edits made between two local steps are kept.
 *
 * The history is an undo stack of its own: each step holds the Yjs ids its transaction
 * inserted and deleted (as delete sets), and the states saved before and after it. So the
 * steps Atom's API speaks of are plain list operations here: a transaction with a grouping
 * interval joins the step before it while that one is still groupable, checkpoints are places
 * in the list, `groupChangesSinceCheckpoint` and `groupLastChanges` join delete sets, and at
 * most `maxEntries` steps are kept, as in Atom. Recording a step is a few fields, where a
 * `Y.UndoManager` capturing each transaction would cost a delete set, a stack item and two
 * events per keystroke and keep every step forever.
 *
 * Undoing a step is left to a `Y.UndoManager` (see `undoWith` in `yjs-internals.ts`): it
 * redoes deleted items the way Yjs does (linked by `redone`, so that relative positions,
 * and with them the restored selections, follow them), which Yjs exports no other way. The
 * manager never captures the buffer's transactions; it is handed one step at a time. As
 * stock Yjs undo does, a step whose undo changes nothing (a peer deleted all it inserted) is
 * dropped and the step below it is undone instead.
 */
export class UndoHistory {
  /** The manager that undoes and redoes steps (the origin of those transactions). */
  readonly manager: Y.UndoManager
  private readonly providers = new Set<UndoStateProvider>()
  private readonly checkpoints = new Map<number, Checkpoint>()
  private undoSteps: UndoStep[] = []
  private redoSteps: UndoStep[] = []
  private nextCheckpointId = 1
  private pendingBefore: States | null = null
  private pendingAfter: States | null = null
  private pendingGroupingInterval = 0
  /** Steps dropped from the bottom of the undo stack so far. */
  private dropped = 0
  /** Whether a transaction announced by `willTransact` is under way. */
  private transacting = false
  /** The step on top when it started. */
  private topBefore: UndoStep | null = null
  private readonly emitter = new Emitter<{ 'did-change': undefined }>()
  /** Items this history's undo and redo brought back (so linked to their copies), as runs. */
  private linked = noRuns()
  /**
   * Saved forms already made, so that saving again costs only the new steps: an item's ids
   * (until it is joined with another) and a set of states' JSON (states are never changed).
   */
  private readonly savedIds = new WeakMap<UndoItem, Uint8Array>()
  private readonly savedStates = new WeakMap<States, string | null>()

  constructor(
    private readonly ytext: Y.Text,
    origin: object,
    private readonly maxEntries = DEFAULT_MAX_UNDO_ENTRIES,
  ) {
    this.manager = new Y.UndoManager(ytext, {
      trackedOrigins: new Set([origin]),
      // The buffer's transactions are recorded by `record`; the manager captures only the
      // transactions of its own undo and redo, which `undoWith`/`redoWith` take back.
      captureTransaction: (transaction) => transaction.origin !== origin,
    })
  }

  /**
   * Records a transaction of the buffer's that changed the text as one undo step (called from
   * the text's observer, before Yjs collects deleted items). Forgets the redo history.
   * `onlyLocalClient` tells that only this document's own client inserted anything.
   */
  record(transaction: Y.Transaction, onlyLocalClient = false): void {
    this.push(undoItemOf(transaction, onlyLocalClient))
  }

  /**
   * Records a step that changed nothing, as Atom does for an edit that replaced nothing with
   * nothing (pasting an empty clipboard): undoing it only puts the saved state back.
   */
  recordEmpty(): void {
    this.push(emptyUndoItem())
  }

  /** Puts a new step on the undo stack, with the state from before it; forgets the redo history. */
  private push(item: UndoItem): void {
    if (this.redoSteps.length > 0) this.clearRedoStack()
    const before = this.providers.size > 0 ? (this.pendingBefore ?? this.capture()) : null
    this.undoSteps.push({ item, before, after: null, groupableUntil: 0 })
    // `shift` drops the oldest in place (V8 trims the array's start), unlike `splice`.
    while (this.undoSteps.length > this.maxEntries) {
      this.undoSteps.shift()
      this.dropped++
    }
    this.changed()
  }

  /**
   * Calls `callback` whenever the steps change: one is made, joined, undone, redone or
   * forgotten, or a saved history is loaded. It may be called inside a transaction: it
   * should only note that the history changed (and save it later).
   */
  onDidChange(callback: () => void): Disposable {
    return this.emitter.on('did-change', callback)
  }

  private changed(): void {
    if (this.emitter.listenerCountForEventName('did-change') > 0) this.emitter.emit('did-change')
  }

  /**
   * The undo and redo stacks as data: at most `maxSteps` steps, the newest kept (the undo
   * stack's oldest steps go first, then the redo stack's last to be redone). States of
   * providers without a key and serializers are left out.
   */
  save(maxSteps = Number.POSITIVE_INFINITY): SavedUndoHistory {
    const redoCount = Math.min(this.redoSteps.length, Math.max(0, maxSteps))
    const undoCount = Math.min(this.undoSteps.length, Math.max(0, maxSteps - redoCount))
    const undo = this.undoSteps.slice(this.undoSteps.length - undoCount)
    const redo = this.redoSteps.slice(this.redoSteps.length - redoCount)
    return {
      undo: undo.map((step) => this.saveStep(step)),
      redo: redo.map((step) => this.saveStep(step)),
      links: encodeRedoneLinks(this.ytext, this.linked),
    }
  }

  /**
   * Replaces both stacks with the saved ones, made ready to undo in this buffer's document
   * (see `decodeUndoItem`). A step that does not decode is left out. Returns how many steps
   * were loaded.
   */
  load(saved: SavedUndoHistory): number {
    if (saved.links !== undefined) {
      try {
        this.linked = addRuns(this.linked, decodeRedoneLinks(this.ytext, saved.links))
      } catch {
        // Without the links, undo brings text back again where it would follow a copy.
      }
    }
    const undo = this.loadSteps(saved.undo).slice(-this.maxEntries)
    const redo = this.loadSteps(saved.redo)
    releaseUndoItems(
      this.manager,
      [...this.undoSteps, ...this.redoSteps].map((step) => step.item),
    )
    this.checkpoints.clear()
    this.undoSteps = undo
    this.redoSteps = redo
    this.dropped = 0
    this.changed()
    return undo.length + redo.length
  }

  private saveStep(step: UndoStep): SavedUndoStep {
    let ids = this.savedIds.get(step.item)
    if (ids === undefined) {
      ids = encodeUndoItem(this.ytext, step.item)
      this.savedIds.set(step.item, ids)
    }
    return { ids, before: this.serialize(step.before), after: this.serialize(step.after) }
  }

  private loadSteps(saved: readonly SavedUndoStep[]): UndoStep[] {
    const steps: UndoStep[] = []
    for (const entry of saved) {
      let item: UndoItem
      try {
        item = decodeUndoItem(this.ytext, entry.ids)
      } catch {
        continue
      }
      steps.push({
        item,
        before: this.deserialize(entry.before),
        after: this.deserialize(entry.after),
        groupableUntil: 0,
      })
    }
    return steps
  }

  private serialize(states: States | null): string | null {
    if (states === null) return null
    const saved = this.savedStates.get(states)
    if (saved !== undefined) return saved
    const json = this.serializeAll(states)
    this.savedStates.set(states, json)
    return json
  }

  private serializeAll(states: States): string | null {
    const data: Record<string, unknown> = {}
    let any = false
    for (const [provider, state] of states) {
      if (provider.key === undefined || provider.serialize === undefined) continue
      if (provider.deserialize === undefined) continue
      data[provider.key] = provider.serialize(state)
      any = true
    }
    return any ? JSON.stringify(data) : null
  }

  private deserialize(json: string | null): States | null {
    if (json === null) return null
    let data: unknown
    try {
      data = JSON.parse(json)
    } catch {
      return null
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return null
    const states: States = new Map()
    for (const provider of this.providers) {
      const { key, deserialize } = provider
      if (key === undefined || deserialize === undefined || !Object.hasOwn(data, key)) continue
      let state: unknown = null
      try {
        state = deserialize.call(provider, (data as Record<string, unknown>)[key])
      } catch {
        state = null
      }
      if (state !== null) states.set(provider, state)
    }
    if (states.size === 0) return null
    this.savedStates.set(states, json)
    return states
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
    this.transacting = true
    this.topBefore = this.top()
  }

  /**
   * Saves the state to restore on redo, as the transaction's edits left it: called once the
   * text has taken them in, before anyone hears of them (and so before selections merge).
   */
  captureAfter(): void {
    this.pendingAfter = this.providers.size > 0 ? this.capture() : null
  }

  /**
   * Called after a transaction announced by `willTransact` ended: joins the step it added to
   * the previous one if that one is still groupable, records an empty step for an edit that
   * replaced nothing with nothing, and reverts the step of a transaction that failed.
   */
  didTransact(outcome: TransactionOutcome): void {
    if (!this.transacting) return
    this.transacting = false
    if (outcome.madeEmptyEdit && !outcome.failed && this.top() === this.topBefore) {
      this.recordEmpty()
    }
    const after = this.pendingAfter
    this.pendingBefore = null
    this.pendingAfter = null
    const top = this.top()
    if (top === null || top === this.topBefore) return
    if (outcome.failed) {
      this.revertTop()
      return
    }
    if (this.providers.size > 0) top.after = after ?? this.capture()
    this.changed()
    if (this.pendingGroupingInterval === 0) return
    const now = Date.now()
    const previous = this.undoSteps[this.undoSteps.length - 2]
    if (previous !== undefined && previous.groupableUntil > now) this.mergeTop()
    this.top()!.groupableUntil = now + this.pendingGroupingInterval
  }

  /** The step on top of the undo stack (to tell whether a transaction added one). */
  top(): UndoStep | null {
    return this.undoSteps[this.undoSteps.length - 1] ?? null
  }

  /** Reverts the last local step and restores the state from before it. */
  undo(): boolean {
    return this.pop(this.undoSteps, this.redoSteps, 'undo')
  }

  /** Applies the last undone step again and restores the state from after it. */
  redo(): boolean {
    return this.pop(this.redoSteps, this.undoSteps, 'redo')
  }

  /** Undoes the step on top and forgets it (a transaction that failed). */
  private revertTop(): void {
    const redoDepth = this.redoSteps.length
    if (this.undo()) this.forgetRedoStepsAbove(redoDepth)
  }

  /** Marks the current place in the history; see `revertToCheckpoint`. */
  createCheckpoint(): number {
    const id = this.nextCheckpointId++
    const position = this.dropped + this.undoSteps.length
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
    while (this.undoSteps.length > depth) {
      const redoDepth = this.redoSteps.length
      if (!this.undo()) break
      this.forgetRedoStepsAbove(redoDepth)
    }
    return true
  }

  /** Merges every step made since the checkpoint into one. False when the checkpoint is not valid. */
  groupChangesSinceCheckpoint(id: number): boolean {
    const checkpoint = this.validCheckpoint(id)
    if (checkpoint === undefined) return false
    const depth = checkpoint.position - this.dropped
    while (this.undoSteps.length > depth + 1) this.mergeTop()
    return true
  }

  /** Merges the last two steps into one. False when there are fewer than two. */
  groupLastChanges(): boolean {
    if (this.undoSteps.length < 2) return false
    this.mergeTop()
    return true
  }

  /** Forgets every undo step (redo steps are kept). */
  clearUndoStack(): void {
    releaseUndoItems(
      this.manager,
      this.undoSteps.map((step) => step.item),
    )
    this.undoSteps = []
    this.checkpoints.clear()
    this.changed()
  }

  /** Forgets every redo step. */
  clearRedoStack(): void {
    releaseUndoItems(
      this.manager,
      this.redoSteps.map((step) => step.item),
    )
    this.redoSteps = []
    this.changed()
  }

  /** Stops tracking changes. */
  destroy(): void {
    this.manager.destroy()
    this.providers.clear()
    this.emitter.clear()
  }

  /**
   * Undoes (or redoes) the step on top of `from` and moves it to `to` with the item that
   * reverses it. A step whose reversal changes nothing is dropped and the next one taken, as
   * stock Yjs undo does.
   */
  private pop(from: UndoStep[], to: UndoStep[], direction: 'undo' | 'redo'): boolean {
    for (;;) {
      const step = from.pop()
      if (step === undefined) return false
      let item: UndoItem | null = step.item
      if (!isEmptyUndoItem(item)) {
        item = direction === 'undo' ? undoWith(this.manager, item) : redoWith(this.manager, item)
        if (item === null) continue
        // What it brought back is linked to the copies it made: kept to be saved.
        this.linked = addRuns(this.linked, step.item.deletions)
      }
      to.push({ item, before: step.before, after: step.after, groupableUntil: step.groupableUntil })
      this.restore(direction === 'undo' ? step.before : step.after)
      this.changed()
      return true
    }
  }

  private forgetRedoStepsAbove(depth: number): void {
    const forgotten = this.redoSteps.splice(depth)
    releaseUndoItems(
      this.manager,
      forgotten.map((step) => step.item),
    )
  }

  private capture(): States {
    const states: States = new Map()
    for (const provider of this.providers) states.set(provider, provider.capture())
    return states
  }

  private restore(states: States | null): void {
    if (states === null) return
    for (const [provider, state] of states) {
      if (this.providers.has(provider)) provider.restore(state)
    }
  }

  private validCheckpoint(id: number): Checkpoint | undefined {
    const checkpoint = this.checkpoints.get(id)
    if (checkpoint === undefined) return undefined
    const depth = checkpoint.position - this.dropped
    if (depth < 0 || this.undoSteps.length < depth) return undefined
    const atDepth = depth === 0 ? null : this.undoSteps[depth - 1]!
    return atDepth === checkpoint.top ? checkpoint : undefined
  }

  /** Folds the top step into the one below it. */
  private mergeTop(): void {
    const top = this.undoSteps.pop()!
    const target = this.undoSteps[this.undoSteps.length - 1]!
    joinUndoItems(target.item, top.item)
    this.savedIds.delete(target.item)
    if (top.after !== null) target.after = top.after
    if (top.groupableUntil !== 0) target.groupableUntil = top.groupableUntil
    this.changed()
  }
}
