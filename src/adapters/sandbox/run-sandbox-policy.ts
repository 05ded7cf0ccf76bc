import { readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { SandboxForward, SandboxLimits, SandboxPolicy } from './sandbox-policy';

export interface RunSandboxInput {
  /** The run's working directory (the agent's folder, or its overlay in a space with repositories). */
  workingDir: string;
  /** M9: the folders the working directory links into (the space's checkouts, the agent's folder). */
  linkedRoots?: readonly string[];
  /** The process's whole environment (agent-environment.ts), the run's git configuration included. */
  env: Readonly<Record<string, string>>;
  /** More read-only paths (the CLI agent's binary, the hook script, the operator's additions). */
  readOnlyPaths?: readonly string[];
  /** More forwards (the CLI agent's hook channel). */
  forwards?: readonly SandboxForward[];
  limits?: SandboxLimits;
}

/**
 * X1, X2: the one place a run's sandbox is assembled, for `bash` and CLI agents alike.
 * Writable: the working directory and its linked roots. Read-only: the skills the overlay links
 * to (A5: outside those folders) and the extra paths. Forwards: the git gateway the run's git
 * configuration names (G3, G5: fetch and push keep working), when it is on loopback, and the
 * extra forwards. (Egress through a filtering proxy plugs in here: one more forward, and
 * HTTP_PROXY/HTTPS_PROXY in `env`.)
 */
export function runSandboxPolicy(input: RunSandboxInput): SandboxPolicy {
  const writablePaths = [...(input.linkedRoots ?? [])];
  const writable = [input.workingDir, ...writablePaths].map(realOrSelf);
  const skillTargets = [input.workingDir, ...writablePaths]
    .flatMap(linkedSkills)
    .filter((target) => !writable.some((dir) => target === dir || target.startsWith(`${dir}/`)));
  const forwards = [...gatewayForwards(input.env), ...(input.forwards ?? [])];
  return {
    workingDir: input.workingDir,
    writablePaths,
    readOnlyPaths: [...new Set([...skillTargets, ...(input.readOnlyPaths ?? [])])],
    forwards: uniqueByPort(forwards),
    env: input.env,
    limits: input.limits ?? {},
  };
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** G3: the loopback endpoints the run's git configuration sends credentials to (`http.<url>.extraHeader`). */
export function gatewayForwards(env: Readonly<Record<string, string>>): SandboxForward[] {
  const forwards: SandboxForward[] = [];
  for (const [name, key] of Object.entries(env)) {
    if (!/^GIT_CONFIG_KEY_\d+$/.test(name)) continue;
    const match = /^http\.(https?:\/\/.+)\.extraheader$/i.exec(key);
    if (match?.[1] === undefined) continue;
    let url: URL;
    try {
      url = new URL(match[1]);
    } catch {
      continue;
    }
    if (!LOOPBACK.has(url.hostname)) continue;
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const host = url.hostname === '[::1]' ? '::1' : url.hostname;
    forwards.push({ port, target: { host, port } });
  }
  return forwards;
}

/** A5: where the skills linked in `<dir>/.agents/skills/` really are. */
function linkedSkills(dir: string): string[] {
  const skills = path.join(dir, '.agents', 'skills');
  let names: string[];
  try {
    names = readdirSync(skills);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    try {
      return [realpathSync(path.join(skills, name))];
    } catch {
      return []; // a dangling link: nothing to show
    }
  });
}

function realOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

function uniqueByPort(forwards: readonly SandboxForward[]): SandboxForward[] {
  const byPort = new Map<number, SandboxForward>();
  for (const forward of forwards) if (!byPort.has(forward.port)) byPort.set(forward.port, forward);
  return [...byPort.values()];
}
