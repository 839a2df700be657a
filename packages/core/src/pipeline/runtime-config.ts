import type { ToolStore } from '../approvals/approval-store.js'
import { brandError } from '../errors/brand.js'
import { defaultNativePromptBudget } from '../registry/native-prompt.js'
import type { PresentationMode } from '../registry/tool-schema.js'
import type { SessionLog } from '../session-log/session-log.js'
import {
  type ResolvedToolSearch,
  resolveToolSearch,
  type ToolSearchOptions,
  toolSearchProblem,
} from '../tool-search/tool-search-options.js'
import type { Approver } from './pipeline-events.js'
import { DEFAULT_MAX_RESULT_BYTES } from './result-budget.js'
import type { ToolPresenter } from './tool-presenter.js'

/**
 * What `createToolRuntime` takes: presentation, parallelism, the approver, the session log, the code-mode runtime,
 * deadlines, the result budget and the native prompt's budget.
 */
export interface ToolRuntimeConfig<Approvals extends ApprovalsMode = 'wait'> {
  /** How visible tools are presented to the model. @default `native` */
  readonly mode?: PresentationMode
  /** How many parallel-safe calls of one `executeAll` overlap. @default 10 */
  readonly maxParallelCalls?: number
  /** How many parallel-safe sub-calls of one `run_code` program overlap; 1 is strictly serial. @default 10 */
  readonly maxParallelSubCalls?: number
  /** Decides calls a listener asked about (and escalated `run_code` programs). Without it, asking denies. @default none */
  readonly approve?: Approver
  /** Receives the record of every call and its outcome. Not with `store`, which is the session log then. @default none */
  readonly sessionLog?: SessionLog
  /**
   * What a call that needs approval does: `wait` asks the approver and waits in memory; `defer` records the
   * approval in `store` and answers at once with a pending result, which `runtime.decide` settles later, in this
   * process or another sharing the store. A code-mode program's sub-calls always wait. @default `wait`
   */
  readonly approvals?: Approvals
  /**
   * The durable store of deferred approvals and of the session log (`createMemoryStore()`, or
   * `@qilin-tools/store`). Required by `approvals: 'defer'`. @default none
   */
  readonly store?: ToolStore
  /** How long a deferred approval waits for `decide`; past it, it settles as `DENIED`. @default 86400000 (24 h) */
  readonly approvalTtlMs?: number
  /**
   * How long `decide`'s claim on an approval holds for a tool without `timeoutMs` (with one: its deadline and a
   * minute). A claim older than its lease with no outcome means the deciding process died. @default 600000 (10 min)
   */
  readonly approvalLeaseMs?: number
  /** The clock of approvals' creation, expiry and leases, in ms since the epoch (tests inject one). @default `Date.now` */
  readonly clock?: () => number
  /**
   * The code-mode runtime (`createNodePtcRuntime()`, `createPythonPtcRuntime()`): it presents the tools for `ptc` and
   * `both`, and is required for them. @default none
   */
  readonly ptcRuntime?: ToolPresenter
  /**
   * Whether a definition's `timeoutMs` (and `defaultTimeoutMs`) is enforced, as `timeoutPolicy()` does, without
   * installing it; `false` leaves deadlines to wrappers the host installs. @default true
   */
  readonly enforceTimeouts?: boolean
  /**
   * Deadline in ms for tools that declare no `timeoutMs`; `run_code` keeps its code-mode deadline. Needs
   * `enforceTimeouts`. @default none
   */
  readonly defaultTimeoutMs?: number
  /**
   * UTF-8 bytes of text one native result may show the model; a longer one is cut, with a note saying how much and
   * how to ask for the rest (`value` and the session log keep it whole). Images, audio and binary resources are not
   * counted. A definition's own `maxResultBytes` overrides it; `run_code` answers to its code-mode limits instead.
   * @default 100000
   */
  readonly maxResultBytes?: number
  /**
   * UTF-8 bytes (about: escapes count once) the tool schemas of a native `prompt()` may take together; past it the
   * largest are left out and named in `omitted`. One tool's schema may take 128 KiB whatever this is.
   * @default 1048576 (1 MiB)
   */
  readonly maxPromptBytes?: number
  /**
   * Tool search: a scope that sees more than `threshold` tools lists only those declaring `deferLoading: false`,
   * plus `search_tools` (and, in code mode, an index of the rest). `false` lists every tool always.
   * @default `{ threshold: 30 }`
   */
  readonly toolSearch?: ToolSearchOptions | false
}

/** `wait`: the approver decides in memory. `defer`: a durable record, settled by `runtime.decide`. */
export type ApprovalsMode = 'wait' | 'defer'

export interface ResolvedConfig {
  readonly mode: PresentationMode
  readonly maxParallelCalls: number
  readonly maxParallelSubCalls: number
  readonly approve: Approver | undefined
  readonly sessionLog: SessionLog | undefined
  readonly approvals: ApprovalsMode
  readonly store: ToolStore | undefined
  readonly approvalTtlMs: number
  readonly approvalLeaseMs: number
  readonly clock: () => number
  readonly ptcRuntime: ToolPresenter | undefined
  readonly enforceTimeouts: boolean
  readonly defaultTimeoutMs: number | undefined
  readonly maxResultBytes: number
  readonly maxPromptBytes: number
  readonly toolSearch: ResolvedToolSearch | undefined
}

/** Thrown by `createToolRuntime` for a config it cannot run with; `field` names the offending key. */
export class ToolRuntimeConfigError extends TypeError {
  readonly field: string
  constructor(field: string, problem: string) {
    super(`createToolRuntime: config.${field} ${problem}`)
    this.name = 'ToolRuntimeConfigError'
    this.field = field
  }
}

/** Recognises a ToolRuntimeConfigError from any copy of this package or realm. */
export const isToolRuntimeConfigError = brandError(ToolRuntimeConfigError, 'ToolRuntimeConfigError')

/** A deferred approval's life: a day. */
export const DEFAULT_APPROVAL_TTL_MS = 86_400_000

/** A claim's lease for a tool without a deadline: ten minutes. */
export const DEFAULT_APPROVAL_LEASE_MS = 600_000

const modes: readonly unknown[] = ['native', 'ptc', 'both']
const isPositiveInteger = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 1
const isObjectWith = (value: unknown, methods: readonly string[]) =>
  typeof value === 'object' &&
  value !== null &&
  methods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function')

const storeMethods = [
  'append',
  'readSessionLog',
  'putApproval',
  'getApproval',
  'listApprovals',
  'claimApproval',
  'settleApproval',
  'close',
] as const

/** Each field's rule; `undefined` is always allowed and means the default. */
const fieldRules: {
  readonly [Field in keyof ToolRuntimeConfig<ApprovalsMode>]-?: readonly [(value: unknown) => boolean, string]
} = {
  mode: [(value) => modes.includes(value), "must be 'native', 'ptc' or 'both'"],
  maxParallelCalls: [isPositiveInteger, 'must be a positive integer'],
  maxParallelSubCalls: [isPositiveInteger, 'must be a positive integer'],
  approve: [(value) => typeof value === 'function', 'must be a function'],
  sessionLog: [(value) => isObjectWith(value, ['append']), 'must be an object with an append(record) method'],
  approvals: [(value) => value === 'wait' || value === 'defer', "must be 'wait' or 'defer'"],
  store: [
    (value) => isObjectWith(value, storeMethods),
    `must be a ToolStore (an object with ${storeMethods.join(', ')})`,
  ],
  approvalTtlMs: [isPositiveInteger, 'must be a positive whole number of ms'],
  approvalLeaseMs: [isPositiveInteger, 'must be a positive whole number of ms'],
  clock: [(value) => typeof value === 'function', 'must be a function returning ms since the epoch'],
  ptcRuntime: [
    (value) =>
      isObjectWith(value, ['install', 'presentTools']) && Array.isArray((value as ToolPresenter).reservedNames),
    'must be a code-mode runtime (a ToolPresenter: reservedNames, install, presentTools)',
  ],
  enforceTimeouts: [(value) => typeof value === 'boolean', 'must be a boolean'],
  defaultTimeoutMs: [
    (value) => typeof value === 'number' && Number.isFinite(value) && value > 0,
    'must be a positive finite number of ms',
  ],
  maxResultBytes: [isPositiveInteger, 'must be a positive whole number of bytes'],
  maxPromptBytes: [isPositiveInteger, 'must be a positive whole number of bytes'],
  toolSearch: [
    (value) => toolSearchProblem(value) === undefined,
    'must be false or { threshold?, ranker?, rankerTimeoutMs? }',
  ],
}

export function resolveConfig(config: ToolRuntimeConfig<ApprovalsMode> | undefined): ResolvedConfig {
  if (config === undefined) config = {}
  if (typeof config !== 'object' || config === null) throw new ToolRuntimeConfigError('(root)', 'must be an object')
  for (const [field, value] of Object.entries(config)) {
    const rule = fieldRules[field as keyof ToolRuntimeConfig]
    if (rule === undefined) throw new ToolRuntimeConfigError(field, 'is not a known field')
    if (value !== undefined && !rule[0](value)) {
      throw new ToolRuntimeConfigError(field, field === 'toolSearch' ? `${toolSearchProblem(value)}` : rule[1])
    }
  }
  const mode = config.mode ?? 'native'
  if (mode !== 'native' && config.ptcRuntime === undefined) {
    throw new ToolRuntimeConfigError('ptcRuntime', `is required when mode is '${mode}'`)
  }
  const approvals = config.approvals ?? 'wait'
  if (approvals === 'defer' && config.store === undefined) {
    throw new ToolRuntimeConfigError(
      'store',
      "is required when approvals is 'defer' (createMemoryStore() keeps one in memory)",
    )
  }
  if (config.store !== undefined && config.sessionLog !== undefined) {
    throw new ToolRuntimeConfigError('sessionLog', 'cannot be given with store: the store is the session log')
  }
  const enforceTimeouts = config.enforceTimeouts ?? true
  if (!enforceTimeouts && config.defaultTimeoutMs !== undefined) {
    throw new ToolRuntimeConfigError('defaultTimeoutMs', 'has no effect when enforceTimeouts is false')
  }
  return {
    mode,
    maxParallelCalls: config.maxParallelCalls ?? 10,
    maxParallelSubCalls: config.maxParallelSubCalls ?? 10,
    approve: config.approve,
    sessionLog: config.store ?? config.sessionLog,
    approvals,
    store: config.store,
    approvalTtlMs: config.approvalTtlMs ?? DEFAULT_APPROVAL_TTL_MS,
    approvalLeaseMs: config.approvalLeaseMs ?? DEFAULT_APPROVAL_LEASE_MS,
    clock: config.clock ?? Date.now,
    ptcRuntime: config.ptcRuntime,
    enforceTimeouts,
    defaultTimeoutMs: config.defaultTimeoutMs,
    maxResultBytes: config.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES,
    maxPromptBytes: config.maxPromptBytes ?? defaultNativePromptBudget.maxTotalBytes,
    toolSearch: resolveToolSearch(config.toolSearch),
  }
}
