import { byteLength } from 'qilin-tools/internal/definition/byte-length.js'
import { ScopedRegistry } from 'qilin-tools/internal/registry/scoped-registry.js'
import { realCorpus, tenfoldCorpus } from 'qilin-tools/internal/tool-search/__fixtures__/search-corpus.js'
import { searchView } from 'qilin-tools/internal/tool-search/search-view.js'
import { resolveToolSearch } from 'qilin-tools/internal/tool-search/tool-search-options.js'
import { describe, expect, it } from 'vitest'
import { MAX_INDEX_BYTES, toolIndexSection } from './tool-index-section.js'

function indexOf(definitions: ReturnType<typeof realCorpus>['definitions']) {
  const registry = new ScopedRegistry()
  for (const definition of definitions) registry.register(registry.global, definition)
  const view = searchView(registry.visible(registry.global), resolveToolSearch({ threshold: 0 }))
  return { tools: view.deferredSchemas, prefixes: view.prefixes }
}

describe('the code-mode index of searchable tools', () => {
  it('lists names with summaries while they fit, grouped by prefix', () => {
    const section = toolIndexSection(indexOf(realCorpus().definitions.slice(0, 15)), 'typescript')
    expect(section.text).toContain('everything__ (13):\n  echo - Echoes back the input string\n')
    expect(section.text).toMatchSnapshot()
  })

  it('falls back to names only for the 129 real tools, in TypeScript and Python', () => {
    const index = indexOf(realCorpus().definitions)
    const typescript = toolIndexSection(index, 'typescript')
    expect(typescript.text).toMatchSnapshot()
    const python = toolIndexSection(index, 'python')
    expect(python.text).toContain('await tools.search_tools(query="what you want to do")')
    expect(python.text.split('\n').slice(3)).toEqual(typescript.text.split('\n').slice(3))
  })

  it('shows only prefixes and counts for 1,290 tools, and stays within its byte budget at 10,000', () => {
    const tenfold = toolIndexSection(indexOf(tenfoldCorpus().definitions), 'typescript')
    expect(tenfold.text).toMatchSnapshot()
    const base = realCorpus().definitions
    const many = Array.from({ length: 10_000 }, (_, index) => {
      const original = base[index % base.length] as (typeof base)[number]
      return { ...original, name: `s${Math.floor(index / base.length)}-${original.name}` }
    })
    const text = toolIndexSection(indexOf(many), 'typescript').text
    expect(byteLength(text)).toBeLessThanOrEqual(MAX_INDEX_BYTES + 1)
    expect(text).toMatch(/, and \d+ more prefixes\n$/)
  })
})
