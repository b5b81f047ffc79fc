/**
 * Stock y-websocket clients for the server's tests: a `WebsocketProvider` on its own Y.Doc,
 * exactly as an application using y-websocket would connect (no Tandem code involved).
 */
import { WebSocket } from 'ws'
import * as authProtocol from 'y-protocols/auth'
import { messageAuth, WebsocketProvider } from 'y-websocket'
import * as Y from 'yjs'

/** A y-websocket client and what the server told it. */
export interface StockClient {
  readonly doc: Y.Doc
  readonly text: Y.Text
  readonly provider: WebsocketProvider
  /** Reasons of permission-denied messages received. */
  readonly denied: string[]
  /** Close codes of every connection it lost (0 when there was none). */
  readonly closes: number[]
  /** Resolves once the provider has synced. */
  synced(): Promise<void>
  destroy(): void
}

/**
 * Connects a stock client to `room` on `url`, with `params` in the query (e.g. a token), on a
 * new Y.Doc unless given one (a client moving to another server keeps its document).
 *
 * @example const client = openClient(server.url, 'notes'); await client.synced()
 */
export const openClient = (
  url: string,
  room: string,
  params: Record<string, string> = {},
  doc: Y.Doc = new Y.Doc(),
): StockClient => {
  const provider = new WebsocketProvider(url, room, doc, {
    WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
    disableBc: true,
    params,
    maxBackoffTime: 200,
  })
  const denied: string[] = []
  const closes: number[] = []
  provider.on('connection-close', (event: { code: number } | null) => {
    closes.push(event?.code ?? 0)
  })
  // y-websocket only logs permission-denied messages; record them instead.
  provider.messageHandlers[messageAuth] = (_encoder, decoder) => {
    authProtocol.readAuthMessage(decoder, doc, (_doc, reason) => denied.push(reason))
  }
  return {
    doc,
    text: doc.getText('text'),
    provider,
    denied,
    closes,
    synced: () =>
      provider.synced
        ? Promise.resolve()
        : new Promise((resolve) => provider.once('sync', () => resolve())),
    destroy: () => {
      provider.destroy()
      doc.destroy()
    },
  }
}
