import { resolve } from 'node:path'
import type { McpOAuthClient, McpOAuthPresentation, McpOpenBrowser } from '@qilin-tools/mcp/internal/oauth-options.js'
import type { McpTokenStore } from '@qilin-tools/mcp/internal/oauth-token-store.js'
import type { McpOAuthConfig, QilinConfig } from './config.js'

/** How long a person has to finish an authorization in the browser when the config does not say. */
export const DEFAULT_AUTHORIZATION_TIMEOUT_MS = 120_000
/** A longer authorization URL is refused rather than printed: nobody can copy it, and it floods the terminal. */
const MAX_PRINTED_URL_LENGTH = 8_192

/** `connectMcpServer`'s OAuth options for one configured server. */
export interface McpOAuthConnectOptions {
  readonly oauth: McpOAuthClient
  readonly oauthPresentation?: McpOAuthPresentation
  readonly openBrowser: McpOpenBrowser
  readonly tokenStore?: McpTokenStore
  readonly authorizationTimeoutMs: number
}

/**
 * The rules between `oauth` fields that the field table cannot state, worded as its checks are: a secret needs its
 * client id, a client is registered or described by a metadata document but not both, and that document is HTTPS.
 */
export function checkOAuthFields(config: QilinConfig, report: (field: string, problem: string) => never): void {
  for (const [name, server] of Object.entries(config.mcpServers ?? {})) {
    if (!('url' in server) || server.oauth === undefined) continue
    const { clientId, clientSecret, clientMetadataUrl, redirectPort, scopes } = server.oauth
    const field = `mcpServers.${name}.oauth`
    if (redirectPort !== undefined && redirectPort > 65_535)
      report(`${field}.redirectPort`, `must be a port number up to 65535 (got ${redirectPort})`)
    for (const [index, scope] of (scopes ?? []).entries()) {
      if (!/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope))
        report(
          `${field}.scopes[${index}]`,
          `must be one scope, without spaces or quotes (got ${JSON.stringify(scope)})`,
        )
    }
    if (clientSecret !== undefined && clientId === undefined)
      report(`${field}.clientSecret`, 'needs clientId beside it')
    if (clientMetadataUrl === undefined) continue
    if (clientId !== undefined) report(`${field}.clientMetadataUrl`, 'cannot be given with clientId (choose one)')
    if (!isHttpsUrl(clientMetadataUrl))
      report(`${field}.clientMetadataUrl`, `must be an https:// URL (got ${JSON.stringify(clientMetadataUrl)})`)
  }
}

function isHttpsUrl(text: string): boolean {
  try {
    return new URL(text).protocol === 'https:'
  } catch {
    return false
  }
}

/**
 * Maps a server's `oauth` entry onto `connectMcpServer`: who the client is, where tokens live (a directory relative
 * to the config file), and a "browser" that prints the authorization URL on stderr for a person to open; the
 * loopback redirect listener the SDK flow opens receives the answer.
 */
export async function oauthConnectOptions(
  name: string,
  oauth: McpOAuthConfig,
  configDirectory: string,
  printLine: (line: string) => void,
): Promise<McpOAuthConnectOptions> {
  const client: McpOAuthClient =
    oauth.clientId !== undefined
      ? { clientId: oauth.clientId, ...(oauth.clientSecret === undefined ? {} : { clientSecret: oauth.clientSecret }) }
      : oauth.clientMetadataUrl !== undefined
        ? { clientMetadataUrl: oauth.clientMetadataUrl }
        : true
  const tokenStore =
    oauth.tokenDirectory === undefined
      ? undefined
      : (await import('@qilin-tools/mcp/internal/oauth-token-store.js')).fileTokenStore({
          directory: resolve(configDirectory, oauth.tokenDirectory),
        })
  const presentation: McpOAuthPresentation = {
    ...(oauth.clientName === undefined ? {} : { clientName: oauth.clientName }),
    ...(oauth.scopes === undefined ? {} : { scopes: oauth.scopes }),
    ...(oauth.redirectPort === undefined ? {} : { redirectPort: oauth.redirectPort }),
  }
  return {
    oauth: client,
    ...(Object.keys(presentation).length === 0 ? {} : { oauthPresentation: presentation }),
    openBrowser: (authorizationUrl) => {
      if (authorizationUrl.href.length > MAX_PRINTED_URL_LENGTH) {
        throw new Error(`its authorization URL is longer than ${MAX_PRINTED_URL_LENGTH} characters; it was not shown`)
      }
      // `href` is percent-encoded: no control character of the server's reaches the terminal.
      printLine(`mcpServers.${name} needs authorization: open ${authorizationUrl.href}`)
    },
    ...(tokenStore === undefined ? {} : { tokenStore }),
    authorizationTimeoutMs: oauth.authorizationTimeoutMs ?? DEFAULT_AUTHORIZATION_TIMEOUT_MS,
  }
}
