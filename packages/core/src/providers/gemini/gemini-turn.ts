import type { JsonObject } from '../../json-schema/json-value.js'
import { MAX_CALL_ID_LENGTH, notAResponse, recordOf, recordsOf, textOf } from '../turn-calls.js'
import type { ReadTurn, TurnContext, TurnFormat } from '../turn-format.js'
import {
  fromGeminiFunctionCalls,
  type GeminiContent,
  type GeminiFunctionCall,
  toGeminiFunctionResponses,
} from './gemini-messages.js'
import { type GeminiFunctionDeclaration, toGeminiTools } from './to-gemini-tools.js'

/** What `runToolTurn` reads of a `generateContent` response (structurally `GenerateContentResponse`). */
export interface GeminiResponse {
  readonly candidates?: readonly { readonly content?: { readonly parts?: readonly object[] } }[]
}

/** The model turn as it is sent back: the first candidate's parts (thought signatures included). */
export interface GeminiModelContent<Part = object> {
  role: 'model'
  parts: Part[]
}

/** A content a Gemini turn appends: the model's, then the user turn of `functionResponse` parts. */
export type GeminiTurnContent<Part = object> = GeminiModelContent<Part> | GeminiContent

/** The `generateContent` fields (or the SDK's `config`) for the tool layer: the system instruction and the tools. */
export interface GeminiRequest {
  systemInstruction?: { parts: { text: string }[] }
  tools?: { functionDeclarations: GeminiFunctionDeclaration[] }[]
}

/** Gemini: the first candidate's parts that are objects are sent back; each `functionCall` part is one call. */
export const geminiTurn: TurnFormat<GeminiTurnContent, GeminiRequest, GeminiFunctionDeclaration> = {
  project: (schemas) => toGeminiTools(schemas),
  read(response: unknown, context: TurnContext): ReadTurn<GeminiTurnContent> {
    const record = recordOf(response)
    const candidates = record?.candidates
    // No candidates is a response too: a blocked prompt has none, and the turn ends.
    if (record === undefined || (candidates !== undefined && !Array.isArray(candidates))) {
      throw notAResponse('gemini', 'a candidates array, or none')
    }
    const parts = recordsOf(recordOf(recordOf(candidates?.[0])?.content)?.parts)
    const taken = new Set<string>()
    const texts: string[] = []
    const asked: { functionCall: GeminiFunctionCall }[] = []
    const sent = parts.map((part): object => {
      if (typeof part.text === 'string' && part.thought !== true) texts.push(part.text)
      if (!('functionCall' in part)) return part
      const { id, ...call } = recordOf(part.functionCall) ?? {}
      // An id the model repeats or garbles is left out, so the call is answered by its position, as older models' are.
      const kept = typeof id === 'string' && id.length > 0 && id.length <= MAX_CALL_ID_LENGTH && !taken.has(id)
      if (kept) taken.add(id)
      const functionCall = { ...call, name: textOf(call.name), ...(kept ? { id } : {}) }
      // The parser reads the arguments as sent (the pipeline refuses what is not an object); the API takes back objects.
      asked.push({ functionCall: { ...functionCall, args: call.args as JsonObject } })
      return { ...part, functionCall: { ...functionCall, args: recordOf(call.args) ?? {} } }
    })
    const assistant: GeminiModelContent[] = sent.length === 0 ? [] : [{ role: 'model', parts: sent }]
    return { assistant, calls: fromGeminiFunctionCalls(asked, context), text: texts.join('') }
  },
  answer: (calls, results, report) => [toGeminiFunctionResponses(results, { calls, report })],
  request: (system, tools) => ({
    ...(system === '' ? {} : { systemInstruction: { parts: [{ text: system }] } }),
    ...(tools.length > 0 ? { tools: [{ functionDeclarations: tools }] } : {}),
  }),
}
