import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { McpStdioServerSpec } from '../../core/model/mcp/mcp-server';
import { findProgram } from '../sandbox/find-program';
import type { SandboxForward, SandboxLimits, SandboxPolicy } from '../sandbox/sandbox-policy';

/** E3: the PATH a server process gets (its `env` may set another). */
const MINIMAL_PATH = '/usr/local/bin:/usr/bin:/bin';

export interface StdioServerSandbox {
  /** The server's own private writable folder (made by the caller, removed with the connection). */
  privateDir: string;
  /** X2: the server's egress (its proxy's forward and variables), empty without allowed domains. */
  egress: { forwards: readonly SandboxForward[]; env: Readonly<Record<string, string>> };
  /** Where the program is looked for when `command` is a bare name (Summon's PATH). */
  searchPath: string;
  limits: SandboxLimits;
}

export type StdioServerLaunch =
  | { ok: true; policy: SandboxPolicy; argv: [string, ...string[]] }
  | { ok: false; problem: string };

/**
 * E3, X1–X3: what a stdio MCP server sees in its sandbox. Writable: its private folder only.
 * Read-only: the system, its program, the files its `args` name, the package folder of each
 * (the nearest folder above with a `package.json` or `node_modules`, so a script finds its
 * dependencies), its `cwd` (where it starts) and the entry's `readOnlyPaths`. Environment:
 * only the entry's variables (already expanded), a minimal PATH and the sandbox's own HOME.
 * Network: nothing but the egress forward of its allowed domains. `spec` is expanded.
 */
export function stdioServerPolicy(spec: McpStdioServerSpec, sandbox: StdioServerSandbox): StdioServerLaunch {
  const base = spec.cwd ?? sandbox.privateDir;
  const program = spec.command.includes('/')
    ? path.resolve(base, spec.command)
    : findProgram(spec.command, sandbox.searchPath);
  if (program === undefined || !existsSync(program)) {
    return { ok: false, problem: `its program ${spec.command} was not found` };
  }
  if (spec.cwd !== undefined && !isDirectory(spec.cwd)) {
    return { ok: false, problem: `its cwd ${spec.cwd} is not a folder` };
  }
  const named = spec.args
    .filter((arg) => !arg.startsWith('-'))
    .map((arg) => path.resolve(base, arg))
    .filter((file) => existsSync(file));
  const files = [program, ...named];
  const readOnly = new Set<string>();
  for (const file of files) {
    readOnly.add(file);
    for (const folder of packageFolder(file)) readOnly.add(folder);
  }
  if (spec.cwd !== undefined) readOnly.add(spec.cwd);
  for (const extra of spec.readOnlyPaths) readOnly.add(extra);
  readOnly.delete(sandbox.privateDir);
  return {
    ok: true,
    argv: [program, ...spec.args],
    policy: {
      workingDir: sandbox.privateDir,
      ...(spec.cwd === undefined ? {} : { startDir: spec.cwd }),
      writablePaths: [],
      readOnlyPaths: [...readOnly],
      forwards: sandbox.egress.forwards,
      env: { PATH: MINIMAL_PATH, ...spec.env, ...sandbox.egress.env },
      limits: sandbox.limits,
    },
  };
}

/**
 * The package a script belongs to: the nearest folder above it with a `package.json` or a
 * `node_modules` (and that `node_modules` itself, which may be a link elsewhere). None for a
 * program of the system (`/usr/bin/node`): the system is visible anyway.
 */
function packageFolder(file: string): string[] {
  let dir: string;
  try {
    if (!statSync(file).isFile()) return [];
    dir = path.dirname(realpathSync(file));
  } catch {
    return [];
  }
  if (/^\/(usr|bin|sbin|lib|lib32|lib64|libx32)(\/|$)/.test(dir)) return [];
  for (;;) {
    const modules = path.join(dir, 'node_modules');
    const hasModules = existsSync(modules);
    if (hasModules || existsSync(path.join(dir, 'package.json'))) {
      // A `node_modules` that links elsewhere is seen where it really is (the link itself is in `dir`).
      const real = hasModules ? realpathSync(modules) : modules;
      return real.startsWith(`${dir}/`) ? [dir] : [dir, real];
    }
    const parent = path.dirname(dir);
    if (parent === dir) return [];
    dir = parent;
  }
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
