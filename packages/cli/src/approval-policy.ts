import type { PreExecuteListener } from 'qilin-tools/internal/pipeline/pipeline-events.js'
import type { ApprovalPolicy } from './config.js'

/**
 * The policy for one tool name: the first `approve` entry whose pattern matches (`*` matches any run of
 * characters), else the tool's own default (the toolkit asks before `bash`), else `allow`.
 */
export function approvalFor(
  toolName: string,
  rules: Readonly<Record<string, ApprovalPolicy>>,
  defaults: Readonly<Record<string, ApprovalPolicy>>,
): ApprovalPolicy {
  for (const [pattern, policy] of Object.entries(rules)) if (patternToRegExp(pattern).test(toolName)) return policy
  return defaults[toolName] ?? 'allow'
}

/** A `tools/pre-execute` listener applying the policy: `deny` refuses, `ask` defers to the runtime's approver. */
export function approvalListener(
  rules: Readonly<Record<string, ApprovalPolicy>>,
  defaults: Readonly<Record<string, ApprovalPolicy>>,
  source: string,
): PreExecuteListener {
  return ({ call }) => {
    const policy = approvalFor(call.name, rules, defaults)
    if (policy === 'deny') return { action: 'deny', reason: `calling ${call.name} is not allowed by ${source}` }
    if (policy === 'ask') return { action: 'ask', reason: `${source} asks before running ${call.name}` }
    return undefined
  }
}

function patternToRegExp(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
