import { describe, expect, it } from 'vitest'
import { codeLines, lineCountTable, localModules } from '../scripts/count-example-lines.js'

describe('codeLines', () => {
  it('skips blank lines and comments, and counts comment markers inside strings, templates and regexes as code', () => {
    const text = [
      '// a comment',
      '',
      '/* a block',
      '   comment */',
      "const url = 'http://example.com' // trailing",
      'const template = `',
      '// inside a template',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text under test is TypeScript source with a template.
      '${url}`',
      'const pattern = /\\/\\/ not a comment/',
      '/** docs */ const after = 1',
      '   ',
    ].join('\n')
    expect(codeLines(text)).toBe(6)
  })

  it('counts a file of comments only as nothing', () => {
    expect(codeLines('// one\n/* two */\n\n')).toBe(0)
  })
})

describe('the examples of issue 20', () => {
  const rows = Object.fromEntries(lineCountTable().map((row) => [row.framework, row]))

  it('counts the shared tool module toward every example that imports it', () => {
    expect(localModules('openai-agent.ts')).toEqual(['openai-agent.ts', 'travel-tools.ts'])
    expect(localModules('baselines/langchain-agent.ts')).toEqual([
      'baselines/langchain-agent.ts',
      'baselines/memory-mcp.ts',
    ])
  })

  it('writes the agent on the raw openai client with runToolTurn in at most 60 lines', () => {
    expect(rows['openai (raw, runToolTurn)']!.ours.lines).toBeLessThanOrEqual(60)
  })

  it('writes it with each framework adapter in no more lines than without qilin-tools', () => {
    for (const framework of ['AI SDK', 'OpenAI Agents', 'LangChain']) {
      const row = rows[framework]!
      expect(row.ours.lines, framework).toBeLessThanOrEqual(row.theirs.lines)
    }
  })

  it('pins the figures the README quotes', () => {
    expect(
      Object.fromEntries(lineCountTable().map((row) => [row.framework, [row.ours.lines, row.theirs.lines]])),
    ).toMatchInlineSnapshot(`
      {
        "AI SDK": [
          63,
          99,
        ],
        "LangChain": [
          64,
          98,
        ],
        "OpenAI Agents": [
          50,
          52,
        ],
        "openai (raw, runToolTurn)": [
          56,
          125,
        ],
      }
    `)
  })
})
