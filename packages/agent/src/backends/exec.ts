import { execFile } from 'node:child_process';

export interface ToolResult {
  ok: boolean;
  stdout: string;
  /** The tool is not installed. */
  missing: boolean;
  stderr: string;
}

/** Runs a platform tool without a shell (titles never reach one), with a time limit. */
export function runTool(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<ToolResult> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { env: options.env, timeout: options.timeoutMs ?? 2000, maxBuffer: 1 << 20, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const missing = (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
        resolve({ ok: !error, stdout, stderr, missing });
      },
    );
  });
}
