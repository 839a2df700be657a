import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { configJsonSchema } from '../scripts/docs/config-json-schema.js'
import { pythonPresentation } from '../scripts/docs/tool-catalog.js'
import { collectDocsInput, type DocsInput, REPOSITORY_ROOT, renderDocs, staleDocs } from '../scripts/generate-docs.js'
import { CONFIG_FIELDS, type ConfigField } from '../src/cli/config-fields.js'
import { parseConfig } from '../src/cli/parse-config.js'
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS } from '../src/mcp/serve-http.js'
import { resolveConfig } from '../src/pipeline/runtime-config.js'
import { defaultPtcLimits } from '../src/ptc/ptc-limits.js'
import { createPythonPtcRuntime } from '../src/ptc/python/create-python-ptc-runtime.js'
import { findPython } from '../src/ptc/python/find-python.js'
import { BASH_DEFAULT_TIMEOUT_MS } from '../src/toolkit/bash-tool.js'

let input: DocsInput

beforeAll(async () => {
  input = await collectDocsInput()
}, 60_000)

const committed = (path: string) => readFileSync(join(REPOSITORY_ROOT, path), 'utf8')

/** The files the check reports stale for `changed` that it does not report for the real input. */
function newlyStale(changed: DocsInput): string[] {
  const already = new Set(staleDocs(renderDocs(input)))
  return staleDocs(renderDocs(changed)).filter((path) => !already.has(path))
}

describe('generated docs', () => {
  it('are what the code gives now (run `npm run docs` after an intended change)', () => {
    expect(staleDocs(renderDocs(input))).toEqual([])
  })

  it('are byte-identical across runs', async () => {
    const again = renderDocs(await collectDocsInput())
    expect([...again]).toEqual([...renderDocs(input)])
  }, 60_000)

  it('name the config catalog stale when a field’s description changes', () => {
    const limits = input.config.cliFields.limits as ConfigField & { shape: { kind: 'object' } }
    const timeoutMs = limits.shape.fields.timeoutMs as ConfigField
    const changed: DocsInput = {
      ...input,
      config: {
        ...input.config,
        cliFields: {
          ...input.config.cliFields,
          limits: {
            ...limits,
            shape: {
              ...limits.shape,
              fields: { ...limits.shape.fields, timeoutMs: { ...timeoutMs, description: 'Something else.' } },
            },
          },
        },
      },
    }
    expect(newlyStale(changed)).toEqual(['docs/config-catalog.md', 'docs/qilin.config.schema.json'])
  })

  it('name the config catalog stale when an options interface’s field changes', () => {
    const [first, ...rest] = input.config.sections
    if (first === undefined) throw new Error('no options sections')
    const changed: DocsInput = {
      ...input,
      config: {
        ...input.config,
        sections: [{ ...first, fields: first.fields.map((field) => ({ ...field, default: '42' })) }, ...rest],
      },
    }
    expect(newlyStale(changed)).toEqual(['docs/config-catalog.md'])
  })

  it('name the tool catalog stale when a tool description changes', () => {
    const [first, ...rest] = input.tools.tools
    if (first === undefined) throw new Error('no tools')
    const changed: DocsInput = {
      ...input,
      tools: { ...input.tools, tools: [{ ...first, schema: { ...first.schema, description: 'Changed.' } }, ...rest] },
    }
    expect(newlyStale(changed)).toEqual(['docs/tool-catalog.md'])
  })

  it('refuse an options field without a description or a default, naming it', () => {
    const [first, ...rest] = input.config.sections
    if (first === undefined) throw new Error('no options sections')
    const [field, ...others] = first.fields
    if (field === undefined) throw new Error('no fields')
    const changed: DocsInput = {
      ...input,
      config: {
        ...input.config,
        sections: [
          { ...first, fields: [{ ...field, optional: true, default: undefined, description: '' }, ...others] },
          ...rest,
        ],
      },
    }
    expect(() => renderDocs(changed)).toThrow(
      `${first.interfaceName}.${field.name} has no description; ${first.interfaceName}.${field.name} has no @default tag`,
    )
  })

  it.skipIf(!('executable' in findPython(undefined)))(
    'show Python code mode as createPythonPtcRuntime presents it, escalation offered or not',
    async () => {
      const views = input.tools.tools.map(({ schema }) => schema)
      for (const escalated of [false, true]) {
        const real = createPythonPtcRuntime({
          poolSize: 0,
          confinement: 'none',
          ...(escalated ? { escalation: { network: true } } : {}),
        })
        try {
          expect(pythonPresentation(escalated).present(views, 'ptc')).toEqual(real.present(views, 'ptc'))
        } finally {
          await real.close()
        }
      }
    },
  )

  it('leak no machine path into the tool catalog', () => {
    const text = committed('docs/tool-catalog.md')
    expect(text).not.toContain(REPOSITORY_ROOT)
    expect(text).not.toMatch(/qilin-tool-catalog-/)
  })
})

describe('the qilin.config.json schema', () => {
  const schema = JSON.parse(committed('docs/qilin.config.schema.json'))
  const validate = new Ajv2020({ strict: true }).compile(schema)

  it('accepts the example config, which names it with $schema', () => {
    const example = JSON.parse(committed('examples/qilin.config.json'))
    expect(example.$schema).toBe('../docs/qilin.config.schema.json')
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true)
    expect(parseConfig(JSON.stringify(example), 'examples/qilin.config.json')).toEqual(example)
  })

  it('states the defaults the code applies', () => {
    const defaults = (section: string) =>
      Object.fromEntries(
        Object.entries(schema.properties[section].properties as Record<string, { default?: unknown }>).map(
          ([name, property]) => [name, property.default],
        ),
      )
    const runtime = resolveConfig(undefined)
    expect(defaults('limits')).toMatchObject({
      timeoutMs: defaultPtcLimits.defaultTimeoutMs,
      maxParallelCalls: runtime.maxParallelCalls,
      maxParallelSubCalls: runtime.maxParallelSubCalls,
      maxResultBytes: runtime.maxResultBytes,
      bashTimeoutMs: BASH_DEFAULT_TIMEOUT_MS,
    })
    expect(defaults('serve')).toMatchObject({
      sessionIdleMs: DEFAULT_SESSION_IDLE_MS,
      maxSessions: DEFAULT_MAX_SESSIONS,
    })
    expect(schema.properties.mode.default).toBe(runtime.mode)
  })

  it('is generated from the same table parseConfig checks', () => {
    expect(schema).toEqual(configJsonSchema(input.config.cliFields))
  })

  const text = fc.string({ minLength: 1, maxLength: 8 })
  const positive = fc.integer({ min: 1, max: 1_000_000 })
  const strings = fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 })
  const stdioServer = fc.record(
    { command: text, args: strings, env: fc.dictionary(text, text, { maxKeys: 2 }), cwd: text, disabled: fc.boolean() },
    { requiredKeys: ['command'] },
  )
  const httpServer = fc.record(
    { url: text, headers: fc.dictionary(text, text, { maxKeys: 2 }), type: fc.constantFrom('http', 'streamable-http') },
    { requiredKeys: ['url'] },
  )
  const config = fc.record(
    {
      workspace: text,
      toolkit: fc.boolean(),
      mode: fc.constantFrom('native', 'ptc', 'both'),
      language: fc.constantFrom('typescript', 'python'),
      mcpServers: fc.dictionary(text, fc.oneof(stdioServer, httpServer), { maxKeys: 3 }),
      approve: fc.dictionary(text, fc.constantFrom('ask', 'allow', 'deny'), { maxKeys: 3 }),
      limits: fc.record(
        { timeoutMs: positive, maxParallelCalls: positive, bashTimeoutMs: positive },
        { requiredKeys: [] },
      ),
      serve: fc.record({ allowedHosts: strings, token: text, maxSessions: positive }, { requiredKeys: [] }),
      bash: fc.record(
        { sandbox: fc.constantFrom('bubblewrap', 'none'), network: fc.boolean(), env: strings },
        { requiredKeys: [] },
      ),
      escalation: fc.record({ network: fc.boolean(), writablePaths: strings }, { requiredKeys: [] }),
    },
    { requiredKeys: [] },
  )
  const wrong = fc.constantFrom<unknown>(0, -1, 1.5, '', 'x', true, null, [], {}, [1], { x: 1 })
  /** Where a broken config gets its wrong value: a known field (top level or one level down), or any name. */
  const knownPaths = Object.entries(CONFIG_FIELDS).flatMap(([name, field]) => [
    [name],
    ...(field.shape.kind === 'object' ? Object.keys(field.shape.fields).map((member) => [name, member]) : []),
  ])
  const path = fc.oneof(fc.constantFrom(...knownPaths), fc.tuple(fc.string({ maxLength: 12 })))

  it('agrees with parseConfig on generated configs: what the schema accepts, parseConfig accepts', () => {
    fc.assert(
      fc.property(config, (value) => {
        expect(validate(value), JSON.stringify(validate.errors)).toBe(true)
        expect(parseConfig(JSON.stringify(value), 'generated.json')).toEqual(value)
      }),
      { numRuns: 200 },
    )
  })

  it('agrees with parseConfig on broken configs: both accept or both refuse', () => {
    fc.assert(
      fc.property(config, path, wrong, (value, [key = '', member], replacement) => {
        const inner = (value as Record<string, unknown>)[key]
        const candidate =
          member === undefined
            ? { ...value, [key]: replacement }
            : { ...value, [key]: { ...(typeof inner === 'object' ? inner : {}), [member]: replacement } }
        let parsed = true
        try {
          parseConfig(JSON.stringify(candidate), 'generated.json')
        } catch {
          parsed = false
        }
        expect(validate(candidate)).toBe(parsed)
      }),
      { numRuns: 300 },
    )
  })
})
