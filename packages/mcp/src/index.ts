// `@qilin-tools/mcp`: MCP both ways. Named exports only.

export { type HttpAuth, MIN_TOKEN_LENGTH } from './bearer-auth.js'
export { connectMcpServer } from './connect-mcp-server.js'
export { elicitationApprover } from './elicitation-approver.js'
export type { McpLogMessage } from './log-messages.js'
export type {
  McpAutoReconnect,
  McpConnection,
  McpConnectionState,
  McpConnectionStatus,
  McpConnectOptions,
  McpHttpServer,
  McpSkippedTool,
  McpStdioServer,
  McpToolFilter,
  McpToolHost,
} from './mcp-connection-types.js'
export type {
  McpCrossAppAccessIdentityProvider,
  McpIdTokenSource,
  McpOAuthCrossAppAccessClient,
} from './oauth-cross-app-access.js'
export { isMcpAuthorizationError, McpAuthorizationError, McpAuthorizationErrorCode } from './oauth-error.js'
export type { McpJwtAlgorithm, McpOAuthMachineClient } from './oauth-machine-client.js'
export type { McpOAuthClient, McpOAuthPresentation, McpOpenBrowser } from './oauth-options.js'
export {
  defaultTokenDirectory,
  fileTokenStore,
  type McpOAuthRecord,
  type McpTokenStore,
  memoryTokenStore,
} from './oauth-token-store.js'
export {
  type McpHttpTransport,
  type McpServedRuntime,
  type McpServing,
  type ServeMcpOptions,
  serveMcp,
} from './serve-mcp.js'
export { MAX_TOOL_NAME_LENGTH, type McpNamePrefix, mcpToolName } from './tool-name.js'
