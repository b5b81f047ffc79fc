/// <reference lib="dom" />
/**
 * How recently each remote peer moved or typed, as the view shows it: a peer's name label is
 * shown for a short while after its activity (then fades, so it never covers text for good),
 * and its caret dims once it has been idle for long. Activity times come from the `activeAt`
 * property `@tandem/collab` puts on remote caret decorations; a decoration without one counts
 * as active when the view first sees it.
 *
 * One timer per view, whatever the number of peers: each pass notes the next moment a label
 * fades or a caret goes idle, and the timer asks for one update then.
 */
import type { Decoration } from '@tandem/editor'

/** How long a remote peer's name stays up after it moved or typed, by default (ms). */
export const DEFAULT_LABEL_FADE_DELAY = 2_000
/** How long a remote peer goes without moving or typing before its caret dims, by default (ms). */
export const DEFAULT_IDLE_DELAY = 30_000

/** What a remote caret shows at one moment. */
export interface PeerActivityState {
  /** The name label is up (the peer moved or typed within the fade delay). */
  readonly labelShown: boolean
  /** The peer has been idle for the idle delay: its caret dims. */
  readonly idle: boolean
}

/**
 * Checks a delay option: a finite number of milliseconds, at least 0.
 *
 * @example checkDelay('labelFadeDelay', options.labelFadeDelay, DEFAULT_LABEL_FADE_DELAY) // 2000
 */
export const checkDelay = (name: string, value: unknown, fallback: number): number => {
  if (value === undefined) return fallback
  if (typeof value !== 'number') {
    throw new TypeError(`${name} must be a number of milliseconds, got ${typeof value}`)
  }
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`${name} must be a finite number of milliseconds >= 0, got ${value}`)
  }
  return value
}

/**
 * The activity clock of one view.
 *
 * @example
 * const activity = new PeerActivity(window, { labelFadeDelay: 2000, idleDelay: 30000 }, () => view.scheduleUpdate())
 * activity.begin(); const { labelShown } = activity.stateOf(decoration); activity.end()
 */
export class PeerActivity {
  private readonly firstSeen = new WeakMap<Decoration, number>()
  private now = 0
  private nextDeadline = Number.POSITIVE_INFINITY
  private timer: number | null = null
  private timerAt = Number.POSITIVE_INFINITY

  constructor(
    private readonly window: Window | null,
    private readonly delays: { readonly labelFadeDelay: number; readonly idleDelay: number },
    private readonly onDeadline: () => void,
  ) {}

  /** Starts a pass: states are read at this moment. */
  begin(now: number = Date.now()): void {
    this.now = now
    this.nextDeadline = Number.POSITIVE_INFINITY
  }

  /** What the remote caret of `decoration` shows now; notes when that changes next. */
  stateOf(decoration: Decoration): PeerActivityState {
    const activeAt = this.activeAtOf(decoration)
    const since = this.now - activeAt
    const { labelFadeDelay, idleDelay } = this.delays
    if (since < labelFadeDelay) this.noteDeadline(activeAt + labelFadeDelay)
    if (since < idleDelay) this.noteDeadline(activeAt + idleDelay)
    return { labelShown: since < labelFadeDelay, idle: since >= idleDelay }
  }

  /** Ends a pass: arms the one timer for the next change, if any. */
  end(): void {
    const at = this.nextDeadline
    if (at === this.timerAt) return
    this.cancel()
    if (at === Number.POSITIVE_INFINITY || this.window === null) return
    this.timerAt = at
    // A few milliseconds late, so that the pass the timer asks for sees the change.
    this.timer = this.window.setTimeout(
      () => {
        this.timer = null
        this.timerAt = Number.POSITIVE_INFINITY
        this.onDeadline()
      },
      Math.max(0, at - Date.now() + 5),
    )
  }

  /** Stops the timer. Safe to call twice. */
  dispose(): void {
    this.cancel()
  }

  private cancel(): void {
    if (this.timer !== null) this.window?.clearTimeout(this.timer)
    this.timer = null
    this.timerAt = Number.POSITIVE_INFINITY
  }

  private noteDeadline(at: number): void {
    if (at < this.nextDeadline) this.nextDeadline = at
  }

  private activeAtOf(decoration: Decoration): number {
    const activeAt = decoration.getProperties().activeAt
    if (typeof activeAt === 'number' && Number.isFinite(activeAt)) return activeAt
    let seen = this.firstSeen.get(decoration)
    if (seen === undefined) {
      seen = this.now
      this.firstSeen.set(decoration, seen)
    }
    return seen
  }
}
