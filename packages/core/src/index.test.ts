import { describe, expect, it } from 'vitest'
import * as root from './index.js'

describe('the public surface', () => {
  it('exports exactly these runtime values', () => {
    expect(Object.keys(root).sort()).toMatchInlineSnapshot(`
      [
        "DESCRIBE_TOOL_NAME",
        "InvalidArgumentError",
        "SCHEMA_DEPTH_LIMIT",
        "SEARCH_TOOLS_NAME",
        "SchemaCompileError",
        "SchemaSpecError",
        "ToolDefinitionError",
        "ToolError",
        "ToolErrorCode",
        "ToolRuntimeConfigError",
        "ToolRuntimeError",
        "compileSchema",
        "createJsonlSessionLog",
        "createMemorySessionLog",
        "createMemoryStore",
        "createToolRuntime",
        "defineTool",
        "findInterruptedCalls",
        "isInvalidArgumentError",
        "isJsonSchemaSpec",
        "isSchemaCompileError",
        "isSchemaSpecError",
        "isToolDefinitionError",
        "isToolError",
        "isToolRuntimeConfigError",
        "isToolRuntimeError",
        "jsonSchema",
        "parametersToJsonSchema",
        "parseJsonlSessionLog",
        "readJsonlSessionLog",
        "recoverInterruptedCalls",
        "retryPolicy",
        "timeoutPolicy",
        "toJsonSchema",
      ]
    `)
  })

  it('keeps every error code stable: hosts persist and branch on them', () => {
    expect(root.ToolErrorCode).toMatchInlineSnapshot(`
      {
        "ABORTED": "ABORTED",
        "ABORTED_BEFORE_DISPATCH": "ABORTED_BEFORE_DISPATCH",
        "BLOCKED": "BLOCKED",
        "CODE_RUN_FAILED": "CODE_RUN_FAILED",
        "DENIED": "DENIED",
        "INTERRUPTED": "INTERRUPTED",
        "INVALID_ARGUMENTS": "INVALID_ARGUMENTS",
        "INVALID_OUTPUT": "INVALID_OUTPUT",
        "LISTENER_ERROR": "LISTENER_ERROR",
        "TOOL_CHANGED": "TOOL_CHANGED",
        "TOOL_ERROR": "TOOL_ERROR",
        "TOOL_TIMEOUT": "TOOL_TIMEOUT",
        "UNKNOWN_APPROVAL": "UNKNOWN_APPROVAL",
        "UNKNOWN_TOOL": "UNKNOWN_TOOL",
        "WRAPPER_ERROR": "WRAPPER_ERROR",
      }
    `)
  })
})
