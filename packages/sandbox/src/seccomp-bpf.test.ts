import { describe, expect, it } from 'vitest'
import { assemble, BpfCode, decode, maxInstructions, patchSlots, SeccompReturn, type Statement } from './seccomp-bpf.js'
import { SeccompFilterProblem } from './seccomp-filter-error.js'

const allow: Statement = { code: BpfCode.RETURN, k: SeccompReturn.ALLOW }

function thrown(action: () => unknown): unknown {
  try {
    action()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw')
}

describe('assemble', () => {
  it('turns labels into forward offsets and leaves no trace of them', () => {
    const yes = Symbol('yes')
    const { program } = assemble([
      { code: BpfCode.LOAD_WORD, k: 0 },
      { code: BpfCode.JUMP_EQUAL, k: 39, jt: yes, jf: 'next' },
      allow,
      allow,
      { label: yes },
      { code: BpfCode.RETURN, k: SeccompReturn.errno(1) },
    ])
    expect(decode(program)).toEqual([
      { code: BpfCode.LOAD_WORD, jt: 0, jf: 0, k: 0 },
      { code: BpfCode.JUMP_EQUAL, jt: 2, jf: 0, k: 39 },
      { code: BpfCode.RETURN, jt: 0, jf: 0, k: SeccompReturn.ALLOW },
      { code: BpfCode.RETURN, jt: 0, jf: 0, k: SeccompReturn.ALLOW },
      { code: BpfCode.RETURN, jt: 0, jf: 0, k: 0x00050001 },
    ])
  })

  it('encodes 255 instructions ahead and refuses 256 instead of wrapping', () => {
    const far = (gap: number): Statement[] => {
      const target = Symbol(`${gap} ahead`)
      return [
        { code: BpfCode.JUMP_EQUAL, k: 0, jt: target, jf: 'next' },
        ...Array.from({ length: gap }, () => allow),
        { label: target },
        allow,
      ]
    }
    expect(decode(assemble(far(255)).program)[0]?.jt).toBe(255)
    const error = thrown(() => assemble(far(256)))
    expect(error).toMatchObject({ problem: SeccompFilterProblem.JUMP_OUT_OF_RANGE })
    expect((error as Error).message).toMatch(/^instruction 0 jumps to 256 ahead at 257: /)
  })

  it('refuses a jump backwards or to a label that is never placed', () => {
    const behind = Symbol('behind')
    const backwards = [{ label: behind }, allow, { code: BpfCode.JUMP_EQUAL, k: 0, jt: behind, jf: 'next' }, allow]
    expect(thrown(() => assemble(backwards as Statement[]))).toMatchObject({
      problem: SeccompFilterProblem.JUMP_OUT_OF_RANGE,
    })
    const nowhere = [{ code: BpfCode.JUMP_EQUAL, k: 0, jt: Symbol('nowhere'), jf: 'next' }, allow] as Statement[]
    expect((thrown(() => assemble(nowhere)) as Error).message).toMatch(/at no label/)
  })

  it('refuses a program over the kernel limit', () => {
    expect(assemble(Array.from({ length: maxInstructions }, () => allow)).program.length).toBe(maxInstructions * 8)
    expect(thrown(() => assemble(Array.from({ length: maxInstructions + 1 }, () => allow)))).toMatchObject({
      problem: SeccompFilterProblem.PROGRAM_TOO_LONG,
    })
  })

  it('lists the own-pid slots, and patching them changes only their k', () => {
    const { program, ownPidSlots } = assemble([
      { code: BpfCode.LOAD_WORD, k: 16 },
      { code: BpfCode.JUMP_EQUAL, k: 0, jt: 'next', jf: 'next', ownPid: true },
      allow,
    ])
    expect(ownPidSlots).toEqual([1])
    const patched = patchSlots(program, ownPidSlots, 0x12345678)
    expect(decode(patched)[1]).toEqual({ code: BpfCode.JUMP_EQUAL, jt: 0, jf: 0, k: 0x12345678 })
    expect(decode(program)[1]?.k).toBe(0)
    expect(patched.subarray(16).equals(program.subarray(16))).toBe(true)
  })
})
