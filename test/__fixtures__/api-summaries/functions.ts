/** Returns its argument, to show a documented re-export passes. */
export function describedFunction(value: number): number {
  return value
}

export function undescribedFunction(value: number): number {
  return value
}
