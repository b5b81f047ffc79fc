/**
 * Draws a benchmark plot as a standalone SVG line chart: cost against size, both axes
 * logarithmic (sizes grow tenfold per step and costs span orders of magnitude), with grid
 * lines at powers of ten, a legend, one colour and marker shape per series, and lower-bound
 * points (`atLeast`: the work was stopped) drawn open with an upward arrow. It needs no
 * library and no font files, and scales by its viewBox, so it reads well as an image in a
 * markdown preview.
 */
import type { PlotPointResult, PlotResult } from './harness.js'

/** What the chart says besides the plot's own data. */
export interface PlotSvgOptions {
  /** The run's machine, e.g. `node v20.19.0 · 8 CPUs`, in small text under the legend. */
  readonly machine?: string
}

const WIDTH = 720
const FRAME_LEFT = 78
const FRAME_RIGHT = WIDTH - 24
const FRAME_TOP = 52
const FRAME_BOTTOM = FRAME_TOP + 300
/** Space between the frame and the outermost decades, so markers never sit on the frame. */
const INSET = 14
/** More above, where a lower bound's arrow points. */
const TOP_INSET = 26
const LEGEND_TOP = FRAME_BOTTOM + 72
const LEGEND_ROW = 26
const FONT_SIZE = 12
/** Okabe-Ito colours: told apart with the common colour-vision deficiencies, and on white. */
const COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000']
const SHAPES = ['circle', 'square', 'triangle', 'diamond', 'triangle-down'] as const
const AT_LEAST_COLOUR = '#555555'
const GRID = '#d0d7de'
const MINOR_GRID = '#eef1f4'
const INK = '#24292f'
const MUTED = '#57606a'

type Shape = (typeof SHAPES)[number]

/** A log-scale axis over whole decades `lo`..`hi` (exponents of ten), mapped onto pixels. */
interface LogAxis {
  readonly lo: number
  readonly hi: number
  readonly toPixel: (value: number) => number
}

/**
 * The SVG document for `plot`. Points with no time (a failed case) break their line; points
 * that are not positive cannot sit on a log axis and are left out likewise.
 */
export function renderPlotSvg(plot: PlotResult, options: PlotSvgOptions = {}): string {
  const plotted = plot.series.flatMap((s) => s.points.filter(isPlottable))
  const x = logAxis(
    plotted.map((p) => p.x),
    FRAME_LEFT + INSET,
    FRAME_RIGHT - INSET,
  )
  const y = logAxis(
    plotted.map((p) => p.ms as number),
    FRAME_BOTTOM - INSET,
    FRAME_TOP + TOP_INSET,
  )
  const legend = legendEntries(plot)
  const legendBottom = LEGEND_TOP + (legend.rows - 1) * LEGEND_ROW + 8
  const machineY = legendBottom + 22
  const height = options.machine === undefined ? legendBottom + 14 : machineY + 10
  const middleY = (FRAME_TOP + FRAME_BOTTOM) / 2
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" ` +
      `width="${WIDTH}" height="${height}" font-family="sans-serif" font-size="${FONT_SIZE}" ` +
      `role="img" aria-label="${escapeXml(plot.title)}">`,
    `<title>${escapeXml(plot.title)}</title>`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="${WIDTH / 2}" y="30" text-anchor="middle" font-size="16" font-weight="bold" ` +
      `fill="${INK}">${escapeXml(plot.title)}</text>`,
    ...grid(x, y),
    `<rect x="${FRAME_LEFT}" y="${FRAME_TOP}" width="${FRAME_RIGHT - FRAME_LEFT}" ` +
      `height="${FRAME_BOTTOM - FRAME_TOP}" fill="none" stroke="${MUTED}"/>`,
    `<text x="${(FRAME_LEFT + FRAME_RIGHT) / 2}" y="${FRAME_BOTTOM + 42}" text-anchor="middle" ` +
      `fill="${INK}">${escapeXml(plot.xLabel)} (log scale)</text>`,
    `<text transform="translate(20 ${middleY}) rotate(-90)" text-anchor="middle" ` +
      `fill="${INK}">${plot.perOp ? 'time per op' : 'time per run'} (log scale)</text>`,
  ]
  if (plotted.length === 0) {
    parts.push(
      `<text x="${(FRAME_LEFT + FRAME_RIGHT) / 2}" y="${middleY}" text-anchor="middle" ` +
        `fill="${MUTED}">no measured points</text>`,
    )
  }
  plot.series.forEach((series, i) => {
    parts.push(drawSeries(series.name, series.points, i, x, y))
  })
  parts.push(...legend.parts)
  if (options.machine !== undefined) {
    parts.push(
      `<text x="12" y="${machineY}" font-size="10" fill="${MUTED}">` +
        `${escapeXml(options.machine)}</text>`,
    )
  }
  parts.push('</svg>')
  return `${parts.join('\n')}\n`
}

/** A file name for a plot: its name with anything but letters, digits, `.`, `_`, `-` as `-`. */
export function plotFileName(name: string): string {
  const stem = name.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^\.+/, '')
  return `${stem === '' ? 'plot' : stem}.svg`
}

/** Escapes text for XML content and attribute values. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
}

/** A count at a power of ten: `100`, `1k`, `10M`. */
export function formatCountTick(exponent: number): string {
  if (exponent >= 9) return `${10 ** (exponent - 9)}G`
  if (exponent >= 6) return `${10 ** (exponent - 6)}M`
  if (exponent >= 3) return `${10 ** (exponent - 3)}k`
  return String(10 ** exponent)
}

/** A time of `10 ** exponent` milliseconds: `1 µs`, `100 ms`, `10 s`. */
export function formatTimeTick(exponent: number): string {
  if (exponent >= 3) return `${(10 ** (exponent - 3)).toLocaleString('en-US')} s`
  if (exponent >= 0) return `${10 ** exponent} ms`
  if (exponent >= -3) return `${10 ** (exponent + 3)} µs`
  return `${10 ** (exponent + 6)} ns`
}

function isPlottable(point: PlotPointResult): boolean {
  return point.ms !== null && point.ms > 0 && point.x > 0 && Number.isFinite(point.ms)
}

/** The whole decades around `values` (one decade when they all share one). */
function logAxis(values: readonly number[], from: number, to: number): LogAxis {
  // The epsilon keeps log10(1000) = 2.9999999999999996 in its own decade.
  const exponents = values.map((v) => Math.log10(v))
  let lo = exponents.length === 0 ? 0 : Math.floor(Math.min(...exponents) + 1e-9)
  let hi = exponents.length === 0 ? 1 : Math.ceil(Math.max(...exponents) - 1e-9)
  if (hi <= lo) {
    lo = Math.min(lo, hi)
    hi = lo + 1
  }
  return { lo, hi, toPixel: (v) => from + ((Math.log10(v) - lo) / (hi - lo)) * (to - from) }
}

/** Grid lines and tick labels at powers of ten, fainter lines at 2..9 for short spans. */
function grid(x: LogAxis, y: LogAxis): string[] {
  const minor: string[] = []
  const major: string[] = []
  const labels: string[] = []
  for (const [axis, vertical] of [
    [x, true],
    [y, false],
  ] as const) {
    const across = (at: number) =>
      vertical
        ? `M${num(at)} ${FRAME_TOP}V${FRAME_BOTTOM}`
        : `M${FRAME_LEFT} ${num(at)}H${FRAME_RIGHT}`
    const decades = axis.hi - axis.lo
    if (decades <= 4) {
      for (let e = axis.lo; e < axis.hi; e++) {
        for (let m = 2; m <= 9; m++) minor.push(across(axis.toPixel(m * 10 ** e)))
      }
    }
    const step = Math.max(1, Math.ceil(decades / 8))
    for (let e = axis.lo; e <= axis.hi; e += step) {
      const at = axis.toPixel(10 ** e)
      major.push(across(at))
      labels.push(
        vertical
          ? `<text x="${num(at)}" y="${FRAME_BOTTOM + 18}" text-anchor="middle" ` +
              `fill="${MUTED}">${escapeXml(formatCountTick(e))}</text>`
          : `<text x="${FRAME_LEFT - 8}" y="${num(at + 4)}" text-anchor="end" ` +
              `fill="${MUTED}">${escapeXml(formatTimeTick(e))}</text>`,
      )
    }
  }
  const path = (d: readonly string[], stroke: string) =>
    d.length === 0 ? [] : [`<path d="${d.join('')}" fill="none" stroke="${stroke}"/>`]
  return [...path(minor, MINOR_GRID), ...path(major, GRID), ...labels]
}

/**
 * One series: solid lines between measured points, dashed into or out of a lower bound,
 * nothing across a point without a time; then its markers on top.
 */
function drawSeries(
  name: string,
  points: readonly PlotPointResult[],
  index: number,
  x: LogAxis,
  y: LogAxis,
): string {
  const colour = COLOURS[index % COLOURS.length]!
  const shape = SHAPES[index % SHAPES.length]!
  const lines: string[] = []
  const markers: string[] = []
  const stroke = `fill="none" stroke="${colour}" stroke-width="2" stroke-linejoin="round"`
  let solid: string[] = []
  const endSolid = () => {
    if (solid.length > 1)
      lines.push(`<polyline class="line" points="${solid.join(' ')}" ${stroke}/>`)
    solid = []
  }
  let previous: { readonly at: string; readonly atLeast: boolean } | null = null
  for (const point of points) {
    if (!isPlottable(point)) {
      endSolid()
      previous = null
      continue
    }
    const px = x.toPixel(point.x)
    const py = y.toPixel(point.ms as number)
    const at = `${num(px)},${num(py)}`
    if (previous !== null && (previous.atLeast || point.atLeast)) {
      endSolid()
      lines.push(
        `<polyline class="line at-least" points="${previous.at} ${at}" ${stroke} ` +
          'stroke-dasharray="5 4"/>',
      )
    }
    if (point.atLeast) endSolid()
    else solid.push(at)
    markers.push(marker(px, py, shape, colour, point.atLeast))
    previous = { at, atLeast: point.atLeast }
  }
  endSolid()
  return [`<g class="series" data-series="${escapeXml(name)}">`, ...lines, ...markers, '</g>'].join(
    '\n',
  )
}

/**
 * A marker centred on (px, py): filled, or open with an upward arrow for a lower bound.
 * `role` is its class: `point` on the chart, `key` in the legend.
 */
function marker(
  px: number,
  py: number,
  shape: Shape,
  colour: string,
  atLeast: boolean,
  role: 'point' | 'key' = 'point',
): string {
  const cls = atLeast ? `${role} at-least` : role
  const paint = atLeast
    ? `fill="#ffffff" stroke="${colour}" stroke-width="1.8"`
    : `fill="${colour}" stroke="${colour}" stroke-width="1"`
  const arrow = atLeast
    ? `<path d="M0 -7 V-18 M-3.5 -14 L0 -18.5 L3.5 -14" fill="none" stroke="${colour}" ` +
      'stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round"/>'
    : ''
  return (
    `<g class="${cls}" transform="translate(${num(px)} ${num(py)})">` +
    `${shapeAtOrigin(shape, paint)}${arrow}</g>`
  )
}

function shapeAtOrigin(shape: Shape, paint: string): string {
  switch (shape) {
    case 'circle':
      return `<circle r="4.5" ${paint}/>`
    case 'square':
      return `<rect x="-4" y="-4" width="8" height="8" ${paint}/>`
    case 'triangle':
      return `<path d="M0 -5.5 L5 3.5 L-5 3.5 Z" ${paint}/>`
    case 'diamond':
      return `<path d="M0 -5.5 L5.5 0 L0 5.5 L-5.5 0 Z" ${paint}/>`
    case 'triangle-down':
      return `<path d="M0 5.5 L5 -3.5 L-5 -3.5 Z" ${paint}/>`
  }
}

/** Legend entries flowed left to right and wrapped at the frame's width. */
function legendEntries(plot: PlotResult): { parts: string[]; rows: number } {
  const entries = plot.series.map((series, i) => ({
    label: series.name,
    draw: (cx: number, cy: number) => {
      const colour = COLOURS[i % COLOURS.length]!
      return (
        `<line x1="${num(cx - 12)}" y1="${num(cy)}" x2="${num(cx + 12)}" y2="${num(cy)}" ` +
        `stroke="${colour}" stroke-width="2"/>` +
        marker(cx, cy, SHAPES[i % SHAPES.length]!, colour, false, 'key')
      )
    },
  }))
  if (plot.series.some((s) => s.points.some((p) => p.atLeast && isPlottable(p)))) {
    entries.push({
      label: 'stopped: at least',
      // Lowered a little so the arrow stays clear of the row above.
      draw: (cx, cy) => marker(cx, cy + 3, 'circle', AT_LEAST_COLOUR, true, 'key'),
    })
  }
  const parts: string[] = ['<g class="legend">']
  let left = FRAME_LEFT
  let row = 0
  for (const entry of entries) {
    const width = 34 + textWidth(entry.label)
    if (left > FRAME_LEFT && left + width > FRAME_RIGHT) {
      row++
      left = FRAME_LEFT
    }
    const cy = LEGEND_TOP + row * LEGEND_ROW
    parts.push(entry.draw(left + 12, cy))
    parts.push(
      `<text x="${num(left + 30)}" y="${num(cy + 4)}" fill="${INK}">` +
        `${escapeXml(entry.label)}</text>`,
    )
    left += width + 20
  }
  parts.push('</g>')
  return { parts, rows: row + 1 }
}

/** A generous estimate of a label's width in the sans-serif font at {@link FONT_SIZE}. */
function textWidth(text: string): number {
  return [...text].length * FONT_SIZE * 0.6
}

/** A pixel coordinate with one decimal, `-0` and trailing `.0` dropped. */
function num(value: number): string {
  const rounded = Math.round(value * 10) / 10
  return String(rounded === 0 ? 0 : rounded)
}
