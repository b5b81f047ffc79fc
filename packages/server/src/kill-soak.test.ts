/**
 * The durability promise under kill -9, as a soak: stock y-websocket clients type in several
 * rooms while `tandem-server` processes are killed with SIGKILL at random moments (often as
 * their clients reconnect after a restart, some the moment a reconnecting client has its sync
 * answer) and restarted on the same data. After every kill,
 * whatever any client received from another must be in the store; at the end clients and store
 * converge. Three setups: one process on SQLite, one on PostgreSQL, and three over Redis sharing
 * one PostgreSQL schema, killed one at a time while the others go on.
 *
 * Each setup soaks for 25 s by default; `TANDEM_SOAK_SECONDS=n` soaks n seconds each, for the
 * figures in docs/server.md. Seeded: `SEED=n` repeats a run's choices, and a failure prints its
 * seed. Each setup prints one line of figures.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, onTestFailed } from 'vitest'
import { figuresLine, type KillSoakFigures, runKillSoak } from './testing/kill-soak.js'
import { ServerProcess } from './testing/server-process.js'
import {
  dropSchema,
  neededServices,
  POSTGRES_URL,
  REDIS_URL,
  scaleOutServices,
  uniqueNames,
} from './testing/services.js'
import type { StoreLocation } from './testing/stored.js'

const SEED = Number(process.env.SEED ?? 1)
const SECONDS = Number(process.env.TANDEM_SOAK_SECONDS ?? 25)
/** Soaking, plus starting, converging and stopping with room to spare. */
const TIMEOUT_MS = SECONDS * 1_000 + 180_000

const root = mkdtempSync(join(tmpdir(), 'tandem-kill-soak-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const postgresSkip = await neededServices('the PostgreSQL kill soak', { postgres: true })
const scaleOutSkip = await scaleOutServices('the scale-out kill soak')

/** Soaks `servers` (already running) over the store at `store`. */
const soak = (servers: readonly ServerProcess[], store: StoreLocation) =>
  runKillSoak({
    seed: SEED,
    durationMs: SECONDS * 1_000,
    // Far more than the time allows (a kill, a check and a restart take half a second or more).
    maxKills: SECONDS * 4,
    servers,
    store,
    rooms: 3,
    clientsPerRoom: 8,
    pace: { minPauseMs: 120, maxPauseMs: 500 },
    burstMs: 400,
    maxDownMs: 1_500,
  })

/** The warnings and errors the processes logged (JSON lines at level warn or above), a few. */
const trouble = (servers: readonly ServerProcess[]): string[] =>
  servers
    .flatMap((server, i) =>
      server.output
        .split('\n')
        .filter((line) => /"level":(4|5|6)0/.test(line))
        .map((line) => `process ${i + 1}: ${line}`),
    )
    .slice(0, 20)

/** Prints the figures and fails on any loss, naming each, or on clients that did not converge. */
const report = (label: string, servers: readonly ServerProcess[], figures: KillSoakFigures) => {
  console.log(figuresLine(label, SEED, figures))
  const logged = trouble(servers)
  if (logged.length > 0) console.log(`the processes logged:\n${logged.join('\n')}`)
  expect(figures.lostCharacters + figures.lostDeletions, figures.losses.join('\n')).toBe(0)
  expect(figures.notConverged).toBeNull()
  // A soak that killed nothing, or where nobody saw anyone's typing, proved nothing.
  expect(figures.kills).toBeGreaterThan(0)
  expect(figures.received).toBeGreaterThan(0)
}

/** Runs `body` with the servers `start` adds to its list, killing them all afterwards. */
const withServers = async (
  start: (servers: ServerProcess[]) => Promise<void>,
  body: (servers: ServerProcess[]) => Promise<void>,
) => {
  const servers: ServerProcess[] = []
  try {
    await start(servers)
    await body(servers)
  } finally {
    for (const server of servers) await server.kill('SIGKILL')
  }
}

describe('kill -9 soak: nothing a client received from another is ever missing from the store', () => {
  it(
    `one process on SQLite (seed ${SEED})`,
    async () => {
      onTestFailed(() => console.error(`the SQLite kill soak failed with SEED=${SEED}`))
      const data = join(root, 'sqlite')
      await withServers(
        async (servers) => {
          servers.push(await ServerProcess.start({ data }))
        },
        async (servers) => report('SQLite, one process', servers, await soak(servers, { data })),
      )
    },
    TIMEOUT_MS,
  )

  it.skipIf(postgresSkip !== null)(
    `one process on PostgreSQL (seed ${SEED})`,
    async () => {
      onTestFailed(() => console.error(`the PostgreSQL kill soak failed with SEED=${SEED}`))
      const { schema } = uniqueNames('soak')
      const postgres = { url: POSTGRES_URL, schema }
      try {
        await withServers(
          async (servers) => {
            servers.push(await ServerProcess.start({ data: join(root, 'postgres'), postgres }))
          },
          async (servers) =>
            report('PostgreSQL, one process', servers, await soak(servers, { postgres })),
        )
      } finally {
        await dropSchema(schema)
      }
    },
    TIMEOUT_MS,
  )

  it.skipIf(scaleOutSkip !== null)(
    `three processes over Redis sharing PostgreSQL (seed ${SEED})`,
    async () => {
      onTestFailed(() => console.error(`the scale-out kill soak failed with SEED=${SEED}`))
      const { schema, prefix } = uniqueNames('soak')
      const postgres = { url: POSTGRES_URL, schema }
      const redis = { url: REDIS_URL, prefix }
      try {
        await withServers(
          async (servers) => {
            for (let i = 0; i < 3; i++) {
              const data = join(root, `scale-out-${i}`)
              servers.push(await ServerProcess.start({ data, postgres, redis }))
            }
          },
          async (servers) =>
            report('three processes over Redis', servers, await soak(servers, { postgres })),
        )
      } finally {
        await dropSchema(schema)
      }
    },
    TIMEOUT_MS,
  )
})
