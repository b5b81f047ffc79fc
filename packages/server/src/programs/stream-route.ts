/**
 * Streamed typing over HTTP: `POST /api/rooms/<room>/stream` with a text body that arrives a
 * piece at a time (a model's tokens as they come) types each piece as it arrives, at the
 * stream's own caret, so people see the text appear and may go on editing elsewhere, or
 * inside it: the caret is a relative position after the last character the stream typed,
 * not an offset. Each piece is one change, stored before anyone sees it and attributed to the
 * caller. Closing the request early stops the stream; what was typed stays.
 *
 * Where it starts: `?at=<offset>`, `?line=<line>&column=<column>` (0-based), or
 * `?anchor=<relative position JSON>`; the end of the text by default. `?message=` says what the
 * stream is, for the room's change log, where the whole stream is one change (see
 * change-log.ts); while it types, its caret shows as the program's presence, named `?name=`
 * and coloured `?color=` when given.
 *
 * @module
 */
import * as Y from 'yjs'
import { ANONYMOUS_AUTHOR } from '../history/room-attribution.js'
import type { RoomAccess } from '../history/server-history.js'
import { idsOfUpdate } from '../history/update-ids.js'
import { ApiError, type ApiRoute } from '../http-api.js'
import type { Room } from '../room.js'
import type { LoggedChange } from './change-log.js'
import { type ChangeNotes, parseChangeNotes } from './change-notes.js'
import { type PositionSpec, parseChanges, resolveChanges } from './change-specs.js'
import type { ServerPrograms } from './server-programs.js'

/** The most bytes one stream may type. */
export const MAX_STREAM_BYTES = 8 * 1024 * 1024

/** What a stream answers once its body has ended. */
export interface StreamAnswer {
  /** The room typed into. */
  readonly room: string
  /** UTF-16 units typed. */
  readonly typed: number
  /** Where the stream's text starts now, and where its caret is (offsets). */
  readonly from: number
  /** The stream's caret after its last character. */
  readonly to: number
  /** The stream's id in the room's change log, for its undo; null when it typed nothing. */
  readonly change: string | null
}

/** Where the stream starts, from the query; null for the end of the text. */
const startOf = (query: URLSearchParams): PositionSpec | null => {
  const at = query.get('at')
  const line = query.get('line')
  const anchor = query.get('anchor')
  if (at !== null) return Number(at)
  if (line !== null) return { line: Number(line), column: Number(query.get('column') ?? 0) }
  if (anchor !== null) {
    try {
      return { relative: JSON.parse(anchor) }
    } catch {
      throw new ApiError(400, 'anchor must be the JSON of a relative position')
    }
  }
  return null
}

/**
 * The stream route over `rooms`.
 *
 * @example new HttpApi([streamRoute(rooms, server.programs)], access)
 */
export const streamRoute = (rooms: RoomAccess, programs: ServerPrograms): ApiRoute => ({
  method: 'POST',
  pattern: /^stream$/,
  role: 'write',
  async handle({ room, query, http, authorization }) {
    const start = startOf(query)
    // Checked before anything is typed: a bad start is a 400 with nothing changed.
    const spec = start === null ? null : parseChanges({ changes: [{ from: start }] })[0]!
    const user = authorization.user ?? ANONYMOUS_AUTHOR
    const notes = parseChangeNotes({
      message: query.get('message') ?? undefined,
      name: query.get('name') ?? undefined,
      color: query.get('color') ?? undefined,
    })
    return rooms.withRoom(room, async (opened) => {
      const stream = new TypedStream(
        opened,
        user,
        (text) => (spec === null ? text.length : resolveChanges(text, [spec])[0]!.from),
        programs,
        notes,
      )
      const decoder = new TextDecoder()
      let bytes = 0
      try {
        for await (const chunk of http as AsyncIterable<Buffer>) {
          bytes += chunk.length
          if (bytes > MAX_STREAM_BYTES) {
            http.destroy()
            throw new ApiError(413, `a stream may type at most ${MAX_STREAM_BYTES} bytes`)
          }
          await stream.type(decoder.decode(chunk, { stream: true }))
        }
        await stream.type(decoder.decode())
      } catch (error) {
        // The caller closed the stream early: it stops, and what it typed stays.
        if (http.complete || error instanceof ApiError) throw error
      }
      const extent = stream.extent()
      // Answered once stored, so that a person on any server process can undo it at once.
      if (extent.change !== null) await programs.saved(extent.change)
      return { room, ...extent }
    })
  },
})

/** A stream's typing: each piece at the caret that follows its own last character. */
class TypedStream {
  /** After the last character typed (assoc -1: it stays with that character). */
  private caret: Y.RelativePosition | null = null
  /** Before the first character typed (assoc 0: it stays with that character). */
  private first: Y.RelativePosition | null = null
  private typed = 0
  /** The stream's entry in the change log, once it typed. */
  private logged: LoggedChange | null = null

  constructor(
    private readonly room: Room,
    private readonly user: string,
    private readonly startIn: (text: Y.Text) => number,
    private readonly programs: ServerPrograms,
    private readonly notes: ChangeNotes,
  ) {}

  async type(piece: string): Promise<void> {
    if (piece === '') return
    const update = await this.room.change(this.user, (text) => {
      const at =
        this.caret === null
          ? this.startIn(text)
          : Y.createAbsolutePositionFromRelativePosition(this.caret, text.doc!)?.index
      if (at === undefined) throw new ApiError(409, "the stream's caret is gone")
      text.insert(at, piece)
      this.first ??= Y.createRelativePositionFromTypeIndex(text, at, 0)
      this.caret = Y.createRelativePositionFromTypeIndex(text, at + piece.length, -1)
    })
    this.typed += piece.length
    const { inserted } = idsOfUpdate(update)
    if (this.logged === null) {
      this.logged = this.programs.log.record(this.room.name, {
        user: this.user,
        message: this.notes.message,
        inserted,
        deleted: [],
      })
    } else {
      this.programs.log.addInserted(this.logged, inserted)
    }
    const caret = this.caret!
    await this.programs.presences.show(
      this.room.name,
      this.user,
      { anchor: caret, head: caret },
      this.notes,
    )
  }

  /** What was typed, and where it is in the room's text now. */
  extent(): { typed: number; from: number; to: number; change: string | null } {
    const offset = (position: Y.RelativePosition | null) =>
      position === null
        ? -1
        : (Y.createAbsolutePositionFromRelativePosition(position, this.room.doc)?.index ?? -1)
    return {
      typed: this.typed,
      from: offset(this.first),
      to: offset(this.caret),
      change: this.logged?.id ?? null,
    }
  }
}
