/// <reference lib="dom" />
/**
 * Tells screen reader users who comes and goes: an `aria-live="polite"` region, visually
 * hidden, that says "Bob joined" when a remote peer's caret first shows and "Bob left" when
 * its last one goes. Fed each pass with the peers the collab decorations show (by client id);
 * the peers there when the view opens are the starting point, not news. The view says other
 * things there too (a chord waiting for its next key), so a view has one live region.
 */

/** The class of the live region the view adds to its element. */
export const LIVE_REGION_CLASS = 'tandem-live-region'

/**
 * The live region and what it last saw.
 *
 * @example const announcer = new PeerAnnouncer(element); announcer.update(new Map([[42, 'Bob']]))
 */
export class PeerAnnouncer {
  /** The region screen readers follow. */
  readonly element: HTMLDivElement
  private shown: Map<number, string> | null = null

  constructor(parent: HTMLElement) {
    const element = parent.ownerDocument.createElement('div')
    element.className = LIVE_REGION_CLASS
    element.setAttribute('role', 'log')
    element.setAttribute('aria-live', 'polite')
    element.setAttribute('aria-atomic', 'false')
    parent.appendChild(element)
    this.element = element
  }

  /** Announces the peers that joined or left since the last call. */
  update(peers: ReadonlyMap<number, string>): void {
    const before = this.shown
    this.shown = new Map(peers)
    if (before === null) return
    const news: string[] = []
    for (const [clientId, name] of peers) if (!before.has(clientId)) news.push(`${name} joined`)
    for (const [clientId, name] of before) if (!peers.has(clientId)) news.push(`${name} left`)
    if (news.length === 0) return
    this.say(news.join('. '))
  }

  /** Adds a line to the log, for screen readers to say. */
  say(text: string): void {
    const line = this.element.ownerDocument.createElement('div')
    line.textContent = text
    this.element.appendChild(line)
    // A short log: the newest few lines, older ones already read.
    while (this.element.childElementCount > 5) this.element.firstElementChild?.remove()
  }

  /** Removes the region. */
  dispose(): void {
    this.element.remove()
  }
}
