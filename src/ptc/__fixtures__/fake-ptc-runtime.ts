import type { JsonObject, JsonValue } from '../../json-schema/json-value.js'
import type { ToolResult } from '../../pipeline/call.js'
import { codeModeRuntime } from '../code-mode.js'
import type { PtcPresentation, PtcRunOutcome, PtcRunRequest, PtcRuntime, PtcToolView } from '../ptc-port.js'

/**
 * A stand-in for a code-mode runtime. Its "programs" are JSON: `{ "calls": [[name, args], …], "together": bool }`;
 * it runs the calls through `callTool` (all at once when `together`, never awaited when `abandon`), and returns
 * their values.
 */
export interface FakePtcRuntime extends PtcRuntime {
  readonly presented: { names: string[]; mode: 'ptc' | 'both' }[]
  readonly requests: PtcRunRequest[]
  readonly subResults: ToolResult[][]
}

export function createFakePtcRuntime(): FakePtcRuntime {
  const presented: FakePtcRuntime['presented'] = []
  const requests: PtcRunRequest[] = []
  const subResults: ToolResult[][] = []
  return codeModeRuntime({
    language: 'typescript',
    presented,
    requests,
    subResults,
    present(tools: readonly PtcToolView[], mode): PtcPresentation {
      const names = tools.map((tool) => tool.name)
      presented.push({ names, mode })
      const sections = [
        { id: 'tools:sdk', order: 5000, text: `declare const tools: { ${names.join(', ')} }`, interpolate: false },
      ]
      if (mode === 'ptc')
        sections.push({ id: 'tools:ptc-only', order: 4000, text: 'Only run_code.', interpolate: false })
      return {
        runCode: {
          name: 'run_code',
          description: 'Run a program.',
          parameters: {
            type: 'object',
            properties: {
              code: { type: 'string' },
              description: { type: 'string' },
              timeoutMs: { type: 'integer', minimum: 1 },
              sandbox_permissions: { enum: ['use_default', 'require_escalated'] },
              justification: { type: 'string' },
            },
            required: ['code', 'description'],
            additionalProperties: false,
          },
        },
        sections,
      }
    },
    async run(request): Promise<PtcRunOutcome> {
      requests.push(request)
      let program: { calls: [string, JsonValue][]; together?: boolean; fail?: string; abandon?: boolean }
      try {
        program = JSON.parse(request.code)
      } catch {
        return failed('syntax', 'not a program')
      }
      if (program.fail !== undefined) return failed('runtime', program.fail)
      if (program.abandon) {
        // Like a program killed at its deadline: its calls are left in flight.
        for (const [name, args] of program.calls) void request.callTool(name, args)
        return failed('timeout', 'abandoned its calls')
      }
      const results: ToolResult[] = []
      if (program.together) {
        results.push(...(await Promise.all(program.calls.map(([name, args]) => request.callTool(name, args)))))
      } else {
        for (const [name, args] of program.calls) results.push(await request.callTool(name, args))
      }
      subResults.push(results)
      const values = results.map((result) => (result.ok ? result.value! : { error: result.error!.code })) as JsonValue[]
      const bytesKeptOut = results.reduce((sum, result) => sum + JSON.stringify(result.content).length, 0)
      return {
        ok: true,
        value: values,
        content: [{ type: 'text', text: JSON.stringify(values) }],
        metadata: { subCalls: results.length, bytesKeptOut },
      }
    },
    async close() {},
  })
}

function failed(kind: string, message: string): PtcRunOutcome {
  const metadata: JsonObject & { subCalls: number; bytesKeptOut: number } = { subCalls: 0, bytesKeptOut: 0 }
  return { ok: false, error: { code: 'CODE_RUN_FAILED', message: `code run failed (${kind}): ${message}` }, metadata }
}
