/**
 * Find and replace in one editor, as Atom's find-and-replace does it for the current buffer:
 * one marker per match on a layer of its own, next and previous with wrap-around, replace
 * next, replace all as one undo step, every match as a selection.
 *
 * The search runs in slices of a few milliseconds with a macrotask between them, so a 10 MB
 * document never holds up input for more than a frame; `search` resolves once all is found.
 * Matches are markers anchored by Yjs relative positions, so they follow every edit, local or
 * remote; the rows an edit touched are scanned again right after it (see `MatchScan`).
 */
import type { BufferChangeEvent, Marker } from '@tandem/buffer'
import { CompositeDisposable, type Disposable, Emitter, Range } from '@tandem/text'
import type { DisplayMarker, DisplayMarkerLayer } from './display-marker.js'
import { contextOf } from './editor-context.js'
import {
  assertSearchQuery,
  type CompiledQuery,
  compileSearchQuery,
  expandReplacement,
  type SearchQuery,
} from './search-query.js'
import { MatchScan } from './search-scan.js'
import type { TextEditor } from './text-editor.js'

/** Options of `EditorSearch`. */
export interface EditorSearchOptions {
  /**
   * The most match markers a search keeps (default 100,000): past it the search stops and
   * `hasMoreMatches` says so, which bounds its memory on huge documents.
   */
  maxMatches?: number
}

/** Options of the replacing calls. */
export interface ReplaceOptions {
  /** Replace even when the editor is read-only (as the editor's own edits take it). */
  bypassReadOnly?: boolean
}

/** Default of `EditorSearchOptions.maxMatches`. */
export const DEFAULT_MAX_MATCHES = 100_000

/** How long one slice of a search may run before it gives way to other tasks. */
const SLICE_MILLISECONDS = 4

const now: () => number =
  typeof performance === 'object' ? () => performance.now() : () => Date.now()

/** What `nextMacrotask` needs of the host: typed here, since Node and browsers type them apart. */
interface MacrotaskHost {
  setImmediate?: (callback: () => void) => unknown
  MessageChannel?: new () => {
    port1: { onmessage: ((event: unknown) => void) | null; close(): void }
    port2: { postMessage(message: unknown): void }
  }
}

/**
 * Resolves on a later macrotask, after pending input and timers had their turn: `setImmediate`
 * where there is one (Node), else a `MessageChannel` message (browsers: not clamped like
 * `setTimeout`), else `setTimeout(0)`.
 */
const nextMacrotask = (): Promise<void> =>
  new Promise((resolve) => {
    const host = globalThis as unknown as MacrotaskHost
    if (typeof host.setImmediate === 'function') {
      host.setImmediate(resolve)
    } else if (typeof host.MessageChannel === 'function') {
      const channel = new host.MessageChannel()
      channel.port1.onmessage = () => {
        channel.port1.close()
        resolve()
      }
      channel.port2.postMessage(null)
    } else {
      setTimeout(resolve, 0)
    }
  })

/**
 * Find and replace over a `TextEditor`, the model of a find bar: Atom's find-and-replace
 * behaviour for the current buffer, in chunks, with matches as markers that follow local and
 * remote edits.
 *
 * Next and previous look from the last selection: `findNext` selects the first match that
 * starts at or after its end, `findPrevious` the last one that ends at or before its start,
 * both wrapping around. A search still running has found only part of the matches; next and
 * previous go by those.
 *
 * @example
 * const search = new EditorSearch(editor)
 * await search.search({ text: 'colou?r', regex: true })
 * search.findNext() // selects the first match after the cursor
 * search.replaceAll('hue') // => the number of matches replaced
 */
export class EditorSearch {
  /**
   * One marker per match, in the buffer's coordinates; a view decorates this layer. Matches
   * are never empty: a pattern that matches the empty string finds only its non-empty
   * matches.
   */
  readonly markerLayer: DisplayMarkerLayer
  private readonly editor: TextEditor
  private readonly maxMatches: number
  private readonly emitter = new Emitter<{ 'did-update': undefined }>()
  private readonly subscriptions = new CompositeDisposable()
  private query: SearchQuery | undefined
  private compiled: CompiledQuery | null = null
  private error: string | undefined
  private scan: MatchScan | null = null
  private capped = false
  /** Callers of `search` waiting for the scan to finish. */
  private waiters: Array<() => void> = []
  private sliceScheduled = false
  /** The matches sorted by start, made again after matches were added or removed. */
  private sorted: Marker[] | null = null
  /** The match equal to the last selection, if any. */
  private current: Marker | null = null
  private destroyed = false

  constructor(editor: TextEditor, options: EditorSearchOptions = {}) {
    const maxMatches = options.maxMatches ?? DEFAULT_MAX_MATCHES
    if (typeof maxMatches !== 'number' || !(maxMatches >= 0)) {
      throw new TypeError(`maxMatches must be a number >= 0, got ${String(maxMatches)}`)
    }
    this.editor = editor
    this.maxMatches = maxMatches
    this.markerLayer = editor.addMarkerLayer({ role: 'search-results' })
    this.subscriptions.add(
      editor.getBuffer().onDidChange((event) => this.bufferDidChange(event)),
      editor.onDidChangeSelectionRange(({ selection }) => {
        if (selection === editor.getLastSelection()) this.updateCurrent(true)
      }),
      editor.onDidAddSelection(() => this.updateCurrent(true)),
      editor.onDidRemoveSelection(() => this.updateCurrent(true)),
      editor.onDidDestroy(() => this.destroy()),
    )
  }

  /**
   * Starts (or restarts, cancelling a running one) a search; resolves when every match is
   * found, or when the search is cancelled or replaced. The first slice runs before `search`
   * returns, so a small document has all its matches at once. An invalid pattern rejects
   * nothing: `getError()` says why and there are no matches.
   *
   * @example await search.search({ text: 'TODO', caseSensitive: true })
   */
  search(query: SearchQuery): Promise<void> {
    assertSearchQuery(query)
    this.assertAlive()
    this.stopScan()
    this.query = { ...query }
    this.error = undefined
    this.capped = false
    this.markerLayer.bufferLayer.clear()
    this.sorted = null
    this.current = null
    const compiled = compileSearchQuery(query)
    if (typeof compiled === 'string') this.error = compiled
    this.compiled = typeof compiled === 'string' ? null : compiled
    if (this.compiled === null) {
      this.emitter.emit('did-update')
      return Promise.resolve()
    }
    const scopes =
      query.inSelection === true
        ? this.editor.getSelectedBufferRanges().filter((range) => !range.isEmpty())
        : []
    // As Atom: an in-selection search without a selection searches the whole buffer.
    this.scan = new MatchScan(
      this.editor.getBuffer(),
      this.markerLayer.bufferLayer,
      this.compiled,
      scopes.length > 0 ? scopes : null,
      this.maxMatches,
    )
    const done = new Promise<void>((resolve) => this.waiters.push(resolve))
    this.runSlice()
    return done
  }

  /** The query of the last `search`, if any. */
  getQuery(): SearchQuery | undefined {
    return this.query === undefined ? undefined : { ...this.query }
  }

  /** Why the last query finds nothing when its pattern is invalid (the RegExp's message). */
  getError(): string | undefined {
    return this.error
  }

  /** How many matches there are (so far, while the search runs; at most `maxMatches`). */
  getMatchCount(): number {
    return this.markerLayer.bufferLayer.getMarkerCount()
  }

  /** Whether the search stopped at `maxMatches` markers with more matches left unmarked. */
  hasMoreMatches(): boolean {
    return this.capped
  }

  /** Whether the search (or the re-check of edited rows) is still running. */
  isSearching(): boolean {
    return this.scan?.hasPending() ?? false
  }

  /** The ranges of all matches, first to last. */
  getMatchRanges(): Range[] {
    return this.sortedMatches().map((marker) => marker.getRange())
  }

  /** Index (in document order) of the match equal to the last selection, else -1. */
  getCurrentMatchIndex(): number {
    this.updateCurrent(false)
    const current = this.current
    if (current === null) return -1
    // The matches before it, found through the marker index: no sort of every match.
    let index = 0
    const before = this.rangeOf(0, current.start)
    for (const marker of this.markerLayer.bufferLayer.markersIntersectingRange(before)) {
      if (marker.start < current.start && marker !== current) index++
    }
    return index
  }

  /** The marker of the match equal to the last selection (for a view to mark it apart). */
  getCurrentMatch(): DisplayMarker | undefined {
    this.updateCurrent(false)
    return this.current === null ? undefined : this.markerLayer.getMarker(this.current.id)
  }

  /**
   * Selects the first match that starts at or after the last selection's end, wrapping
   * around to the first match; asks views to center it. Returns its range, or undefined when
   * there is no match.
   */
  findNext(): Range | undefined {
    const from = this.editor.getBuffer().characterIndexForPosition(this.lastSelectionRange().end)
    const marker = this.firstMatchFrom(from) ?? this.firstMatchFrom(0)
    return marker === undefined ? undefined : this.selectMatch(marker)
  }

  /**
   * Selects the last match that ends at or before the last selection's start, wrapping
   * around to the last match; asks views to center it. Returns its range, or undefined.
   */
  findPrevious(): Range | undefined {
    const buffer = this.editor.getBuffer()
    const to = buffer.characterIndexForPosition(this.lastSelectionRange().start)
    const marker = this.lastMatchUpTo(to) ?? this.lastMatchUpTo(buffer.getLength())
    return marker === undefined ? undefined : this.selectMatch(marker)
  }

  /**
   * Replaces the match the last selection is (else the first one starting at or after the
   * selection's start, wrapping), then selects the next match after the replacement. A regex
   * replacement fills in `$1`, `$<name>`, `$&`, `$$` and Atom's `\n`, `\t`, `\r`, `\\`. Returns
   * the range of the replacement text, or undefined when nothing was replaced (no match, or a
   * read-only editor without `bypassReadOnly`).
   *
   * @example search.replaceNext('$2, $1') // with the query { text: '(\\w+) (\\w+)', regex: true }
   */
  replaceNext(replacement: string, options: ReplaceOptions = {}): Range | undefined {
    checkReplacement(replacement)
    this.updateCurrent(false)
    const buffer = this.editor.getBuffer()
    let target = this.current ?? undefined
    if (target === undefined) {
      const from = buffer.characterIndexForPosition(this.lastSelectionRange().start)
      target = this.firstMatchFrom(from) ?? this.firstMatchFrom(0)
      if (target === undefined) return undefined
    }
    if (!contextOf(this.editor).mayEdit('replaceNext', options)) return undefined
    const range = target.getRange()
    const text = this.replacementFor(range, replacement)
    // The rows the edit touched are searched again as it ends (see `bufferDidChange`).
    const newRange = this.editor.transact(() => buffer.setTextInRange(range, text))
    const end = buffer.characterIndexForPosition(newRange.end)
    const next = this.firstMatchFrom(end) ?? this.firstMatchFrom(0)
    if (next !== undefined) this.selectMatch(next)
    else this.editor.setSelectedBufferRange([newRange.end, newRange.end])
    return newRange
  }

  /**
   * Replaces every match in one transaction (one undo step); a search still running is
   * finished first. Returns how many matches were replaced (0 on a read-only editor without
   * `bypassReadOnly`).
   *
   * @example search.replaceAll('') // deletes every match
   */
  replaceAll(replacement: string, options: ReplaceOptions = {}): number {
    checkReplacement(replacement)
    this.finishScan()
    const sorted = this.sortedMatches()
    if (sorted.length === 0) return 0
    if (!contextOf(this.editor).mayEdit('replaceAll', options)) return 0
    const buffer = this.editor.getBuffer()
    const edits = sorted.map((marker) => {
      const range = marker.getRange()
      return { range, text: this.replacementFor(range, replacement) }
    })
    this.editor.transact(() => {
      // Last first, so that the ranges before each edit stay where they were.
      for (let i = edits.length - 1; i >= 0; i--) {
        buffer.setTextInRange(edits[i]!.range, edits[i]!.text)
      }
    })
    return edits.length
  }

  /** Makes one selection per match (nothing when there is none) and centers the first. */
  selectAllMatches(): void {
    const sorted = this.sortedMatches()
    if (sorted.length === 0) return
    const ranges = sorted.map((marker) => marker.getRange())
    this.editor.setSelectedBufferRanges(ranges, { autoscroll: false })
    this.centerOn(ranges[0]!)
  }

  /**
   * Calls `callback` when the matches or the current match changed: after each slice of a
   * running search, after edits changed matches, when the last selection moved onto or off a
   * match, and when a search starts, fails or stops.
   */
  onDidUpdate(callback: () => void): Disposable {
    return this.emitter.on('did-update', callback)
  }

  /**
   * Stops the running search where it is: the matches found so far stay, and the rows later
   * edits touch are still re-checked. `search` resolves.
   */
  cancel(): void {
    if (this.scan === null) return
    this.scan.stop()
    this.resolveWaiters()
    this.emitter.emit('did-update')
  }

  /** Removes the matches and the query; edits are no longer followed until the next search. */
  clear(): void {
    this.stopScan()
    this.query = undefined
    this.compiled = null
    this.error = undefined
    this.capped = false
    if (!this.destroyed) this.markerLayer.bufferLayer.clear()
    this.sorted = null
    this.current = null
    this.emitter.emit('did-update')
  }

  /** Stops searching, destroys the marker layer and drops the listeners. Safe to call twice. */
  destroy(): void {
    if (this.destroyed) return
    this.stopScan()
    this.destroyed = true
    this.subscriptions.dispose()
    this.markerLayer.destroy()
    this.emitter.dispose()
  }

  // Internals

  private bufferDidChange(event: BufferChangeEvent): void {
    if (this.scan === null || this.destroyed) return
    this.scan.invalidate(event.changes)
    // While a search runs, its next slice takes the edited rows too: a keystroke then never
    // waits for a slice of the search. Otherwise they are searched again at once.
    if (!this.sliceScheduled) this.runSlice()
  }

  /** Scans until the work list is empty or the slice's time is up; schedules the rest. */
  private runSlice(): void {
    const scan = this.scan
    if (scan === null) return
    const deadline = now() + SLICE_MILLISECONDS
    let changed = false
    try {
      while (scan.hasPending()) {
        if (scan.step()) changed = true
        if (now() >= deadline) break
      }
    } catch (error) {
      // A pattern JavaScript takes but the buffer's search semantics cannot run.
      this.error = error instanceof Error ? error.message : String(error)
      scan.stop()
      this.markerLayer.bufferLayer.clear()
      changed = true
    }
    if (scan.capped) this.capped = true
    if (changed) {
      this.sorted = null
      this.updateCurrent(false)
    }
    if (scan.hasPending()) this.scheduleSlice()
    else this.resolveWaiters()
    if (changed || !scan.hasPending()) this.emitter.emit('did-update')
  }

  private scheduleSlice(): void {
    if (this.sliceScheduled) return
    this.sliceScheduled = true
    void nextMacrotask().then(() => {
      this.sliceScheduled = false
      if (!this.destroyed) this.runSlice()
    })
  }

  /** Runs the rest of the work list at once (before replacing). */
  private finishScan(): void {
    const scan = this.scan
    if (scan === null || !scan.hasPending()) return
    try {
      while (scan.hasPending()) scan.step()
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error)
      scan.stop()
    }
    if (scan.capped) this.capped = true
    this.sorted = null
    this.updateCurrent(false)
    this.resolveWaiters()
    this.emitter.emit('did-update')
  }

  private stopScan(): void {
    this.scan?.destroy()
    this.scan = null
    this.resolveWaiters()
  }

  private resolveWaiters(): void {
    const waiters = this.waiters
    this.waiters = []
    for (const resolve of waiters) resolve()
  }

  /**
   * The first match starting at or after `offset`, found through the marker index in windows
   * that grow eightfold, so that the cost follows the distance to it, not the match count.
   */
  private firstMatchFrom(offset: number): Marker | undefined {
    const layer = this.markerLayer.bufferLayer
    const length = this.editor.getBuffer().getLength()
    for (let size = 4096; ; size *= 8) {
      const end = Math.min(length, offset + size)
      let best: Marker | undefined
      for (const marker of layer.markersIntersectingRange(this.rangeOf(offset, end))) {
        if (marker.start < offset || !isLiveMatch(marker)) continue
        if (best === undefined || marker.start < best.start) best = marker
      }
      if (best !== undefined || end >= length) return best
    }
  }

  /** The last match ending at or before `offset`, found as `firstMatchFrom` finds. */
  private lastMatchUpTo(offset: number): Marker | undefined {
    const layer = this.markerLayer.bufferLayer
    for (let size = 4096; ; size *= 8) {
      const start = Math.max(0, offset - size)
      let best: Marker | undefined
      for (const marker of layer.markersIntersectingRange(this.rangeOf(start, offset))) {
        if (marker.end > offset || !isLiveMatch(marker)) continue
        if (best === undefined || marker.end > best.end) best = marker
      }
      if (best !== undefined || start <= 0) return best
    }
  }

  private rangeOf(start: number, end: number): Range {
    const buffer = this.editor.getBuffer()
    return new Range(buffer.positionForCharacterIndex(start), buffer.positionForCharacterIndex(end))
  }

  private sortedMatches(): Marker[] {
    if (this.sorted === null) {
      this.sorted = this.markerLayer.bufferLayer
        .getMarkers()
        .sort((a, b) => a.start - b.start || a.end - b.end)
    }
    return this.sorted
  }

  /** Finds the match equal to the last selection; emits when it changed and `emit` is set. */
  private updateCurrent(emit: boolean): void {
    if (this.destroyed || this.editor.isDestroyed()) return
    const range = this.lastSelectionRange()
    let found: Marker | null = null
    if (!range.isEmpty()) {
      const layer = this.markerLayer.bufferLayer
      for (const marker of layer.markersIntersectingRange(range)) {
        if (marker.getRange().isEqual(range)) {
          found = marker
          break
        }
      }
    }
    if (found === this.current) return
    this.current = found
    if (emit) this.emitter.emit('did-update')
  }

  private lastSelectionRange(): Range {
    return this.editor.getLastSelection().getBufferRange()
  }

  private selectMatch(marker: Marker): Range {
    const range = marker.getRange()
    this.editor.setSelectedBufferRange(range, { autoscroll: false })
    this.centerOn(range)
    return range
  }

  private centerOn(range: Range): void {
    this.editor.scrollToScreenRange(this.editor.screenRangeForBufferRange(range), {
      center: true,
    })
  }

  /** The replacement for the match at `range`, with its groups for a regex query. */
  private replacementFor(range: Range, template: string): string {
    const query = this.query
    const compiled = this.compiled
    if (query === undefined || compiled === null || query.regex !== true) return template
    let match: RegExpExecArray | null = null
    this.editor.getBuffer().scanInRange(compiled.regex, range, (result) => {
      if (result.range.isEqual(range)) match = result.match
      result.stop()
    })
    if (match === null) {
      // The pattern looks beyond the match (a lookaround): only `$&` has a value then.
      const text = this.editor.getTextInBufferRange(range)
      match = Object.assign([text], { index: 0, input: text }) as unknown as RegExpExecArray
    }
    return expandReplacement(query, match, template)
  }

  private assertAlive(): void {
    if (this.destroyed) throw new Error('EditorSearch is destroyed')
  }
}

/** Whether `marker` is a match now: an edit inside a match or over it waits to be re-checked. */
const isLiveMatch = (marker: Marker): boolean => marker.start < marker.end && marker.isValid()

const checkReplacement = (replacement: unknown): void => {
  if (typeof replacement !== 'string') {
    throw new TypeError(`replacement must be a string, got ${typeof replacement}`)
  }
}
