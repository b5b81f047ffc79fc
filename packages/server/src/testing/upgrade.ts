/**
 * WebSocket upgrades as the server's tests look at them: did the socket open, or with what
 * HTTP status and reason was it refused.
 */
import { WebSocket } from 'ws'

/** How an upgrade ended: status 101 and the open socket, or the refusal's status and body. */
export interface UpgradeOutcome {
  readonly status: number
  readonly body: string
  readonly ws: WebSocket
}

/**
 * Asks to upgrade `url`; the socket is left open when it opens (close it when done).
 *
 * @example const { status, body } = await openUpgrade(`${url}/notes`) // => 401, 'a token is needed'
 */
export const openUpgrade = (url: string, headers: Record<string, string> = {}) =>
  new Promise<UpgradeOutcome>((resolve, reject) => {
    const ws = new WebSocket(url, { headers })
    ws.on('unexpected-response', (_request, response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString()
      })
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, ws }))
    })
    ws.on('open', () => resolve({ status: 101, body: '', ws }))
    ws.on('error', reject)
  })

/**
 * The status and body of an upgrade of `url` (101 and '' when it opened; the socket is closed).
 *
 * @example expect(await upgradeAnswer(`${url}/notes`)).toEqual({ status: 101, body: '' })
 */
export const upgradeAnswer = async (
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> => {
  const { status, body, ws } = await openUpgrade(url, headers)
  ws.close()
  return { status, body }
}
