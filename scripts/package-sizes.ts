// `node --import tsx scripts/package-sizes.ts` (after `npm run build`): each workspace package's tarball, unpacked
// size and file count as `npm pack` reports them, then the core tarball installed in a fresh consumer project with
// no compiler on PATH: how many dependencies came with it, how many of them run install scripts, and the bytes on disk.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { installedFigures, installInConsumer, packWorkspace } from './consumer-install.js'
import { workspacePackages } from './workspace-packages.js'

const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`

console.log('| package | unpacked | files | packed |')
console.log('| --- | ---: | ---: | ---: |')
for (const workspace of workspacePackages()) {
  const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: workspace.directory,
    encoding: 'utf8',
  })
  const [pack] = JSON.parse(output) as [{ size: number; unpackedSize: number; entryCount: number }]
  console.log(`| ${workspace.name} | ${kilobytes(pack.unpackedSize)} | ${pack.entryCount} | ${kilobytes(pack.size)} |`)
}

const packs = mkdtempSync(join(tmpdir(), 'qilin-packs-'))
try {
  const core = workspacePackages().find((workspace) => workspace.name === 'qilin-tools')!
  const install = installInConsumer(packWorkspace(core.directory, packs))
  if (install.status !== 0) throw new Error(`npm install of the core tarball failed:\n${install.output}`)
  const figures = installedFigures(install.directory, 'qilin-tools')
  console.log('')
  console.log('| core installed in a consumer (no compiler on PATH) | |')
  console.log('| --- | ---: |')
  console.log(`| dependencies | ${figures.dependencies.length} |`)
  console.log(`| dependencies with install scripts | ${figures.withInstallScripts.length} |`)
  console.log(`| node_modules bytes | ${figures.installedBytes} (${kilobytes(figures.installedBytes)}) |`)
  rmSync(join(install.directory, '..'), { recursive: true, force: true })
} finally {
  rmSync(packs, { recursive: true, force: true })
}
