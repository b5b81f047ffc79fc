/**
 * A server process for tests whose store appends can be held: `TandemServer` over the SQLite
 * file `<data>/tandem.sqlite` under a `HeldStore`, run by `HeldServerProcess`. The parent holds
 * and releases appends over the IPC channel (`{hold: true}`, answered `{holding: true}` once
 * holding; `{release: n | 'all'}`) and is told
 * `{parked, total}` (appends waiting now, and ever) whenever the number waiting changes. A `?role=read` query parameter
 * makes a connection read-only. A port after the data folder makes it listen there (a free
 * one otherwise), so a process started again after a kill is found where the last one was.
 */
import { join } from 'node:path'
import { SqliteStore } from '../storage/sqlite-store.js'
import { TandemServer } from '../tandem-server.js'
import { HeldStore } from './held-store.js'

/** A message the parent sends. */
export type HeldServerCommand = { readonly hold: true } | { readonly release: number | 'all' }

/** A message the server process sends. */
export type HeldServerReport =
  | { readonly listening: number }
  | { readonly holding: true }
  | { readonly parked: number; readonly total: number }

const report = (message: HeldServerReport) => process.send?.(message)

const main = async () => {
  const data = process.argv[2]
  if (data === undefined) throw new Error('usage: held-server <data folder> [port]')
  const port = Number(process.argv[3] ?? 0)
  const store = new HeldStore(
    SqliteStore.open({ file: join(data, 'tandem.sqlite') }),
    (parked, total) => report({ parked, total }),
  )
  const server = new TandemServer({
    store,
    authorize: (request) => {
      const role = new URL(request.url ?? '/', 'http://localhost').searchParams.get('role')
      return { role: role === 'read' ? 'read' : 'write' }
    },
  })
  process.on('message', (command: HeldServerCommand) => {
    if ('hold' in command) {
      store.hold()
      report({ holding: true })
    } else store.release(command.release === 'all' ? Number.POSITIVE_INFINITY : command.release)
  })
  report({ listening: await server.listen(port, '127.0.0.1') })
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
