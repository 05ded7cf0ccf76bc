import { readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { gatewayForwards } from './gateway-forward';
import type { SandboxForward, SandboxLimits, SandboxPolicy } from './sandbox-policy';

export interface RunSandboxInput {
  /** T1, T3: the run whose process this is (its slot is given back while the run waits for a person). */
  runId?: string;
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
 * configuration names (G3, G5: fetch and push keep working; on loopback or by host name,
 * gateway-forward.ts), and the extra forwards (the egress proxy's, with HTTP_PROXY/HTTPS_PROXY
 * in `env`; a forwarded host name is added to NO_PROXY, so it is reached directly).
 */
export function runSandboxPolicy(input: RunSandboxInput): SandboxPolicy {
  const writablePaths = [...(input.linkedRoots ?? [])];
  const writable = [input.workingDir, ...writablePaths].map(realOrSelf);
  const skillTargets = [input.workingDir, ...writablePaths]
    .flatMap(linkedSkills)
    .filter((target) => !writable.some((dir) => target === dir || target.startsWith(`${dir}/`)));
  const forwards = uniqueByPort([...gatewayForwards(input.env), ...(input.forwards ?? [])]);
  return {
    ...(input.runId === undefined ? {} : { runId: input.runId }),
    workingDir: input.workingDir,
    writablePaths,
    readOnlyPaths: [...new Set([...skillTargets, ...(input.readOnlyPaths ?? [])])],
    forwards,
    env: direct(
      input.env,
      forwards.flatMap((forward) => forward.names ?? []),
    ),
    limits: input.limits ?? {},
  };
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

/** X2: the forwards' host names reached directly, not through the run's proxy. */
function direct(
  env: Readonly<Record<string, string>>,
  names: readonly string[],
): Readonly<Record<string, string>> {
  if (names.length === 0) return env;
  const out = { ...env };
  for (const key of ['NO_PROXY', 'no_proxy'])
    if (out[key] !== undefined) out[key] = [out[key], ...names].filter((part) => part !== '').join(',');
  return out;
}

function uniqueByPort(forwards: readonly SandboxForward[]): SandboxForward[] {
  const byPort = new Map<number, SandboxForward>();
  for (const forward of forwards) if (!byPort.has(forward.port)) byPort.set(forward.port, forward);
  return [...byPort.values()];
}
