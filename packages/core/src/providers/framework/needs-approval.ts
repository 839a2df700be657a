import type { AnyToolDefinition } from '../../definition/tool-definition.js'

/** How a definition says whether a call needs a person's approval: always, never, or per call from its arguments. */
type ApprovalNeed = boolean | ((args: unknown) => unknown)

/**
 * Whether a call of this definition needs approval, read from `definition.needsApproval` when it has one: a flag,
 * or a function of the arguments. A function that throws or rejects answers yes (approval fails closed).
 */
export async function needsApprovalOf(definition: AnyToolDefinition | undefined, args: unknown): Promise<boolean> {
  const need = (definition as { readonly needsApproval?: ApprovalNeed } | undefined)?.needsApproval
  if (typeof need === 'boolean') return need
  if (typeof need !== 'function') return false
  try {
    return (await need(args)) === true
  } catch {
    return true
  }
}

/** True when the definition can ask for approval at all, so a framework needs no check per call for the others. */
export function mayNeedApproval(definition: AnyToolDefinition | undefined): boolean {
  const need = (definition as { readonly needsApproval?: ApprovalNeed } | undefined)?.needsApproval
  return need === true || typeof need === 'function'
}
