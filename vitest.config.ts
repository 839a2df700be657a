import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const packages = fileURLToPath(new URL('packages/', import.meta.url))

/** Package folder of each workspace name: tests run against the sources, with no build in between. */
const folders = {
  'qilin-tools': 'core',
  '@qilin-tools/store': 'store',
  '@qilin-tools/sandbox': 'sandbox',
  '@qilin-tools/code-mode': 'code-mode',
  '@qilin-tools/code-mode-node': 'code-mode-node',
  '@qilin-tools/code-mode-python': 'code-mode-python',
  '@qilin-tools/mcp': 'mcp',
  '@qilin-tools/toolkit': 'toolkit',
  '@qilin-tools/cli': 'cli',
}

const escapeRegExp = (name: string) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

// The same map as `paths` in tsconfig.json: `qilin-tools/internal/pipeline/call.js` → packages/core/src/pipeline/call.ts.
const alias = Object.entries(folders).flatMap(([name, folder]) => [
  { find: new RegExp(`^${escapeRegExp(name)}/internal/(.*)\\.js$`), replacement: `${packages}${folder}/src/$1.ts` },
  { find: new RegExp(`^${escapeRegExp(name)}$`), replacement: `${packages}${folder}/src/index.ts` },
])
alias.push(
  { find: /^qilin-tools\/providers$/, replacement: `${packages}core/src/providers/index.ts` },
  { find: /^qilin-tools\/providers\/ai-sdk$/, replacement: `${packages}core/src/providers/ai-sdk/index.ts` },
  {
    find: /^qilin-tools\/providers\/(openai-agents|langchain|mastra)$/,
    replacement: `${packages}core/src/providers/$1/index.ts`,
  },
  // Arrives with src/telemetry/ (see scripts/split-packages.mjs); nothing imports it before then.
  { find: /^qilin-tools\/opentelemetry$/, replacement: `${packages}core/src/telemetry/index.ts` },
)

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
    // isolated-vm on Node 20+ needs the built-in snapshot off in every process that creates an isolate.
    pool: 'forks',
    execArgv: ['--no-node-snapshot'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    typecheck: {
      include: ['packages/*/src/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
  },
})
