import { describe, expect, it } from 'vitest'
import { expectFailure } from '../../../../test/support/settled-result.js'
import { defineTool } from '../definition/define-tool.js'
import type { JsonObject } from '../json-schema/json-value.js'
import { jsonSchema } from '../schema/json-schema-spec.js'
import { createMemorySessionLog } from '../session-log/memory-session-log.js'
import { createToolRuntime } from './create-tool-runtime.js'

/** What one call showed the approver, wrote to the log and handed the body, each as the JSON text it amounts to. */
interface Sightings {
  readonly approver: string[]
  readonly body: { readonly text: string; readonly limit: unknown; readonly keys: string[] }[]
}

function probeRuntime() {
  const sightings: Sightings = { approver: [], body: [] }
  const runtime = createToolRuntime({
    approve: ({ call }) => {
      sightings.approver.push(JSON.stringify(call.arguments))
      return true
    },
  })
  runtime.register(
    defineTool({
      name: 'label',
      description: 'Label something.',
      parameters: { label: { type: 'string', required: true }, limit: { type: 'integer', maximum: 5 } },
      execute: (args) => {
        sightings.body.push({
          text: JSON.stringify(args),
          limit: (args as Record<string, unknown>).limit,
          keys: Reflect.ownKeys(args).map(String),
        })
        return 'done'
      },
    }),
  )
  runtime.on('tools/pre-execute', () => ({ action: 'ask', reason: 'check' }))
  return { runtime, sightings }
}

/** `limit` within its maximum, so nothing but the undeclared key can stop it. */
const HOSTILE_TEXT = '{"label":"x","__proto__":{"limit":3}}'

describe('an own "__proto__" key in arguments', () => {
  it.each([
    ['JSON text', HOSTILE_TEXT],
    ['an already parsed object', JSON.parse(HOSTILE_TEXT) as JsonObject],
  ])('given as %s, is refused by additionalProperties: false before approval or the body', async (_form, raw) => {
    const { runtime, sightings } = probeRuntime()
    const result = await runtime.execute({ id: 'c1', name: 'label', arguments: raw })
    expect(result.ok).toBe(false)
    expect(expectFailure(result).error.code).toBe('INVALID_ARGUMENTS')
    expect(expectFailure(result).error.message).toContain('unexpected property "__proto__"')
    expect(sightings.approver).toEqual([])
    expect(sightings.body).toEqual([])
  })

  it('never reaches the body as an inherited value, and the next call still runs', async () => {
    const { runtime, sightings } = probeRuntime()
    await runtime.execute({ id: 'c1', name: 'label', arguments: JSON.parse(HOSTILE_TEXT) as JsonObject })
    const next = await runtime.execute({ id: 'c2', name: 'label', arguments: { label: 'y' } })
    expect(next.ok).toBe(true)
    expect(sightings.body).toEqual([{ text: '{"label":"y"}', limit: undefined, keys: ['label'] }])
  })

  it('is, under an open schema, an ordinary key: the approver, the log and the body see the same object', async () => {
    const sessionLog = createMemorySessionLog()
    const approver: string[] = []
    const body: { text: string; limit: unknown; prototypeIsObject: boolean }[] = []
    const runtime = createToolRuntime({
      sessionLog,
      approve: ({ call }) => {
        approver.push(JSON.stringify(call.arguments))
        return true
      },
    })
    runtime.register(
      defineTool({
        name: 'open',
        description: 'Takes any object.',
        parameters: jsonSchema({ type: 'object' }),
        execute: (args) => {
          body.push({
            text: JSON.stringify(args),
            limit: (args as Record<string, unknown>).limit,
            prototypeIsObject: Object.getPrototypeOf(args) === Object.prototype,
          })
          return 'done'
        },
      }),
    )
    runtime.on('tools/pre-execute', () => ({ action: 'ask', reason: 'check' }))
    for (const raw of [HOSTILE_TEXT, JSON.parse(HOSTILE_TEXT) as JsonObject]) {
      const result = await runtime.execute({ id: 'o', name: 'open', arguments: raw })
      expect(result.ok).toBe(true)
    }
    expect(approver).toEqual([HOSTILE_TEXT, HOSTILE_TEXT])
    expect(body).toEqual([
      { text: HOSTILE_TEXT, limit: undefined, prototypeIsObject: true },
      { text: HOSTILE_TEXT, limit: undefined, prototypeIsObject: true },
    ])
    const logged = sessionLog.records
      .map((record) => (record as { arguments?: unknown }).arguments)
      .filter((value) => value !== undefined)
      .map((value) => JSON.stringify(value))
    expect(logged.length).toBeGreaterThan(0)
    for (const text of logged) expect(text).toBe(HOSTILE_TEXT)
  })
})
