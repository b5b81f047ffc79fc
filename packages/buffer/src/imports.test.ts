import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const SOURCE = fileURLToPath(new URL('.', import.meta.url))
const LOCAL_IMPORT = /(?:import|export)[^'"]*?from\s+'\.\/([\w-]+)\.js'/g

/** The package's modules (tests aside) and the modules each imports, type imports included. */
const importGraph = (): Map<string, string[]> => {
  const graph = new Map<string, string[]>()
  for (const file of readdirSync(SOURCE)) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue
    const source = readFileSync(`${SOURCE}/${file}`, 'utf8')
    const imports = [...source.matchAll(LOCAL_IMPORT)].map((match) => `${match[1]}.ts`)
    graph.set(file, imports)
  }
  return graph
}

/** A cycle of imports, as the list of modules along it, or null when there is none. */
const findCycle = (graph: Map<string, string[]>): string[] | null => {
  const done = new Set<string>()
  const path: string[] = []
  const visit = (module: string): string[] | null => {
    const at = path.indexOf(module)
    if (at >= 0) return [...path.slice(at), module]
    if (done.has(module) || !graph.has(module)) return null
    path.push(module)
    for (const next of graph.get(module)!) {
      const cycle = visit(next)
      if (cycle !== null) return cycle
    }
    path.pop()
    done.add(module)
    return null
  }
  for (const module of graph.keys()) {
    const cycle = visit(module)
    if (cycle !== null) return cycle
  }
  return null
}

describe('imports of @tandem/buffer', () => {
  it('never go round in a circle, type imports included', () => {
    const graph = importGraph()
    expect(graph.get('text-buffer.ts')).toContain('marker-layer.ts')
    expect(findCycle(graph)).toBeNull()
  })

  it('the cycle finder finds a cycle', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
    ])
    expect(findCycle(graph)).toEqual(['a.ts', 'b.ts', 'c.ts', 'a.ts'])
  })
})
