/// <reference lib="dom" />
/**
 * Tells the user's scrolling from the rest. A scroll event does not say who scrolled: the
 * view itself (following the cursor, or following another peer), a layout change, or the user
 * with the wheel, a touch or the scroll bar. A scroll counts as the user's when it comes while
 * such a gesture is under way or just after it (a wheel's smooth scroll goes on for a while).
 */

/** How long after a wheel turn or a touch move its scrolling may still arrive, in milliseconds. */
const GESTURE_MS = 400

/**
 * Watches `scroller` for the user's scrolling gestures; `noteScroll()` on each of its scroll
 * events, `takeUserScroll()` when the view reports.
 *
 * @example const userScroll = new UserScroll(scroller); userScroll.noteScroll(); userScroll.takeUserScroll() // => false
 */
export class UserScroll {
  private gestureUntil = Number.NEGATIVE_INFINITY
  private dragging = false
  private scrolled = false
  private readonly controller = new AbortController()

  constructor(scroller: HTMLElement) {
    const { signal } = this.controller
    const gesture = () => {
      this.gestureUntil = performance.now() + GESTURE_MS
    }
    scroller.addEventListener('wheel', gesture, { passive: true, signal })
    scroller.addEventListener('touchmove', gesture, { passive: true, signal })
    // A press on the scroller itself, not on its text, is on the scroll bar.
    scroller.addEventListener(
      'pointerdown',
      (event) => {
        if (event.target === scroller) this.dragging = true
      },
      { signal },
    )
    const release = () => {
      if (!this.dragging) return
      this.dragging = false
      gesture()
    }
    const window = scroller.ownerDocument.defaultView
    window?.addEventListener('pointerup', release, { signal })
    window?.addEventListener('pointercancel', release, { signal })
  }

  /** Called on each scroll event of the scroller. */
  noteScroll(): void {
    if (this.dragging || performance.now() < this.gestureUntil) this.scrolled = true
  }

  /**
   * Called when the view scrolls by itself: a gesture before it is over (the view's scroll
   * ends a wheel's smooth scroll), so the scroll events that follow are not the user's.
   */
  viewScrolls(): void {
    this.gestureUntil = Number.NEGATIVE_INFINITY
  }

  /** Whether the user scrolled since the last call. */
  takeUserScroll(): boolean {
    const scrolled = this.scrolled
    this.scrolled = false
    return scrolled
  }

  /** Stops watching. Safe to call twice. */
  dispose(): void {
    this.controller.abort()
  }
}
