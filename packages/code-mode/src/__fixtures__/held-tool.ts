/**
 * A tool the host holds open until the test lets it go, so a run keeps its turn for as long as the test needs;
 * `entered` resolves once a program has called it.
 */
export function heldTool(): { readonly tool: () => Promise<string>; open(): void; readonly entered: Promise<void> } {
  let open = (): void => {}
  let enter = (): void => {}
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  const entered = new Promise<void>((resolve) => {
    enter = resolve
  })
  return {
    tool: async () => {
      enter()
      await opened
      return 'opened'
    },
    open: () => open(),
    entered,
  }
}
