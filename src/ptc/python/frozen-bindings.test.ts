import { afterAll, describe, expect, it } from 'vitest'
import { expectSuccess } from '../../../test/support/settled-result.js'
import { hasSystemPart } from '../../../test/support/system-requirement.js'
import { runWithReplacedTool } from '../__fixtures__/replaced-tool.js'
import { createPythonPtcRuntime } from './create-python-ptc-runtime.js'

const program = `await tools.replace()
try:
    return await tools.lookup(id=7)
except ToolCallError as error:
    return [error.code, error.message]`

describe.skipIf(!hasSystemPart('bubblewrap', 'Python SDK bindings'))('an SDK binding keeps its schema (Python)', () => {
  const ptcRuntime = createPythonPtcRuntime()
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
    const accepted = program.replace('id=7', "id='seven'")
    const { result, bodies } = await runWithReplacedTool(ptcRuntime, 'other-schema', accepted)
    expect(expectSuccess(result).value).toEqual(['TOOL_CHANGED', expect.any(String)])
    expect(bodies).toEqual([])
  })

  it('runs the replacement when its schemas are the ones the binding captured', async () => {
    const { result, bodies } = await runWithReplacedTool(ptcRuntime, 'same-schema', program)
    expect(expectSuccess(result).value).toBe('new:7')
    expect(bodies).toEqual(['new'])
  })
})
