import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import {
  type ClientCapabilities,
  type CreateMessageRequest,
  CreateMessageRequestSchema,
  type CreateMessageResult,
  CreateMessageResultSchema,
  CreateMessageResultWithToolsSchema,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  ElicitResultSchema,
  ErrorCode,
  type LoggingLevel,
  McpError,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js'
import { thrownMessage } from 'qilin-tools/internal/errors/thrown-message.js'
import { type CallOrigin, callOriginOf, clientSupports } from './call-origin.js'
import type { McpLogMessage } from './log-messages.js'
import { createProgressGate, type McpProgress } from './progress-gate.js'

/** A `sampling/createMessage` request an MCP server made, for the host to answer. */
export interface McpSamplingRequest {
  /** The `name` of the connection it came from. */
  readonly server: string
  readonly params: CreateMessageRequest['params']
  /** Aborted when the server cancels the request or it times out. */
  readonly signal: AbortSignal
}

/** An `elicitation/create` request an MCP server made, for the host to put to the user. */
export interface McpElicitationRequest {
  /** The `name` of the connection it came from. */
  readonly server: string
  readonly params: ElicitRequest['params']
  /** Aborted when the server cancels the request or it times out. */
  readonly signal: AbortSignal
}

/** What the host can answer an upstream server's requests and progress with; all optional. */
export interface InteractionOptions {
  readonly serverName: string
  readonly requestTimeoutMs: number
  readonly capabilities: ClientCapabilities | undefined
  readonly onSampling: ((request: McpSamplingRequest) => Promise<CreateMessageResult>) | undefined
  readonly onElicitation: ((request: McpElicitationRequest) => Promise<ElicitResult>) | undefined
  readonly onProgress: ((progress: McpProgress) => void) | undefined
}

/** A request's parameters larger than this (as JSON) are refused, never forwarded. */
export const MAX_FORWARDED_REQUEST_BYTES = 1_048_576
/** Sampling and elicitation requests one call may have waiting at once; more are refused. */
export const MAX_PENDING_REQUESTS_PER_CALL = 4

interface InFlight {
  readonly callId: string
  readonly origin: CallOrigin | undefined
  pending: number
  readonly progress: (update: Progress) => void
}

type Kind = 'sampling' | 'elicitation'

/** The SDK keeps each session's `logging/setLevel` choice to itself; its own filter is the one to honour. */
function clientIgnores(origin: CallOrigin, level: LoggingLevel): boolean {
  const filter = (origin.server as unknown as { isMessageIgnored?: (level: LoggingLevel, session?: string) => boolean })
    .isMessageIgnored
  return typeof filter === 'function' && filter.call(origin.server, level, origin.server.transport?.sessionId)
}

function refuse(message: string): McpError {
  return new McpError(ErrorCode.InvalidRequest, message)
}

/**
 * What one connection does with the requests, progress and log messages its server sends while calls run. A request
 * goes to the client that made the call through `serveMcp`, on that call's stream, when exactly one call is in flight
 * (nothing in the protocol says which call a server request belongs to, so with several the answer would be a guess
 * and could reach the wrong client); otherwise to the host's `onSampling` / `onElicitation`; otherwise the server is
 * told why nobody can answer. Progress is tied to its call by its token, so it always reaches the right client.
 */
export function createCallInteractions(options: InteractionOptions) {
  const { serverName } = options
  const inFlight = new Map<number, InFlight>()
  let nextCall = 0
  /** Requests the host answers outside any single call share one budget. */
  const hostCount = { pending: 0 }

  const declared = (): ClientCapabilities => {
    const capabilities: ClientCapabilities = { ...options.capabilities }
    if (options.onSampling !== undefined && capabilities.sampling === undefined) capabilities.sampling = {}
    if (options.onElicitation !== undefined && capabilities.elicitation === undefined) {
      capabilities.elicitation = { form: {} }
    }
    const elicitation = capabilities.elicitation
    // An empty `elicitation` is how clients before 2025-11-25 declared forms; it means form support still.
    const form =
      elicitation !== undefined && elicitation.form === undefined && elicitation.url === undefined
        ? {}
        : elicitation?.form
    // The SDK fills the schema's defaults into an accepted form answer the user left short (SEP-1034).
    if (form !== undefined)
      capabilities.elicitation = { ...capabilities.elicitation, form: { ...form, applyDefaults: true } }
    return capabilities
  }

  const nobody = (kind: Kind, reason: string) =>
    refuse(`${kind} is not available from this client (qilin-tools, server "${serverName}"): ${reason}`)

  const withinBudget = async <Value>(
    count: { pending: number },
    kind: Kind,
    work: () => Promise<Value>,
  ): Promise<Value> => {
    if (count.pending >= MAX_PENDING_REQUESTS_PER_CALL) {
      throw refuse(`too many ${kind} requests at once: at most ${MAX_PENDING_REQUESTS_PER_CALL} may wait per call`)
    }
    count.pending++
    try {
      return await work()
    } finally {
      count.pending--
    }
  }

  const answer = async (
    kind: Kind,
    request: CreateMessageRequest | ElicitRequest,
    signal: AbortSignal,
  ): Promise<CreateMessageResult | ElicitResult> => {
    const { _meta: _ignored, ...params } = request.params as Record<string, unknown>
    const size = JSON.stringify(params).length
    if (size > MAX_FORWARDED_REQUEST_BYTES) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `${kind} request refused: its parameters are ${size} bytes of JSON, over the ${MAX_FORWARDED_REQUEST_BYTES} allowed`,
      )
    }
    const calls = [...inFlight.values()]
    const only = calls.length === 1 ? calls[0] : undefined
    const mode = kind === 'elicitation' ? (params.mode as string | undefined) : undefined
    const origin = only?.origin
    if (only !== undefined && origin !== undefined && clientSupports(origin, kind, mode)) {
      const forwarded = { ...request, params } as CreateMessageRequest | ElicitRequest
      const schema =
        kind === 'elicitation'
          ? ElicitResultSchema
          : params.tools !== undefined || params.toolChoice !== undefined
            ? CreateMessageResultWithToolsSchema
            : CreateMessageResultSchema
      return withinBudget(only, kind, () =>
        origin.sendRequest(forwarded, schema, { signal, timeout: options.requestTimeoutMs }),
      ) as Promise<CreateMessageResult | ElicitResult>
    }
    const host = kind === 'sampling' ? options.onSampling : options.onElicitation
    if (host !== undefined) {
      const hostRequest = { server: serverName, params, signal } as McpSamplingRequest & McpElicitationRequest
      return withinBudget(only ?? hostCount, kind, async () => {
        try {
          return await host(hostRequest)
        } catch (cause) {
          throw new McpError(
            ErrorCode.InternalError,
            `the host could not answer the ${kind} request: ${thrownMessage(cause)}`,
          )
        }
      })
    }
    if (calls.length === 0) throw nobody(kind, 'the request came while no tool call was running')
    if (only === undefined) {
      throw nobody(kind, `${calls.length} tool calls are running, and nothing says which one the request belongs to`)
    }
    if (origin === undefined) throw nobody(kind, 'the tool call did not come from an MCP client that could answer')
    throw nobody(
      kind,
      `the MCP client that made the call does not support ${kind}${mode === 'url' ? ' in URL mode' : ''}`,
    )
  }

  return {
    /** What the connection declares: the host's own choice, plus what its handlers can answer. */
    capabilities: declared,

    /** Answers the server's sampling and elicitation requests, where the connection declares them. */
    install(client: Client, current: () => boolean): void {
      const capabilities = declared()
      const stale = () => refuse('the connection this request came on was replaced')
      if (capabilities.sampling !== undefined) {
        client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
          current()
            ? (answer('sampling', request, extra.signal) as Promise<CreateMessageResult>)
            : Promise.reject(stale()),
        )
      }
      if (capabilities.elicitation !== undefined) {
        client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
          current() ? (answer('elicitation', request, extra.signal) as Promise<ElicitResult>) : Promise.reject(stale()),
        )
      }
    },

    /** Runs one upstream call, in flight until it settles; `work` gets the progress handler for `callTool`. */
    async track<Value>(
      callId: string,
      toolName: string,
      work: (onprogress: (update: Progress) => void) => Promise<Value>,
    ): Promise<Value> {
      const key = nextCall++
      const origin = callOriginOf(callId)
      const gate = createProgressGate()
      const entry: InFlight = {
        callId,
        origin,
        pending: 0,
        progress: (update) => {
          const progress = gate(update)
          if (progress === undefined) return
          const { progressToken } = origin ?? {}
          if (origin !== undefined && progressToken !== undefined) {
            origin
              .sendNotification({ method: 'notifications/progress', params: { progressToken, ...progress } })
              .catch(() => {})
          }
          try {
            options.onProgress?.({ server: serverName, tool: toolName, callId, ...progress })
          } catch {
            // The host's listener is not the server's problem: the call keeps running.
          }
        },
      }
      inFlight.set(key, entry)
      try {
        return await work(entry.progress)
      } finally {
        inFlight.delete(key)
      }
    },

    /**
     * Passes a log message on to the client that made the one call in flight, on that call's stream, at or above
     * the level that client chose. Returns whether it went anywhere.
     */
    forwardLog(message: McpLogMessage): boolean {
      const calls = [...inFlight.values()]
      const origin = calls.length === 1 ? calls[0]?.origin : undefined
      if (origin === undefined || clientIgnores(origin, message.level)) return false
      const logger = message.logger === undefined ? message.server : `${message.server}/${message.logger}`
      origin
        .sendNotification({
          method: 'notifications/message',
          params: { level: message.level, logger, data: message.data },
        })
        .catch(() => {})
      return true
    },
  }
}

export type { McpProgress }
