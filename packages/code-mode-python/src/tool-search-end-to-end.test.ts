import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { realCorpus } from 'qilin-tools/internal/tool-search/__fixtures__/search-corpus.js'
import { afterAll, describe, expect, it } from 'vitest'
import { expectSuccess } from '../../../test/support/settled-result.js'
import { hasSystemPart } from '../../../test/support/system-requirement.js'
import { createPythonPtcRuntime, type PythonPtcRuntime } from './create-python-ptc-runtime.js'

const confined = hasSystemPart('bubblewrap', 'tool search in Python code mode')
let ptc: PythonPtcRuntime | undefined
afterAll(() => ptc?.close())

describe.skipIf(!confined)('tool search in Python code mode (confined CPython)', () => {
  it('indexes the tools, then finds, describes and calls one in the same program', async () => {
    ptc = createPythonPtcRuntime({ poolSize: 1 })
    const runtime = createToolRuntime({ mode: 'ptc', ptcRuntime: ptc })
    for (const definition of realCorpus().definitions) runtime.register(definition)
    const sections = runtime.prompt().sections
    const sdk = sections.find((section) => section.id === 'tools:sdk')?.text ?? ''
    expect(sdk).toContain('async def search_tools(')
    expect(sdk).toContain('async def describe_tool(')
    const index = sections.find((section) => section.id === 'tools:index')?.text ?? ''
    expect(index).toContain('await tools.search_tools(query="what you want to do")')
    const code = `found = await tools.search_tools(query="dump the entire knowledge graph", limit=1)
print(found["declarations"])
described = await tools.describe_tool(name="filesystem__list_allowed_directories")
print(described["declarations"])
name = found["matches"][0]["name"]
return {"name": name, "value": await tools[name]()}`
    const result = expectSuccess(
      await runtime.execute({ id: 'py', name: 'run_code', arguments: { code, description: 'search' } }),
    )
    expect(result.value).toEqual({ name: 'memory__read_graph', value: { list: 'memory', tool: 'read_graph' } })
    const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
    expect(text).toContain('async def memory__read_graph(')
    expect(text).toContain('async def filesystem__list_allowed_directories(')
    expect(text).not.toContain('class ToolCallError')
  })
})
