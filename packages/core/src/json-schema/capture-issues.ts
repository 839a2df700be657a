import type { ValidationIssue } from './validation-result.js'
import type { Check, ValidationState } from './validation-state.js'

/** Runs `check` with issue collection on into a fresh list, leaving the caller's issues untouched. */
export function captureIssues(check: Check, value: unknown, state: ValidationState): ValidationIssue[] {
  const savedIssues = state.issues
  const savedSilent = state.silent
  state.issues = []
  state.silent = 0
  check(value, state)
  const captured = state.issues
  state.issues = savedIssues
  state.silent = savedSilent
  return captured
}

/** `check` in silent mode: only whether it passes, no messages built. */
export function passesSilently(check: Check, value: unknown, state: ValidationState): boolean {
  state.silent++
  const valid = check(value, state)
  state.silent--
  return valid
}

/** The issue text without its leading `at <path>: `, for quoting inside another message. */
export function issueDetail(issue: ValidationIssue): string {
  const separator = issue.message.indexOf(': ')
  return separator === -1 ? issue.message : issue.message.slice(separator + 2)
}
