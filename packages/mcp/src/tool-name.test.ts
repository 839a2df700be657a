import { describe, expect, it } from 'vitest'
import { MAX_TOOL_NAME_LENGTH, mcpToolName, sanitizeToolName } from './tool-name.js'

describe('mcpToolName', () => {
  it('namespaces with the server name by default', () => {
    expect(mcpToolName('memory', 'create_entities')).toBe('memory__create_entities')
  })

  it('uses a custom prefix or none', () => {
    expect(mcpToolName('memory', 'read_graph', 'kg')).toBe('kg__read_graph')
    expect(mcpToolName('memory', 'read_graph', false)).toBe('read_graph')
  })

  it('keeps hyphens and replaces other characters', () => {
    expect(mcpToolName('everything', 'get-sum')).toBe('everything__get-sum')
    expect(mcpToolName('my server', 'tool.v2')).toBe('my_server__tool_v2')
    expect(sanitizeToolName('a/b:c d')).toBe('a_b_c_d')
  })

  it('cuts long names to 64 characters with a stable hash suffix', () => {
    const long = 'x'.repeat(80)
    const name = mcpToolName('server', long)
    expect(name).toHaveLength(MAX_TOOL_NAME_LENGTH)
    expect(name).toMatch(/^server__x+_[0-9a-f]{8}$/)
    expect(mcpToolName('server', long)).toBe(name)
    expect(mcpToolName('server', `${'x'.repeat(79)}y`)).not.toBe(name)
  })

  it('leaves a name of exactly 64 characters whole', () => {
    const tool = 'y'.repeat(MAX_TOOL_NAME_LENGTH - 'srv__'.length)
    expect(mcpToolName('srv', tool)).toBe(`srv__${tool}`)
  })

  it('matches the provider name pattern for any input', () => {
    for (const tool of ['ünïcödé', '🙂'.repeat(40), 'a'.repeat(200), 'spaces and\ttabs']) {
      expect(mcpToolName('s', tool)).toMatch(/^[a-zA-Z0-9_-]{1,64}$/)
    }
  })
})
