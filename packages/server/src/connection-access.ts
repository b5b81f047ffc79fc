/**
 * What one open connection may do, for as long as its token allows: its role and user, the
 * moment its access ends, and the fresh tokens its client hands over meanwhile.
 *
 * A token is not only checked when a connection opens: when the access it grants ends, the
 * connection is closed (4401, `token expired`), unless the client handed over a fresh token
 * first (a message of type `MessageType.token`), which then decides the connection's role and
 * expiry. A fresh token must be for the same user: a connection never changes hands.
 */
import { OTHER_USER_REASON } from '@tandem/protocol'
import type { Role } from './room.js'

/** The longest delay a Node timer takes; later expiries are reached in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1

/** What a connection's access is made of: an `Authorization`, as a hook returns it. */
export interface Access {
  readonly role: Role
  readonly user?: string | undefined
  readonly expiresAt?: number | undefined
}

/**
 * Throws a `TypeError` naming the bad value unless `access` is a usable authorization (a role
 * of `read` or `write`, a string user if any, a finite `expiresAt` if any); returns it.
 *
 * @example const authorization = checkAccess(await authorize(request, room))
 */
export const checkAccess = <A extends Access>(access: A): A => {
  if (typeof access !== 'object' || access === null) {
    throw new TypeError(`an authorization must be an object, got ${String(access)}`)
  }
  if (access.role !== 'read' && access.role !== 'write') {
    throw new TypeError(`an authorization's role must be read or write, got ${String(access.role)}`)
  }
  if (access.user !== undefined && typeof access.user !== 'string') {
    throw new TypeError(`an authorization's user must be a string, got ${typeof access.user}`)
  }
  const { expiresAt } = access
  if (expiresAt !== undefined && !(typeof expiresAt === 'number' && Number.isFinite(expiresAt))) {
    throw new TypeError(
      `an authorization's expiresAt must be milliseconds since the epoch, got ${String(expiresAt)}`,
    )
  }
  return access
}

/**
 * One connection's access: its current role and user, and a timer that calls `expired` once
 * it ends.
 *
 * @example
 * const access = new ConnectionAccess({ role: 'read', user: 'ada', expiresAt }, () => ws.close(4401, 'token expired'))
 * access.renew({ role: 'write', user: 'ada', expiresAt: later }) // => null: taken
 */
export class ConnectionAccess {
  private current: Access
  private timer: NodeJS.Timeout | null = null
  private disposed = false

  constructor(
    access: Access,
    private readonly expired: () => void,
  ) {
    this.current = access
    this.arm()
  }

  /** What the connection may do now. */
  get role(): Role {
    return this.current.role
  }

  /** Who the connection is; it never changes. */
  get user(): string | undefined {
    return this.current.user
  }

  /** When the access ends, in milliseconds since the epoch; undefined when it does not. */
  get expiresAt(): number | undefined {
    return this.current.expiresAt
  }

  /**
   * Takes `fresh` (the authorization of a token handed over) as the connection's access, with
   * its role and expiry. Returns null when taken, or why not: it names another user.
   */
  renew(fresh: Access): string | null {
    if (this.disposed) return null
    if (fresh.user !== this.current.user) return OTHER_USER_REASON
    this.current = fresh
    this.arm()
    return null
  }

  /** Stops the timer; the connection has closed. Safe to call twice. */
  dispose(): void {
    this.disposed = true
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
  }

  private arm(): void {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    const { expiresAt } = this.current
    if (expiresAt === undefined || this.disposed) return
    const left = expiresAt - Date.now()
    // Past or now: still from a timer, so that a constructor or `renew` never closes the
    // connection under its caller.
    this.timer = setTimeout(
      () => {
        this.timer = null
        if (this.disposed) return
        if (Date.now() >= expiresAt) this.expired()
        else this.arm()
      },
      Math.max(0, Math.min(left, MAX_TIMER_MS)),
    )
    this.timer.unref()
  }
}
