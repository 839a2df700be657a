import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { expectSuccess } from '../../test/support/settled-result.js'
import { defineTool } from '../definition/define-tool.js'
import { buildRuntime } from './build-runtime.js'
import type { CliIo } from './cli-command.js'

const io: CliIo = {
  cwd: process.cwd(),
  env: {},
  stdin: Readable.from([]),
  stdinIsTty: false,
  stderrIsTty: false,
  write: () => {},
  error: () => {},
  status: () => {},
  stop: new AbortController().signal,
}

describe('buildRuntime', () => {
  it("gives the runtime the config's result budget", async () => {
    const cli = await buildRuntime(
      { file: undefined, directory: process.cwd(), config: { toolkit: false, limits: { maxResultBytes: 500 } } },
      { mode: 'native', language: undefined },
      io,
    )
    try {
      cli.runtime.register(
        defineTool({ name: 'long', description: 'A long answer.', parameters: {}, execute: () => 'l'.repeat(2_000) }),
      )
      const result = expectSuccess(await cli.runtime.execute({ id: 'l1', name: 'long', arguments: {} }))
      const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
      expect(text.length).toBeLessThanOrEqual(500)
      expect(text).toContain('[Result cut: you see the first')
    } finally {
      await cli.close()
    }
  })
})
