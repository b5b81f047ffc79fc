/// <reference lib="dom" />
/**
 * The view's measurements of its text as drawn: the font's metrics (read from a hidden probe,
 * and read again when the font, the fonts loaded or the device pixel ratio change), the
 * widths soft wrap works with, and the conversions between screen positions and pixels of
 * the text area, read from the rendered rows (or from a hidden row for one out of sight).
 */
import { ratioForCharacter } from '@tandem/display'
import type { TextEditor } from '@tandem/editor'
import type { Point } from '@tandem/text'
import { fontWidths } from './character-widths.js'
import type { LinesLayer } from './lines.js'
import { createMeasureProbe, measureText, metricsDiffer, type TextMetrics } from './measure.js'
import { screenPositionForPixel } from './mouse.js'
import { RowGeometry } from './row-geometry.js'

/** A pixel position in the text area (0, 0 is the top left of the first row's text). */
export interface PixelPosition {
  /** Pixels down from the top of the first row. */
  readonly top: number
  /** Pixels right from the start of the text. */
  readonly left: number
}

/** Text whose every character a monospace font draws at its average width. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/

/** What a `TextGeometry` measures in and tells of its changes. */
export interface TextGeometryParts {
  /** The editor whose display layer is given the widths to wrap by. */
  readonly editor: TextEditor
  /** The rendered rows, measured where they are drawn. */
  readonly lines: LinesLayer
  /** The scrolling box, whose width soft wrap follows. */
  readonly scroller: HTMLElement
  /** A hidden box in the text's font that holds the probes. */
  readonly measureBox: HTMLElement
  /** A hidden row element in that box, filled with a row out of sight to measure it. */
  readonly probeRow: HTMLElement
  /** Called after the measurements changed: every row is to be measured again. */
  readonly didRemeasure: () => void
}

/**
 * Measures the text of a view and converts between screen positions and the pixels it is
 * drawn at. Rows are `metrics.lineHeight` high; horizontal positions come from the rendered
 * glyphs, never from arithmetic on the average character width (which only sizes soft wrap).
 *
 * @example
 * const geometry = new TextGeometry({ editor, lines, scroller, measureBox, probeRow, didRemeasure })
 * geometry.pixelPositionFor(new Point(2, 4)) // => { top: 42, left: 28.8 }
 */
export class TextGeometry {
  private readonly measureProbe: HTMLElement
  private currentMetrics: TextMetrics
  private pixelRatio: number
  /** The measured layout of the last row out of sight asked for, drawn in `probeRow`. */
  private probe: RowGeometry | null = null
  private widthInChars = 0
  /** Whether the display layer was given a proportional font's character widths. */
  private widthsSet = false
  /** Whether the font is monospace, so an ASCII row's width is its length in characters. */
  private monospace = false
  private readonly unwatch: () => void

  constructor(private readonly parts: TextGeometryParts) {
    this.measureProbe = createMeasureProbe(parts.measureBox)
    this.currentMetrics = measureText(this.measureProbe)
    const document = parts.measureBox.ownerDocument
    const window = document.defaultView
    this.pixelRatio = window?.devicePixelRatio ?? 1
    // The probe changes size when the font does (a new family, size or line height).
    const fontObserver =
      window?.ResizeObserver === undefined
        ? null
        : new window.ResizeObserver(() => this.remeasure(false))
    fontObserver?.observe(this.measureProbe)
    const fonts = document.fonts
    const onFonts = () => this.remeasure(true)
    fonts?.addEventListener('loadingdone', onFonts)
    // Browser zoom changes the device pixel ratio, and with it how glyphs are fitted to pixels.
    const onWindowResize = () => this.remeasure(false)
    window?.addEventListener('resize', onWindowResize)
    this.unwatch = () => {
      fontObserver?.disconnect()
      fonts?.removeEventListener('loadingdone', onFonts)
      window?.removeEventListener('resize', onWindowResize)
    }
  }

  /** The line height and the average character width, in CSS pixels. */
  get metrics(): TextMetrics {
    return this.currentMetrics
  }

  /**
   * Measures the font again; when it, the device pixel ratio, or (with `fontsLoaded`) the
   * fonts changed, forgets every row's measurements, gives the display layer the new widths
   * and calls `didRemeasure`.
   */
  remeasure(fontsLoaded: boolean): void {
    const metrics = measureText(this.measureProbe)
    const window = this.parts.measureBox.ownerDocument.defaultView
    const pixelRatio = window?.devicePixelRatio ?? 1
    if (
      !fontsLoaded &&
      !metricsDiffer(metrics, this.currentMetrics) &&
      pixelRatio === this.pixelRatio
    ) {
      return
    }
    this.currentMetrics = metrics
    this.pixelRatio = pixelRatio
    this.parts.lines.forgetMeasurements()
    this.probe = null
    this.updateCharacterWidths()
    this.updateWrapWidth()
    this.parts.didRemeasure()
  }

  /**
   * Gives the display layer the measured widths of a proportional font's characters, so soft
   * wrap fits its rows to the element; a monospace font keeps Atom's rule.
   */
  updateCharacterWidths(): void {
    const { monospace, ratio } = fontWidths(this.parts.lines.element, this.metrics.characterWidth)
    this.monospace = monospace
    if (ratio === null && !this.widthsSet) return
    this.widthsSet = ratio !== null
    this.parts.editor.displayLayer.reset({ ratioForCharacter: ratio ?? ratioForCharacter })
  }

  /** Tells the editor how many columns fit, so soft wrap follows the element's width. */
  updateWrapWidth(): void {
    const clientWidth = this.parts.scroller.clientWidth
    if (clientWidth === 0) return
    const { characterWidth } = this.metrics
    const available = clientWidth - this.parts.lines.element.offsetLeft - characterWidth
    const columns = Math.max(1, Math.floor(available / characterWidth))
    if (columns === this.widthInChars) return
    this.widthInChars = columns
    this.parts.editor.setEditorWidthInChars(columns)
  }

  /**
   * Pixels from the text area's left edge to the boundary at `column` of screen row `row`,
   * measured in the rendered row (or in the hidden row for a row out of sight). A column
   * inside a grapheme cluster counts as the cluster's start, or with `towardEnd` its end.
   */
  leftOf(row: number, column: number, towardEnd = false): number {
    return this.geometryOf(row).leftOf(column, towardEnd)
  }

  /**
   * The width of rendered screen row `row` showing `text` (0 when it is not rendered); a
   * monospace font's printable ASCII row is its length in average widths, with no reading.
   */
  widthOfRenderedRow(row: number, text: string): number {
    if (this.monospace && PRINTABLE_ASCII.test(text)) {
      return text.length * this.metrics.characterWidth
    }
    return this.parts.lines.geometryForRow(row)?.width() ?? 0
  }

  /** Where the clipped screen position `point` is drawn, in the text area's pixels. */
  pixelPositionFor(point: Point): PixelPosition {
    return { top: point.row * this.metrics.lineHeight, left: this.leftOf(point.row, point.column) }
  }

  /**
   * The screen position drawn at a pixel of the text area: the grapheme boundary nearest to
   * it on its row (clipped to the text).
   */
  screenPositionForPixel({ top, left }: PixelPosition): Point {
    return screenPositionForPixel(this.parts.editor, left, top, this.metrics.lineHeight, (row, x) =>
      this.geometryOf(row).columnAt(x),
    )
  }

  /** The screen position drawn at a point of the page (a mouse event's client coordinates). */
  screenPositionForClientPoint(x: number, y: number): Point {
    const rect = this.parts.lines.element.getBoundingClientRect()
    return this.screenPositionForPixel({ top: y - rect.top, left: x - rect.left })
  }

  /**
   * Stops watching the font and gives the display layer Atom's widths back if it was given
   * others (unless the editor is gone). Safe twice.
   */
  dispose(): void {
    this.unwatch()
    if (this.widthsSet && !this.parts.editor.isDestroyed()) {
      this.parts.editor.displayLayer.reset({ ratioForCharacter })
      this.widthsSet = false
    }
  }

  /** The measured layout of a screen row: its rendered element, else the hidden row showing it. */
  private geometryOf(row: number): RowGeometry {
    const rendered = this.parts.lines.geometryForRow(row)
    if (rendered !== undefined) return rendered
    const text = this.parts.editor.lineTextForScreenRow(row) ?? ''
    if (this.probe?.text !== text) {
      this.parts.lines.fillElement(this.parts.probeRow, text)
      this.probe = new RowGeometry(this.parts.probeRow, text)
    }
    return this.probe
  }
}
