import { describe, expect, it } from 'vitest'
import type { PlotPointResult, PlotResult } from './harness.js'
import { escapeXml, formatCountTick, formatTimeTick, plotFileName, renderPlotSvg } from './plot.js'

/** An element of a parsed XML document; `text` is its own character data, entities decoded. */
interface XmlElement {
  readonly name: string
  readonly attributes: Readonly<Record<string, string>>
  readonly children: XmlElement[]
  text: string
}

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
}

/**
 * A small well-formedness check: one root, balanced and matching tags, quoted attributes
 * without duplicates, no raw `<` or unknown entity in text or values. Throws where the
 * document is malformed; returns the element tree otherwise.
 */
function parseXml(source: string): XmlElement {
  let i = 0
  const stack: XmlElement[] = []
  let root: XmlElement | null = null
  const fail = (message: string): never => {
    throw new Error(`${message} at offset ${i}: ${JSON.stringify(source.slice(i, i + 40))}`)
  }
  const isNameChar = (c: string | undefined) =>
    c !== undefined &&
    ((c >= 'a' && c <= 'z') ||
      (c >= 'A' && c <= 'Z') ||
      (c >= '0' && c <= '9') ||
      '-_:.'.includes(c))
  const isSpace = (c: string | undefined) => c === ' ' || c === '\n' || c === '\t' || c === '\r'
  const readName = () => {
    const start = i
    while (isNameChar(source[i])) i++
    if (i === start) fail('expected a name')
    return source.slice(start, i)
  }
  const decode = (raw: string) => {
    let out = ''
    for (let k = 0; k < raw.length; k++) {
      const c = raw[k]!
      if (c === '<') fail('raw < in text or attribute')
      if (c !== '&') {
        out += c
        continue
      }
      const end = raw.indexOf(';', k)
      if (end === -1) fail('unterminated entity')
      const entity = raw.slice(k + 1, end)
      if (entity.startsWith('#x')) out += String.fromCodePoint(Number.parseInt(entity.slice(2), 16))
      else if (entity.startsWith('#')) out += String.fromCodePoint(Number(entity.slice(1)))
      else if (entity in ENTITIES) out += ENTITIES[entity]
      else fail(`unknown entity &${entity};`)
      k = end
    }
    return out
  }
  if (source.startsWith('<?xml')) {
    i = source.indexOf('?>')
    if (i === -1) fail('unterminated declaration')
    i += 2
  }
  while (i < source.length) {
    if (source[i] !== '<') {
      const end = source.indexOf('<', i)
      const raw = source.slice(i, end === -1 ? source.length : end)
      const top = stack[stack.length - 1]
      if (top === undefined) {
        if (raw.trim() !== '') fail('text outside the root element')
      } else {
        top.text += decode(raw)
      }
      i = end === -1 ? source.length : end
    } else if (source.startsWith('<!--', i)) {
      const end = source.indexOf('-->', i)
      if (end === -1) fail('unterminated comment')
      i = end + 3
    } else if (source[i + 1] === '/') {
      i += 2
      const name = readName()
      while (isSpace(source[i])) i++
      if (source[i] !== '>') fail('expected >')
      i++
      const open = stack.pop()
      if (open?.name !== name) fail(`</${name}> closes <${open?.name ?? 'nothing'}>`)
    } else {
      i++
      const element: XmlElement = { name: readName(), attributes: {}, children: [], text: '' }
      if (stack.length === 0 && root !== null) fail('a second root element')
      const attributes = element.attributes as Record<string, string>
      for (;;) {
        const hadSpace = isSpace(source[i])
        while (isSpace(source[i])) i++
        if (source[i] === '>' || source.startsWith('/>', i)) break
        if (!hadSpace) fail('expected a space before an attribute')
        const name = readName()
        if (source[i] !== '=') fail('expected =')
        const quote = source[i + 1]
        if (quote !== '"' && quote !== "'") fail('expected a quoted value')
        const end = source.indexOf(quote!, i + 2)
        if (end === -1) fail('unterminated attribute value')
        if (name in attributes) fail(`duplicate attribute ${name}`)
        attributes[name] = decode(source.slice(i + 2, end))
        i = end + 1
      }
      stack[stack.length - 1]?.children.push(element)
      if (stack.length === 0) root = element
      if (source[i] === '>') {
        stack.push(element)
        i++
      } else {
        i += 2
      }
    }
  }
  if (stack.length > 0) fail(`<${stack[stack.length - 1]!.name}> is never closed`)
  if (root === null) return fail('no root element')
  return root
}

function descendants(element: XmlElement): XmlElement[] {
  return element.children.flatMap((child) => [child, ...descendants(child)])
}

function withClass(root: XmlElement, cls: string): XmlElement[] {
  return descendants(root).filter((e) => (e.attributes.class ?? '').split(' ').includes(cls))
}

/** The (x, y) of a marker's `translate(x y)`. */
function position(marker: XmlElement): { x: number; y: number } {
  const transform = marker.attributes.transform ?? ''
  const inner = transform.slice('translate('.length, -1).split(' ')
  expect(transform.startsWith('translate(')).toBe(true)
  return { x: Number(inner[0]), y: Number(inner[1]) }
}

function polylinePoints(line: XmlElement): { x: number; y: number }[] {
  return (line.attributes.points ?? '').split(' ').map((pair) => {
    const [x, y] = pair.split(',').map(Number)
    return { x: x!, y: y! }
  })
}

function point(x: number, ms: number | null, atLeast = false): PlotPointResult {
  return { x, ms, atLeast }
}

function plotOf(series: PlotResult['series'], title = 'Cost against size'): PlotResult {
  return { name: 'cost', title, xLabel: 'cursors', perOp: false, series }
}

function render(plot: PlotResult): XmlElement {
  return parseXml(renderPlotSvg(plot, { machine: 'node v20 · 2 CPUs' }))
}

function seriesGroups(root: XmlElement): XmlElement[] {
  return withClass(root, 'series')
}

describe('the well-formedness check itself', () => {
  it('accepts nested, self-closing and commented markup and decodes entities', () => {
    const root = parseXml('<a x="1"><!-- c --><b y=\'&lt;2&gt;\'/>t &amp; u</a>')
    expect(root.children[0]!.attributes.y).toBe('<2>')
    expect(root.text).toBe('t & u')
  })

  it.each([
    ['an unclosed element', '<a><b></a>'],
    ['a stray closing tag', '<a></a></b>'],
    ['a raw ampersand', '<a>x & y</a>'],
    ['a raw < in a value', '<a x="<"/>'],
    ['an unquoted value', '<a x=1/>'],
    ['a duplicate attribute', '<a x="1" x="2"/>'],
    ['two roots', '<a/><b/>'],
  ])('rejects %s', (_, source) => {
    expect(() => parseXml(source)).toThrow()
  })
})

describe('renderPlotSvg', () => {
  const rising = plotOf([
    {
      name: 'TextBuffer',
      points: [point(100, 0.002), point(1_000, 0.02), point(10_000, 0.2), point(100_000, 2)],
    },
    {
      name: 'Y.Text',
      points: [point(100, 1), point(1_000, 10), point(10_000, 100), point(100_000, 1_000)],
    },
  ])

  it('is a well-formed, scalable SVG document in a sans-serif font', () => {
    const root = render(rising)
    expect(root.name).toBe('svg')
    expect(root.attributes.xmlns).toBe('http://www.w3.org/2000/svg')
    expect(root.attributes.viewBox).toMatch(/^0 0 \d+ \d+$/)
    expect(root.attributes['font-family']).toContain('sans-serif')
  })

  it('places points further right and higher as x and the time grow, evenly per decade', () => {
    const root = render(rising)
    for (const group of seriesGroups(root)) {
      const positions = withClass(group, 'point').map(position)
      expect(positions).toHaveLength(4)
      for (let k = 1; k < positions.length; k++) {
        expect(positions[k]!.x).toBeGreaterThan(positions[k - 1]!.x)
        expect(positions[k]!.y).toBeLessThan(positions[k - 1]!.y)
        // Tenfold steps on log axes are equal steps in pixels.
        const dx = positions[k]!.x - positions[k - 1]!.x
        const dy = positions[k]!.y - positions[k - 1]!.y
        expect(Math.abs(dx - (positions[1]!.x - positions[0]!.x))).toBeLessThan(0.25)
        expect(Math.abs(dy - (positions[1]!.y - positions[0]!.y))).toBeLessThan(0.25)
      }
    }
    const [fast, slow] = seriesGroups(root).map((g) => withClass(g, 'point').map(position))
    expect(fast![0]!.x).toBe(slow![0]!.x)
    expect(fast![0]!.y).toBeGreaterThan(slow![0]!.y)
  })

  it('labels the ticks at powers of ten in readable units', () => {
    const texts = descendants(render(rising))
      .filter((e) => e.name === 'text')
      .map((e) => e.text)
    expect(texts).toEqual(expect.arrayContaining(['100', '1k', '10k', '100k']))
    expect(texts).toEqual(expect.arrayContaining(['1 µs', '1 ms', '1 s']))
    expect(texts).toContain('node v20 · 2 CPUs')
  })

  it('draws one colour and marker shape per series and names each in the legend', () => {
    const root = render(rising)
    const [a, b] = seriesGroups(root)
    const strokeOf = (g: XmlElement) => withClass(g, 'line')[0]!.attributes.stroke
    const shapeOf = (g: XmlElement) => withClass(g, 'point')[0]!.children[0]!.name
    expect(strokeOf(a!)).not.toBe(strokeOf(b!))
    expect(shapeOf(a!)).not.toBe(shapeOf(b!))
    const legend = withClass(root, 'legend')[0]!
    const labels = legend.children.filter((e) => e.name === 'text').map((e) => e.text)
    expect(labels).toEqual(['TextBuffer', 'Y.Text'])
  })

  it('breaks the line at a point without a time', () => {
    const root = render(
      plotOf([
        {
          name: 'gappy',
          points: [point(100, 1), point(1_000, null), point(10_000, 3), point(100_000, 4)],
        },
      ]),
    )
    const group = seriesGroups(root)[0]!
    const markers = withClass(group, 'point').map(position)
    expect(markers).toHaveLength(3)
    const lines = withClass(group, 'line').map(polylinePoints)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toEqual([markers[1], markers[2]])
  })

  it('marks stopped points open with an arrow, dashes the line to them, and says so', () => {
    const root = render(
      plotOf([
        {
          name: 'Atom',
          points: [point(100, 1), point(1_000, 30), point(10_000, 2_000, true)],
        },
      ]),
    )
    const group = seriesGroups(root)[0]!
    const stopped = withClass(group, 'at-least').filter((e) => e.name === 'g')
    expect(stopped).toHaveLength(1)
    expect(withClass(group, 'point')).toHaveLength(3)
    const [shape, arrow] = stopped[0]!.children
    expect(shape!.attributes.fill).toBe('#ffffff')
    expect(arrow!.name).toBe('path')
    const dashed = withClass(group, 'line').filter((e) => e.attributes['stroke-dasharray'])
    expect(dashed).toHaveLength(1)
    expect(polylinePoints(dashed[0]!)[1]).toEqual(position(stopped[0]!))
    const legendTexts = withClass(root, 'legend')[0]!.children.map((e) => e.text)
    expect(legendTexts).toContain('stopped: at least')
    expect(renderPlotSvg(rising)).not.toContain('stopped: at least')
  })

  it('escapes titles, labels and series names', () => {
    const title = 'Cost <of> "x" & \'y\''
    const plot = {
      ...plotOf([{ name: '<script>alert(1)</script>', points: [point(10, 1)] }], title),
      xLabel: 'rows & columns',
    }
    const source = renderPlotSvg(plot, { machine: 'cpu <model> & co' })
    expect(source).not.toContain('<script>')
    const root = parseXml(source)
    const texts = descendants(root).map((e) => e.text)
    expect(texts).toContain(title)
    expect(texts).toContain('<script>alert(1)</script>')
    expect(texts).toContain('rows & columns (log scale)')
    expect(texts).toContain('cpu <model> & co')
  })

  it('still draws a frame when nothing was measured', () => {
    const root = render(plotOf([{ name: 'failed', points: [point(100, null)] }]))
    expect(withClass(root, 'point')).toHaveLength(0)
    expect(descendants(root).map((e) => e.text)).toContain('no measured points')
  })
})

describe('labels and names', () => {
  it('writes counts and times at powers of ten the way people say them', () => {
    expect([2, 3, 4, 5, 6, 7].map(formatCountTick)).toEqual([
      '100',
      '1k',
      '10k',
      '100k',
      '1M',
      '10M',
    ])
    expect([-3, -2, -1, 0, 1, 2, 3, 4].map(formatTimeTick)).toEqual([
      '1 µs',
      '10 µs',
      '100 µs',
      '1 ms',
      '10 ms',
      '100 ms',
      '1 s',
      '10 s',
    ])
  })

  it('escapes every XML special character', () => {
    expect(escapeXml(`<a href="x">&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;',
    )
  })

  it('keeps plot files inside their directory', () => {
    expect(plotFileName('multi-cursor')).toBe('multi-cursor.svg')
    expect(plotFileName('../up/and out')).toBe('-up-and-out.svg')
  })
})
