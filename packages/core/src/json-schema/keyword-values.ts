import type { JsonSchemaNode } from './node.js'
import { SchemaCompileError } from './schema-compile-error.js'

/** Shape checks for keyword values; each throws a `SchemaCompileError` naming the keyword. */

export function expectCount(value: unknown, keyword: string, schemaPath: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new SchemaCompileError(keyword, schemaPath, 'must be a non-negative integer')
  }
  return value
}

export function expectNumber(value: unknown, keyword: string, schemaPath: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new SchemaCompileError(keyword, schemaPath, 'must be a finite number')
  }
  return value
}

export function expectSchemaList(value: unknown, keyword: string, schemaPath: string): readonly JsonSchemaNode[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new SchemaCompileError(keyword, schemaPath, 'must be a non-empty array of schemas')
  }
  return value as JsonSchemaNode[]
}

export function expectSchemaMap(value: unknown, keyword: string, schemaPath: string): Record<string, JsonSchemaNode> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SchemaCompileError(keyword, schemaPath, 'must be an object mapping names to schemas')
  }
  return value as Record<string, JsonSchemaNode>
}

export function expectString(value: unknown, keyword: string, schemaPath: string): string {
  if (typeof value !== 'string') throw new SchemaCompileError(keyword, schemaPath, 'must be a string')
  return value
}
