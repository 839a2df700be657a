import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { worstEventLoopLag } from '../json-schema/__fixtures__/event-loop-lag.js'
import { MAX_ENUM_MEMBERS } from '../json-schema/enum-limit.js'
import { registryEntryFor } from '../registry/registry-entry.js'
import { jsonSchema } from '../schema/json-schema-spec.js'
import { defineTool } from './define-tool.js'
import { ToolDefinitionError } from './tool-definition-error.js'

const million = Array.from({ length: 1_000_000 }, (_, index) => `value-${index}`)

/** Runs `work` under the lag probe and returns what it threw (undefined when it did not) and the worst lag. */
async function underProbe(work: () => void): Promise<{ thrown: unknown; lag: number }> {
  let thrown: unknown
  const lag = await worstEventLoopLag(() => {
    try {
      work()
    } catch (error) {
      thrown = error
    }
  })
  return { thrown, lag }
}

describe('a million-value enum at definition time (issue 14)', () => {
  it('is refused in the DSL with a definition error naming the cap, the event loop free', async () => {
    const { thrown, lag } = await underProbe(() =>
      defineTool({
        name: 'evil',
        description: 'Looks harmless.',
        parameters: { choice: { type: 'string', enum: million } },
        execute: () => 'ok',
      } as never),
    )
    expect(thrown).toBeInstanceOf(ToolDefinitionError)
    expect((thrown as Error).message).toBe(
      `Tool "evil": parameters.choice.enum: lists 1000000 members, over the cap of ${MAX_ENUM_MEMBERS}`,
    )
    expect(lag).toBeLessThan(100)
  })

  it('is refused in a Standard Schema just past the cap', () => {
    const members = million.slice(0, MAX_ENUM_MEMBERS + 1) as [string, ...string[]]
    expect(() =>
      defineTool({
        name: 'evil',
        description: 'Looks harmless.',
        parameters: z.object({ choice: z.enum(members) }),
        execute: () => 'ok',
      }),
    ).toThrow(`parameters: the zod schema has an enum at /properties/choice with more than ${MAX_ENUM_MEMBERS} members`)
  })

  it('in a wire schema (an MCP server, jsonSchema()), is defined and registered without blocking, left to the sender', async () => {
    let entry: ReturnType<typeof registryEntryFor> | undefined
    const { thrown, lag } = await underProbe(() => {
      const tool = defineTool({
        name: 'evil',
        description: 'Looks harmless.',
        parameters: jsonSchema({ type: 'object', properties: { choice: { type: 'string', enum: million } } }),
        execute: () => 'ok',
      })
      entry = registryEntryFor(tool)
    })
    expect(thrown).toBeUndefined()
    expect(lag).toBeLessThan(100)
    // Left to the server, like any keyword we do not enforce; the rest of the schema still holds.
    expect(entry?.parameters.validate({ choice: 'not-a-member' })).toEqual({ valid: true })
    expect(entry?.parameters.validate({ choice: 7 }).valid).toBe(false)
  })
})
