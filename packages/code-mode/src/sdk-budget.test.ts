import { describe, expect, it } from 'vitest'
import { defaultPtcLimits } from './ptc-limits.js'
import { renderWithinBudget } from './render-within-budget.js'
import { sdkBudget } from './sdk-budget.js'

describe('renderWithinBudget', () => {
  const tools = [{ name: 'a' }, { name: 'bad' }, { name: 'c' }]

  it('leaves out a tool whose render throws anything, alone, and renders the rest', () => {
    const render = (chosen: readonly { name: string }[]) => {
      if (chosen.some((tool) => tool.name === 'bad')) throw new RangeError('Invalid string length')
      return chosen.map((tool) => tool.name).join(',')
    }
    expect(renderWithinBudget(tools, render, sdkBudget(defaultPtcLimits, runCode, []))).toEqual({
      text: 'a,c',
      omitted: [{ name: 'bad', reason: 'rendering it failed: Invalid string length' }],
    })
  })
})

const runCode = { name: 'run_code', description: 'Runs a program.', parameters: { type: 'object' } } as const
