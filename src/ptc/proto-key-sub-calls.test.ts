import { afterAll, describe, expect, it } from 'vitest'
import { expectSuccess } from '../../test/support/settled-result.js'
import { hasSystemPart } from '../../test/support/system-requirement.js'
import { defineTool } from '../definition/define-tool.js'
import { createToolRuntime } from '../pipeline/create-tool-runtime.js'
import { jsonSchema } from '../schema/json-schema-spec.js'
import { createNodePtcRuntime } from './node/create-node-ptc-runtime.js'
import type { PtcRuntime } from './ptc-port.js'
import { createPythonPtcRuntime } from './python/create-python-ptc-runtime.js'

const HOSTILE_TEXT = '{"label":"x","__proto__":{"limit":3}}'

/** Each runtime's program: call both tools with arguments parsed from HOSTILE_TEXT, return what each call said. */
const programs = {
  typescript: `const results = []
for (const name of ['closed', 'open']) {
  try { results.push(await tools[name](JSON.parse(${JSON.stringify(HOSTILE_TEXT)}))) }
  catch (error) { results.push(error.code) }
}
return results`,
  python: `import json
results = []
for name in ['closed', 'open']:
    try:
        results.append(await tools[name](**json.loads(${JSON.stringify(HOSTILE_TEXT)})))
    except ToolCallError as error:
        results.append(error.code)
return results`,
}

const confined = hasSystemPart('bubblewrap', 'code-mode sub-calls with a "__proto__" key (Python)')
const runtimes: PtcRuntime[] = []
afterAll(async () => {
  await Promise.all(runtimes.map((runtime) => (runtime as { close?: () => unknown }).close?.()))
})

function start(language: keyof typeof programs): PtcRuntime {
  const runtime =
    language === 'typescript' ? createNodePtcRuntime({ poolSize: 0 }) : createPythonPtcRuntime({ poolSize: 0 })
  runtimes.push(runtime)
  return runtime
}

describe.each([
  ['typescript', true],
  ['python', confined],
] as const)('a %s program passing an own "__proto__" key', (language, available) => {
  it.skipIf(!available)(
    'is refused by the closed tool, and the open tool and its approver see the same object',
    async () => {
      const approver: string[] = []
      const bodies: { text: string; limit: unknown }[] = []
      const probe = (args: unknown) => {
        bodies.push({ text: JSON.stringify(args), limit: (args as Record<string, unknown>).limit })
        return 'done'
      }
      const runtime = createToolRuntime({
        mode: 'ptc',
        ptcRuntime: start(language),
        approve: ({ call }) => {
          if (call.name !== 'run_code') approver.push(JSON.stringify(call.arguments))
          return true
        },
      })
      runtime.register(
        defineTool({
          name: 'closed',
          description: 'Takes a label.',
          parameters: { label: { type: 'string', required: true }, limit: { type: 'integer', maximum: 5 } },
          execute: probe,
        }),
      )
      runtime.register(
        defineTool({
          name: 'open',
          description: 'Takes any object.',
          parameters: jsonSchema({ type: 'object' }),
          execute: probe,
        }),
      )
      runtime.on('tools/pre-execute', () => ({ action: 'ask', reason: 'check' }))
      const result = await runtime.execute({
        id: 'run-1',
        name: 'run_code',
        arguments: { code: programs[language], description: 'hostile keys' },
      })
      expect(expectSuccess(result).value).toEqual(['INVALID_ARGUMENTS', 'done'])
      expect(approver).toEqual([HOSTILE_TEXT])
      expect(bodies).toEqual([{ text: HOSTILE_TEXT, limit: undefined }])
    },
    30_000,
  )
})
