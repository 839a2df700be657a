import type { ToolSchema } from '../registry/tool-schema.js'
import { describeEscalation, type SandboxEscalation } from '../sandbox/sandbox-escalation.js'
import type { PtcLimits } from './ptc-limits.js'
import { type PtcLanguage, type PtcPresentation, RUN_CODE_TOOL_NAME } from './ptc-port.js'

/** How each language describes the `code` argument. */
const codeDescriptions = {
  typescript:
    'Body of an async TypeScript function. Only erasable syntax: types are stripped, not checked; no enum or namespace. Call tools as `await tools.name(args)`; print or return what you need.',
  python: 'Body of an async Python function. Call tools as `await tools.name(args)`; print or return what you need.',
} satisfies Record<PtcLanguage, string>

/**
 * The `run_code` transport schema for one language; it states the default and maximum deadline. Escalation is not
 * in it: a runtime with an escalation profile adds it with `offerEscalation`.
 */
export function runCodeSchema(language: PtcLanguage, limits: PtcLimits): ToolSchema {
  return {
    name: RUN_CODE_TOOL_NAME,
    description:
      'Run one program that calls the SDK tools described in the instructions. Only what it prints or returns comes back.',
    parameters: {
      type: 'object',
      properties: {
        code: { type: 'string', description: codeDescriptions[language] },
        description: { type: 'string', description: 'One line saying what the program does.' },
        timeoutMs: {
          type: 'integer',
          minimum: 1,
          maximum: limits.maxTimeoutMs,
          default: limits.defaultTimeoutMs,
          description: `Deadline for the whole run, tool calls and approvals included. Default ${limits.defaultTimeoutMs}, at most ${limits.maxTimeoutMs}.`,
        },
      },
      required: ['code', 'description'],
      additionalProperties: false,
    },
  }
}

/**
 * The presentation with `sandbox_permissions` and `justification` in `run_code`, saying what an approved escalation
 * grants; unchanged without an escalation profile, so a model is never offered a grant that means nothing.
 */
export function offerEscalation(
  presentation: PtcPresentation,
  escalation: SandboxEscalation | undefined,
): PtcPresentation {
  if (escalation === undefined) return presentation
  const { runCode } = presentation
  const parameters = runCode.parameters
  return {
    ...presentation,
    runCode: {
      ...runCode,
      parameters: {
        ...parameters,
        properties: {
          ...parameters.properties,
          sandbox_permissions: {
            type: 'string',
            enum: ['use_default', 'require_escalated'],
            default: 'use_default',
            description: `require_escalated asks the user, before the program starts, for ${describeEscalation(escalation)}, for this run only.`,
          },
          justification: {
            type: 'string',
            minLength: 1,
            description: 'Why escalation is needed; required with require_escalated.',
          },
        },
      },
    },
  }
}
