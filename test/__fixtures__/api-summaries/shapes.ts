/** A documented type, re-exported by the entry point. */
export interface DescribedShape {
  readonly size: number
}

export interface UndescribedShape {
  readonly size: number
}
