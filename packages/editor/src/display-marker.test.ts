import { TextBuffer } from '@tandem/buffer'
import { DisplayLayer } from '@tandem/display'
import { describe, expect, it } from 'vitest'
import { type DisplayMarker, DisplayMarkerLayer } from './display-marker.js'

describe('DisplayMarkerLayer', () => {
  it('keeps its own display markers when two display layers wrap one buffer layer', () => {
    const buffer = new TextBuffer({ text: 'one\ttwo\nthree' })
    const bufferLayer = buffer.addMarkerLayer()
    // Two views of one buffer with different tab lengths: the same buffer marker sits at
    // different screen columns in each.
    const narrow = new DisplayMarkerLayer(new DisplayLayer(buffer, { tabLength: 2 }), bufferLayer)
    const wide = new DisplayMarkerLayer(new DisplayLayer(buffer, { tabLength: 8 }), bufferLayer)
    const created: DisplayMarker[] = []
    wide.onDidCreateMarker((marker) => created.push(marker))

    const inNarrow = narrow.markBufferPosition([0, 5])
    const inWide = wide.getMarker(inNarrow.id)!
    expect(created).toEqual([inWide])
    expect(inWide).not.toBe(inNarrow)
    expect(inWide.layer).toBe(wide)
    expect(wide.getMarker(inNarrow.id)).toBe(inWide)
    expect(narrow.getMarker(inNarrow.id)).toBe(inNarrow)
    expect(inNarrow.getHeadScreenPosition().toArray()).toEqual([0, 5])
    expect(inWide.getHeadScreenPosition().toArray()).toEqual([0, 9])

    const moves: string[] = []
    inNarrow.onDidChange((e) => moves.push(`narrow ${e.newHeadScreenPosition}`))
    inWide.onDidChange((e) => moves.push(`wide ${e.newHeadScreenPosition}`))
    buffer.insert([0, 0], 'a')
    expect(moves.sort()).toEqual(['narrow (0, 7)', 'wide (0, 9)'])

    const destroyed: string[] = []
    narrow.onDidDestroyMarker(() => destroyed.push('narrow'))
    wide.onDidDestroyMarker(() => destroyed.push('wide'))
    inWide.destroy()
    expect(destroyed.sort()).toEqual(['narrow', 'wide'])
    expect(inNarrow.isDestroyed()).toBe(true)
    expect(narrow.getMarkers()).toEqual([])
    expect(wide.getMarkers()).toEqual([])
  })

  it('refuses an unknown invalidation strategy with a TypeError', () => {
    const buffer = new TextBuffer({ text: 'abc' })
    const layer = new DisplayMarkerLayer(new DisplayLayer(buffer), buffer.addMarkerLayer())
    expect(() =>
      layer.markBufferRange(
        [
          [0, 0],
          [0, 1],
        ],
        { invalidate: 'sometimes' as never },
      ),
    ).toThrow(TypeError)
    expect(layer.getMarkers()).toEqual([])
  })
})
