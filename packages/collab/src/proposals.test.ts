import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { proposalChange, proposalsMapName } from '@tandem/protocol'
import { describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import * as Y from 'yjs'
import { connect } from './connect.js'
import { DocumentProposals, ProposalError } from './proposals.js'
import { useTokenServers } from './testing/token-servers.js'

const WAIT = { timeout: 10_000, interval: 20 }
const servers = useTokenServers('proposals')
const { token } = servers
const startServer = async () => (await servers.start()).url

/** A person: an editor connected to room `minutes`. */
const person = (url: string, name: string, role: 'read' | 'write' = 'write') =>
  servers.open(url, 'minutes', name, role, { undoHistory: false })

/** A program: a bare Y.Doc connected to room `minutes`. */
const program = async (url: string) => {
  const doc = new Y.Doc()
  const connection = connect(doc, {
    url,
    room: 'minutes',
    token: token('spellbot'),
    user: { name: 'Spellbot', color: '#7a3db8', id: 'spellbot' },
    WebSocket,
    crossTab: false,
  })
  servers.cleanup(() => connection.destroy())
  await connection.whenSynced
  return { doc, connection }
}

const TEXT = 'The comittee met on Tuesday.\n😀 宿題 teh end'

describe('proposals on a connected document', () => {
  it('lists a program’s proposal where it stands while people type, and tells each change', async () => {
    const url = await startServer()
    const ada = await person(url, 'ada')
    ada.editor.setText(TEXT)
    const bot = await program(url)
    await vi.waitFor(() => expect(bot.doc.getText('text').toString()).toBe(TEXT), WAIT)

    let heard = 0
    ada.connection.proposals.onDidChange(() => heard++)
    const typo = TEXT.indexOf('comittee')
    const teh = TEXT.indexOf('teh')
    const id = bot.connection.proposals.propose(
      [
        { from: teh, to: teh + 3, insert: 'the' },
        { from: typo, to: typo + 8, insert: 'committee' },
      ],
      { message: 'Two typos' },
    )
    await vi.waitFor(() => expect(ada.connection.proposals.list()).toHaveLength(1), WAIT)
    expect(heard).toBeGreaterThan(0)
    const [proposal] = ada.connection.proposals.list()
    expect(proposal).toMatchObject({
      id,
      user: 'spellbot',
      name: 'Spellbot',
      color: '#7a3db8',
      message: 'Two typos',
    })
    // In text order, with buffer ranges counted in UTF-16 units after the emoji and CJK text.
    expect(
      proposal!.changes.map(({ from, to, insert, replaced }) => ({ from, to, insert, replaced })),
    ).toEqual([
      { from: typo, to: typo + 8, insert: 'committee', replaced: 'comittee' },
      { from: teh, to: teh + 3, insert: 'the', replaced: 'teh' },
    ])
    expect(proposal!.changes[1]!.range!.serialize()).toEqual([
      [1, 6],
      [1, 9],
    ])

    // Ada types before both changes and inside the second one's line; the bot types too.
    const before = heard
    ada.editor.setTextInBufferRange(
      [
        [0, 0],
        [0, 0],
      ],
      'Minutes: ',
    )
    ada.editor.setTextInBufferRange(
      [
        [1, 3],
        [1, 3],
      ],
      '📝',
    )
    // Between the two changes, so the text does not depend on which peer's insert goes first.
    bot.doc.getText('text').insert(TEXT.indexOf('met'), 'all ')
    const shift = 'Minutes: '.length
    await vi.waitFor(() => {
      expect(ada.editor.getText()).toBe(
        `Minutes: ${TEXT.replace('met', 'all met').replace('😀 ', '😀 📝')}`,
      )
      const changes = ada.connection.proposals.list()[0]!.changes
      expect(changes.map(({ from, to, replaced }) => ({ from, to, replaced }))).toEqual([
        { from: typo + shift, to: typo + shift + 8, replaced: 'comittee' },
        { from: teh + shift + 4 + 2, to: teh + shift + 9, replaced: 'teh' },
      ])
      expect(changes[1]!.range!.serialize()).toEqual([
        [1, 8],
        [1, 11],
      ])
    }, WAIT)
    expect(heard).toBeGreaterThan(before)

    // The same in the program's own list.
    await vi.waitFor(() => {
      const mine = bot.connection.proposals.list()[0]!
      expect(mine.changes.map((change) => change.replaced)).toEqual(['comittee', 'teh'])
      expect(mine.changes[0]!.range).toBeNull()
    }, WAIT)
  })

  it('leaves out malformed entries and proposals whose text is gone', async () => {
    const url = await startServer()
    const ada = await person(url, 'ada')
    ada.editor.setText('one two three')
    const bob = await person(url, 'bob')
    const map = ada.connection.doc.getMap(proposalsMapName('text'))
    const text = ada.connection.doc.getText('text')
    map.set('bad', { id: 'bad', user: '', changes: [] })
    map.set('ok', {
      id: 'ok',
      user: 'bot',
      name: 'Bot',
      color: null,
      message: null,
      at: 1,
      changes: [proposalChange(text, 4, 7, 'TWO')],
    })
    await vi.waitFor(
      () => expect(bob.connection.proposals.list().map((p) => p.id)).toEqual(['ok']),
      WAIT,
    )
    // Bob deletes the proposal's text: it becomes an insertion where the text was.
    bob.editor.setTextInBufferRange(
      [
        [0, 3],
        [0, 8],
      ],
      ' ',
    )
    await vi.waitFor(() => {
      const [change] = ada.connection.proposals.list()[0]!.changes
      expect(change).toMatchObject({ insert: 'TWO', replaced: '' })
      expect(change!.to).toBe(change!.from)
      expect([3, 4]).toContain(change!.from)
    }, WAIT)
  })

  it('checks what it is asked to propose', async () => {
    const url = await startServer()
    const bot = await program(url)
    bot.doc.getText('text').insert(0, 'abc')
    const { proposals } = bot.connection
    expect(() => proposals.propose([])).toThrow(RangeError)
    expect(() => proposals.propose([{ from: 0, to: 9, insert: 'x' }])).toThrow(RangeError)
    expect(() =>
      proposals.propose([
        { from: 0, to: 2, insert: 'x' },
        { from: 1, to: 3, insert: 'y' },
      ]),
    ).toThrow(/overlap/)
    expect(() =>
      proposals.propose([{ from: 0, to: 1, insert: 'x' }], { message: 'm'.repeat(501) }),
    ).toThrow(RangeError)
    await expect(proposals.accept('../versions')).rejects.toThrow(TypeError)
    expect(proposals.list()).toEqual([])
  })

  it('sends accept and reject as the routes take them, with the token, and reads refusals', async () => {
    // A loopback HTTP server noting each request and answering as the routes are specified.
    const seen: { method: string; url: string; authorization: string | null; body: string }[] = []
    const http = createServer((request, response) => {
      let body = ''
      request.on('data', (chunk) => (body += chunk))
      request.on('end', () => {
        seen.push({
          method: request.method ?? '',
          url: request.url ?? '',
          authorization: request.headers.authorization ?? null,
          body,
        })
        const [status, answer] = request.url!.includes('/refused/')
          ? [403, { error: 'this needs a token with the write role' }]
          : request.url!.includes('/gone/')
            ? [404, { error: 'no such proposal: gone' }]
            : [200, { room: 'team/notes', proposal: 'p1', applied: [], stateVector: 'AA==' }]
        response.writeHead(status, { 'content-type': 'application/json' })
        response.end(JSON.stringify(answer))
      })
    })
    http.listen(0, '127.0.0.1')
    await new Promise((resolve) => http.once('listening', resolve))
    servers.cleanup(() => new Promise((resolve) => http.close(resolve)))
    const { port } = http.address() as AddressInfo
    let current = 'first-token'
    const proposals = new DocumentProposals(new Y.Doc(), null, {
      url: `ws://127.0.0.1:${port}/ws`,
      room: 'team/notes',
      token: () => current,
      user: () => ({ name: 'Ada', color: '#336699' }),
    })
    servers.cleanup(() => proposals.dispose())

    await proposals.accept('p1')
    current = 'renewed-token'
    await proposals.reject('p1')
    expect(seen).toEqual([
      {
        method: 'POST',
        url: '/api/rooms/team%2Fnotes/proposals/p1/accept',
        authorization: 'Bearer first-token',
        body: '{}',
      },
      {
        method: 'POST',
        url: '/api/rooms/team%2Fnotes/proposals/p1/reject',
        authorization: 'Bearer renewed-token',
        body: '{}',
      },
    ])
    const refused = await proposals.accept('refused').catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ProposalError)
    expect(refused).toMatchObject({
      status: 403,
      message: 'this needs a token with the write role',
    })
    const gone = await proposals.reject('gone').catch((error: unknown) => error)
    expect(gone).toMatchObject({ name: 'ProposalError', status: 404 })
  })

  // Needs the server's proposal routes (POST /api/rooms/:room/proposals/:id/accept|reject).
  it('accepts through the server: the text changes everywhere and the proposal goes', async () => {
    const url = await startServer()
    const ada = await person(url, 'ada')
    ada.editor.setText(TEXT)
    const bot = await program(url)
    await vi.waitFor(() => expect(bot.doc.getText('text').toString()).toBe(TEXT), WAIT)
    const typo = TEXT.indexOf('comittee')
    const id = bot.connection.proposals.propose([{ from: typo, to: typo + 8, insert: 'committee' }])
    await vi.waitFor(() => expect(ada.connection.proposals.list()).toHaveLength(1), WAIT)
    ada.editor.setTextInBufferRange(
      [
        [0, 0],
        [0, 0],
      ],
      '> ',
    )
    await ada.connection.proposals.accept(id)
    const accepted = `> ${TEXT.replace('comittee', 'committee')}`
    await vi.waitFor(() => {
      expect(ada.editor.getText()).toBe(accepted)
      expect(bot.doc.getText('text').toString()).toBe(accepted)
      expect(ada.connection.proposals.list()).toEqual([])
    }, WAIT)
    const unknown = await ada.connection.proposals.accept(id).catch((error: unknown) => error)
    expect(unknown).toBeInstanceOf(ProposalError)
    expect((unknown as ProposalError).status).toBe(404)
  })

  // Needs the server's proposal routes.
  it('rejects through the server, and refuses a reader with the server’s reason', async () => {
    const url = await startServer()
    const ada = await person(url, 'ada')
    ada.editor.setText(TEXT)
    const vi_ = await person(url, 'vi', 'read')
    const bot = await program(url)
    await vi.waitFor(() => expect(bot.doc.getText('text').toString()).toBe(TEXT), WAIT)
    const id = bot.connection.proposals.propose([{ from: 0, to: 3, insert: 'A' }], {
      message: 'Shorter',
    })
    await vi.waitFor(() => expect(vi_.connection.proposals.list()).toHaveLength(1), WAIT)

    const refused = await vi_.connection.proposals.reject(id).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ProposalError)
    expect((refused as ProposalError).status).toBe(403)
    expect((refused as ProposalError).message).not.toBe('')
    expect(ada.connection.proposals.list()).toHaveLength(1)

    await ada.connection.proposals.reject(id)
    await vi.waitFor(() => {
      expect(vi_.connection.proposals.list()).toEqual([])
      expect(bot.connection.proposals.list()).toEqual([])
    }, WAIT)
    expect(ada.editor.getText()).toBe(TEXT)
  })
})
