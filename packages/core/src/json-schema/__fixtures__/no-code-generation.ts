// Run with `node --disallow-code-generation-from-strings`: `new Function` throws an EvalError, as under a
// Content-Security-Policy without 'unsafe-eval'. Prints what the validator did there, as one JSON line.
import { compileSchema } from '../compile.js'
import { codeGenerationForbidden } from '../generated-function.js'
import { codeGenerationCases } from './code-generation-cases.js'

const withoutCodegen = codeGenerationCases.map(({ schema, values }) => {
  const compiled = compileSchema(schema, { codegen: false })
  return values.map((value) => compiled.validate(value))
})
const askedWithoutCodegen = codeGenerationForbidden()
const withCodegen = codeGenerationCases.map(({ schema, values }) => {
  const compiled = compileSchema(schema)
  return values.map((value) => compiled.validate(value))
})
let refused = ''
try {
  new Function('return 1')
} catch (error) {
  refused = (error as Error).name
}
console.log(
  JSON.stringify({ refused, askedWithoutCodegen, forbidden: codeGenerationForbidden(), withoutCodegen, withCodegen }),
)
