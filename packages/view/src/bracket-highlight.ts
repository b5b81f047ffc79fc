/**
 * The bracket matcher of a view: the editor package's `BracketMatcher` (closing brackets and
 * quotes as they are typed, the pair at the cursor), and the pair at the cursor marked on a
 * layer of its own, decorated as `bracket-matcher` highlights for the overlay to draw.
 */
import {
  BracketMatcher,
  type Decoration,
  type DisplayMarkerLayer,
  type TextEditor,
} from '@tandem/editor'
import type { Disposable } from '@tandem/text'

/**
 * A bracket matcher over `editor` and the highlight of its pair.
 *
 * @example const brackets = new BracketHighlight(editor, true); brackets.matcher.goToMatchingBracket()
 */
export class BracketHighlight {
  /** The matcher, for the bracket commands. */
  readonly matcher: BracketMatcher
  private readonly layer: DisplayMarkerLayer
  private readonly decoration: Decoration
  private readonly subscription: Disposable

  constructor(editor: TextEditor, autoClose: boolean) {
    this.matcher = new BracketMatcher(editor, { autoClose })
    this.layer = editor.addMarkerLayer()
    this.decoration = editor.decorateMarkerLayer(this.layer, {
      type: 'highlight',
      class: 'bracket-matcher',
    })
    this.subscription = this.matcher.onDidChangeMatch(() => this.mark())
    this.mark()
  }

  /** Stops matching and removes the highlight. */
  dispose(): void {
    this.subscription.dispose()
    this.matcher.destroy()
    this.decoration.destroy()
    this.layer.destroy()
  }

  /** Marks the bracket pair at the cursor (none when there is none). */
  private mark(): void {
    for (const marker of this.layer.getMarkers()) marker.destroy()
    for (const range of this.matcher.matchingBracketRanges() ?? []) {
      this.layer.markBufferRange(range, { invalidate: 'never' })
    }
  }
}
