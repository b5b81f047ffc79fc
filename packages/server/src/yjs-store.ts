/**
 * What the server reads of a Yjs document beyond Yjs's public functions, in one place: an
 * encoding of the document without its pending updates, and whether a document already holds
 * everything an update carries. Both read `doc.store`, whose shape belongs to Yjs; the tests
 * beside this module pin them against stock Yjs, so a Yjs release that changes it fails there
 * first.
 *
 * Pending updates are the parts of applied updates that Yjs could not integrate yet, because
 * they build on items the document has never seen (`store.pendingStructs`), or delete them
 * (`store.pendingDs`). `Y.encodeStateAsUpdate` adds them to what it encodes; the server never
 * sends them, since nobody can use them and the store need not hold them.
 */
import * as Y from 'yjs'

/**
 * The update that brings a peer at `stateVector` up to `doc`, without `doc`'s pending updates.
 *
 * @example peer.send(syncStep2(encodeIntegratedState(doc, Y.encodeStateVector(peerDoc))))
 */
export const encodeIntegratedState = (doc: Y.Doc, stateVector?: Uint8Array): Uint8Array => {
  const store = doc.store
  const { pendingStructs, pendingDs } = store
  if (pendingStructs === null && pendingDs === null) return Y.encodeStateAsUpdate(doc, stateVector)
  store.pendingStructs = null
  store.pendingDs = null
  try {
    return Y.encodeStateAsUpdate(doc, stateVector)
  } finally {
    store.pendingStructs = pendingStructs
    store.pendingDs = pendingDs
  }
}

/** Whether `doc` has updates it could not integrate yet. */
export const hasPendingUpdates = (doc: Y.Doc): boolean =>
  doc.store.pendingStructs !== null || doc.store.pendingDs !== null

/**
 * The bytes of what `doc` holds pending: it grows when an update arrives that builds on
 * items the document has never seen, and shrinks once they arrive.
 */
export const pendingBytes = (doc: Y.Doc): number =>
  (doc.store.pendingStructs?.update.length ?? 0) + (doc.store.pendingDs?.length ?? 0)

/**
 * Whether `doc` already holds everything `update` carries: each of its items (integrated, not
 * pending) and each of its deletions. Costs in proportion to the update and the logarithm of
 * the document, never to the document's whole size. Throws on an update that does not decode.
 *
 * @example holdsUpdate(doc, Y.encodeStateAsUpdate(doc)) // => true
 */
export const holdsUpdate = (doc: Y.Doc, update: Uint8Array): boolean => {
  const { structs, ds } = Y.decodeUpdate(update)
  for (const struct of structs) {
    if (struct instanceof Y.Skip) continue
    if (Y.getState(doc.store, struct.id.client) < struct.id.clock + struct.length) return false
  }
  for (const [client, deletions] of ds.clients) {
    for (const { clock, len } of deletions) {
      if (!holdsDeletion(doc, client, clock, len)) return false
    }
  }
  return true
}

/** Whether every item of `client` from `clock` on, `len` of them, is in `doc` and deleted. */
const holdsDeletion = (doc: Y.Doc, client: number, clock: number, len: number): boolean => {
  if (len === 0) return true
  if (Y.getState(doc.store, client) < clock + len) return false
  const structs = doc.store.clients.get(client)
  if (structs === undefined) return false
  for (let i = Y.findIndexSS(structs, clock); i < structs.length; i++) {
    const struct = structs[i]!
    if (struct.id.clock >= clock + len) break
    if (!struct.deleted) return false
  }
  return true
}
