// biome-ignore-all format: generated text, kept byte-identical to what the model sees
// The SDK the example programs run against, as the model sees it (`qilin-tools sdk --declarations`),
// made a module so it declares nothing global. Generated: examples/workspace-sdk.test.ts fails when it is stale.
export declare class ToolCallError extends Error { toolName: string; code: string; message: string; callId: string }
type Type = "file" | "directory" | "symlink" | "other"
export type Tools = {
  /** Run a bash command with the workspace root as working directory. It runs in a sandbox: only the workspace is writable, the rest of the host's files and environment are hidden, and there is no network; background processes end with the command. Returns exit code, stdout and stderr (each cut at 65536 bytes). The command is killed after timeoutMs (default 120000). */
  bash(args: {
    /** The bash command line */
    command: string
    /** What the command does, in a few words, for the person approving it */
    description?: string
    /** Deadline in milliseconds */
    timeoutMs?: number
  }): Promise<{
    /** Null when killed by a signal */
    exitCode: number | null
    stdout: string
    stderr: string
    timedOut: boolean
    truncated: boolean
    sandbox: "bubblewrap" | "none"
  }>
  /** Replace exact text in a workspace file. `oldText` must match the file byte for byte (whitespace included) and occur exactly once, unless `replaceAll` is true. */
  edit_file(args: {
    /** File path relative to the workspace root */
    path: string
    /** The exact text to replace */
    oldText: string
    /** The replacement text */
    newText: string
    /** Replace every occurrence (default false) */
    replaceAll?: boolean
  }): Promise<{ path: string; replacements: number }>
  /** Get the type, size in bytes, last modification time (ISO 8601) and permission bits of a workspace file or directory. */
  file_info(args: {
    /** Path relative to the workspace root */
    path: string
  }): Promise<{
    path: string
    type: Type
    /** Bytes */
    size: number
    /** ISO 8601 timestamp */
    modified: string
    /** Permission bits in octal, for example "644" */
    mode: string
  }>
  /** Find workspace files whose path matches a glob: `**` spans directories, `*` and `?` match within one, `{a,b}` alternates. A pattern without "/" matches file names at any depth. Skips .git and node_modules; does not follow symlinks. */
  glob(args: {
    /** For example "**\/*.ts" or "*.md" */
    pattern: string
    /** Directory to search, relative to the workspace root (default ".") */
    path?: string
    /** Maximum number of paths (default 500) */
    limit?: number
  }): Promise<{
    /** Workspace-relative paths, sorted */
    files: string[]
    truncated: boolean
  }>
  /** Search text files in the workspace for lines matching a JavaScript regular expression (no lookahead, lookbehind or backreferences). Returns each matching line with its path, line number and optional context lines. Binary files and files over 5 MB are skipped; a line is matched on its first 16 K characters. */
  grep(args: {
    /** JavaScript regular expression, for example "TODO|FIXME" */
    pattern: string
    /** File or directory to search, relative to the workspace root (default ".") */
    path?: string
    /** Only search files matching this glob, for example "*.ts" */
    glob?: string
    /** Case-insensitive matching (default false) */
    ignoreCase?: boolean
    /** Lines of context before and after (default 0) */
    context?: number
    /** Stop after this many matching lines (default 100) */
    maxResults?: number
  }): Promise<{
    matches: { path: string; line: number; text: string; before: string[]; after: string[] }[]
    filesSearched: number
    /** True when maxResults stopped the search */
    truncated: boolean
  }>
  /** List the entries of a workspace directory (not recursive), sorted by name, with type and size in bytes. At most 1000 entries. */
  list_directory(args?: {
    /** Directory path relative to the workspace root (default ".") */
    path?: string
  }): Promise<{
    path: string
    entries: {
      name: string
      type: Type
      /** Bytes; 0 for directories */
      size: number
    }[]
    truncated: boolean
  }>
  /** Read a text file in the workspace. Returns up to `limit` lines starting at line `offset` (1-based); the model sees them numbered, a program gets the raw text. */
  read_file(args: {
    /** File path relative to the workspace root */
    path: string
    /** First line to read, 1-based (default 1) */
    offset?: number
    /** Maximum number of lines (default 2000) */
    limit?: number
  }): Promise<{
    path: string
    /** The lines read, joined by newlines */
    content: string
    startLine: number
    endLine: number
    totalLines: number
    /** True when the file has lines after endLine */
    truncated: boolean
  }>
  /** Create a file in the workspace or replace its whole content. Missing parent directories are created. To change part of a file, use edit_file. */
  write_file(args: {
    /** File path relative to the workspace root */
    path: string
    /** The complete new content */
    content: string
  }): Promise<{
    path: string
    bytesWritten: number
    /** True when the file did not exist before */
    created: boolean
  }>
}
