/**
 * Awareness traffic while typing: the bytes per second one peer sends to share its selections,
 * with Tandem's `bindAwareness` and with the payload y-codemirror.next (the CodeMirror 6 Yjs
 * binding) would send for the same selections. A real editing trace is replayed through a
 * Tandem editor in virtual time, at a human typing rate and at full speed, with one cursor and
 * with three; every awareness update is encoded with `encodeAwarenessUpdate`, the payload a
 * provider such as y-websocket sends. Two timed cases add the cost of publishing to a
 * keystroke: the replay with and without the binding.
 *
 * Virtual time: the replay never waits. Between two keystrokes it fires, at their virtual
 * times, what real timers would fire in between: the publisher's `throttleMs` timer (armed by
 * the first editor change after a publish, as `SelectionPublisher` arms its `setTimeout`; its
 * firing is `binding.flush()`, the same call the timer makes) and the awareness protocol's
 * check, every 3 s, that sends a local state again once it has been quiet for 15 s.
 */
import { type Point, TextEditor } from '@tandem/editor'
import { CompositeDisposable } from '@tandem/text'
import * as prng from 'lib0/prng'
import * as awarenessProtocol from 'y-protocols/awareness'
import * as Y from 'yjs'
import { defineSuite, type SuiteBuilder } from '../../../bench/harness.js'
import { TEXT_NAME } from '../../../bench/peers.js'
import { loadTrace, type TracePatch } from '../../../bench/traces.js'
import { type AwarenessBinding, bindAwareness } from '../src/bind-awareness.js'
import type { CollabUser } from '../src/peers.js'

/** The trace whose first patches are typed. */
const TRACE = 'automerge-paper'
/** Keystrokes replayed per scenario (a prefix of the trace). */
const KEYSTROKES = 5_000
/** Keystrokes replayed per scenario with `--quick`. */
const QUICK_KEYSTROKES = 1_000
/** Tandem's publish interval: one frame, the default outside a browser. */
const THROTTLE_MS = 16
/** Cursors in the multi-cursor scenario. */
const CURSORS = 3
/** A client id of the usual size (Yjs draws random 32-bit ids): it is in every position. */
const CLIENT_ID = 2_845_027_361
/** The same user on both sides, with the fields y-codemirror.next shows. */
const USER: CollabUser = { name: 'Ada Lovelace', color: '#30bced', colorLight: '#30bced33' }
/** How often an awareness checks whether to renew its local state (y-protocols' rule). */
const CHECK_EVERY_MS = awarenessProtocol.outdatedTimeout / 10
/** How long a local state stays unsent before that check sends it again. */
const RENEW_AFTER_MS = awarenessProtocol.outdatedTimeout / 2

/** A typing rate: keystrokes come every `meanMs`, give or take half of it (seeded). */
interface Rate {
  readonly label: string
  readonly meanMs: number
}

/** About six keystrokes a second. */
const HUMAN: Rate = { label: '6 keys/s', meanMs: 1000 / 6 }
/** A keystroke every 2 to 6 ms: several fall into one publish interval. */
const FULL_SPEED: Rate = { label: 'full speed', meanMs: 4 }

/** One user action: a trace patch at its place, or typing or a backspace at every cursor. */
type Keystroke =
  | { readonly kind: 'patch'; readonly patch: TracePatch }
  | { readonly kind: 'type'; readonly text: string }
  | { readonly kind: 'backspace' }

/** What one scenario replays: a starting text, where its cursors are, and the keystrokes. */
interface Script {
  readonly label: string
  readonly text: string
  /** Character offsets of the cursors; the last is the primary one. */
  readonly cursors: readonly number[]
  readonly keystrokes: readonly Keystroke[]
  /** The text's length after every keystroke, to prove the replay did the edits. */
  readonly endLength: number
  /** The text itself after every keystroke, when the script knows it. */
  readonly endText: string | null
}

/** Which publishers a session runs beside its editor. */
interface SessionOptions {
  readonly tandem: boolean
  readonly codeMirror: boolean
}

/** An editor replaying a script in virtual time, with the publishers asked for. */
interface Session {
  readonly doc: Y.Doc
  readonly editor: TextEditor
  readonly clock: VirtualClock
  readonly binding: AwarenessBinding | null
  /** What Tandem's awareness sends, from the end of setup on. */
  readonly tandem: AwarenessMeter | null
  readonly codeMirror: CodeMirrorPayload | null
  /** What the y-codemirror.next payload's awareness sends. */
  readonly codeMirrorMeter: AwarenessMeter | null
  readonly subscriptions: CompositeDisposable
}

/** What one publisher sent over a replay: messages (renewals among them) and bytes. */
interface Sent {
  readonly messages: number
  readonly renewals: number
  readonly bytes: number
}

/** The traffic of one scenario at one rate. */
interface Traffic {
  readonly seconds: number
  readonly tandem: Sent
  readonly codeMirror: Sent
}

export default defineSuite({
  name: 'collab-awareness-traffic',
  description: "awareness bytes/s per peer while typing: bindAwareness vs y-codemirror.next's",
  measure: { maxRuns: 9 },
  define(s) {
    const count = s.quick ? QUICK_KEYSTROKES : KEYSTROKES
    const trace = loadTrace(TRACE, { limit: count })
    const single = singleCursorScript(trace.patches, trace.startContent, trace.endContent)
    const multi = multiCursorScript(trace.patches, trace.endContent)
    explain(s)
    s.progress(`replaying ${single.keystrokes.length} keystrokes of ${TRACE} in virtual time`)
    const renewals: string[] = []
    for (const script of [single, multi]) {
      for (const rate of [HUMAN, FULL_SPEED]) {
        const { tandem, codeMirror } = reportTraffic(s, script, rate)
        renewals.push(`${script.label}, ${rate.label}: ${tandem.renewals} / ${codeMirror.renewals}`)
      }
    }
    s.note(`renewals among the messages, Tandem / y-codemirror.next: ${renewals.join('; ')}`)
    timedCases(s, single)
  },
})

/** Notes what the traffic rows compare and count. */
function explain(s: SuiteBuilder): void {
  s.note(
    `bytes per virtual second one peer sends (a server forwards them to each other peer): ` +
      `Tandem's user + cursor + selections, published at most every ${THROTTLE_MS} ms, vs ` +
      `y-codemirror.next's user + cursor (main selection only), sent whenever its relative ` +
      `positions change`,
  )
  s.note(
    `each message is counted as encodeAwarenessUpdate's bytes (y-websocket adds a type byte ` +
      `and a length prefix); the protocol's renewal of a state quiet for ` +
      `${RENEW_AFTER_MS / 1000} s is included on both sides; setup's first states are not`,
  )
  s.note(
    `${CURSORS} cursors: Tandem publishes all ${CURSORS}; y-codemirror.next can carry only ` +
      'the main one, so its rows there are for less information',
  )
}

/**
 * Replays `script` at `rate` and adds its rows: bytes/s, their ratio, messages/s. Returns the
 * traffic it measured.
 */
function reportTraffic(s: SuiteBuilder, script: Script, rate: Rate): Traffic {
  const traffic = measureTraffic(script, rate)
  const label = `${script.label}, ${rate.label}`
  const perSecond = (n: number) => n / traffic.seconds
  s.report({ name: `${label}: Tandem`, value: perSecond(traffic.tandem.bytes), unit: 'B/s' })
  s.report({
    name: `${label}: y-codemirror.next`,
    value: perSecond(traffic.codeMirror.bytes),
    unit: 'B/s',
  })
  if (traffic.codeMirror.bytes > 0) {
    s.report({
      name: `${label}: Tandem / y-codemirror.next`,
      value: traffic.tandem.bytes / traffic.codeMirror.bytes,
      unit: 'x',
    })
  } else {
    s.note(`${label}: y-codemirror.next sent nothing, so there is no ratio`)
  }
  s.report({
    name: `${label}: Tandem messages`,
    value: perSecond(traffic.tandem.messages),
    unit: 'msg/s',
  })
  s.report({
    name: `${label}: y-codemirror.next messages`,
    value: perSecond(traffic.codeMirror.messages),
    unit: 'msg/s',
  })
  return traffic
}

/** The time of a keystroke at full speed, with Tandem's binding publishing and without it. */
function timedCases(s: SuiteBuilder, script: Script): void {
  const times = keystrokeTimes(script.keystrokes.length, FULL_SPEED, 2)
  const ops = script.keystrokes.length
  const withBinding = s.case<Session>({
    name: 'keystroke with bindAwareness',
    setup: () => openSession(script, { tandem: true, codeMirror: false }),
    run: (session) => replay(session, script, times),
    check: (session) => checkSession(session, script),
    teardown: closeSession,
    ops,
    opUnit: 'keystroke',
  })
  const alone = s.case<Session>({
    name: 'keystroke, editor alone',
    setup: () => openSession(script, { tandem: false, codeMirror: false }),
    run: (session) => replay(session, script, times),
    check: (session) => checkSession(session, script),
    teardown: closeSession,
    ops,
    opUnit: 'keystroke',
  })
  s.compare({
    name: 'full speed: keystroke with bindAwareness / editor alone',
    candidate: withBinding,
    peer: alone,
    perOp: true,
  })
  s.report({ case: withBinding, unit: 'µs/op' })
}

/** The trace's patches, each one keystroke at its own place, from the trace's start. */
function singleCursorScript(
  patches: readonly TracePatch[],
  startContent: string,
  endContent: string,
): Script {
  return {
    label: 'one cursor',
    text: startContent,
    cursors: [0],
    keystrokes: patches.map((patch) => ({ kind: 'patch', patch })),
    endLength: endContent.length,
    endText: endContent,
  }
}

/**
 * The trace's typing without its jumps (its insertions, and its one-character deletions as
 * backspaces), typed at {@link CURSORS} cursors spread over `text`.
 */
function multiCursorScript(patches: readonly TracePatch[], text: string): Script {
  const keystrokes: Keystroke[] = []
  let grown = 0
  for (const { del, text: inserted } of patches) {
    if (del === 0 && inserted !== '') {
      keystrokes.push({ kind: 'type', text: inserted })
      grown += inserted.length
    } else if (del === 1 && inserted === '') {
      keystrokes.push({ kind: 'backspace' })
      grown--
    }
  }
  const cursors = Array.from({ length: CURSORS }, (_, i) =>
    Math.floor((text.length * (i + 1)) / (CURSORS + 1)),
  )
  return {
    label: `${CURSORS} cursors`,
    text,
    cursors,
    keystrokes,
    endLength: text.length + CURSORS * grown,
    endText: null,
  }
}

/** Virtual times of `count` keystrokes at `rate`, and one more: when the replay ends. */
function keystrokeTimes(count: number, rate: Rate, seed: number): number[] {
  const gen = prng.create(seed)
  const times: number[] = []
  let now = 0
  for (let i = 0; i <= count; i++) {
    now += rate.meanMs * (0.5 + prng.real53(gen))
    times.push(now)
  }
  return times
}

/** Replays `script` at `rate` with both publishers and counts what each sent. */
function measureTraffic(script: Script, rate: Rate): Traffic {
  const times = keystrokeTimes(script.keystrokes.length, rate, 1)
  const session = openSession(script, { tandem: true, codeMirror: true })
  try {
    replay(session, script, times)
    const traffic = {
      seconds: times[times.length - 1]! / 1000,
      tandem: sentBy(session.tandem!),
      codeMirror: sentBy(session.codeMirrorMeter!),
    }
    checkSession(session, script)
    return traffic
  } finally {
    closeSession(session)
  }
}

/** A copy of what `meter` has counted so far. */
function sentBy(meter: AwarenessMeter): Sent {
  return { messages: meter.messages, renewals: meter.renewals, bytes: meter.bytes }
}

/**
 * An editor on `script`'s text with its cursors placed, and the publishers asked for, each on
 * a real awareness of the editor's document with its first state already set. Counting starts
 * at virtual time 0, after that.
 */
function openSession(script: Script, options: SessionOptions): Session {
  const doc = new Y.Doc()
  doc.clientID = CLIENT_ID
  // Typing must reproduce the trace exactly: no indentation added, no tab-wide backspaces.
  const editor = new TextEditor({
    doc,
    textName: TEXT_NAME,
    text: script.text,
    autoIndent: false,
    atomicSoftTabs: false,
  })
  const buffer = editor.getBuffer()
  editor.setSelectedBufferRanges(
    script.cursors.map((offset) => {
      const point = buffer.positionForCharacterIndex(offset)
      return [point, point]
    }),
  )
  const clock = new VirtualClock()
  const subscriptions = new CompositeDisposable()
  let binding: AwarenessBinding | null = null
  let tandem: AwarenessMeter | null = null
  if (options.tandem) {
    binding = bindAwareness(editor, new awarenessProtocol.Awareness(doc), {
      user: USER,
      throttleMs: THROTTLE_MS,
    })
    binding.flush()
    subscriptions.add(followPublisher(editor, binding, clock))
    tandem = new AwarenessMeter(binding.awareness, clock)
  }
  let codeMirror: CodeMirrorPayload | null = null
  let codeMirrorMeter: AwarenessMeter | null = null
  if (options.codeMirror) {
    const awareness = new awarenessProtocol.Awareness(doc)
    codeMirror = new CodeMirrorPayload(awareness, doc.getText(TEXT_NAME))
    codeMirror.viewUpdated(editor)
    codeMirrorMeter = new AwarenessMeter(awareness, clock)
  }
  return { doc, editor, clock, binding, tandem, codeMirror, codeMirrorMeter, subscriptions }
}

/** Stops counting, then disposes the binding and destroys the editor, awarenesses and doc. */
function closeSession(session: Session): void {
  session.tandem?.stop()
  session.codeMirrorMeter?.stop()
  session.subscriptions.dispose()
  session.binding?.dispose()
  session.editor.destroy()
  session.binding?.awareness.destroy()
  session.codeMirror?.awareness.destroy()
  session.doc.destroy()
}

/** Presses every key of `script` at its virtual time, then lets time run to the end. */
function replay(session: Session, script: Script, times: readonly number[]): void {
  const { clock, editor, codeMirror } = session
  const viewUpdated = codeMirror === null ? () => {} : () => codeMirror.viewUpdated(editor)
  const { keystrokes } = script
  for (let i = 0; i < keystrokes.length; i++) {
    clock.advanceTo(times[i]!)
    press(editor, keystrokes[i]!, viewUpdated)
  }
  clock.advanceTo(times[keystrokes.length]!)
}

/**
 * Does what a user does for `keystroke`, calling `viewUpdated` after each step a CodeMirror
 * view would see as one transaction: typing and a one-character deletion next to the caret are
 * one step; otherwise the caret is first placed (or the deleted text selected), then the text
 * typed over it.
 */
function press(editor: TextEditor, keystroke: Keystroke, viewUpdated: () => void): void {
  switch (keystroke.kind) {
    case 'type':
      editor.insertText(keystroke.text)
      break
    case 'backspace':
      editor.backspace()
      break
    case 'patch':
      if (!editNextToCaret(editor, keystroke.patch)) {
        placeFor(editor, keystroke.patch)
        viewUpdated()
        if (keystroke.patch.text === '') editor.delete()
        else editor.insertText(keystroke.patch.text)
      }
      break
  }
  viewUpdated()
}

/**
 * Types or deletes `patch` with the caret where it already is, when that is how a user would
 * make it: inserting at the caret, backspace just after the character, delete just before it.
 * Returns false when the caret must move first.
 */
function editNextToCaret(editor: TextEditor, { pos, del, text }: TracePatch): boolean {
  const selection = editor.getLastSelection()
  if (!selection.isEmpty()) return false
  const caret = editor.getBuffer().characterIndexForPosition(selection.getHeadBufferPosition())
  if (del === 0 && caret === pos) {
    editor.insertText(text)
    return true
  }
  if (del === 1 && text === '' && caret === pos + 1) {
    editor.backspace()
    return true
  }
  if (del === 1 && text === '' && caret === pos) {
    editor.delete()
    return true
  }
  return false
}

/** Puts the caret at `patch`'s place, or selects the text it deletes (anchor first). */
function placeFor(editor: TextEditor, { pos, del }: TracePatch): void {
  const buffer = editor.getBuffer()
  const start = buffer.positionForCharacterIndex(pos)
  if (del === 0) editor.setCursorBufferPosition(start)
  else editor.setSelectedBufferRange([start, buffer.positionForCharacterIndex(pos + del)])
}

/** Throws unless the replay made the expected text and the publishers are up to date. */
function checkSession(session: Session, script: Script): void {
  const text = session.editor.getText()
  if (text.length !== script.endLength || (script.endText !== null && text !== script.endText)) {
    throw new Error(`the replay made ${text.length} characters, not the expected text`)
  }
  const { binding, tandem, clock } = session
  if (binding !== null && tandem !== null) {
    // Once a pending publish is due, a change the clock missed would still be unsent.
    clock.advanceTo(clock.now + THROTTLE_MS)
    const before = tandem.messages
    binding.flush()
    if (tandem.messages !== before) throw new Error('the publisher had an unsent change')
  }
  session.codeMirror?.check(session.editor)
}

/**
 * Virtual time for one replay: timers due at a virtual instant, fired in time order (and in
 * the order they were set at equal times) when the replay advances past it.
 */
class VirtualClock {
  now = 0
  private readonly timers: { readonly at: number; readonly fire: () => void }[] = []

  /** Calls `fire` once virtual time reaches `at`. */
  setTimer(at: number, fire: () => void): void {
    this.timers.push({ at, fire })
  }

  /** Fires every timer due by `time`, each at its own instant, then moves to `time`. */
  advanceTo(time: number): void {
    for (;;) {
      let next = -1
      for (let i = 0; i < this.timers.length; i++) {
        const at = this.timers[i]!.at
        if (at <= time && (next < 0 || at < this.timers[next]!.at)) next = i
      }
      if (next < 0) break
      const [timer] = this.timers.splice(next, 1)
      this.now = Math.max(this.now, timer!.at)
      timer!.fire()
    }
    this.now = time
  }
}

/**
 * Mirrors the publisher's throttle in virtual time: the first change of the editor's
 * selections or text after a publish arms a timer `THROTTLE_MS` later (the same events arm
 * `SelectionPublisher`'s `setTimeout`), and the timer fires `binding.flush()`, which is what
 * that `setTimeout` calls; `flush` also cancels the real timer, which never runs.
 */
function followPublisher(
  editor: TextEditor,
  binding: AwarenessBinding,
  clock: VirtualClock,
): CompositeDisposable {
  let armed = false
  const arm = () => {
    if (armed) return
    armed = true
    clock.setTimer(clock.now + THROTTLE_MS, () => {
      armed = false
      binding.flush()
    })
  }
  return new CompositeDisposable(
    editor.onDidChangeSelectionRange(arm),
    editor.onDidAddSelection(arm),
    editor.onDidRemoveSelection(arm),
    editor.getBuffer().onDidChange(arm),
  )
}

/** Added, updated and removed client ids, as an awareness `update` event gives them. */
interface AwarenessChanges {
  readonly added: readonly number[]
  readonly updated: readonly number[]
  readonly removed: readonly number[]
}

/**
 * Counts what an awareness sends: each `update` it emits is one message, encoded with
 * `encodeAwarenessUpdate` for the clients it names, as a provider does. Also applies the
 * protocol's renewal in virtual time: checked every `CHECK_EVERY_MS`, a local state unsent for
 * `RENEW_AFTER_MS` is set again, as the awareness's own interval does in real time.
 */
class AwarenessMeter {
  messages = 0
  /** Messages sent by the renewal rule, counted in `messages` too. */
  renewals = 0
  bytes = 0
  private lastSentAt: number

  constructor(
    readonly awareness: awarenessProtocol.Awareness,
    private readonly clock: VirtualClock,
  ) {
    this.lastSentAt = clock.now
    awareness.on('update', this.onUpdate)
    const check = () => {
      this.renewIfQuiet()
      clock.setTimer(clock.now + CHECK_EVERY_MS, check)
    }
    clock.setTimer(clock.now + CHECK_EVERY_MS, check)
  }

  /** Stops counting. */
  stop(): void {
    this.awareness.off('update', this.onUpdate)
  }

  private renewIfQuiet(): void {
    const state = this.awareness.getLocalState()
    if (state !== null && this.clock.now - this.lastSentAt >= RENEW_AFTER_MS) {
      this.renewals++
      this.awareness.setLocalState(state)
    }
  }

  private readonly onUpdate = ({ added, updated, removed }: AwarenessChanges): void => {
    this.lastSentAt = this.clock.now
    const clients = [...added, ...updated, ...removed]
    this.messages++
    this.bytes += awarenessProtocol.encodeAwarenessUpdate(this.awareness, clients).length
  }
}

/** The main selection as relative positions, as y-codemirror.next keeps it in `cursor`. */
interface CodeMirrorCursor {
  readonly anchor: Y.RelativePosition
  readonly head: Y.RelativePosition
}

/**
 * The awareness payload y-codemirror.next keeps for an editor, written here from its
 * documented behaviour: `user: {name, color, colorLight}`, and `cursor: {anchor, head}` with
 * the main selection's ends as `Y.RelativePosition` objects (made by
 * `createRelativePositionFromTypeIndex`, assoc 0). After every view update it makes them anew
 * and sets `cursor` when either differs from the one in the state; there is no throttling.
 */
class CodeMirrorPayload {
  constructor(
    readonly awareness: awarenessProtocol.Awareness,
    private readonly ytext: Y.Text,
  ) {
    awareness.setLocalStateField('user', {
      name: USER.name,
      color: USER.color,
      colorLight: USER.colorLight,
    })
  }

  /** After a view update: publishes the main selection when its relative positions moved. */
  viewUpdated(editor: TextEditor): void {
    const next = this.cursorOf(editor)
    const current = this.awareness.getLocalState()?.cursor as CodeMirrorCursor | undefined
    if (
      current === undefined ||
      !Y.compareRelativePositions(current.anchor, next.anchor) ||
      !Y.compareRelativePositions(current.head, next.head)
    ) {
      this.awareness.setLocalStateField('cursor', next)
    }
  }

  /** Throws unless the published cursor resolves to the editor's main selection. */
  check(editor: TextEditor): void {
    const doc = this.ytext.doc!
    const cursor = this.awareness.getLocalState()?.cursor as CodeMirrorCursor
    const [anchor, head] = [cursor.anchor, cursor.head].map(
      (position) => Y.createAbsolutePositionFromRelativePosition(position, doc)?.index,
    )
    const expected = mainSelection(editor)
    if (anchor !== expected.anchor || head !== expected.head) {
      throw new Error(`y-codemirror.next's cursor is ${anchor}-${head}, the editor's elsewhere`)
    }
  }

  private cursorOf(editor: TextEditor): CodeMirrorCursor {
    const { anchor, head } = mainSelection(editor)
    return {
      anchor: Y.createRelativePositionFromTypeIndex(this.ytext, anchor),
      head: Y.createRelativePositionFromTypeIndex(this.ytext, head),
    }
  }
}

/** The editor's primary selection as character offsets: where it started and its caret. */
function mainSelection(editor: TextEditor): { anchor: number; head: number } {
  const selection = editor.getLastSelection()
  const buffer = editor.getBuffer()
  const index = (point: Point) => buffer.characterIndexForPosition(point)
  return {
    anchor: index(selection.getTailBufferPosition()),
    head: index(selection.getHeadBufferPosition()),
  }
}
