// The library in 20 lines: define a tool, run a call through the pipeline, then the same tool from a program.
import { defineTool } from '../src/definition/define-tool.js'
import { createToolRuntime } from '../src/pipeline/create-tool-runtime.js'
import { createNodePtcRuntime } from '../src/ptc/node/index.js'

const weather = defineTool({
  name: 'weather',
  description: 'Current temperature of a city in degrees Celsius.',
  parameters: { city: { type: 'string', required: true } },
  output: { schema: { type: 'object', properties: { celsius: { type: 'number', required: true } } } },
  executionMode: 'parallel',
  execute: ({ city }) => ({ celsius: city.length * 3 }),
})

const ptcRuntime = createNodePtcRuntime()
const runtime = createToolRuntime({ mode: 'both', ptcRuntime })
runtime.register(weather)

const direct = await runtime.execute({ id: 'call-1', name: 'weather', arguments: '{"city":"Oslo"}' })
console.log(direct.content) // [ { type: 'text', text: '{"celsius":12}' } ]

const code = `const cities = ['Oslo', 'Lisbon', 'Reykjavik']
const readings = await Promise.all(cities.map((city) => tools.weather({ city })))
return cities[readings.findIndex((reading) => reading.celsius === Math.max(...readings.map((r) => r.celsius)))]`
const program = await runtime.execute({ id: 'call-2', name: 'run_code', arguments: { code, description: 'warmest' } })
console.log(program.content) // [ { type: 'text', text: 'Reykjavik' } ]
await ptcRuntime.close()
