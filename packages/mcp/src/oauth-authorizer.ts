import {
  auth,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  UnauthorizedError,
} from '@modelcontextprotocol/sdk/client/auth.js'
import type { OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import { crossAppAccessSettings, crossAppAccessTokenRequest, isCrossAppAccessClient } from './oauth-cross-app-access.js'
import { McpAuthorizationError, McpAuthorizationErrorCode } from './oauth-error.js'
import { authFetch } from './oauth-fetch.js'
import { isMachineClient, machineCredentials, machineProvider } from './oauth-machine-client.js'
import {
  checkedPresentation,
  type McpOAuthClient,
  type McpOAuthPresentation,
  type McpOpenBrowser,
} from './oauth-options.js'
import { openRedirectListener, type RedirectListener } from './oauth-redirect-listener.js'
import { causes } from './oauth-refusal.js'
import type { McpOAuthRecord, McpTokenStore } from './oauth-token-store.js'

export interface AuthorizerOptions {
  readonly serverName: string
  readonly serverUrl: URL
  readonly client: McpOAuthClient
  readonly presentation?: McpOAuthPresentation
  readonly store: McpTokenStore
  readonly openBrowser: McpOpenBrowser | undefined
  /** How long the redirect listener waits for the browser. */
  readonly authorizationTimeoutMs: number
  /** Per request to the authorization server. */
  readonly requestTimeoutMs: number
  readonly fetch?: FetchLike
}

/** The SDK's provider, the fetch the transport uses, and the means to finish an authorization the transport began. */
export interface Authorizer {
  readonly provider: OAuthClientProvider
  readonly fetch: FetchLike
  /**
   * Runs `attempt`; when it fails because an authorization was begun (the SDK opened the browser and gave up the
   * request), waits for the redirect, exchanges the code, and runs it again. At most `MAX_AUTHORIZATIONS` times.
   */
  retrying<T>(attempt: () => Promise<T>, signal?: AbortSignal): Promise<T>
  /** Stops a redirect listener that is still waiting. */
  close(): void
}

/** Per request: one for a missing token, one more for a step-up to wider scope, then the refusal stands. */
export const MAX_AUTHORIZATIONS = 2
const MAX_AUTH_RESPONSE_BYTES = 262_144
const CLIENT_NAME = 'qilin-tools'
/** Registered before the listener has a port: loopback redirect URIs match on any port (RFC 8252 §7.3). */
const UNBOUND_REDIRECT_URL = 'http://127.0.0.1/callback'
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** Thrown from `state()` while another authorization of this connection waits for its browser. */
class AuthorizationUnderWay extends Error {}

interface Flow {
  readonly listener: RedirectListener
  verifier?: string
  opened: boolean
}

function isSafeAuthorizationUrl(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))
}

/** Builds the SDK `OAuthClientProvider` for one connection over its record in `store`, loaded once here. */
export async function createAuthorizer(options: AuthorizerOptions): Promise<Authorizer> {
  const key = options.serverUrl.href
  let record: McpOAuthRecord = (await options.store.load(key)) ?? {}
  let flow: Flow | undefined
  let completing: Promise<void> | undefined
  const presentation = checkedPresentation(options.presentation ?? {})
  const registeredRedirectUrl =
    presentation.redirectPort === undefined
      ? UNBOUND_REDIRECT_URL
      : `http://127.0.0.1:${presentation.redirectPort}/callback`
  let redirectUrl = registeredRedirectUrl
  const crossAppAccess = isCrossAppAccessClient(options.client) ? crossAppAccessSettings(options.client) : undefined
  const machine = isMachineClient(options.client)
    ? machineCredentials(options.client, presentation.clientName ?? CLIENT_NAME, presentation.scopes)
    : undefined
  const preRegistered =
    options.client !== true &&
    'clientId' in options.client &&
    !isMachineClient(options.client) &&
    !isCrossAppAccessClient(options.client)
      ? options.client
      : undefined
  const clientMetadataUrl =
    options.client !== true && 'clientMetadataUrl' in options.client ? options.client.clientMetadataUrl : undefined

  const persist = (next: McpOAuthRecord) => {
    record = next
    return options.store.save(key, record)
  }
  const abandon = () => {
    flow?.listener.close()
    flow = undefined
  }
  function refuse(code: McpAuthorizationErrorCode, message: string): never {
    abandon()
    throw new McpAuthorizationError(code, `MCP server "${options.serverName}" ${message}`)
  }

  const clientMetadata: OAuthClientMetadata = {
    client_name: presentation.clientName ?? CLIENT_NAME,
    ...(presentation.scopes === undefined || presentation.scopes.length === 0
      ? {}
      : { scope: presentation.scopes.join(' ') }),
    redirect_uris: [registeredRedirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  }

  const storage = {
    tokens: () => record.tokens,
    saveTokens: (tokens: OAuthTokens) => persist({ ...record, tokens }),
    async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
      if (scope === 'all') return persist({})
      if (scope !== 'verifier') return persist(without(record, scope === 'client' ? 'client' : scope))
    },
    saveDiscoveryState: (discovery: OAuthDiscoveryState) => persist({ ...record, discovery }),
    discoveryState: () => record.discovery,
  }
  const refuseInteraction = (): never =>
    refuse(
      McpAuthorizationErrorCode.INTERACTION_REQUIRED,
      `uses ${crossAppAccess === undefined ? 'the client_credentials grant' : 'cross-app access'}, and its authorization server asked for a browser instead`,
    )
  const tokenRequest =
    crossAppAccess === undefined
      ? undefined
      : crossAppAccessTokenRequest(crossAppAccess, {
          serverUrl: options.serverUrl,
          discoveryState: storage.discoveryState,
          fetch: (input, init) => fetchForAuth(input, init),
        })

  const provider: OAuthClientProvider =
    machine !== undefined
      ? machineProvider(machine, storage, refuseInteraction, tokenRequest)
      : {
          get redirectUrl() {
            return redirectUrl
          },
          get clientMetadata() {
            return { ...clientMetadata, redirect_uris: [redirectUrl] }
          },
          ...(clientMetadataUrl === undefined ? {} : { clientMetadataUrl }),
          async state() {
            if (flow !== undefined) throw new AuthorizationUnderWay()
            const listener = await openRedirectListener({
              timeoutMs: options.authorizationTimeoutMs,
              ...(presentation.redirectPort === undefined ? {} : { port: presentation.redirectPort }),
            })
            flow = { listener, opened: false }
            redirectUrl = listener.redirectUrl
            return listener.state
          },
          clientInformation() {
            if (preRegistered !== undefined) {
              return {
                client_id: preRegistered.clientId,
                ...(preRegistered.clientSecret === undefined ? {} : { client_secret: preRegistered.clientSecret }),
              }
            }
            return record.client
          },
          ...(preRegistered === undefined ? { saveClientInformation: (client) => persist({ ...record, client }) } : {}),
          ...storage,
          async redirectToAuthorization(authorizationUrl) {
            if (flow === undefined) refuse(McpAuthorizationErrorCode.AUTHORIZATION_TIMEOUT, 'lost its OAuth flow')
            if (!isSafeAuthorizationUrl(authorizationUrl)) {
              refuse(
                McpAuthorizationErrorCode.UNSAFE_AUTHORIZATION_URL,
                `sent an authorization URL that is neither https nor loopback http (${authorizationUrl.protocol}); it was not opened`,
              )
            }
            if (options.openBrowser === undefined) {
              refuse(
                McpAuthorizationErrorCode.INTERACTION_REQUIRED,
                'needs OAuth authorization in a browser, and this host cannot open one (no openBrowser)',
              )
            }
            flow.opened = true
            try {
              await options.openBrowser?.(authorizationUrl)
            } catch (cause) {
              abandon()
              throw cause
            }
          },
          saveCodeVerifier(verifier) {
            if (flow !== undefined) flow.verifier = verifier
          },
          codeVerifier() {
            if (flow?.verifier === undefined) throw new UnauthorizedError('no OAuth flow is waiting for its code')
            return flow.verifier
          },
        }

  /** A refresh keeps the scope it was granted, so a step-up to wider scope needs a new authorization. */
  const dropRefreshToken = () => {
    if (record.tokens?.refresh_token === undefined) return
    const { refresh_token: _dropped, ...tokens } = record.tokens
    persist({ ...record, tokens }).catch(() => {})
  }

  const fetchForAuth = authFetch({
    serverUrl: options.serverUrl,
    timeoutMs: options.requestTimeoutMs,
    maxBytes: MAX_AUTH_RESPONSE_BYTES,
    onInsufficientScope: dropRefreshToken,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  })

  /** Waits for the browser and exchanges the code, once however many requests wait on it. */
  const complete = (signal?: AbortSignal): Promise<void> => {
    if (completing !== undefined) return completing
    const current = flow
    if (current === undefined) return Promise.resolve()
    completing = (async () => {
      try {
        const code = await (signal === undefined
          ? current.listener.code
          : Promise.race([current.listener.code, aborted(signal)]))
        await auth(provider, { serverUrl: options.serverUrl, authorizationCode: code, fetchFn: fetchForAuth })
      } finally {
        if (flow === current) abandon()
        completing = undefined
      }
    })()
    return completing
  }

  /** Whether `error` came from an authorization this connection began and has yet to finish. */
  const awaitsCompletion = (error: unknown): boolean => {
    const chain = causes(error)
    if (chain.some((cause) => cause instanceof AuthorizationUnderWay)) return true
    if (chain.some((cause) => cause instanceof UnauthorizedError) && flow?.opened === true) return true
    if (flow !== undefined && !flow.opened && completing === undefined) abandon()
    return false
  }

  return {
    provider,
    fetch: fetchForAuth,
    async retrying(attempt, signal) {
      for (let authorizations = 0; ; authorizations++) {
        try {
          return await attempt()
        } catch (error) {
          if (!awaitsCompletion(error)) throw error
          if (authorizations === MAX_AUTHORIZATIONS) {
            abandon()
            throw new McpAuthorizationError(
              McpAuthorizationErrorCode.RETRIES_EXHAUSTED,
              `MCP server "${options.serverName}" still refused after ${MAX_AUTHORIZATIONS} OAuth authorizations for one request`,
              { cause: error },
            )
          }
          await complete(signal)
        }
      }
    },
    close: abandon,
  }
}

function without(record: McpOAuthRecord, field: keyof McpOAuthRecord): McpOAuthRecord {
  const { [field]: _left, ...kept } = record
  return kept
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () =>
      reject(
        new McpAuthorizationError(
          McpAuthorizationErrorCode.AUTHORIZATION_TIMEOUT,
          'the OAuth authorization was given up',
          {
            cause: signal.reason,
          },
        ),
      )
    if (signal.aborted) fail()
    else signal.addEventListener('abort', fail, { once: true })
  })
}
