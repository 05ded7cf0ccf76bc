import type { GuardrailAction } from '../model/guardrail';
import { programWords, simpleCommands } from './shell-words';

const NETWORK_PROGRAMS = new Set([
  'curl',
  'wget',
  'ssh',
  'scp',
  'sftp',
  'rsync',
  'nc',
  'ncat',
  'netcat',
  'telnet',
  'ftp',
  'http',
  'https',
  'xh',
  'aria2c',
  'ping',
  'dig',
  'nslookup',
  'npx',
  'pnpx',
  'bunx',
  'docker',
]);

/** Package managers and the subcommands that fetch from a registry. */
const INSTALLERS: Record<string, readonly string[]> = {
  npm: ['install', 'i', 'ci', 'add', 'update', 'upgrade', 'publish', 'exec', 'x'],
  pnpm: ['install', 'i', 'add', 'update', 'up', 'dlx', 'publish'],
  yarn: ['install', 'add', 'upgrade', 'dlx', 'publish', ''],
  bun: ['install', 'i', 'add', 'update', 'x'],
  pip: ['install', 'download'],
  pip3: ['install', 'download'],
  pipx: ['install', 'run'],
  uv: ['add', 'sync', 'pip', 'tool', 'run'],
  poetry: ['install', 'add', 'update'],
  'apt-get': ['install', 'update', 'upgrade', 'dist-upgrade'],
  apt: ['install', 'update', 'upgrade'],
  brew: ['install', 'update', 'upgrade'],
  cargo: ['install', 'add', 'fetch', 'update', 'publish'],
  go: ['get', 'install', 'mod'],
  gem: ['install', 'update'],
  composer: ['install', 'require', 'update'],
};

const GIT_NETWORK = new Set(['fetch', 'pull', 'clone', 'ls-remote', 'submodule', 'remote']);
const GH_TRACKER = new Set(['issue', 'project', 'label']);

/**
 * G1: the guardrail actions of a shell command line: `git commit` → commit, `git push` →
 * push_to_remote (when the run's git goes through the gateway the tool kit leaves it to the
 * gateway, which decides at the moment of the push, G5), `gh pr create` →
 * open_pull_request, `gh issue …` → tracker_write, and anything that reaches the network
 * (curl, wget, ssh, package installs, git fetch/pull/clone, other gh calls) → network.
 */
export function classifyCommand(line: string): GuardrailAction[] {
  const actions = new Set<GuardrailAction>();
  for (const words of simpleCommands(line)) {
    const [program, ...args] = programWords(words);
    if (program === undefined) continue;
    const sub = args.find((a) => !a.startsWith('-')) ?? '';
    if (program === 'git') {
      const verb = gitVerb(args);
      if (verb === 'commit') actions.add('commit');
      if (verb === 'push') actions.add('push_to_remote');
      if (GIT_NETWORK.has(verb)) actions.add('network');
    } else if (program === 'gh') {
      const second = args.filter((a) => !a.startsWith('-'))[1] ?? '';
      if (sub === 'pr' && second === 'create') actions.add('open_pull_request');
      else if (GH_TRACKER.has(sub) && !['list', 'view', 'status'].includes(second))
        actions.add('tracker_write');
      else actions.add('network');
    } else if (NETWORK_PROGRAMS.has(program)) {
      actions.add('network');
    } else {
      const fetching = INSTALLERS[program];
      if (fetching?.includes(sub)) actions.add('network');
    }
  }
  return [...actions];
}

/** `git -C dir -c k=v commit` → `commit`: options before the subcommand are skipped. */
function gitVerb(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '-C' || a === '-c' || a === '--git-dir' || a === '--work-tree') {
      i++;
      continue;
    }
    if (!a.startsWith('-')) return a;
  }
  return '';
}

/**
 * G5: whether every `git push` of the line goes to a named remote (`origin`, or none given),
 * which the run's git configuration sends through the gateway. A push naming a URL or a path
 * (`https://…`, `user@host:…`, `/srv/x.git`, `--repo=…`) may go elsewhere, so the tool-level
 * `push_to_remote` check stays for it.
 */
export function pushesOnlyToNamedRemotes(line: string): boolean {
  for (const words of simpleCommands(line)) {
    const [program, ...args] = programWords(words);
    if (program !== 'git' || gitVerb(args) !== 'push') continue;
    const after = args.slice(args.indexOf('push') + 1);
    if (after.some((a) => a.startsWith('--repo'))) return false;
    const target = after.find((a) => !a.startsWith('-'));
    if (target !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(target)) return false;
  }
  return true;
}
