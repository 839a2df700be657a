import type { PtcLimits } from '../ptc-limits.js'
import { RUN_CODE_TOOL_NAME } from '../ptc-port.js'

/**
 * The `tools:sdk` text for Python: how a `run_code` program is written, then the SDK block.
 * Written for this package; the limits it states come from the runtime's configuration.
 */
export function pythonInstructions(sdk: string, limits: PtcLimits): string {
  return `## Writing code for ${RUN_CODE_TOOL_NAME}

\`${RUN_CODE_TOOL_NAME}\` runs a Python 3 program. Give it \`code\`, the body of an async function (so top-level \`await\` and \`return\` work, and classes, dataclasses and imports from the standard library behave as in a module), and \`description\`, one line on what the program does. The declarations below are bindings that exist only inside such a program; declaring a binding does not make its name a tool you may call directly.

Inside the program:

- Call a tool with keyword arguments: \`await tools.read_file(path="notes.txt")\`. A tool whose name is not a Python identifier is declared with \`_\` for the other characters (\`tools.get_sum\`) and is also reachable by its own name, \`await tools["get-sum"](a=1, b=2)\`. Each call returns the tool's JSON value as dict, list, str, int, float, bool or None.
- A failed call raises \`ToolCallError\` with \`tool_name\`, \`code\` and \`message\`; catch it to recover and carry on.
- \`await asyncio.gather(...)\` overlaps independent calls: read-only calls run side by side, calls that change things run one at a time in the order they were made. \`tools\`, \`ToolCallError\` and \`asyncio\` are already in scope.
- What you \`print\` and what you \`return\` (JSON: no sets, NaN or integers beyond 2**53) is the output, up to ${limits.maxOutputBytes} bytes printed; every other result stays inside the program, so reduce data to what you need first. An image a tool returns is attached after the run.
- The program runs in a sandbox: no network, no subprocesses, and only a private temporary directory to write in. It is stopped at its deadline (\`timeoutMs\`, default ${limits.defaultTimeoutMs}).

Program-only SDK bindings:

\`\`\`python
${sdk}\`\`\`
`
}
