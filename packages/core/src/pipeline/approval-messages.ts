/**
 * The sentences of deferred and declared approvals: what the model reads while a call waits for a person, and the
 * reasons and failures `decide` settles with. Part of what the model sees: change them only with their snapshots.
 */
export const approvalMessages = {
  /** The one text part of a pending result. */
  awaiting: (name: string) =>
    `The call to ${name} is waiting for a person to approve it and has not run yet. Its result will be sent when ` +
    'they decide; do not call it again meanwhile.',
  /** The reason a definition's `needsApproval` gives the approver. */
  declared: (name: string) => `${name} needs approval before it runs.`,
  needsApprovalFailed: (name: string, detail: string) =>
    `Approval of the call to ${name} could not be checked: its needsApproval failed: ${detail}`,
  needsApprovalInvalid: (name: string) =>
    `Approval of the call to ${name} could not be checked: its needsApproval answered something other than true or false.`,
  notRecorded: (name: string, detail: string) =>
    `The call to ${name} needs approval, but the approval could not be recorded: ${detail}`,
  expired: (name: string, expiresAt: number) =>
    `The call to ${name} was not approved: its approval expired at ${new Date(expiresAt).toISOString()} without a decision.`,
  abandoned: (name: string) =>
    `The call to ${name} was interrupted: the process carrying out its approval stopped before it settled, so the ` +
    'tool may or may not have run. It is not run again.',
  unknown: (approvalId: string) =>
    approvalId.length <= 80
      ? `No approval has the id ${JSON.stringify(approvalId)}.`
      : `No approval has the id ${JSON.stringify(approvalId.slice(0, 80))}… (${approvalId.length} characters).`,
  stillClaimed: () => 'The approval kept changing hands between deciding processes; decide it again.',
  storeFailed: (detail: string) => `The approval store failed: ${detail}`,
} as const
