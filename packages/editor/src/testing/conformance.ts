/**
 * Runs the recorded conformance corpus (`shared/conformance/*.json`, described in its README)
 * against Tandem's TextEditor: each case replays a scenario step by step and compares the
 * editor's state, return values and events with what Atom did, in three levels of strictness.
 */
import { readFileSync } from 'node:fs'
import { Clipboard, Range, TextEditor } from '../index.js'

// The corpus, read in place: `shared/conformance` sits beside the repository's root.
const corpusDirectory = new URL('../../../../../shared/conformance/', import.meta.url)

const MESSAGE_LIMIT = 600
const ARGUMENTS_LIMIT = 160

// ---------------------------------------------------------------------------------------------
// The corpus format

/** A point as the corpus writes it: `[row, column]`. */
export type PointJson = [number, number]
/** A range as the corpus writes it: `[[row, column], [row, column]]`. */
export type RangeJson = [PointJson, PointJson]

/** One cursor of a recorded state; `n` numbers cursors in creation order from 1. */
export interface CursorState {
  n: number
  buffer: PointJson
  screen: PointJson
}

/** One selection of a recorded state; it shares `n` with its cursor. */
export interface SelectionState {
  n: number
  buffer: RangeJson
  screen: RangeJson
  reversed: boolean
}

/** Everything compared about an editor between steps. */
export interface EditorState {
  text: string
  cursors: CursorState[]
  selections: SelectionState[]
  clipboard: { text: string; metadata: unknown }
  /** Folded buffer ranges; null when the editor cannot report them. */
  folds: RangeJson[] | null
}

/** An event as recorded: its type (`cursor.didChangePosition`, ...), `n`, and its payload. */
export interface RecordedEvent {
  type: string
  n: number
  [field: string]: unknown
}

/** The state after a step, with the step's return value and the events it fired. */
export interface ExpectedStep extends EditorState {
  ret: unknown
  retUndefined?: boolean
  retMatches?: Array<[number, string]>
  events: RecordedEvent[]
}

/** One call of a scenario: `target[op](...args)`. */
export interface ConformanceStep {
  on: 'editor' | 'cursor' | 'selection'
  op: string
  index?: number
  args?: unknown[]
}

/** The editor to build and the calls to make on it. */
export interface Scenario {
  text: string
  fixture?: string
  options?: Record<string, unknown>
  grammar?: string
  folds?: Array<[number, number] | RangeJson>
  clipboard?: string
  steps: ConformanceStep[]
}

/** One recorded case of a family file. */
export interface ConformanceCase {
  name: string
  scenario: Scenario
  expect: { initial: EditorState; steps: ExpectedStep[] }
}

/** A family file: `{format, family, seed, cases}`. */
export interface ConformanceFamily {
  format: number
  family: string
  seed: number
  cases: ConformanceCase[]
}

/** How strict a check is: 1 buffer state and returns, 2 screen state, 3 metadata and events. */
export type Level = 1 | 2 | 3

/** The first mismatch of a level: the step it happened at (0 = initial state) and a diff. */
export interface Failure {
  level: Level
  step: number
  message: string
}

/** The outcome of one case: which levels pass, and the first mismatch of each failing level. */
export interface CaseResult {
  name: string
  levels: Record<Level, boolean>
  firstFailure?: Failure
  failures: Partial<Record<Level, Failure>>
}

// ---------------------------------------------------------------------------------------------
// The editor as the runner sees it: only what it calls, so it compiles whatever the exact types

interface PointLike {
  row: number
  column: number
}

interface RangeLike {
  start: PointLike
  end: PointLike
}

interface DisposableLike {
  dispose(): void
}

interface PositionChange {
  oldBufferPosition: PointLike
  oldScreenPosition: PointLike
  newBufferPosition: PointLike
  newScreenPosition: PointLike
  textChanged: boolean
}

interface RangeChange {
  oldBufferRange: RangeLike
  oldScreenRange: RangeLike
  newBufferRange: RangeLike
  newScreenRange: RangeLike
}

interface CursorLike {
  /** The cursor's marker: a cursor made again for the same marker (undo) keeps its number. */
  marker?: { id?: unknown }
  getBufferPosition(): PointLike
  getScreenPosition(): PointLike
  onDidChangePosition(callback: (change: PositionChange) => void): DisposableLike
  onDidDestroy(callback: () => void): DisposableLike
}

interface SelectionLike {
  cursor?: CursorLike
  getBufferRange(): RangeLike
  getScreenRange(): RangeLike
  isReversed(): boolean
  onDidChangeRange(callback: (change: RangeChange) => void): DisposableLike
  onDidDestroy(callback: () => void): DisposableLike
}

interface EditorLike {
  getText(): string
  getCursors(): CursorLike[]
  getSelections(): SelectionLike[]
  getFoldedBufferRanges?(): RangeLike[]
  foldBufferRowRange(startRow: number, endRow: number): unknown
  foldBufferRange(range: RangeJson): unknown
  observeCursors(callback: (cursor: CursorLike) => void): DisposableLike
  onDidAddCursor(callback: (cursor: CursorLike) => void): DisposableLike
  onDidAddSelection(callback: (selection: SelectionLike) => void): DisposableLike
  onDidRemoveCursor(callback: (cursor: CursorLike) => void): DisposableLike
  onDidRemoveSelection(callback: (selection: SelectionLike) => void): DisposableLike
}

interface ClipboardLike {
  write(text: string): void
  readWithMetadata(): { text: string; metadata?: unknown }
}

const EditorClass = TextEditor as unknown as new (params: Record<string, unknown>) => EditorLike
const ClipboardClass = Clipboard as unknown as new () => ClipboardLike
const RangeClass = Range as unknown as { fromObject(range: unknown): unknown }

// ---------------------------------------------------------------------------------------------
// Loading

/** Reads one family file (`cursor`, `select`, ...) of the corpus and returns its cases. */
export function loadFamily(family: string): ConformanceCase[] {
  const file = new URL(`${family}.json`, corpusDirectory)
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as ConformanceFamily
  if (parsed.family !== family || !Array.isArray(parsed.cases)) {
    throw new Error(`${file.pathname} is not the conformance family '${family}'`)
  }
  return parsed.cases
}

// ---------------------------------------------------------------------------------------------
// Values: JSON forms of what the editor returns

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null

const isPoint = (value: Record<string, unknown>): value is Record<string, unknown> & PointLike =>
  typeof value.row === 'number' && typeof value.column === 'number'

const isRange = (value: Record<string, unknown>): value is Record<string, unknown> & RangeLike =>
  isObject(value.start) && isObject(value.end) && isPoint(value.start) && isPoint(value.end)

const isDisposable = (value: Record<string, unknown>): boolean =>
  typeof value.dispose === 'function'

const isPlainObject = (value: object): boolean => {
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

const indexIn = (list: readonly object[], item: object): number => list.indexOf(item)

const pointJson = (point: PointLike): PointJson => [point.row, point.column]

const rangeJson = (range: RangeLike): RangeJson => [pointJson(range.start), pointJson(range.end)]

/** `[index, match]` for every match of `regExp` over `text`, as the corpus lists them. */
const matchesOf = (regExp: RegExp, text: string): Array<[number, string]> => {
  const flags = regExp.flags.includes('g') ? regExp.flags : `${regExp.flags}g`
  const global = new RegExp(regExp.source, flags)
  const matches: Array<[number, string]> = []
  for (let match = global.exec(text); match !== null; match = global.exec(text)) {
    matches.push([match.index, match[0]])
    if (match[0] === '') global.lastIndex++
  }
  return matches
}

/** Equality of JSON values, ignoring key order. */
const deepEqual = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => deepEqual(item, b[i]))
  }
  if (!isObject(a) || !isObject(b) || Array.isArray(b)) return false
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  return keys.every((key) => key in b && deepEqual(a[key], b[key]))
}

const json = (value: unknown): string => JSON.stringify(value) ?? 'undefined'

const truncate = (text: string, limit: number): string =>
  text.length <= limit ? text : `${text.slice(0, limit - 1)}…`

const errorMessage = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error)

// ---------------------------------------------------------------------------------------------
// A session: one editor driven through a scenario, with creation numbers and recorded events

/** A step's observable outcome on the editor. */
interface ActualStep {
  state: EditorState
  ret: unknown
  retMatches?: Array<[number, string]>
  events: RecordedEvent[]
}

/** Atom's defaults for the options an editor would otherwise detect from its text. */
const ATOM_INDENTATION = { tabLength: 2, softTabs: true }

class EditorSession {
  readonly editor: EditorLike
  readonly clipboard: ClipboardLike
  private readonly scenario: Scenario
  private readonly cursorNumbers = new WeakMap<object, number>()
  private readonly markerNumbers = new Map<unknown, number>()
  private readonly selectionNumbers = new WeakMap<object, number>()
  private readonly watched = new WeakSet<object>()
  private nextNumber = 1
  private events: RecordedEvent[] = []

  /** Builds the editor, then applies the scenario's folds and clipboard. */
  constructor(scenario: Scenario) {
    this.scenario = scenario
    this.clipboard = new ClipboardClass()
    const grammar = scenario.grammar === undefined ? {} : { grammar: scenario.grammar }
    // Atom's bare TextEditor never detects indentation: its defaults stand unless given.
    const params = {
      text: scenario.text,
      clipboard: this.clipboard,
      ...ATOM_INDENTATION,
      ...scenario.options,
    }
    this.editor = new EditorClass({ ...params, ...grammar })
    this.editor.observeCursors((cursor) => this.numberOfCursor(cursor))
    for (const fold of scenario.folds ?? []) this.applyFold(fold)
    if (typeof scenario.clipboard === 'string') this.clipboard.write(scenario.clipboard)
  }

  /** From now on, records every cursor, selection and editor event for `outcome`. */
  startRecording(): void {
    const { editor } = this
    for (const cursor of editor.getCursors()) this.watchCursor(cursor)
    for (const selection of editor.getSelections()) this.watchSelection(selection)
    editor.onDidAddCursor((cursor) => {
      this.watchCursor(cursor)
      const buffer = this.serialize(cursor.getBufferPosition())
      this.record('editor.didAddCursor', this.numberOfCursor(cursor), { buffer })
    })
    editor.onDidAddSelection((selection) => {
      this.watchSelection(selection)
      const buffer = this.serialize(selection.getBufferRange())
      this.record('editor.didAddSelection', this.numberOfSelection(selection), { buffer })
    })
    editor.onDidRemoveCursor((cursor) => {
      this.record('editor.didRemoveCursor', this.numberOfCursor(cursor))
    })
    editor.onDidRemoveSelection((selection) => {
      this.record('editor.didRemoveSelection', this.numberOfSelection(selection))
    })
  }

  /** Calls the step's method on its target and returns what it returned, unconverted. */
  perform(step: ConformanceStep): unknown {
    const target = this.targetOf(step)
    const method = target[step.op]
    if (typeof method !== 'function') {
      throw new TypeError(`${step.on}.${step.op} is not a function`)
    }
    const args = (step.args ?? []).map((arg) => this.resolveArgument(arg))
    return method.apply(target, args)
  }

  /** The outcome of a step that returned `ret`: the state now, and the events it fired. */
  outcome(ret: unknown): ActualStep {
    const matches = ret instanceof RegExp ? matchesOf(ret, this.scenario.text) : undefined
    const serializedRet = this.serialize(ret)
    const state = this.state()
    const events = this.events
    this.events = []
    return matches === undefined
      ? { state, ret: serializedRet, events }
      : { state, ret: serializedRet, retMatches: matches, events }
  }

  /** The editor's state now, in the corpus's JSON form. */
  state(): EditorState {
    const { editor } = this
    const { text, metadata } = this.clipboard.readWithMetadata()
    return {
      text: editor.getText(),
      cursors: editor.getCursors().map((cursor) => ({
        n: this.numberOfCursor(cursor),
        buffer: pointJson(cursor.getBufferPosition()),
        screen: pointJson(cursor.getScreenPosition()),
      })),
      selections: editor.getSelections().map((selection) => ({
        n: this.numberOfSelection(selection),
        buffer: rangeJson(selection.getBufferRange()),
        screen: rangeJson(selection.getScreenRange()),
        reversed: selection.isReversed(),
      })),
      clipboard: { text, metadata: this.serialize(metadata) },
      folds: editor.getFoldedBufferRanges?.().map(rangeJson) ?? null,
    }
  }

  private applyFold(fold: [number, number] | RangeJson): void {
    const [start, end] = fold
    if (typeof start === 'number' && typeof end === 'number') {
      this.editor.foldBufferRowRange(start, end)
    } else {
      this.editor.foldBufferRange(structuredClone(fold as RangeJson))
    }
  }

  private numberOfCursor(cursor: CursorLike): number {
    let n = this.cursorNumbers.get(cursor)
    if (n === undefined) {
      const markerId = cursor.marker?.id
      n = markerId === undefined ? undefined : this.markerNumbers.get(markerId)
      n ??= this.nextNumber++
      this.cursorNumbers.set(cursor, n)
      if (markerId !== undefined) this.markerNumbers.set(markerId, n)
    }
    return n
  }

  private numberOfSelection(selection: SelectionLike): number {
    let n = this.selectionNumbers.get(selection)
    if (n === undefined) {
      if (!isObject(selection.cursor)) throw new TypeError('a selection has no cursor property')
      n = this.numberOfCursor(selection.cursor)
      this.selectionNumbers.set(selection, n)
    }
    return n
  }

  private watchCursor(cursor: CursorLike): void {
    if (this.watched.has(cursor)) return
    this.watched.add(cursor)
    const n = this.numberOfCursor(cursor)
    cursor.onDidChangePosition((change) => {
      this.record('cursor.didChangePosition', n, {
        oldBufferPosition: this.serialize(change.oldBufferPosition),
        oldScreenPosition: this.serialize(change.oldScreenPosition),
        newBufferPosition: this.serialize(change.newBufferPosition),
        newScreenPosition: this.serialize(change.newScreenPosition),
        textChanged: this.serialize(change.textChanged),
      })
    })
    cursor.onDidDestroy(() => this.record('cursor.didDestroy', n))
  }

  private watchSelection(selection: SelectionLike): void {
    if (this.watched.has(selection)) return
    this.watched.add(selection)
    const n = this.numberOfSelection(selection)
    selection.onDidChangeRange((change) => {
      this.record('selection.didChangeRange', n, {
        oldBufferRange: this.serialize(change.oldBufferRange),
        oldScreenRange: this.serialize(change.oldScreenRange),
        newBufferRange: this.serialize(change.newBufferRange),
        newScreenRange: this.serialize(change.newScreenRange),
      })
    })
    selection.onDidDestroy(() => this.record('selection.didDestroy', n))
  }

  private record(type: string, n: number, payload: Record<string, unknown> = {}): void {
    this.events.push({ type, n, ...payload })
  }

  private targetOf(step: ConformanceStep): Record<string, unknown> {
    if (step.on === 'editor') return this.editor as unknown as Record<string, unknown>
    const index = step.index ?? 0
    const list = step.on === 'cursor' ? this.editor.getCursors() : this.editor.getSelections()
    const target = list[index]
    if (target === undefined) throw new RangeError(`there is no ${step.on} ${index}`)
    return target as unknown as Record<string, unknown>
  }

  /** A step argument as the editor takes it: `$range` becomes a Range, `$cursor` a Cursor... */
  private resolveArgument(arg: unknown): unknown {
    if (Array.isArray(arg)) return arg.map((item) => this.resolveArgument(item))
    if (!isObject(arg)) return arg
    if ('$range' in arg) return RangeClass.fromObject(this.resolveArgument(arg.$range))
    if ('$cursor' in arg) return this.itemAt(this.editor.getCursors(), '$cursor', arg.$cursor)
    if ('$selection' in arg) {
      return this.itemAt(this.editor.getSelections(), '$selection', arg.$selection)
    }
    const entries = Object.entries(arg).map(([key, value]) => [key, this.resolveArgument(value)])
    return Object.fromEntries(entries)
  }

  private itemAt(list: readonly object[], reference: string, index: unknown): object {
    const item = typeof index === 'number' ? list[index] : undefined
    if (item === undefined) throw new RangeError(`{${reference}: ${json(index)}} names nothing`)
    return item
  }

  /** The corpus's JSON form of a value the editor returned or passed to a callback. */
  private serialize(value: unknown): unknown {
    if (value === undefined || value === null) return null
    if (typeof value === 'function') return '<function>'
    if (!isObject(value)) return value
    if (Array.isArray(value)) return value.map((item) => this.serialize(item))
    if (value instanceof RegExp) return { source: value.source, flags: value.flags }
    const cursorNumber = this.cursorNumbers.get(value)
    if (cursorNumber !== undefined) {
      return { cursor: indexIn(this.editor.getCursors(), value), n: cursorNumber }
    }
    const selectionNumber = this.selectionNumbers.get(value)
    if (selectionNumber !== undefined) {
      return { selection: indexIn(this.editor.getSelections(), value), n: selectionNumber }
    }
    if (isPoint(value)) return pointJson(value)
    if (isRange(value)) return rangeJson(value)
    if (isDisposable(value)) return 'disposable'
    if (!isPlainObject(value)) return `<${value.constructor?.name ?? 'object'}>`
    const entries = Object.entries(value).map(([key, item]) => [key, this.serialize(item)])
    return Object.fromEntries(entries)
  }
}

// ---------------------------------------------------------------------------------------------
// Comparing

/** One comparison of a step: a field at a level, expected against actual. */
interface Check {
  level: Level
  field: string
  expected: unknown
  actual: unknown
  equal: boolean
}

const check = (level: Level, field: string, expected: unknown, actual: unknown): Check => ({
  level,
  field,
  expected,
  actual,
  equal: deepEqual(expected, actual),
})

/** The parts of a state each level compares, in the order a diff lists them. */
const STATE_FIELDS: Array<{ level: Level; field: string; pick: (state: EditorState) => unknown }> =
  [
    { level: 1, field: 'text', pick: (state) => state.text },
    {
      level: 1,
      field: 'cursors',
      pick: (state) => state.cursors.map(({ n, buffer }) => ({ n, buffer })),
    },
    {
      level: 1,
      field: 'selections',
      pick: (state) => state.selections.map(({ n, buffer, reversed }) => ({ n, buffer, reversed })),
    },
    { level: 1, field: 'clipboard.text', pick: (state) => state.clipboard.text },
    { level: 2, field: 'cursors.screen', pick: (state) => state.cursors.map((c) => c.screen) },
    {
      level: 2,
      field: 'selections.screen',
      pick: (state) => state.selections.map((s) => s.screen),
    },
    { level: 2, field: 'folds', pick: (state) => state.folds },
    { level: 3, field: 'clipboard.metadata', pick: (state) => state.clipboard.metadata },
  ]

const compareState = (expected: EditorState, actual: EditorState): Check[] =>
  STATE_FIELDS.map(({ level, field, pick }) => check(level, field, pick(expected), pick(actual)))

const compareRet = (expected: ExpectedStep, actual: ActualStep): Check[] => {
  if (expected.retUndefined) return []
  if (expected.retMatches !== undefined) {
    return [check(1, 'ret (regexp matches)', expected.retMatches, actual.retMatches ?? actual.ret)]
  }
  return [check(1, 'ret', expected.ret, actual.ret)]
}

/** What level 3 compares of one (n, type) group: first old value(s), last new value(s). */
const eventGroupSummary = (first: RecordedEvent, last: RecordedEvent): Record<string, unknown> => {
  switch (first.type) {
    case 'cursor.didChangePosition':
      return {
        oldBufferPosition: first.oldBufferPosition,
        oldScreenPosition: first.oldScreenPosition,
        newBufferPosition: last.newBufferPosition,
        newScreenPosition: last.newScreenPosition,
        textChanged: last.textChanged,
      }
    case 'selection.didChangeRange':
      return {
        oldBufferRange: first.oldBufferRange,
        oldScreenRange: first.oldScreenRange,
        newBufferRange: last.newBufferRange,
        newScreenRange: last.newScreenRange,
      }
    case 'editor.didAddCursor':
    case 'editor.didAddSelection':
      return { buffer: last.buffer }
    default:
      return {}
  }
}

/** Events grouped by `n type`, each group summarized; keys sorted by n, then type. */
const groupEvents = (events: readonly RecordedEvent[]): Map<string, Record<string, unknown>> => {
  const groups = new Map<string, { first: RecordedEvent; last: RecordedEvent }>()
  for (const event of events) {
    const key = `${event.n} ${event.type}`
    const group = groups.get(key)
    if (group === undefined) groups.set(key, { first: event, last: event })
    else group.last = event
  }
  const keys = [...groups.keys()].sort(compareEventKeys)
  return new Map(
    keys.map((key) => [key, eventGroupSummary(groups.get(key)!.first, groups.get(key)!.last)]),
  )
}

const compareEventKeys = (a: string, b: string): number => {
  const byNumber = Number.parseInt(a, 10) - Number.parseInt(b, 10)
  return byNumber !== 0 ? byNumber : a < b ? -1 : a > b ? 1 : 0
}

const compareEvents = (expected: RecordedEvent[], actual: RecordedEvent[]): Check[] => {
  const expectedGroups = groupEvents(expected)
  const actualGroups = groupEvents(actual)
  const keys = [...new Set([...expectedGroups.keys(), ...actualGroups.keys()])]
  return keys.sort(compareEventKeys).map((key) => {
    const fired = (groups: Map<string, unknown>) =>
      groups.has(key) ? groups.get(key) : 'not fired'
    return check(3, `event ${key}`, fired(expectedGroups), fired(actualGroups))
  })
}

const compareStep = (expected: ExpectedStep, actual: ActualStep): Check[] => [
  ...compareState(expected, actual.state),
  ...compareRet(expected, actual),
  ...compareEvents(expected.events, actual.events),
]

// ---------------------------------------------------------------------------------------------
// Running

/** What one step (or the initial state, step 0) came to, for diffs. */
interface StepRecord {
  step: number
  label: string
  checks: Check[]
  /** Every event of the step, expected and fired, for traces of failing event checks. */
  events?: { expected: readonly RecordedEvent[]; actual: readonly RecordedEvent[] }
  /** Set when the editor threw or lacked a method, which ends the case. */
  error?: string
}

type StepObserver = (record: StepRecord) => void

const describeStep = (step: ConformanceStep, number: number): string => {
  const target = step.on === 'editor' ? 'editor' : `${step.on}[${step.index ?? 0}]`
  const args = truncate((step.args ?? []).map(json).join(', '), ARGUMENTS_LIMIT)
  return `step ${number} ${target}.${step.op}(${args})`
}

const describeMismatch = (mismatch: Check): string =>
  `${mismatch.field}: expected ${json(mismatch.expected)}, actual ${json(mismatch.actual)}`

/** Keeps the first failure of each level. */
class FailureLog {
  readonly failures: Partial<Record<Level, Failure>> = {}

  note(level: Level, step: number, message: string): void {
    this.failures[level] ??= { level, step, message: truncate(message, MESSAGE_LIMIT) }
  }

  noteMismatches(record: StepRecord): void {
    for (const level of [1, 2, 3] as const) {
      const mismatches = record.checks.filter((c) => c.level === level && !c.equal)
      if (mismatches.length === 0) continue
      this.note(
        level,
        record.step,
        `${record.label}: ${mismatches.map(describeMismatch).join('; ')}`,
      )
    }
  }

  get buffersDiffer(): boolean {
    return this.failures[1] !== undefined
  }
}

type Attempt<T> = { ok: true; value: T } | { ok: false; error: string }

/** Runs editor code, turning what it throws into a failure of the case rather than the run. */
const attempt = <T>(action: () => T): Attempt<T> => {
  try {
    return { ok: true, value: action() }
  } catch (error) {
    return { ok: false, error: errorMessage(error) }
  }
}

const failedStep = (step: number, label: string, error: string): StepRecord => ({
  step,
  label,
  checks: [],
  error,
})

/** Replays a case, reporting every step to `observe`; stops at the first level-1 failure. */
const executeCase = (testCase: ConformanceCase, observe: StepObserver = () => {}): FailureLog => {
  const log = new FailureLog()
  const report = (record: StepRecord): void => {
    observe(record)
    if (record.error === undefined) log.noteMismatches(record)
    else log.note(1, record.step, `${record.label}: threw ${record.error}`)
  }
  const { scenario, expect } = testCase
  const opened = attempt(() => {
    const session = new EditorSession(scenario)
    const state = session.state()
    session.startRecording()
    return { session, state }
  })
  if (!opened.ok) {
    report(failedStep(0, 'initial state', opened.error))
    return log
  }
  const { session, state } = opened.value
  report({ step: 0, label: 'initial state', checks: compareState(expect.initial, state) })
  for (let i = 0; i < scenario.steps.length && !log.buffersDiffer; i++) {
    const step = scenario.steps[i]!
    const label = describeStep(step, i + 1)
    const performed = attempt(() => session.outcome(session.perform(step)))
    if (!performed.ok) {
      report(failedStep(i + 1, label, performed.error))
      break
    }
    const expected = expect.steps[i]
    if (expected === undefined)
      throw new Error(`${testCase.name}: step ${i + 1} has no expectation`)
    report({
      step: i + 1,
      label,
      checks: compareStep(expected, performed.value),
      events: { expected: expected.events, actual: performed.value.events },
    })
  }
  return log
}

/** Runs one case against a fresh editor and reports which levels it passes. */
export function runCase(testCase: ConformanceCase): CaseResult {
  const { failures } = executeCase(testCase)
  const level1 = failures[1] === undefined
  const level2 = level1 && failures[2] === undefined
  const level3 = level2 && failures[3] === undefined
  const firstFailure = failures[1] ?? failures[2] ?? failures[3]
  const levels = { 1: level1, 2: level2, 3: level3 }
  return firstFailure === undefined
    ? { name: testCase.name, levels, failures }
    : { name: testCase.name, levels, firstFailure, failures }
}

/** One line of counts: `cursor: 300 cases; level 1 298/300, level 2 297/300, level 3 290/300`. */
export function summarize(family: string, results: readonly CaseResult[]): string {
  const total = results.length
  const passing = (level: Level) => results.filter((result) => result.levels[level]).length
  const levels = ([1, 2, 3] as const).map((level) => `level ${level} ${passing(level)}/${total}`)
  return `${family}: ${total} cases; ${levels.join(', ')}`
}

/** A full step-by-step diff of one case: every check of every step, marked equal or not. */
export function traceCase(testCase: ConformanceCase): string {
  const { scenario } = testCase
  const lines = [
    `case ${testCase.name}`,
    `  text: ${json(scenario.text)}`,
    `  options: ${json(scenario.options ?? {})}`,
  ]
  if (scenario.grammar !== undefined) lines.push(`  grammar: ${scenario.grammar}`)
  if (scenario.folds !== undefined) lines.push(`  folds: ${json(scenario.folds)}`)
  if (scenario.clipboard !== undefined) lines.push(`  clipboard: ${json(scenario.clipboard)}`)
  const log = executeCase(testCase, (record) => {
    lines.push(record.label)
    if (record.error !== undefined) lines.push(`  threw ${record.error}`)
    for (const c of record.checks) {
      lines.push(
        c.equal
          ? `  ok      ${c.field}: ${json(c.actual)}`
          : `  FAIL(${c.level}) ${c.field}:\n      expected ${json(c.expected)}\n      actual   ${json(c.actual)}`,
      )
    }
    const eventsFail = record.checks.some((c) => !c.equal && c.field.startsWith('event '))
    if (eventsFail && record.events !== undefined) {
      lines.push('  every event, expected:')
      for (const event of record.events.expected) lines.push(`      ${json(event)}`)
      lines.push('  every event, fired:')
      for (const event of record.events.actual) lines.push(`      ${json(event)}`)
    }
  })
  const verdicts = ([1, 2, 3] as const).map((level) => {
    const failure = log.failures[level]
    return `level ${level} ${failure === undefined ? 'ok' : `fails at step ${failure.step}`}`
  })
  lines.push(`result: ${verdicts.join(', ')}`)
  return lines.join('\n')
}
