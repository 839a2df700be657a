import { describe, expect, it } from 'vitest'
import type { ToolSchema } from '../../registry/tool-schema.js'
import { DSL_TOOL_SCHEMAS } from '../__fixtures__/dsl-schemas.js'
import { mcpToolSchemas } from '../__fixtures__/mcp-tool-schemas.js'
import { toAnthropicTools } from '../anthropic/to-anthropic-tools.js'
import { toGeminiTools } from '../gemini/to-gemini-tools.js'
import { toOpenAITools } from '../openai/to-openai-tools.js'
import type { ProjectionReport } from '../projection-report.js'
import { checkAnthropicRequest, checkAnthropicTool } from './anthropic-conformance.js'
import type { Violation } from './conformance-walk.js'
import { checkGeminiDeclaration } from './gemini-conformance.js'
import { checkOpenAITool } from './openai-conformance.js'

interface Case {
  readonly label: string
  project(schemas: readonly ToolSchema[]): { tools: unknown[]; report: ProjectionReport }
  check(tool: unknown): Violation[]
  checkRequest?(tools: readonly unknown[]): Violation[]
}

const cases: readonly Case[] = [
  {
    label: 'openai chat strict',
    project: (schemas) => toOpenAITools(schemas, { strict: true }),
    check: checkOpenAITool,
  },
  { label: 'openai chat loose', project: (schemas) => toOpenAITools(schemas), check: checkOpenAITool },
  {
    label: 'openai responses strict',
    project: (schemas) => toOpenAITools(schemas, { strict: true, api: 'responses' }),
    check: checkOpenAITool,
  },
  {
    label: 'anthropic strict',
    project: (schemas) => toAnthropicTools(schemas, { strict: true }),
    check: checkAnthropicTool,
    checkRequest: checkAnthropicRequest,
  },
  { label: 'anthropic loose', project: (schemas) => toAnthropicTools(schemas), check: checkAnthropicTool },
  { label: 'gemini parameters', project: (schemas) => toGeminiTools(schemas), check: checkGeminiDeclaration },
  {
    label: 'gemini parametersJsonSchema',
    project: (schemas) => toGeminiTools(schemas, { field: 'parametersJsonSchema' }),
    check: checkGeminiDeclaration,
  },
]

const fixtureSets: readonly (readonly [string, readonly ToolSchema[]])[] = [
  ['DSL constructs', DSL_TOOL_SCHEMAS],
  ...mcpToolSchemas(),
]

describe.each(cases)('$label', ({ project, check, checkRequest }) => {
  it.each(fixtureSets)('every tool of %s passes the conformance checker, and none is left out', (_, schemas) => {
    const { tools, report } = project(schemas)
    const violations = tools.flatMap((tool, index) => check(tool).map((violation) => ({ tool: index, ...violation })))
    expect(violations).toEqual([])
    expect(checkRequest?.(tools) ?? []).toEqual([])
    expect(report.tools.filter((tool) => tool.status === 'omitted')).toEqual([])
    expect(tools).toHaveLength(schemas.length)
  })
})

describe('the checkers themselves', () => {
  it('flag a strict OpenAI schema with an optional property, an open object and minLength', () => {
    const tool = {
      type: 'function',
      function: {
        name: 'bad name',
        strict: true,
        parameters: { type: 'object', properties: { a: { type: 'string', minLength: 1 } } },
      },
    }
    expect(checkOpenAITool(tool).map((violation) => violation.rule)).toEqual([
      'name must match ^[a-zA-Z0-9_-]{1,64}$',
      'strict: objects need additionalProperties false',
      'strict: every property is required',
      'strict: minLength is not supported',
    ])
  })

  it('flag a root union for Anthropic and numeric constraints under strict', () => {
    const tool = {
      name: 'x',
      strict: true,
      input_schema: {
        type: 'object',
        anyOf: [{}],
        properties: { n: { type: 'integer', maximum: 3 } },
        additionalProperties: false,
      },
    }
    expect(checkAnthropicTool(tool).map((violation) => violation.rule)).toEqual([
      'no top-level anyOf',
      'strict: maximum is not supported',
    ])
  })

  it('flag Gemini type arrays, lowercase types, empty objects and $ref', () => {
    const declaration = {
      name: '9lives',
      parameters: {
        type: 'OBJECT',
        properties: { a: { type: ['STRING', 'NULL'] }, b: { type: 'object' }, c: { $ref: '#/x' } },
      },
    }
    expect(checkGeminiDeclaration(declaration).map((violation) => violation.rule)).toEqual([
      'name must match ^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$',
      'type is one Type enum value',
      'type is one Type enum value',
      '$ref is not a Schema field',
      'type is required',
    ])
  })
})
