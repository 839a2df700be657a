import { describe, expect, it } from 'vitest'
import { defaultPtcLimits } from '../ptc-limits.js'
import type { PtcToolView } from '../ptc-port.js'
import { presentPython } from './present-python.js'

const tools: PtcToolView[] = [
  {
    name: 'read_file',
    description: 'Read a text file.\nKeeps {{placeholders}} literal.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Absolute path' },
        limit: { type: 'integer', minimum: 1 },
      },
      required: ['path'],
    },
    output: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  {
    name: 'get-sum',
    description: 'Adds two numbers.',
    parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  },
]

describe('presentPython', () => {
  it('shows the instructions and the SDK block', () => {
    const { sections } = presentPython(tools, 'ptc', defaultPtcLimits)
    expect(sections.map((section) => [section.id, section.order, section.interpolate])).toEqual([
      ['tools:ptc-only', 4900, false],
      ['tools:sdk', 5000, false],
    ])
    expect(sections[1]?.text).toMatchSnapshot()
  })

  it('gives run_code a code description with keyword arguments and the shared deadline fields', () => {
    expect(presentPython(tools, 'both', defaultPtcLimits).runCode).toMatchSnapshot()
  })

  it('is byte-identical whatever the registration order', () => {
    const forward = presentPython(tools, 'both', defaultPtcLimits)
    const backward = presentPython([...tools].reverse(), 'both', defaultPtcLimits)
    expect(JSON.stringify(backward)).toBe(JSON.stringify(forward))
    expect(forward.sections.map((section) => section.id)).toEqual(['tools:sdk'])
  })
})
