/**
 * The playground's page state without a browser: what its address says (room, token role),
 * the remembered user, and the "here now" list from a real Awareness.
 */
import { signToken } from '@tandem/server'
import { describe, expect, it } from 'vitest'
import * as awarenessProtocol from 'y-protocols/awareness'
import { Awareness } from 'y-protocols/awareness'
import * as Y from 'yjs'
import { addressOfRoom, DEFAULT_ROOM, readAddress, roleOfToken, roomsUrl } from '../src/address.js'
import { presentPeople } from '../src/presence.js'
import { collabUser, loadUser, saveUser, USER_COLORS } from '../src/user.js'

const SECRET = 'a secret of at least thirty-two bytes, for tests'
const token = (role: 'read' | 'write') =>
  signToken({ room: '*', role, sub: 'ada', exp: Math.floor(Date.now() / 1000) + 60 }, SECRET)

/** localStorage's methods over a Map. */
const memoryStorage = () => {
  const items = new Map<string, string>()
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  }
}

describe('the page address', () => {
  it('names the room, the token and the role it claims', () => {
    const read = token('read')
    expect(readAddress(new URL(`http://h/?room=notes%2Fday&token=${read}`))).toEqual({
      room: 'notes/day',
      token: read,
      role: 'read',
    })
    expect(readAddress(new URL(`http://h/?token=${token('write')}`)).role).toBe('write')
    expect(readAddress(new URL('http://h/?room=%20%20'))).toEqual({
      room: DEFAULT_ROOM,
      token: undefined,
      role: null,
    })
    expect(addressOfRoom(new URL('http://h/?room=a&token=t'), 'b c').search).toBe(
      '?room=b+c&token=t',
    )
  })

  it('reads no role from what is not a token', () => {
    for (const bad of [
      '',
      'abc',
      'a.!!!.c',
      `a.${btoa('[1]')}.c`,
      `a.${btoa('{"role":"admin"}')}.c`,
    ]) {
      expect(roleOfToken(bad), bad).toBeNull()
    }
  })

  it('finds the rooms on the page’s own host', () => {
    expect(roomsUrl(new URL('http://127.0.0.1:1234/?room=x'))).toBe('ws://127.0.0.1:1234/ws')
    expect(roomsUrl(new URL('https://example.com/'))).toBe('wss://example.com/ws')
  })
})

describe('the remembered user', () => {
  it('makes one up once, then keeps it, with changes', () => {
    const storage = memoryStorage()
    const first = loadUser(storage, () => 0.5)
    expect(USER_COLORS).toContain(first.color)
    expect(first.id).not.toBe('')
    expect(loadUser(storage, () => 0.1)).toEqual(first)
    saveUser(storage, { ...first, name: '  Grace  ', color: '#123456' })
    expect(loadUser(storage)).toEqual({ ...first, name: 'Grace', color: '#123456' })
    saveUser(storage, { ...first, name: ' ', color: '#123456' })
    saveUser(storage, { ...first, name: 'X', color: 'red' })
    expect(loadUser(storage).name).toBe('Grace')
    expect(collabUser({ name: 'Grace', color: '#123456', id: 'g' })).toEqual({
      name: 'Grace',
      color: '#123456',
      colorLight: '#12345633',
      id: 'g',
    })
  })

  it('starts again from a damaged entry', () => {
    const storage = memoryStorage()
    storage.setItem('tandem.playground.user', '{not json')
    expect(loadUser(storage, () => 0).name).toBe('Ada')
  })
})

describe('who is here', () => {
  it('lists every state with a user, this client first, then by name', () => {
    const [mine, theirs] = [new Y.Doc(), new Y.Doc()]
    const [local, remote] = [new Awareness(mine), new Awareness(theirs)]
    local.setLocalStateField('user', { name: 'Zoe', color: '#e11d48' })
    remote.setLocalStateField('user', { name: 'Bob', color: '#2563eb' })
    const third = new Awareness(new Y.Doc())
    third.setLocalState({ cursor: null })
    for (const other of [remote, third]) {
      const update = encodeAll(other)
      applyAll(local, update)
    }
    expect(presentPeople(local).map(({ name, self }) => ({ name, self }))).toEqual([
      { name: 'Zoe', self: true },
      { name: 'Bob', self: false },
    ])
    for (const awareness of [local, remote, third]) awareness.destroy()
  })
})

const encodeAll = (awareness: Awareness) =>
  awarenessProtocol.encodeAwarenessUpdate(awareness, [...awareness.getStates().keys()])
const applyAll = (awareness: Awareness, update: Uint8Array) =>
  awarenessProtocol.applyAwarenessUpdate(awareness, update, 'test')
