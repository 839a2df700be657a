import { afterAll, describe, expect, it } from 'vitest'
import { expectSuccess } from '../../../test/support/settled-result.js'
import { runWithReplacedTool } from '../__fixtures__/replaced-tool.js'
import { createNodePtcRuntime } from './create-node-ptc-runtime.js'

const program = `await tools.replace({})
try {
  return await tools.lookup({ id: 7 })
} catch (error) {
  return [(error as ToolCallError).code, (error as ToolCallError).message]
}`

describe('an SDK binding keeps the schema it was rendered from (TypeScript on Node)', () => {
  const ptcRuntime = createNodePtcRuntime({ poolSize: 1 })
  afterAll(() => ptcRuntime.close())

  it('fails a sub-call to a tool replaced with other parameters, and never runs either body', async () => {
    const { result, bodies } = await runWithReplacedTool(ptcRuntime, 'other-schema', program)
    expect(expectSuccess(result).value).toEqual([
      'TOOL_CHANGED',
      'The tool "lookup" was replaced with different parameters after it was offered to you; read its new description and call it again.',
    ])
    expect(bodies).toEqual([])
  })

  it('never validates against the new schema: arguments only the replacement accepts fail too', async () => {
    const accepted = program.replace('{ id: 7 }', "{ id: 'seven' as never }")
    const { result, bodies } = await runWithReplacedTool(ptcRuntime, 'other-schema', accepted)
    expect(expectSuccess(result).value).toEqual(['TOOL_CHANGED', expect.any(String)])
    expect(bodies).toEqual([])
  })

  it('runs the replacement when its schemas are the ones the binding captured', async () => {
    const { result, bodies } = await runWithReplacedTool(ptcRuntime, 'same-schema', program)
    expect(expectSuccess(result).value).toBe('new:7')
    expect(bodies).toEqual(['new'])
  })

  it('answers a tool removed during the run as unknown', async () => {
    const { result, bodies } = await runWithReplacedTool(ptcRuntime, 'removed', program)
    expect(expectSuccess(result).value).toEqual(['UNKNOWN_TOOL', expect.stringMatching(/^Unknown tool "lookup"/)])
    expect(bodies).toEqual([])
  })
})
