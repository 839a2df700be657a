import { defineTool } from '../../definition/define-tool.js'
import type { ToolResult } from '../../pipeline/call.js'
import { createToolRuntime } from '../../pipeline/create-tool-runtime.js'
import type { PtcRuntime } from '../ptc-port.js'

/** How `replace` swaps `lookup` while a program runs. */
export type Replacement = 'other-schema' | 'same-schema' | 'removed'

export interface ReplacedToolRun {
  readonly result: ToolResult
  /** Which `lookup` bodies ran, in order: `old` or `new`. */
  readonly bodies: readonly string[]
}

const lookup = (version: 'old' | 'new', id: 'number' | 'string', bodies: string[]) =>
  defineTool({
    name: 'lookup',
    description: 'Look a record up by its id.',
    parameters: { id: { type: id, required: true } },
    execute: ({ id: key }) => {
      bodies.push(version)
      return `${version}:${String(key)}`
    },
  })

/**
 * Runs `code` under `ptc` with `lookup({ id: number })` and `replace({})`, whose body unregisters `lookup` and (unless
 * `removed`) registers another `lookup` in its place: the program's SDK was rendered from the first.
 */
export async function runWithReplacedTool(
  ptcRuntime: PtcRuntime,
  replacement: Replacement,
  code: string,
): Promise<ReplacedToolRun> {
  const bodies: string[] = []
  const runtime = createToolRuntime({ mode: 'ptc', ptcRuntime })
  let registration = runtime.register(lookup('old', 'number', bodies))
  runtime.register(
    defineTool({
      name: 'replace',
      description: 'Replace the lookup tool.',
      parameters: {},
      execute: () => {
        registration.dispose()
        if (replacement === 'other-schema') registration = runtime.register(lookup('new', 'string', bodies))
        if (replacement === 'same-schema') registration = runtime.register(lookup('new', 'number', bodies))
        return 'replaced'
      },
    }),
  )
  const args = JSON.stringify({ code, description: 'look up after a replacement' })
  const result = await runtime.execute({ id: 'run', name: 'run_code', arguments: args })
  return { result, bodies }
}
