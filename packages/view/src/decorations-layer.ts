/// <reference lib="dom" />
/**
 * What the carets and highlights of the overlay show, derived from the model each pass: the
 * editor's own selections (its layer decoration of type `cursor`), and every other `cursor`
 * and `highlight` decoration, among them other peers' carets and selections as
 * `@tandem/collab` decorates them (`remote-cursor` / `remote-selection` classes with the
 * peer's `name` and `color` in the properties). `DecorationWatcher` says when to derive again.
 */
import type { Decoration, DisplayMarker, DisplayMarkerLayer, TextEditor } from '@tandem/editor'
import { CompositeDisposable, type DisposableLike, type Point } from '@tandem/text'
import { type OverlayBox, type RowLayout, rectStyle, rectsForScreenRange } from './overlay.js'
import type { PeerActivity } from './peer-activity.js'
import { labelTextOn } from './peer-colors.js'

/**
 * The boxes of one pass: highlights go under the text, carets over it; and the remote peers
 * the collab decorations show, by client id, with their names (other tabs of this user left
 * out).
 */
export interface DecorationBoxes {
  readonly highlights: OverlayBox[]
  readonly carets: OverlayBox[]
  readonly peers: Map<number, string>
}

/** The visible rows [`startRow`, `endRow`) and where their boundaries are drawn. */
export interface Viewport extends RowLayout {
  readonly startRow: number
  readonly endRow: number
}

const classList = (...names: unknown[]): string =>
  names.filter((name) => typeof name === 'string' && name !== '').join(' ')

const colorOf = (value: unknown): string | null =>
  typeof value === 'string' && /^[#\w(),.%\s-]+$/.test(value) ? value : null

const caretStyle = (position: Point, layout: RowLayout): string =>
  rectStyle({
    top: position.row * layout.lineHeight,
    left: layout.leftOf(position.row, position.column),
    width: 2,
    height: layout.lineHeight,
  })

/** The editor's selections: a highlight for each non-empty one, a caret at each head. */
const localBoxes = (editor: TextEditor, view: Viewport, boxes: DecorationBoxes): void => {
  const { startRow, endRow } = view
  for (const selection of editor.getSelections()) {
    const id = selection.marker.id
    const range = selection.getScreenRange()
    rectsForScreenRange(range, startRow, endRow, view).forEach((rect, i) => {
      boxes.highlights.push({
        key: `selection:${id}:${i}`,
        className: 'tandem-selection',
        style: rectStyle(rect),
      })
    })
    const head = selection.getHeadScreenPosition()
    if (head.row >= startRow && head.row < endRow) {
      boxes.carets.push({
        key: `cursor:${id}`,
        className: 'tandem-cursor',
        style: caretStyle(head, view),
      })
    }
  }
}

/** The markers a decoration draws in the viewport. */
const markersOf = (decoration: Decoration, view: Viewport): DisplayMarker[] => {
  const marker = decoration.getMarker()
  if (marker !== undefined) return marker.isDestroyed() ? [] : [marker]
  const layer = decoration.target as DisplayMarkerLayer
  return layer.findMarkers({ intersectsScreenRowRange: [view.startRow, view.endRow - 1] })
}

/** A label's own text color where the peer's color is too light for the default. */
const labelStyle = (color: string | null): string => {
  const text = color === null ? null : labelTextOn(color)
  return text === null ? '' : `color:${text};`
}

const hasClass = (properties: Record<string, unknown>, name: string): boolean =>
  String(properties.class ?? '')
    .split(' ')
    .includes(name)

/** Notes a remote peer's caret decoration in `boxes.peers`, for the live region. */
const notePeer = (properties: Record<string, unknown>, boxes: DecorationBoxes): void => {
  if (properties.type !== 'cursor' || !hasClass(properties, 'remote-cursor')) return
  if (properties.ownTab === true || typeof properties.clientId !== 'number') return
  const name = typeof properties.name === 'string' ? properties.name : 'Someone'
  // A program is announced as one: "Outline bot (program) joined".
  boxes.peers.set(properties.clientId, properties.agent === true ? `${name} (program)` : name)
}

const decorationBoxesOf = (
  decoration: Decoration,
  view: Viewport,
  boxes: DecorationBoxes,
  activity: PeerActivity | null,
): void => {
  const { startRow, endRow } = view
  const properties = decoration.getProperties()
  const color = colorOf(properties.color)
  notePeer(properties, boxes)
  const remote = hasClass(properties, 'remote-selection')
  // Remote selections are drawn in the user's own color, at an alpha the style sheet sets.
  const peerColor = remote ? (colorOf(properties.userColor) ?? color) : color
  const state =
    properties.type === 'cursor' && activity !== null ? activity.stateOf(decoration) : null
  for (const marker of markersOf(decoration, view)) {
    const key = `${decoration.id}:${marker.id}`
    if (properties.type === 'highlight') {
      const className = classList(
        remote ? 'tandem-remote-selection' : 'tandem-highlight',
        properties.class,
      )
      const background =
        peerColor === null
          ? ''
          : remote
            ? `--tandem-peer-color:${peerColor};`
            : `background-color:color-mix(in srgb, ${peerColor} 38%, transparent);`
      const rects = rectsForScreenRange(marker.getScreenRange(), startRow, endRow, view)
      rects.forEach((rect, i) => {
        boxes.highlights.push({
          key: `${key}:${i}`,
          className,
          style: `position:absolute;${rectStyle(rect)}${background}`,
        })
      })
    } else {
      const head = marker.getHeadScreenPosition()
      if (head.row < startRow || head.row >= endRow) continue
      const name = typeof properties.name === 'string' ? properties.name : null
      const background = color === null ? '' : `--tandem-peer-color:${color};`
      boxes.carets.push({
        key,
        className: classList(
          'tandem-remote-cursor',
          properties.class,
          state?.idle && 'is-idle',
          properties.agent === true && 'is-agent',
        ),
        style: `${caretStyle(head, view)}${background}`,
        ...(name !== null && properties.primary !== false
          ? {
              label: {
                text: name,
                // Up for a while after the peer moved or typed (and on hover), then faded:
                // above the caret, below it on the first row.
                className: classList(
                  'tandem-remote-label',
                  head.row === 0 && 'below',
                  properties.agent === true && 'is-agent',
                  (state?.labelShown ?? true) && 'is-shown',
                ),
                style: labelStyle(color),
              },
            }
          : {}),
      })
    }
  }
}

/**
 * The boxes to show for the viewport: the editor's selections, then every other `cursor` or
 * `highlight` decoration. With `activity`, remote carets say whether their name label is up
 * and whether they are idle (without, labels stay up).
 *
 * @example const { highlights, carets } = decorationBoxes(editor, { startRow: 0, endRow: 40, lineHeight, leftOf })
 */
export const decorationBoxes = (
  editor: TextEditor,
  view: Viewport,
  activity: PeerActivity | null = null,
): DecorationBoxes => {
  const boxes: DecorationBoxes = { highlights: [], carets: [], peers: new Map() }
  localBoxes(editor, view, boxes)
  activity?.begin()
  for (const decoration of editor.getDecorations()) {
    if (decoration.target === editor.selectionsMarkerLayer) continue
    if (!decoration.isType(['cursor', 'highlight'])) continue
    decorationBoxesOf(decoration, view, boxes, activity)
  }
  activity?.end()
  return boxes
}

/**
 * Calls `onChange` whenever what `decorationBoxes` derives may have changed: decorations
 * added, removed or given new properties, and their markers moving or going (the editor's
 * own selections are followed through the editor's events).
 *
 * @example const watcher = new DecorationWatcher(editor, () => view.scheduleUpdate())
 */
export class DecorationWatcher {
  private readonly subscriptions = new CompositeDisposable()
  private readonly perDecoration = new Map<Decoration, DisposableLike>()

  constructor(
    readonly editor: TextEditor,
    private readonly onChange: () => void,
  ) {
    for (const decoration of editor.getDecorations()) this.watch(decoration)
    this.subscriptions.add(
      editor.onDidAddDecoration((decoration) => this.watch(decoration)),
      editor.onDidRemoveDecoration((decoration) => this.unwatch(decoration)),
      editor.onDidUpdateDecorations(onChange),
      editor.onDidAddSelection(onChange),
      editor.onDidRemoveSelection(onChange),
      editor.onDidChangeSelectionRange(onChange),
      editor.onDidChangeCursorPosition(onChange),
    )
  }

  /** Stops watching. */
  dispose(): void {
    this.subscriptions.dispose()
    for (const subscription of this.perDecoration.values()) subscription.dispose()
    this.perDecoration.clear()
  }

  private watch(decoration: Decoration): void {
    if (decoration.target === this.editor.selectionsMarkerLayer) return
    const marker = decoration.getMarker()
    const subscriptions = new CompositeDisposable()
    if (marker !== undefined) {
      subscriptions.add(marker.onDidChange(this.onChange))
    } else {
      const layer = decoration.target as DisplayMarkerLayer
      subscriptions.add(
        layer.onDidCreateMarker(this.onChange),
        layer.onDidChangeMarker(this.onChange),
        layer.onDidDestroyMarker(this.onChange),
      )
    }
    this.perDecoration.set(decoration, subscriptions)
  }

  private unwatch(decoration: Decoration): void {
    this.perDecoration.get(decoration)?.dispose()
    this.perDecoration.delete(decoration)
  }
}
