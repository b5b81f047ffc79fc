/**
 * Real Tandem servers behind signed tokens for collab's tests, each over a SQLite file of its
 * own, and people's editors connected to them with a token for their user: what the tests of
 * the features that ask the server over HTTP (history, programs, proposals) share. Everything
 * made is closed after each test.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TextBuffer } from '@tandem/buffer'
import { TextEditor } from '@tandem/editor'
import {
  SqliteStore,
  signToken,
  TandemServer,
  type TandemServerOptions,
  tokenAuth,
} from '@tandem/server'
import { afterAll, afterEach } from 'vitest'
import { WebSocket } from 'ws'
import { type CollabConnection, type ConnectOptions, connect } from '../connect.js'

/** What a role's token allows. */
type Role = 'read' | 'write'

/**
 * Sets up token servers for the enclosing test file; `label` names its temporary folder.
 *
 * @example const servers = useTokenServers('proposals'); const { url } = await servers.start()
 */
export const useTokenServers = (label: string) => {
  const secret = `${label}-test-secret-long-enough-to-sign`
  const dir = mkdtempSync(join(tmpdir(), `tandem-${label}-`))
  const cleanups: (() => unknown)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  let files = 0

  /** A token for `user` with `role` in every room, valid ten minutes. */
  const token = (user: string, role: Role = 'write') =>
    signToken({ room: '*', role, sub: user, exp: Math.floor(Date.now() / 1000) + 600 }, secret)

  return {
    token,
    /** Runs `cleanup` after the test, before what was made earlier. */
    cleanup: (cleanup: () => unknown) => {
      cleanups.push(cleanup)
    },
    /** A server behind tokens signed by `token`, on loopback. */
    async start(options: Omit<TandemServerOptions, 'store'> = {}) {
      const store = SqliteStore.open({ file: join(dir, `${label}-${++files}.sqlite`) })
      const server = new TandemServer({ store, ...tokenAuth(secret), ...options })
      const port = await server.listen(0, '127.0.0.1')
      cleanups.push(async () => {
        await server.close()
        await store.close()
      })
      return { server, url: `ws://127.0.0.1:${port}` }
    },
    /** `user`'s editor connected to `room` on `url` with a `role` token, synced. */
    async open(
      url: string,
      room: string,
      user: string,
      role: Role = 'write',
      options: Partial<ConnectOptions> = {},
    ): Promise<{ editor: TextEditor; connection: CollabConnection }> {
      const editor = new TextEditor({ buffer: new TextBuffer() })
      const connection = connect(editor, {
        url,
        room,
        token: token(user, role),
        user: { name: user, color: '#336699', id: user },
        WebSocket,
        crossTab: false,
        restoreSession: false,
        ...options,
      })
      cleanups.push(() => connection.destroy())
      await connection.whenSynced
      return { editor, connection }
    },
  }
}
