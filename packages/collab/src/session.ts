/**
 * Editing sessions kept by `@tandem/server`: where a user last had their selections in a room.
 * A returning client asks for its user's session as soon as its socket opens (before it
 * publishes its own selections, which would otherwise replace it) and puts the editor's
 * selections back where they were once the document has synced. The positions are Yjs
 * relative positions, so they land on the same text whatever others did meanwhile.
 */
import { Range, type TextEditor } from '@tandem/editor'
import { readSelections } from '@tandem/protocol'

/**
 * Selects in `editor` what the session `json` holds (the primary selection last, as in
 * awareness); selections whose text this document does not have are skipped. Returns the
 * ranges selected, or null when nothing could be (the editor is then left as it was).
 *
 * @example restoreSession(editor, '{"selections":[{"anchor":…,"head":…}]}')
 */
export const restoreSession = (editor: TextEditor, json: string): Range[] | null => {
  let parsed: unknown
  try {
    parsed = JSON.parse(json)
  } catch {
    return null
  }
  if (typeof parsed !== 'object' || parsed === null) return null
  const buffer = editor.getBuffer()
  const restored: { range: Range; reversed: boolean }[] = []
  for (const { anchor, head } of readSelections(parsed as Record<string, unknown>)) {
    const from = buffer.positionForRelativePosition(anchor)
    const to = buffer.positionForRelativePosition(head)
    if (from === null || to === null) continue
    const reversed = to.isLessThan(from)
    restored.push({ range: new Range(reversed ? to : from, reversed ? from : to), reversed })
  }
  if (restored.length === 0) return null
  restored.forEach(({ range, reversed }, index) => {
    const last = index === restored.length - 1
    if (index === 0) editor.setSelectedBufferRange(range, { reversed, autoscroll: last })
    else editor.addSelectionForBufferRange(range, { reversed, autoscroll: last })
  })
  return restored.map(({ range }) => range)
}
