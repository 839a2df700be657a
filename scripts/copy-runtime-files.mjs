// Copies the non-TypeScript files a built runtime reads beside its modules (the Python runner) into dist/.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'

const source = new URL('../src/', import.meta.url).pathname
const target = new URL('../dist/', import.meta.url).pathname

function copyPython(directory) {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) copyPython(path)
    else if (entry.name.endsWith('.py')) {
      const destination = join(target, relative(source, path))
      mkdirSync(dirname(destination), { recursive: true })
      copyFileSync(path, destination)
    }
  }
}

copyPython(source)
