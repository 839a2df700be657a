import { brandError } from '../errors/brand.js'
/** A tool definition that cannot be used, reported when `defineTool` runs. `path` locates the part, e.g. `parameters.path.maxLength`. */
export class ToolDefinitionError extends Error {
  readonly toolName: string
  readonly path: string
  readonly reason: string

  constructor(toolName: string, path: string, reason: string, options?: { cause?: unknown }) {
    super(`Tool ${JSON.stringify(toolName)}: ${path === '' ? '' : `${path}: `}${reason}`, options)
    this.name = 'ToolDefinitionError'
    this.toolName = toolName
    this.path = path
    this.reason = reason
  }
}

/** Recognises a ToolDefinitionError from any copy of this package or realm. */
export const isToolDefinitionError = brandError(ToolDefinitionError, 'ToolDefinitionError')
