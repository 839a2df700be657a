import type { CompileContext, KeywordDefinition } from './compile-context.js'
import { childPath } from './compile-context.js'
import { deepEqual } from './deep-equal.js'
import { previewJson } from './describe-value.js'
import { InstanceKind } from './instance-kind.js'
import { detailText, itemCountDetail } from './keyword-details.js'
import { expectCount, expectSchemaList } from './keyword-values.js'
import type { JsonSchemaNode } from './node.js'
import { SchemaCompileError } from './schema-compile-error.js'
import { type Check, descend, report, shouldStop, type ValidationState } from './validation-state.js'

function plural(count: number): string {
  return count === 1 ? 'item' : 'items'
}

/** Checks items from `start` on against one schema; `false` reads as a length limit. */
function compileRest(schema: JsonSchemaNode, start: number, keyword: string, context: CompileContext, path: string) {
  if (schema === true) return undefined
  if (schema === false) {
    return (value: unknown, state: ValidationState) => {
      const items = value as unknown[]
      if (items.length <= start) return true
      if (state.silent === 0)
        report(state, keyword, `expected at most ${start} ${plural(start)}, received ${items.length}`)
      return false
    }
  }
  const check = context.compile(schema, path)
  return (value: unknown, state: ValidationState) => {
    const items = value as unknown[]
    let valid = true
    for (let index = start; index < items.length; index++) {
      if (!descend(state, index, items[index], check)) {
        valid = false
        if (shouldStop(state)) return false
      }
    }
    return valid
  }
}

function compileTuple(
  schemas: readonly JsonSchemaNode[],
  keyword: string,
  context: CompileContext,
  path: string,
): Check {
  const checks = schemas.map((schema, index) => context.compile(schema, childPath(path, keyword, index)))
  return (value, state) => {
    const items = value as unknown[]
    const count = Math.min(items.length, checks.length)
    let valid = true
    for (let index = 0; index < count; index++) {
      if (!descend(state, index, items[index], checks[index]!)) {
        valid = false
        if (shouldStop(state)) return false
      }
    }
    return valid
  }
}

function findDuplicate(items: readonly unknown[], depthBudget: number): [number, number] | undefined {
  for (let right = 1; right < items.length; right++) {
    for (let left = 0; left < right; left++) {
      if (deepEqual(items[left], items[right], depthBudget)) return [left, right]
    }
  }
  return undefined
}

function findPrimitiveDuplicate(items: readonly unknown[]): [number, number] | undefined {
  const seen = new Map<unknown, number>()
  for (let index = 0; index < items.length; index++) {
    const first = seen.get(items[index])
    if (first !== undefined) return [first, index]
    seen.set(items[index], index)
  }
  return undefined
}

export const arrayKeywords = {
  items: {
    appliesTo: InstanceKind.array,
    compile(items, schema, context, path) {
      if (Array.isArray(items)) return compileTuple(items as JsonSchemaNode[], 'items', context, path)
      const start = Array.isArray(schema.prefixItems) ? schema.prefixItems.length : 0
      return compileRest(items as JsonSchemaNode, start, 'items', context, childPath(path, 'items'))
    },
  },
  prefixItems: {
    appliesTo: InstanceKind.array,
    compile: (items, _schema, context, path) =>
      compileTuple(expectSchemaList(items, 'prefixItems', path), 'prefixItems', context, path),
  },
  additionalItems: {
    appliesTo: InstanceKind.array,
    compile(additional, schema, context, path) {
      if (!Array.isArray(schema.items)) return undefined
      return compileRest(
        additional as JsonSchemaNode,
        schema.items.length,
        'additionalItems',
        context,
        childPath(path, 'additionalItems'),
      )
    },
  },
  minItems: {
    appliesTo: InstanceKind.array,
    compile(limitValue, _schema, _context, path): Check {
      const limit = expectCount(limitValue, 'minItems', path)
      const detail = itemCountDetail('at least', limit)
      return (value, state) => {
        if ((value as unknown[]).length >= limit) return true
        if (state.silent === 0) report(state, 'minItems', detailText(detail, value))
        return false
      }
    },
  },
  maxItems: {
    appliesTo: InstanceKind.array,
    compile(limitValue, _schema, _context, path): Check {
      const limit = expectCount(limitValue, 'maxItems', path)
      const detail = itemCountDetail('at most', limit)
      return (value, state) => {
        if ((value as unknown[]).length <= limit) return true
        if (state.silent === 0) report(state, 'maxItems', detailText(detail, value))
        return false
      }
    },
  },
  uniqueItems: {
    appliesTo: InstanceKind.array,
    compile(unique, _schema, _context, path): Check | undefined {
      if (typeof unique !== 'boolean') throw new SchemaCompileError('uniqueItems', path, 'must be a boolean')
      if (!unique) return undefined
      return (value, state) => {
        const items = value as unknown[]
        if (items.length < 2) return true
        const primitive = items.every((item) => item === null || typeof item !== 'object')
        const duplicate = primitive ? findPrimitiveDuplicate(items) : findDuplicate(items, state.maxDepth)
        if (duplicate === undefined) return true
        if (state.silent === 0) {
          const [left, right] = duplicate
          report(
            state,
            'uniqueItems',
            `expected unique items, but items ${left} and ${right} are both ${previewJson(items[left])}`,
          )
        }
        return false
      }
    },
  },
} satisfies Record<string, KeywordDefinition>
