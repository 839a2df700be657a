import type { PtcLimits } from '../ptc-limits.js'

/** The `bash` call the instructions show when a visible `bash` tool accepts it. */
export const bashExampleArguments = { command: 'pwd', description: 'Print the working directory' } as const

const bashExample = `\`bash\` below is one of these bindings. Unless \`bash\` is also offered as its own tool, run shell commands through it inside a program:

\`run_code({ code: "return await tools.bash({ command: 'pwd', description: 'Print the working directory' })", description: "Print the working directory" })\``

/**
 * What a model needs to write a TypeScript `run_code` program, followed by the SDK block.
 * Written for this package; the spec only fixes which facts it must carry.
 */
export function typeScriptInstructions(sdk: string, options: { limits: PtcLimits; showBashExample: boolean }): string {
  const { limits } = options
  const intro = `## Writing programs for run_code

\`run_code\` takes \`code\`, the body of an async TypeScript function, and \`description\`, one line on what the program does. Only erasable TypeScript runs: types are stripped, never checked, and \`enum\`, \`namespace\`, parameter properties and \`<T>value\` casts are refused. The declarations at the end exist only inside a program; a declaration is not a tool you can call directly, only separately supplied tool schemas are.`
  const rules = `Inside a program:

- \`await tools.name(args)\` calls a tool and resolves to its JSON result. Names that are not identifiers need brackets: \`tools["get-sum"](args)\`. Arguments must be plain JSON.
- A failed call rejects with \`ToolCallError\` (\`toolName\`, \`code\`, \`callId\` and a readable \`message\`); catch it to recover and go on.
- Calls started together under \`Promise.all\` overlap when the tools only read; tools that change things still run one at a time, in the order started. \`await\` each step that depends on an earlier one.
- Only what you \`console.log\` or \`return\` comes back to you. Every other tool result stays in the program, so keep just what you need. An image from a successful call is attached after the run.
- \`Intl\` is not available, and \`toLocaleString\`, \`toLocaleDateString\`, \`toLocaleTimeString\` and \`localeCompare\` take no locale or options: they use the default locale.
- Each run starts fresh; nothing carries over. The deadline is ${limits.defaultTimeoutMs} ms unless \`timeoutMs\` asks for more (at most ${limits.maxTimeoutMs} ms), and it counts tool calls and approvals.

SDK bindings for programs:

\`\`\`ts
${sdk}\`\`\``
  return [intro, ...(options.showBashExample ? [bashExample] : []), rules].join('\n\n')
}
