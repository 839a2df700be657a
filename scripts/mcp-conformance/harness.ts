// The official conformance harness and the Node 22 it needs, installed from the npm registry into a cache under
// node_modules (the project's own engine stays Node 20). Pinned: a new suite version is a deliberate change.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const SUITE_VERSION = '0.1.16'
export const HARNESS_NODE_VERSION = '22.23.5'

/** Paths to the harness's Node binary and its entry script. */
export interface Harness {
  readonly node: string
  readonly suite: string
}

export function ensureHarness(projectRoot: string): Harness {
  const directory = join(projectRoot, 'node_modules', '.cache', `qilin-mcp-conformance-${SUITE_VERSION}`)
  const nodePackage = `node-${process.platform}-${process.arch}`
  const harness = {
    node: join(directory, 'node_modules', nodePackage, 'bin', 'node'),
    suite: join(directory, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js'),
  }
  if (existsSync(harness.node) && existsSync(harness.suite)) return harness
  mkdirSync(directory, { recursive: true })
  writeFileSync(join(directory, 'package.json'), '{ "private": true }\n')
  const packages = [`${nodePackage}@${HARNESS_NODE_VERSION}`, `@modelcontextprotocol/conformance@${SUITE_VERSION}`]
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...packages], {
    cwd: directory,
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  return harness
}
