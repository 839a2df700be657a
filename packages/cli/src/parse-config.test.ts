import { describe, expect, it } from 'vitest'
import { CliError } from './cli-error.js'
import { parseConfig } from './parse-config.js'

const file = '/project/qilin.config.json'

function problem(config: unknown): string {
  try {
    parseConfig(typeof config === 'string' ? config : JSON.stringify(config), file)
  } catch (error) {
    if (error instanceof CliError) return error.message
    throw error
  }
  throw new Error('expected the config to be refused')
}

describe('parseConfig', () => {
  it('accepts every documented field, with the desktop-client mcpServers shape', () => {
    const config = {
      workspace: './workspace',
      toolkit: true,
      mode: 'ptc',
      language: 'python',
      mcpServers: {
        memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: { DEBUG: '1' } },
        remote: { url: 'http://127.0.0.1:9000/mcp', disabled: true },
        registered: {
          url: 'https://mcp.example/mcp',
          oauth: {
            clientId: 'qilin-app',
            clientSecret: 'a-secret',
            clientName: 'Release bot',
            scopes: ['read', 'write'],
            redirectPort: 8765,
            tokenDirectory: './tokens',
            authorizationTimeoutMs: 60_000,
          },
        },
        described: { url: 'https://mcp.example/mcp', oauth: { clientMetadataUrl: 'https://app.example/client.json' } },
        dynamic: { url: 'https://mcp.example/mcp', oauth: {} },
      },
      approve: { bash: 'allow', 'memory__*': 'ask', write_file: 'deny' },
      limits: {
        timeoutMs: 5000,
        maxParallelCalls: 4,
        maxParallelSubCalls: 2,
        maxResultBytes: 50_000,
        bashTimeoutMs: 1000,
        mcpStartTimeoutMs: 2000,
      },
      serve: {
        allowedHosts: ['agent.internal:8080'],
        allowedOrigins: ['https://app.example'],
        token: 'a-fixed-token',
        sessionIdleMs: 60_000,
        maxSessions: 10,
      },
      bash: { sandbox: 'none', network: true, env: ['PATH', 'LANG'], writablePaths: ['../cache'] },
      escalation: { network: true, writablePaths: ['/tmp/shared'] },
      toolSearch: { threshold: 12 },
    }
    expect(parseConfig(JSON.stringify(config), file)).toEqual(config)
    expect(parseConfig(JSON.stringify({ toolSearch: false }), file)).toEqual({ toolSearch: false })
  })

  it.each([
    ['{ "mode": ', /^\/project\/qilin.config.json: not valid JSON \(/],
    [[], /must hold a JSON object \(got an array\)$/],
    [{ mode: 'fast' }, /"mode" must be one of native, ptc, both \(got "fast"\)$/],
    [{ workspce: '.' }, /"workspce" is not a known field \(known: \$schema, workspace, /],
    [{ mcpServers: { memory: { args: [] } } }, /"mcpServers.memory.command" is required$/],
    [{ mcpServers: { memory: { command: 'npx', args: ['-y', 3] } } }, /"mcpServers.memory.args\[1\]" must be a string/],
    [{ mcpServers: { memory: { command: 'npx', env: { A: 1 } } } }, /"mcpServers.memory.env.A" must be a non-empty/],
    [{ approve: { bash: 'sometimes' } }, /"approve.bash" must be one of ask, allow, deny/],
    [{ limits: { timeoutMs: -1 } }, /"limits.timeoutMs" must be a positive integer \(got -1\)$/],
    [{ limits: { timeout: 1 } }, /"limits.timeout" is not a known field/],
    [{ mcpServers: { memory: { command: 'npx', disabled: 'yes' } } }, /"mcpServers.memory.disabled" must be true/],
    [{ serve: { maxSessions: 0 } }, /"serve.maxSessions" must be a positive integer \(got 0\)$/],
    [{ serve: { allowedHosts: 'localhost' } }, /"serve.allowedHosts" must be an array of strings/],
    [{ bash: { sandbox: 'docker' } }, /"bash.sandbox" must be one of bubblewrap, none \(got "docker"\)$/],
    [{ escalation: { network: 'on' } }, /"escalation.network" must be true or false/],
    [{ toolSearch: true }, /"toolSearch" must be false or an object \(got true\)$/],
    [{ toolSearch: { threshold: 0 } }, /"toolSearch.threshold" must be a positive integer \(got 0\)$/],
    [{ toolSearch: { treshold: 3 } }, /"toolSearch.treshold" is not a known field/],
    [{ mcpServers: { r: { url: 'https://a', oauth: true } } }, /"mcpServers.r.oauth" must be an object \(got true\)$/],
    [{ mcpServers: { r: { url: 'https://a', oauth: { scope: 'x' } } } }, /"mcpServers.r.oauth.scope" is not a known/],
    [
      { mcpServers: { r: { url: 'https://a', oauth: { authorizationTimeoutMs: 0 } } } },
      /"mcpServers.r.oauth.authorizationTimeoutMs" must be a positive integer \(got 0\)$/,
    ],
    [
      { mcpServers: { r: { url: 'https://a', oauth: { clientSecret: 's' } } } },
      /"mcpServers.r.oauth.clientSecret" needs clientId beside it$/,
    ],
    [
      { mcpServers: { r: { url: 'https://a', oauth: { clientId: 'c', clientMetadataUrl: 'https://a/c.json' } } } },
      /"mcpServers.r.oauth.clientMetadataUrl" cannot be given with clientId \(choose one\)$/,
    ],
    [
      { mcpServers: { r: { url: 'https://a', oauth: { clientMetadataUrl: 'http://a/c.json' } } } },
      /"mcpServers.r.oauth.clientMetadataUrl" must be an https:\/\/ URL \(got "http:\/\/a\/c.json"\)$/,
    ],
    [{ mcpServers: { s: { command: 'npx', oauth: {} } } }, /"mcpServers.s.oauth" is not a known field/],
    [
      { mcpServers: { r: { url: 'https://a', oauth: { redirectPort: 70_000 } } } },
      /"mcpServers.r.oauth.redirectPort" must be a port number up to 65535 \(got 70000\)$/,
    ],
    [
      { mcpServers: { r: { url: 'https://a', oauth: { scopes: ['read', 'read write'] } } } },
      /"mcpServers.r.oauth.scopes\[1\]" must be one scope, without spaces or quotes \(got "read write"\)$/,
    ],
    [
      { mcpServers: { r: { url: 'https://a', oauth: { scopes: 'read' } } } },
      /"mcpServers.r.oauth.scopes" must be an array of strings/,
    ],
  ])('names the file and the field: %j', (config, expected) => {
    const message = problem(config)
    expect(message.startsWith(`${file}: `)).toBe(true)
    expect(message).toMatch(expected)
  })

  it.each(['constructor', 'toString', 'hasOwnProperty'])(
    'refuses "%s", an Object.prototype name, as unknown',
    (name) => {
      expect(problem(`{ "limits": { "${name}": 1 } }`)).toMatch(`"limits.${name}" is not a known field`)
      expect(problem(`{ "${name}": 1 }`)).toMatch(`"${name}" is not a known field`)
    },
  )
})
