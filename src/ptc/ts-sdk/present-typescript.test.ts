import { describe, expect, it } from 'vitest'
import type { JsonSchemaObject } from '../../json-schema/node.js'
import { defaultPtcLimits } from '../ptc-limits.js'
import type { PtcToolView } from '../ptc-port.js'
import { acceptsWithValidator, presentTypeScript } from './present-typescript.js'

const bashParameters: JsonSchemaObject = {
  type: 'object',
  properties: {
    command: { type: 'string', description: 'The command to run' },
    description: { type: 'string', description: 'What it does, in a few words' },
  },
  required: ['command', 'description'],
  additionalProperties: false,
}

const tools: PtcToolView[] = [
  { name: 'bash', description: 'Runs a shell command', parameters: bashParameters },
  {
    name: 'read_file',
    description: 'Reads a file as text; {{workspace}} stays literal',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    output: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
]

const options = { limits: defaultPtcLimits, accepts: acceptsWithValidator }

describe('presentTypeScript', () => {
  it('shows the direct-call rule first under ptc, then the SDK section uninterpolated', () => {
    const presentation = presentTypeScript(tools, 'ptc', options)
    expect(presentation.sections.map(({ id, order, interpolate }) => ({ id, order, interpolate }))).toEqual([
      { id: 'tools:ptc-only', order: 4900, interpolate: false },
      { id: 'tools:sdk', order: 5000, interpolate: false },
    ])
    expect(presentation.sections[0]?.text).toMatchInlineSnapshot(
      `"Call only \`run_code\` directly. Every other tool named in these instructions is a binding inside a \`run_code\` program, not a tool you can call."`,
    )
    expect(presentation.sections[1]?.text).toMatchSnapshot()
    expect(presentation.sections[1]?.text).toContain('{{workspace}}')
  })

  it('leaves out the direct-call rule under both', () => {
    expect(presentTypeScript(tools, 'both', options).sections.map((section) => section.id)).toEqual(['tools:sdk'])
  })

  it('shows the bash example only when a visible bash accepts it', () => {
    const withBash = presentTypeScript(tools, 'ptc', options).sections[1]?.text ?? ''
    expect(withBash).toContain(`run_code({ code: "return await tools.bash({ command: 'pwd'`)
    const strictBash: PtcToolView = {
      name: 'bash',
      description: 'Runs a shell command',
      parameters: { ...bashParameters, properties: { cmd: { type: 'string' } }, required: ['cmd'] },
    }
    const refused = presentTypeScript([strictBash, ...tools.slice(1)], 'ptc', options).sections[1]?.text ?? ''
    expect(refused).not.toContain('run_code({ code:')
    const withoutBash = presentTypeScript(tools.slice(1), 'ptc', options).sections[1]?.text ?? ''
    expect(withoutBash).not.toContain('run_code({ code:')
  })

  it('is byte-identical whatever the order of the visible tools', () => {
    const forward = presentTypeScript(tools, 'ptc', options)
    const backward = presentTypeScript([...tools].reverse(), 'ptc', options)
    expect(backward).toEqual(forward)
  })

  it('states the default and maximum deadline in the run_code schema', () => {
    expect(presentTypeScript(tools, 'ptc', options).runCode).toMatchInlineSnapshot(`
      {
        "description": "Run one program that calls the SDK tools described in the instructions. Only what it prints or returns comes back.",
        "name": "run_code",
        "parameters": {
          "additionalProperties": false,
          "properties": {
            "code": {
              "description": "Body of an async TypeScript function. Only erasable syntax: types are stripped, not checked; no enum or namespace. Call tools as \`await tools.name(args)\`; print or return what you need.",
              "type": "string",
            },
            "description": {
              "description": "One line saying what the program does.",
              "type": "string",
            },
            "timeoutMs": {
              "default": 120000,
              "description": "Deadline for the whole run, tool calls and approvals included. Default 120000, at most 600000.",
              "maximum": 600000,
              "minimum": 1,
              "type": "integer",
            },
          },
          "required": [
            "code",
            "description",
          ],
          "type": "object",
        },
      }
    `)
  })
})
