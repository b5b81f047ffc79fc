/**
 * Small loopback servers that check tokens the ways a y-websocket server can: refusing the
 * upgrade with an HTTP status and a reason (and giving the same answer to a plain GET of the
 * URL), closing an accepted socket with an auth close code, or syncing a document read-only
 * and answering every write with a y-protocols permission-denied message.
 */
import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { Duplex } from 'node:stream'
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import { type WebSocket, WebSocketServer } from 'ws'
import * as authProtocol from 'y-protocols/auth'
import * as syncProtocol from 'y-protocols/sync'
import * as Y from 'yjs'

/** How a gate server treats every client. */
export type GateMode =
  | { readonly kind: 'refuse-upgrade'; readonly status: 401 | 403; readonly reason: string }
  | { readonly kind: 'close-after-open'; readonly code: number; readonly reason: string }
  | { readonly kind: 'read-only'; readonly text: string; readonly reason: string }

const HOST = '127.0.0.1'
const MESSAGE_SYNC = 0
const MESSAGE_AUTH = 2

/**
 * A server in one `GateMode`, counting what clients tried.
 *
 * @example const gate = await GateServer.start({ kind: 'refuse-upgrade', status: 401, reason: 'token expired' })
 */
export class GateServer {
  /** WebSocket upgrades asked for. */
  upgrades = 0
  /** Writes refused in `read-only` mode. */
  deniedWrites = 0
  /** The document a `read-only` gate serves. */
  readonly doc = new Y.Doc()
  private readonly sockets = new WebSocketServer({ noServer: true })

  private constructor(
    readonly mode: GateMode,
    private readonly http: Server,
  ) {
    if (mode.kind === 'read-only') this.doc.getText('text').insert(0, mode.text)
    http.on('request', (_request, response) => this.answerRequest(response))
    http.on('upgrade', (request, socket, head) => this.answerUpgrade(request, socket, head))
  }

  /** Starts a gate on a free loopback port. */
  static async start(mode: GateMode): Promise<GateServer> {
    const gate = new GateServer(mode, createServer())
    gate.http.listen(0, HOST)
    await once(gate.http, 'listening')
    return gate
  }

  /** `ws://127.0.0.1:<port>`. */
  get url(): string {
    const address = this.http.address()
    if (typeof address !== 'object' || address === null)
      throw new Error('the gate is not listening')
    return `ws://${HOST}:${address.port}`
  }

  /** Closes every socket and the server. */
  async close(): Promise<void> {
    for (const client of this.sockets.clients) client.terminate()
    this.sockets.close()
    this.http.closeAllConnections()
    this.http.close()
    await once(this.http, 'close')
  }

  private answerRequest(response: import('node:http').ServerResponse): void {
    const { mode } = this
    // Pages of any origin may read the answer: the reason is no secret.
    const headers = { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }
    if (mode.kind === 'refuse-upgrade') response.writeHead(mode.status, headers).end(mode.reason)
    else response.writeHead(200, headers).end('ok')
  }

  private answerUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.upgrades++
    const { mode } = this
    if (mode.kind === 'refuse-upgrade') {
      const title = mode.status === 401 ? 'Unauthorized' : 'Forbidden'
      socket.end(
        `HTTP/1.1 ${mode.status} ${title}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(mode.reason)}\r\nConnection: close\r\n\r\n${mode.reason}`,
      )
      return
    }
    this.sockets.handleUpgrade(request, socket, head, (client) => {
      if (mode.kind === 'close-after-open') client.close(mode.code, mode.reason)
      else this.serveReadOnly(client, mode.reason)
    })
  }

  private serveReadOnly(client: WebSocket, reason: string): void {
    const send = (write: (encoder: encoding.Encoder) => void) => {
      const encoder = encoding.createEncoder()
      write(encoder)
      client.send(encoding.toUint8Array(encoder))
    }
    send((encoder) => {
      encoding.writeVarUint(encoder, MESSAGE_SYNC)
      syncProtocol.writeSyncStep1(encoder, this.doc)
    })
    client.on('message', (data: Buffer) => {
      const decoder = decoding.createDecoder(new Uint8Array(data))
      if (decoding.readVarUint(decoder) !== MESSAGE_SYNC) return
      const kind = decoding.readVarUint(decoder)
      if (kind === syncProtocol.messageYjsSyncStep1) {
        const stateVector = decoding.readVarUint8Array(decoder)
        send((encoder) => {
          encoding.writeVarUint(encoder, MESSAGE_SYNC)
          encoding.writeVarUint(encoder, syncProtocol.messageYjsSyncStep2)
          encoding.writeVarUint8Array(encoder, Y.encodeStateAsUpdate(this.doc, stateVector))
        })
      } else if (this.wouldChange(decoding.readVarUint8Array(decoder))) {
        this.deniedWrites++
        send((encoder) => {
          encoding.writeVarUint(encoder, MESSAGE_AUTH)
          authProtocol.writePermissionDenied(encoder, reason)
        })
      }
    })
  }

  /** Whether applying `update` would change the served document. */
  private wouldChange(update: Uint8Array): boolean {
    const copy = new Y.Doc({ gc: false })
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(this.doc))
    const before = Y.snapshot(copy)
    Y.applyUpdate(copy, update)
    return !Y.equalSnapshots(before, Y.snapshot(copy))
  }
}
