import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import { ToolErrorCode } from 'qilin-tools/internal/errors/error-codes.js'
import { ToolError } from 'qilin-tools/internal/errors/tool-error.js'

/** The tools the `serveMcp` tests expose: typed output, plain text, a failure, an image and one that asks. */
export function fixtureTools() {
  return [
    defineTool({
      name: 'add',
      title: 'Add two numbers',
      description: 'Adds two numbers.',
      parameters: { a: { type: 'number', required: true }, b: { type: 'number', required: true } },
      output: { schema: { type: 'object', properties: { sum: { type: 'number', required: true } } } },
      annotations: { readOnlyHint: true },
      executionMode: 'parallel',
      execute: ({ a, b }) => ({ sum: a + b }),
    }),
    defineTool({
      name: 'shout',
      description: 'Upper-cases a text.',
      parameters: { text: { type: 'string', required: true } },
      execute: ({ text }) => text.toUpperCase(),
    }),
    defineTool({
      name: 'fail',
      description: 'Always fails.',
      parameters: {},
      execute: () => {
        throw new ToolError({ code: ToolErrorCode.TOOL_ERROR, message: 'this tool always fails' })
      },
    }),
    defineTool({
      name: 'ask_me',
      description: 'Runs only when approved.',
      parameters: {},
      execute: () => 'approved and ran',
    }),
  ]
}
