import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { isJSONRPCErrorResponse, isJSONRPCResultResponse } from '@modelcontextprotocol/sdk/types.js'

/**
 * Keeps a server's messages in the order it sent them. The SDK hands each notification to its handler a microtask
 * later but settles a response at once, so when a progress report and the call's result arrive in one read (stdio
 * lines often do), the result wins and the last report is lost. Delaying responses by the same microtask keeps the
 * order. Called once the client is connected, after the SDK has installed its `onmessage`.
 */
export function deliverInOrder(transport: Transport): void {
  const deliver = transport.onmessage
  if (deliver === undefined) return
  transport.onmessage = (message, extra) => {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      Promise.resolve().then(() => deliver(message, extra))
    } else {
      deliver(message, extra)
    }
  }
}
