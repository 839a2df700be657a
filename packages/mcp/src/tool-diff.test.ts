import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { diffTools, toolFingerprint } from './tool-diff.js'

const tool = (name: string, description = 'd'): Tool => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
})

describe('diffTools', () => {
  it('finds added, removed and changed tools', () => {
    const registered = new Map([
      ['keep', toolFingerprint(tool('keep'))],
      ['drop', toolFingerprint(tool('drop'))],
      ['edit', toolFingerprint(tool('edit'))],
    ])
    const diff = diffTools(registered, [tool('keep'), tool('edit', 'new text'), tool('new')])
    expect(diff.added.map((entry) => entry.name)).toEqual(['new'])
    expect(diff.removed).toEqual(['drop'])
    expect(diff.changed.map((entry) => entry.name)).toEqual(['edit'])
  })

  it('sees a changed input schema and annotations', () => {
    const before = tool('t')
    const registered = new Map([['t', toolFingerprint(before)]])
    const schemaChange = { ...before, inputSchema: { type: 'object' as const, properties: { a: { type: 'string' } } } }
    expect(diffTools(registered, [schemaChange]).changed).toHaveLength(1)
    expect(diffTools(registered, [{ ...before, annotations: { readOnlyHint: true } }]).changed).toHaveLength(1)
    expect(diffTools(registered, [before])).toEqual({ added: [], removed: [], changed: [] })
  })
})
