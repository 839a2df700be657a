import { describe, expect, it } from 'vitest'
import { loadMcpToolset, mcpToolsetNames } from '../__fixtures__/mcp-toolsets.js'
import { typeCheckPrograms } from './__fixtures__/type-check-programs.js'
import { renderTypeScriptSdk } from './render-typescript-sdk.js'

describe('generated SDK under tsc --strict', () => {
  it('declares every shared tool list without errors', () => {
    for (const name of mcpToolsetNames()) {
      const result = typeCheckPrograms(renderTypeScriptSdk(loadMcpToolset(name)), [])
      expect(result.sdk, name).toEqual([])
    }
  })

  it('accepts valid programs and rejects invalid calls', () => {
    const sdk = renderTypeScriptSdk(loadMcpToolset('memory'))
    const valid = [
      `const graph = await tools.read_graph()
       const names: string[] = graph.entities.map((entity) => entity.name)
       console.log(names.join(', '))
       return graph.relations.length`,
      `const [a, b] = await Promise.all([tools.search_nodes({ query: 'x' }), tools.open_nodes({ names: ['y'] })])
       return a.entities.length + b.entities.length`,
      `try {
         await tools.delete_entities({ entityNames: ['gone'] })
       } catch (error) {
         if (error instanceof ToolCallError) return \`\${error.toolName} \${error.code} \${error.callId}: \${error.message}\`
         throw error
       }`,
      `const created = await tools.create_entities({ entities: [{ name: 'n', entityType: 't', observations: [] }] })
       return created.entities[0]?.name ?? null`,
    ]
    const invalid = [
      `await tools.create_entities({ entities: [{ name: 'n' }] })`,
      `await tools.search_nodes({ query: 1 })`,
      `await tools.read_graph({ unexpected: true })`,
      `await tools.no_such_tool({})`,
      `const graph = await tools.read_graph(); return graph.entities[0].name`,
    ]
    const result = typeCheckPrograms(sdk, [...valid, ...invalid])
    expect(result.sdk).toEqual([])
    result.programs.slice(0, valid.length).forEach((diagnostics, index) => {
      expect(diagnostics, valid[index]).toEqual([])
    })
    result.programs.slice(valid.length).forEach((diagnostics, index) => {
      expect(diagnostics.length, invalid[index]).toBeGreaterThan(0)
    })
  })

  it('calls quoted exotic names through element access', () => {
    const sdk = renderTypeScriptSdk(loadMcpToolset('everything'))
    const result = typeCheckPrograms(sdk, [
      `const sum = await tools["get-sum"]({ a: 1, b: 2 }); return sum`,
      `await tools["get-sum"]({ a: '1', b: 2 })`,
    ])
    expect(result.sdk).toEqual([])
    expect(result.programs[0]).toEqual([])
    expect(result.programs[1]?.length).toBeGreaterThan(0)
  })
})
