/// <reference lib="dom" />
/**
 * The suggestions layer of a view: changes a program proposed, drawn over the text as a
 * reviewer sees them in a word processor. The text a proposal replaces is struck through on a
 * red tint, the text it would put there follows it in the program's colour, and a card under
 * it names the program, says its message and has Accept and Reject buttons.
 *
 * The proposals come from a `ProposalSource` (`@tandem/collab`'s `connection.proposals` is
 * one; the view knows only this small interface), read again when it says they changed and
 * laid out for the rows on screen only. Every place is measured from the rendered text (the
 * view's geometry), so wide characters and emoji before a proposal put its marks where they
 * belong.
 */
import type { TextEditor } from '@tandem/editor'
import { CompositeDisposable, type DisposableLike, type Range } from '@tandem/text'
import {
  Overlay,
  type OverlayBox,
  type RowLayout,
  rectStyle,
  rectsForScreenRange,
} from './overlay.js'

/** One change of a proposal as the view draws it. */
export interface ViewProposalChange {
  /** The buffer range it replaces (empty for an insertion); a change without one is not drawn. */
  readonly range: Range | null
  /** The text it puts there. */
  readonly insert: string
}

/**
 * A proposal as the view draws it: `connection.proposals.list()` of `@tandem/collab` gives
 * these.
 *
 * @example const proposal: ViewProposal = { id: 'a1', name: 'Spellbot', color: '#7a3db8', message: 'Typo', changes: [{ range: new Range([0, 4], [0, 7]), insert: 'the' }] }
 */
export interface ViewProposal {
  /** Its id, handed to `accept` and `reject`. */
  readonly id: string
  /** The name of the program that proposed it. */
  readonly name: string
  /** The program's colour (a CSS colour), or null for the view's default. */
  readonly color: string | null
  /** What the program says of it, or null. */
  readonly message: string | null
  /** Its changes, in text order. */
  readonly changes: readonly ViewProposalChange[]
}

/**
 * Where the view gets proposals and sends a person's decisions: `connection.proposals` of
 * `@tandem/collab` is one.
 *
 * @example view.showProposals(connection.proposals)
 */
export interface ProposalSource {
  /** The proposals now. */
  list(): readonly ViewProposal[]
  /** Calls `callback` when `list` may answer differently. */
  onDidChange(callback: () => void): DisposableLike
  /** Accepts proposal `id`; rejects with an error whose message says why it could not. */
  accept(id: string): Promise<unknown>
  /** Rejects proposal `id`, leaving the text as it is. */
  reject(id: string): Promise<unknown>
}

/**
 * How the suggestions layer behaves.
 *
 * @example view.showProposals(connection.proposals, { canReview: () => role === 'write' })
 */
export interface ProposalOptions {
  /**
   * Whether this person may accept and reject (default: while the editor is not read-only).
   * Without the right, the buttons are disabled and say why.
   */
  readonly canReview?: () => boolean
  /** Told when accepting or rejecting failed (the card also shows the reason). */
  readonly onError?: (error: unknown, proposal: ViewProposal, decision: 'accept' | 'reject') => void
}

/** What the suggestions layer needs of its view. */
export interface ProposalHost {
  readonly editor: TextEditor
  /** The text area: the marks and cards go in it, so they scroll with the text. */
  readonly lines: HTMLElement
  /** Asks the view to draw again. */
  scheduleUpdate(): void
  /** Gives the editor the keyboard focus (when a card that had it goes). */
  focus(): void
}

/** The rows drawn and where their boundaries are, as the view lays them out. */
export interface ProposalViewport extends RowLayout {
  /** The first screen row drawn. */
  readonly startRow: number
  /** The row after the last one drawn. */
  readonly endRow: number
}

/** The most lines of a proposed insertion drawn in place; the rest are counted. */
const MAX_GHOST_LINES = 8

/** The colour of a proposal without one. */
const DEFAULT_PROPOSAL_COLOR = '#7a3db8'

interface Card {
  readonly element: HTMLDivElement
  readonly name: HTMLSpanElement
  readonly message: HTMLParagraphElement
  readonly error: HTMLParagraphElement
  readonly accept: HTMLButtonElement
  readonly reject: HTMLButtonElement
  proposal: ViewProposal
  busy: boolean
  /** The inline style last written. */
  placed: string
}

/** Where a proposal's card goes: under its last row, from its first change's left. */
interface CardPlace {
  readonly proposal: ViewProposal
  readonly top: number | null
  readonly left: number
}

/**
 * The suggestions layer of one view (made by `EditorView.showProposals`).
 *
 * @example const layer = new ProposalLayer(host, connection.proposals)
 */
export class ProposalLayer {
  private readonly subscriptions = new CompositeDisposable()
  private readonly element: HTMLDivElement
  private readonly marks: Overlay
  private readonly cardsElement: HTMLDivElement
  private readonly cards = new Map<string, Card>()
  private proposals: readonly ViewProposal[] = []
  private disposed = false

  constructor(
    private readonly host: ProposalHost,
    private readonly source: ProposalSource,
    private readonly options: ProposalOptions = {},
  ) {
    if (
      typeof source?.list !== 'function' ||
      typeof source.onDidChange !== 'function' ||
      typeof source.accept !== 'function' ||
      typeof source.reject !== 'function'
    ) {
      throw new TypeError('showProposals needs a source with list, onDidChange, accept and reject')
    }
    const document = host.lines.ownerDocument
    this.element = document.createElement('div')
    this.element.className = 'tandem-proposals'
    const marks = document.createElement('div')
    marks.className = 'tandem-proposal-marks'
    marks.setAttribute('aria-hidden', 'true')
    this.marks = new Overlay(marks)
    this.cardsElement = document.createElement('div')
    this.cardsElement.className = 'tandem-proposal-cards'
    this.element.append(marks, this.cardsElement)
    host.lines.append(this.element)
    // A press on a card is the card's, not a click in the text.
    const keepPress = (event: MouseEvent) => event.stopPropagation()
    this.cardsElement.addEventListener('mousedown', keepPress)
    this.subscriptions.add(
      source.onDidChange(() => this.read()),
      host.editor.getBuffer().onDidChange(() => host.scheduleUpdate()),
      { dispose: () => this.cardsElement.removeEventListener('mousedown', keepPress) },
    )
    this.read()
  }

  /** The proposals shown, as the source last gave them. */
  getProposals(): readonly ViewProposal[] {
    return this.proposals
  }

  /** Lays out the marks and cards of the rows drawn; returns the function that writes them. */
  layout(viewport: ProposalViewport): () => void {
    const boxes: OverlayBox[] = []
    const places = this.proposals.map((proposal) => this.layoutProposal(proposal, viewport, boxes))
    const canReview = this.options.canReview?.() ?? !this.host.editor.isReadOnly()
    return () => {
      this.marks.update(boxes)
      this.drawCards(places, canReview)
    }
  }

  /** Adds `proposal`'s marks on the rows drawn to `boxes`; answers where its card goes. */
  private layoutProposal(
    proposal: ViewProposal,
    viewport: ProposalViewport,
    boxes: OverlayBox[],
  ): CardPlace {
    const { editor } = this.host
    const { startRow, endRow, lineHeight } = viewport
    const color = proposal.color ?? DEFAULT_PROPOSAL_COLOR
    const drawn = (row: number) => row >= startRow && row < endRow
    let cardLeft: number | null = null
    let lastRow = -1
    for (const [index, change] of proposal.changes.entries()) {
      if (change.range == null) continue
      const range = editor.screenRangeForBufferRange(change.range)
      const { start, end } = range
      const rects = rectsForScreenRange(range, startRow, endRow, viewport)
      for (const [part, rect] of rects.entries()) {
        boxes.push({
          key: `delete:${proposal.id}:${index}:${part}`,
          className: 'tandem-proposal-delete',
          style: rectStyle(rect),
        })
      }
      if (cardLeft === null && drawn(start.row)) cardLeft = viewport.leftOf(start.row, start.column)
      if (change.insert === '') {
        lastRow = Math.max(lastRow, end.row)
        continue
      }
      // The proposed text hangs under its place, from a bar at the place itself: drawn over
      // the row, it would hide the text after it.
      const ghost = ghostText(change.insert)
      lastRow = Math.max(lastRow, end.row + ghost.split('\n').length)
      if (!drawn(end.row)) continue
      boxes.push({
        key: `insert:${proposal.id}:${index}`,
        className: 'tandem-proposal-insert',
        style:
          `top:${end.row * lineHeight}px;left:${viewport.leftOf(end.row, end.column, true)}px;` +
          `height:${lineHeight}px;--tandem-proposal-color:${color};`,
        label: { text: ghost, className: 'tandem-proposal-insert-text', style: '' },
      })
    }
    // Shown while the proposal's start is drawn, under its last row (past the text's end too).
    return {
      proposal,
      top: cardLeft === null ? null : (lastRow + 1) * lineHeight + 2,
      left: cardLeft ?? 0,
    }
  }

  /** Takes everything the layer added out of the view and stops listening. Safe twice. */
  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    this.subscriptions.dispose()
    this.element.remove()
    this.cards.clear()
  }

  private read(): void {
    if (this.disposed) return
    this.proposals = [...this.source.list()]
    this.host.scheduleUpdate()
  }

  private drawCards(places: readonly CardPlace[], canReview: boolean): void {
    const shown = new Set<string>()
    for (const { proposal, top, left } of places) {
      shown.add(proposal.id)
      const card = this.cards.get(proposal.id) ?? this.makeCard(proposal)
      card.proposal = proposal
      const { element } = card
      element.hidden = top === null
      if (top !== null) {
        const style = `top:${top}px;left:${left}px;--tandem-proposal-color:${proposal.color ?? DEFAULT_PROPOSAL_COLOR};`
        if (card.placed !== style) {
          card.placed = style
          element.style.cssText = style
        }
      }
      const label = describeProposal(proposal)
      if (element.getAttribute('aria-label') !== label) element.setAttribute('aria-label', label)
      if (card.name.textContent !== proposal.name) card.name.textContent = proposal.name
      const message = proposal.message ?? ''
      if (card.message.textContent !== message) card.message.textContent = message
      card.message.hidden = message === ''
      const disabled = card.busy || !canReview
      card.accept.disabled = disabled
      card.reject.disabled = disabled
      const why = canReview ? '' : 'You can read this document, not change it'
      if (card.accept.title !== why) {
        card.accept.title = why
        card.reject.title = why
      }
    }
    for (const [id, card] of this.cards) {
      if (shown.has(id)) continue
      // The person just decided with the keyboard: the focus goes back to the text.
      const focused = card.element.contains(card.element.ownerDocument.activeElement)
      card.element.remove()
      this.cards.delete(id)
      if (focused) this.host.focus()
    }
    this.unstackCards(places)
  }

  /**
   * Moves cards down so that none covers another one that starts higher and overlaps it
   * sideways (one read of the cards' sizes, after they were written).
   */
  private unstackCards(places: readonly CardPlace[]): void {
    const placed: { top: number; bottom: number; left: number; right: number }[] = []
    const shown = places
      .filter((place) => place.top !== null)
      .sort((a, b) => a.top! - b.top! || a.left - b.left)
    const sizes = shown.map(({ proposal }) => {
      const element = this.cards.get(proposal.id)!.element
      return { element, width: element.offsetWidth, height: element.offsetHeight }
    })
    shown.forEach((place, index) => {
      const { element, width, height } = sizes[index]!
      let top = place.top!
      for (const other of placed) {
        const sideways = place.left < other.right && other.left < place.left + width
        if (sideways && top < other.bottom && other.top < top + height) top = other.bottom + 4
      }
      placed.push({ top, bottom: top + height, left: place.left, right: place.left + width })
      if (top !== place.top) element.style.top = `${top}px`
    })
  }

  private makeCard(proposal: ViewProposal): Card {
    const document = this.cardsElement.ownerDocument
    const element = document.createElement('div')
    element.className = 'tandem-proposal-card'
    element.setAttribute('role', 'group')
    element.dataset.proposal = proposal.id
    const header = document.createElement('div')
    header.className = 'tandem-proposal-author'
    const swatch = document.createElement('span')
    swatch.className = 'tandem-proposal-swatch'
    swatch.setAttribute('aria-hidden', 'true')
    const name = document.createElement('span')
    header.append(swatch, name, document.createTextNode(' suggests'))
    const message = document.createElement('p')
    message.className = 'tandem-proposal-message'
    const error = document.createElement('p')
    error.className = 'tandem-proposal-error'
    error.setAttribute('role', 'alert')
    error.hidden = true
    const buttons = document.createElement('div')
    buttons.className = 'tandem-proposal-buttons'
    const accept = document.createElement('button')
    accept.type = 'button'
    accept.className = 'tandem-proposal-accept'
    accept.textContent = 'Accept'
    const reject = document.createElement('button')
    reject.type = 'button'
    reject.className = 'tandem-proposal-reject'
    reject.textContent = 'Reject'
    buttons.append(accept, reject)
    element.append(header, message, error, buttons)
    const card: Card = {
      element,
      name,
      message,
      error,
      accept,
      reject,
      proposal,
      busy: false,
      placed: '',
    }
    accept.addEventListener('click', () => void this.decide(card, 'accept'))
    reject.addEventListener('click', () => void this.decide(card, 'reject'))
    this.cards.set(proposal.id, card)
    this.cardsElement.append(element)
    return card
  }

  /** Sends the decision; the card stays, its buttons disabled, until the source drops it. */
  private async decide(card: Card, decision: 'accept' | 'reject'): Promise<void> {
    if (card.busy) return
    card.busy = true
    card.error.hidden = true
    card.accept.disabled = true
    card.reject.disabled = true
    const { proposal } = card
    try {
      await (decision === 'accept'
        ? this.source.accept(proposal.id)
        : this.source.reject(proposal.id))
    } catch (error) {
      card.busy = false
      if (this.disposed) return
      card.error.textContent = `Could not ${decision}: ${(error as Error)?.message ?? String(error)}`
      card.error.hidden = false
      this.options.onError?.(error, proposal, decision)
      this.host.scheduleUpdate()
    }
  }
}

/**
 * What a proposal's card is called: who proposes and what.
 *
 * @example describeProposal({ name: 'Spellbot', message: 'Typo', ... }) // => 'Suggestion by Spellbot: Typo'
 */
export const describeProposal = (proposal: Pick<ViewProposal, 'name' | 'message'>): string =>
  proposal.message
    ? `Suggestion by ${proposal.name}: ${proposal.message}`
    : `Suggestion by ${proposal.name}`

/** The text drawn in place of an insertion: its first lines, and how many more there are. */
const ghostText = (insert: string): string => {
  const lines = insert.split('\n')
  if (lines.length <= MAX_GHOST_LINES) return insert
  const more = lines.length - MAX_GHOST_LINES
  return `${lines.slice(0, MAX_GHOST_LINES).join('\n')}\n… ${more} more line${more === 1 ? '' : 's'}`
}
