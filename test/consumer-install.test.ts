import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type ConsumerInstall,
  compilersOn,
  installedFigures,
  installInConsumer,
  packWorkspace,
  runInConsumer,
} from '../scripts/consumer-install.js'
import { ensureBuiltCli, repositoryRoot } from './support/built-cli.js'

const script = `import { createToolRuntime, defineTool } from 'qilin-tools'

const weather = defineTool({
  name: 'weather',
  description: 'Current temperature of a city in degrees Celsius.',
  parameters: { city: { type: 'string', required: true } },
  execute: ({ city }) => ({ celsius: city.length * 3 }),
})
const runtime = createToolRuntime()
runtime.register(weather)
const valid = await runtime.execute({ id: 'call-1', name: 'weather', arguments: '{"city":"Oslo"}' })
const hostile = await runtime.execute({ id: 'call-2', name: 'weather', arguments: '{"city":' + '['.repeat(100000) })
console.log(JSON.stringify({ valid, hostile: hostile.ok ? 'ok' : hostile.error.code }))
`

describe('the core tarball in a consumer project with no compiler on PATH', () => {
  const packs = mkdtempSync(join(tmpdir(), 'qilin-packs-'))
  let install: ConsumerInstall

  beforeAll(() => {
    ensureBuiltCli()
    install = installInConsumer(packWorkspace(join(repositoryRoot, 'packages', 'core'), packs))
  }, 240_000)
  afterAll(() => rmSync(packs, { recursive: true, force: true }))

  it('installs with npm while no compiler is reachable', () => {
    expect(compilersOn(install.path)).toEqual([])
    expect(install.status, install.output).toBe(0)
  })

  it('brings no dependency, so nothing with an install script', () => {
    const figures = installedFigures(install.directory, 'qilin-tools')
    expect(figures.dependencies).toEqual([])
    expect(figures.withInstallScripts).toEqual([])
    // "Under 1 MB unpacked", in the decimal megabytes npm prints.
    expect(figures.installedBytes).toBeLessThan(1_000_000)
  })

  it('runs defineTool, createToolRuntime and execute from the installed package, hostile arguments included', () => {
    const run = runInConsumer(install, script)
    expect(run.stderr).toBe('')
    const printed = JSON.parse(run.stdout) as { valid: unknown; hostile: string }
    expect(printed.valid).toMatchObject({ ok: true, content: [{ type: 'text', text: '{"celsius":12}' }] })
    expect(printed.hostile).toBe('INVALID_ARGUMENTS')
    expect(run.status).toBe(0)
  })
})

describe('compilersOn', () => {
  it('finds a compiler on a PATH that has one (the check can fail)', () => {
    const folder = mkdtempSync(join(tmpdir(), 'qilin-path-'))
    try {
      writeFileSync(join(folder, 'make'), '')
      expect(compilersOn(`/nonexistent:${folder}`)).toEqual(['make'])
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })
})
