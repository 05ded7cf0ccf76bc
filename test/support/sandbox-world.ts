import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { makeTempDir } from './temp-dir';

/** Canary secrets: if any of these shows up where an agent can read it, the sandbox leaked. */
export const CANARIES = {
  env: 'canary-env-7d1f0c9a4b',
  dataFile: 'canary-datafile-52e8aa13',
  database: 'canary-dbrow-91b3c6d2',
  otherAgent: 'canary-other-agent-0f6e',
  otherSpace: 'canary-other-space-a47c',
  gitconfig: 'canary-gitconfig-3c8d',
  shadowless: 'canary-hostproc-e21b',
} as const;

/**
 * A data folder laid out as Summon lays it out (agents, skills, spaces with checkouts, the
 * database files), with canaries where no run may look, an operator home with a `.gitconfig`,
 * a host process holding a secret in its environment, and a loopback service that is not the
 * gateway (it counts connections).
 */
export async function openSandboxWorld() {
  const tmp = await makeTempDir('summon-sandbox-world-');
  const data = path.join(tmp.path, 'data');
  const ws = path.join(data, 'workspaces', 'acme');
  const agentDir = path.join(ws, 'agents', 'engineer');
  const reposDir = path.join(ws, 'spaces', 'general', 'repos');
  const overlay = path.join(ws, 'spaces', 'general', 'agents', 'engineer');
  const operatorHome = path.join(tmp.path, 'operator-home');
  await mkdir(path.join(agentDir, '.agents', 'skills'), { recursive: true });
  await writeFile(path.join(agentDir, 'AGENTS.md'), '# engineer\n');
  await mkdir(path.join(ws, 'skills', 'deploy'), { recursive: true });
  await writeFile(path.join(ws, 'skills', 'deploy', 'SKILL.md'), '---\nname: deploy\n---\nShip it.\n');
  await symlink(
    path.join('..', '..', '..', '..', 'skills', 'deploy'),
    path.join(agentDir, '.agents', 'skills', 'deploy'),
  );
  await mkdir(path.join(ws, 'agents', 'qa'), { recursive: true });
  await writeFile(path.join(ws, 'agents', 'qa', 'AGENTS.md'), `# qa\n${CANARIES.otherAgent}\n`);
  await mkdir(path.join(ws, 'spaces', 'other', 'repos', 'secret'), { recursive: true });
  await writeFile(path.join(ws, 'spaces', 'other', 'repos', 'secret', 'notes.txt'), CANARIES.otherSpace);
  await mkdir(path.join(data, 'db'), { recursive: true });
  await writeFile(path.join(data, 'db', 'PG_VERSION'), `16\n${CANARIES.database}\n`);
  await writeFile(path.join(data, 'summon.log'), `{"msg":"${CANARIES.dataFile}"}\n`);
  // The space's checkout, with symlinks committed to point out of it.
  const repo = path.join(reposDir, 'widgets');
  await mkdir(repo, { recursive: true });
  await writeFile(path.join(repo, 'README.md'), 'widgets\n');
  await symlink('/etc/shadow', path.join(repo, 'shadow'));
  await symlink(path.join(data, 'db', 'PG_VERSION'), path.join(repo, 'database'));
  await symlink(path.join('..', '..', '..', '..', '..', '..', 'summon.log'), path.join(repo, 'log'));
  // The overlay the gateway builds (space-worktrees.ts): relative links into the data folder.
  await mkdir(path.join(overlay, 'repos'), { recursive: true });
  await mkdir(path.join(overlay, '.agents', 'skills'), { recursive: true });
  await symlink(path.relative(overlay, path.join(agentDir, 'AGENTS.md')), path.join(overlay, 'AGENTS.md'));
  await symlink(path.relative(path.join(overlay, 'repos'), repo), path.join(overlay, 'repos', 'widgets'));
  await symlink(
    path.relative(
      path.join(overlay, '.agents', 'skills'),
      path.join(agentDir, '.agents', 'skills', 'deploy'),
    ),
    path.join(overlay, '.agents', 'skills', 'deploy'),
  );
  await mkdir(operatorHome, { recursive: true });
  await writeFile(path.join(operatorHome, '.gitconfig'), `[user]\n\tname = ${CANARIES.gitconfig}\n`);
  // Another process of the host (standing in for Summon itself) with a secret in its environment.
  const holder: ChildProcess = spawn('sleep', ['300'], {
    env: { PATH: '/usr/bin:/bin', SUMMON_SECRET: CANARIES.shadowless },
    stdio: 'ignore',
  });
  let connections = 0;
  const bystander: Server = createServer((socket) => {
    connections += 1;
    socket.end('bystander\n');
  });
  await new Promise<void>((resolve) => bystander.listen(0, '127.0.0.1', () => resolve()));
  return {
    data,
    agentDir,
    reposDir,
    overlay,
    repo,
    operatorHome,
    holderPid: holder.pid ?? -1,
    bystanderPort: (bystander.address() as { port: number }).port,
    bystanderConnections: () => connections,
    remove: async () => {
      holder.kill('SIGKILL');
      await new Promise<void>((resolve) => bystander.close(() => resolve()));
      await tmp.remove();
    },
  };
}

/**
 * A TCP server standing in for the git gateway: answers `gateway` and counts connections. By
 * default on 127.0.0.1 and named so; `at` puts it on another local address, named by a host name
 * (a gateway on another machine, reached by name).
 */
export async function openFakeGateway(
  at: { listen: string; urlHost: string } = { listen: '127.0.0.1', urlHost: '127.0.0.1' },
) {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.end('gateway\n');
  });
  await new Promise<void>((resolve) => server.listen(0, at.listen, () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    url: `http://${at.urlHost}:${port}`,
    connections: () => connections,
    /** The run environment the gateway gives a run (run-git-environment.ts), pointing at this server. */
    env: {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: `http.http://${at.urlHost}:${port}/git/.extraHeader`,
      GIT_CONFIG_VALUE_0: 'Authorization: Basic cnVuOnRva2Vu',
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
