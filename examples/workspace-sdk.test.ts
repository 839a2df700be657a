import { fileURLToPath } from 'node:url'
import { buildRuntime } from '@qilin-tools/cli/internal/build-runtime.js'
import { loadConfig } from '@qilin-tools/cli/internal/load-config.js'
import { ptcToolViews } from '@qilin-tools/cli/internal/model-view.js'
import { processIo } from '@qilin-tools/cli/internal/process-io.js'
import { renderTypeScriptSdk } from '@qilin-tools/code-mode'
import { describe, expect, it } from 'vitest'

const header = [
  '// biome-ignore-all format: generated text, kept byte-identical to what the model sees',
  '// The SDK the example programs run against, as the model sees it (`qilin-tools sdk --declarations`),',
  '// made a module so it declares nothing global. Generated: examples/workspace-sdk.test.ts fails when it is stale.',
]

describe('examples/workspace-sdk.d.ts', () => {
  it('is the SDK of the example config, as a module (vitest -u regenerates it)', async () => {
    const examples = fileURLToPath(new URL('.', import.meta.url))
    const loaded = loadConfig('qilin.config.json', [], examples)
    const built = await buildRuntime(loaded, { mode: 'native', language: undefined }, processIo())
    try {
      const sdk = renderTypeScriptSdk(ptcToolViews(built.runtime))
        .replace(/^declare const tools: /m, 'export type Tools = ')
        .replace(/^declare class ToolCallError/m, 'export declare class ToolCallError')
      await expect(`${header.join('\n')}\n${sdk}`).toMatchFileSnapshot('./workspace-sdk.d.ts')
    } finally {
      await built.close()
    }
  })
})
