import { createNodePtcRuntime } from '@qilin-tools/code-mode-node'
import { createToolRuntime, defineTool } from 'qilin-tools'

const weather = defineTool({
  name: 'weather',
  description: 'Current temperature of a city in degrees Celsius.',
  parameters: { city: { type: 'string', required: true } }, // execute gets { city: string }
  output: { schema: { type: 'object', properties: { celsius: { type: 'number', required: true } } } },
  executionMode: 'parallel',
  execute: ({ city }) => ({ celsius: city.length * 3 }),
})

const ptcRuntime = createNodePtcRuntime()
const runtime = createToolRuntime({ mode: 'both', ptcRuntime }) // native schemas and run_code
runtime.register(weather) // returns a disposer

const direct = await runtime.execute({ id: 'call-1', name: 'weather', arguments: '{"city":"Oslo"}' })
// direct.content: [{ type: 'text', text: '{"celsius":12}' }]

const code = `const readings = await Promise.all(['Oslo', 'Lima'].map((city) => tools.weather({ city })))
return readings.map((reading) => reading.celsius)`
const program = await runtime.execute({ id: 'call-2', name: 'run_code', arguments: { code, description: 'temps' } })
// program.content: [{ type: 'text', text: '[12,12]' }]
console.log(JSON.stringify([direct.content, program.content]))
await ptcRuntime.close()
