import { endianness } from 'node:os'
import { SeccompFilterError, SeccompFilterProblem } from './seccomp-filter-error.js'

/** The classic-BPF opcodes the filter uses (`linux/filter.h`: class | size | mode, or class | op | source). */
export const BpfCode = {
  /** `A = seccomp_data[k]` (BPF_LD | BPF_W | BPF_ABS) */
  LOAD_WORD: 0x20,
  /** `A == k` (BPF_JMP | BPF_JEQ | BPF_K) */
  JUMP_EQUAL: 0x15,
  /** `A & k` (BPF_JMP | BPF_JSET | BPF_K) */
  JUMP_ANY_BIT: 0x45,
  /** return k (BPF_RET | BPF_K) */
  RETURN: 0x06,
} as const

/** `SECCOMP_RET_*` values (`linux/seccomp.h`). */
export const SeccompReturn = {
  KILL_PROCESS: 0x80000000,
  ALLOW: 0x7fff0000,
  errno: (errno: number): number => 0x00050000 | (errno & 0xffff),
} as const

/** Byte offsets into `struct seccomp_data`. A 64-bit argument is read as two words, in native order. */
const littleEndian = endianness() === 'LE'
export const SeccompData = {
  NR: 0,
  ARCH: 4,
  argumentLow: (index: number): number => 16 + 8 * index + (littleEndian ? 0 : 4),
  argumentHigh: (index: number): number => 16 + 8 * index + (littleEndian ? 4 : 0),
} as const

/** The kernel refuses longer programs (BPF_MAXINSNS). */
export const maxInstructions = 4096

/** Where a conditional jump goes: the next instruction, or a label placed later in the same program. */
export type JumpTarget = 'next' | symbol

/** One instruction before its jumps are resolved; `ownPid` marks a `k` the runner fills in. */
export type Statement =
  | {
      readonly code: number
      readonly k: number
      readonly jt?: JumpTarget
      readonly jf?: JumpTarget
      readonly ownPid?: true
    }
  | { readonly label: symbol }

export interface Assembled {
  /** `struct sock_filter[]`: u16 code, u8 jt, u8 jf, u32 k, each in native byte order. */
  readonly program: Buffer
  /** Indexes of the instructions whose `k` is the filtered process's own pid. */
  readonly ownPidSlots: readonly number[]
}

/**
 * Resolves labels into forward offsets and encodes the program. Every offset is checked against the 8-bit
 * field: one that does not fit throws instead of wrapping into a jump somewhere else.
 */
export function assemble(statements: readonly Statement[]): Assembled {
  const labels = new Map<symbol, number>()
  const instructions: Exclude<Statement, { label: symbol }>[] = []
  for (const statement of statements) {
    if ('label' in statement) labels.set(statement.label, instructions.length)
    else instructions.push(statement)
  }
  if (instructions.length > maxInstructions) {
    throw new SeccompFilterError(
      SeccompFilterProblem.PROGRAM_TOO_LONG,
      `the seccomp program has ${instructions.length} instructions; the kernel accepts at most ${maxInstructions}`,
    )
  }
  const program = Buffer.alloc(instructions.length * 8)
  const ownPidSlots: number[] = []
  instructions.forEach((instruction, index) => {
    const offset = (target: JumpTarget | undefined): number => {
      if (target === undefined || target === 'next') return 0
      const destination = labels.get(target)
      const distance = destination === undefined ? -1 : destination - index - 1
      if (distance < 0 || distance > 255) {
        throw new SeccompFilterError(
          SeccompFilterProblem.JUMP_OUT_OF_RANGE,
          `instruction ${index} jumps to ${String(target.description)} at ${destination ?? 'no label'}: ` +
            'classic BPF jumps go 0 to 255 instructions forward',
        )
      }
      return distance
    }
    const at = index * 8
    if (littleEndian) {
      program.writeUInt16LE(instruction.code, at)
      program.writeUInt32LE(instruction.k >>> 0, at + 4)
    } else {
      program.writeUInt16BE(instruction.code, at)
      program.writeUInt32BE(instruction.k >>> 0, at + 4)
    }
    program.writeUInt8(offset(instruction.jt), at + 2)
    program.writeUInt8(offset(instruction.jf), at + 3)
    if (instruction.ownPid) ownPidSlots.push(index)
  })
  return { program, ownPidSlots }
}

/** One decoded instruction, for tests and for patching. */
export interface Instruction {
  readonly code: number
  readonly jt: number
  readonly jf: number
  readonly k: number
}

export function decode(program: Buffer): Instruction[] {
  const instructions: Instruction[] = []
  for (let at = 0; at + 8 <= program.length; at += 8) {
    instructions.push({
      code: littleEndian ? program.readUInt16LE(at) : program.readUInt16BE(at),
      jt: program.readUInt8(at + 2),
      jf: program.readUInt8(at + 3),
      k: littleEndian ? program.readUInt32LE(at + 4) : program.readUInt32BE(at + 4),
    })
  }
  return instructions
}

/** A copy of `program` with `k` of each slot set to `value`. */
export function patchSlots(program: Buffer, slots: readonly number[], value: number): Buffer {
  const copy = Buffer.from(program)
  for (const slot of slots) {
    if (littleEndian) copy.writeUInt32LE(value >>> 0, slot * 8 + 4)
    else copy.writeUInt32BE(value >>> 0, slot * 8 + 4)
  }
  return copy
}
