import { bwrapArguments } from '../../../src/adapters/sandbox/bwrap-arguments';
import { gatewayForwards } from '../../../src/adapters/sandbox/gateway-forward';
import { runSandboxPolicy } from '../../../src/adapters/sandbox/run-sandbox-policy';
import { gatewayUrlProblem } from '../../../src/config/gateway-url';

const plan = {
  layout: {
    entries: [
      { path: '/usr', kind: 'dir' as const },
      { path: '/bin', kind: 'symlink' as const, target: 'usr/bin' },
    ],
    etc: ['/etc/ld.so.cache', '/etc/alternatives'],
  },
  etcDir: '/state/etc',
  forwardsDir: '/state/calls/call-1',
  workingDir: '/data/ws/spaces/general/agents/engineer',
  writable: [
    { real: '/data/ws/spaces/general/agents/engineer', at: '/data/ws/spaces/general/agents/engineer' },
  ],
  readOnly: [{ real: '/data/ws/skills/deploy', at: '/data/ws/skills/deploy' }],
  uid: 1000,
  gid: 1000,
  tmpBytes: 1024,
};

describe('bwrapArguments (X1)', () => {
  const args = bwrapArguments(plan);
  const at = (...needle: string[]) =>
    args.findIndex((_, i) => needle.every((word, j) => args[i + j] === word));

  it('X1: every namespace, no capabilities, no nested user namespaces, a new session, dies with Summon', () => {
    for (const flag of [
      '--unshare-all',
      '--unshare-user',
      '--disable-userns',
      '--die-with-parent',
      '--new-session',
    ])
      expect(args).toContain(flag);
    expect(at('--cap-drop', 'ALL')).toBeGreaterThanOrEqual(0);
  });

  it('X1: the system read-only, Summon’s own passwd/group/hosts, never the host’s', () => {
    expect(at('--ro-bind', '/usr', '/usr')).toBeGreaterThanOrEqual(0);
    expect(at('--symlink', 'usr/bin', '/bin')).toBeGreaterThanOrEqual(0);
    expect(at('--ro-bind', '/state/etc', '/etc')).toBeGreaterThanOrEqual(0);
    expect(args.filter((arg) => arg.startsWith('/etc'))).toEqual(['/etc']);
    expect(args).not.toContain('/etc/shadow');
    expect(at('--ro-bind', '/etc/passwd')).toBe(-1);
  });

  it('X1: tmpfs /tmp and home are sized; writable mounts come after them, read-only ones last (a skill stays read-only)', () => {
    const tmp = at('--size', '1024', '--tmpfs', '/tmp');
    const writable = at('--bind', plan.workingDir, plan.workingDir);
    const readOnly = at('--ro-bind', '/data/ws/skills/deploy', '/data/ws/skills/deploy');
    expect(tmp).toBeGreaterThanOrEqual(0);
    expect(writable).toBeGreaterThan(tmp);
    expect(readOnly).toBeGreaterThan(writable);
    expect(at('--chdir', plan.workingDir)).toBe(args.length - 2);
  });
});

it('X2: a call with forwarded host names gets its own /etc/hosts over the sandbox’s', () => {
  const args = bwrapArguments({ ...plan, hostsFile: '/state/calls/call-1/hosts' });
  const etc = args.findIndex((arg, i) => arg === '--ro-bind' && args[i + 2] === '/etc');
  const hosts = args.findIndex((arg, i) => arg === '--ro-bind' && args[i + 2] === '/etc/hosts');
  expect(args[hosts + 1]).toBe('/state/calls/call-1/hosts');
  expect(hosts).toBeGreaterThan(etc);
});

describe('gatewayForwards (X2, G3)', () => {
  it('forwards the loopback gateway the run’s git configuration sends its credential to, and nothing else', () => {
    expect(
      gatewayForwards({
        GIT_CONFIG_KEY_0: 'http.http://127.0.0.1:4123/git/.extraHeader',
        GIT_CONFIG_KEY_1: 'url.http://127.0.0.1:4123/git/.insteadOf',
        GIT_CONFIG_KEY_2: 'http.http://10.1.2.3:4000/git/.extraHeader',
        OTHER: 'http.http://127.0.0.1:9999/.extraHeader',
      }),
    ).toEqual([{ port: 4123, target: { host: '127.0.0.1', port: 4123 } }]);
  });

  it('X2: a gateway reached by host name is forwarded on its port, the name resolving to the sandbox’s loopback', () => {
    expect(gatewayForwards({ GIT_CONFIG_KEY_0: 'http.https://Summon-Web:8443/git/.extraHeader' })).toEqual([
      { port: 8443, target: { host: 'summon-web', port: 8443 }, names: ['summon-web'] },
    ]);
  });

  it('X2: a forwarded host name is reached directly, not through the run’s proxy (NO_PROXY)', () => {
    const policy = runSandboxPolicy({
      workingDir: '/nonexistent',
      env: {
        GIT_CONFIG_KEY_0: 'http.http://summon-web:3000/git/.extraHeader',
        NO_PROXY: '127.0.0.1,localhost,::1',
        no_proxy: '127.0.0.1,localhost,::1',
      },
    });
    expect(policy.env.NO_PROXY).toBe('127.0.0.1,localhost,::1,summon-web');
    expect(policy.env.no_proxy).toBe('127.0.0.1,localhost,::1,summon-web');
  });
});

describe('gatewayUrlProblem (X2, X4): a gateway URL the sandbox cannot carry is refused at start', () => {
  it.each(['http://127.0.0.1:3000', 'http://localhost:3000/', 'https://summon-web.internal:8443'])(
    'X2: %s can be forwarded',
    (url) => {
      expect(gatewayUrlProblem(url)).toBeUndefined();
    },
  );

  it('X2: an IP address other than 127.0.0.1 is refused, naming it and what to use instead', () => {
    const problem = gatewayUrlProblem('http://10.0.0.5:3000');
    expect(problem).toMatch(
      /^SUMMON_GATEWAY_URL: the gateway URL http:\/\/10\.0\.0\.5:3000 names the IP address 10\.0\.0\.5/,
    );
    expect(problem).toContain('Use 127.0.0.1');
    expect(problem).toContain('SUMMON_SANDBOX=off');
    expect(gatewayUrlProblem('http://[::1]:3000')).toContain('names the IP address ::1');
  });

  it('X2: a port below 1024 (https without a port: 443) is refused with the reason', () => {
    expect(gatewayUrlProblem('https://summon.example.com')).toContain('uses port 443');
    expect(gatewayUrlProblem('http://127.0.0.1:80')).toContain('uses port 80');
  });
});
