import { createEgressProxies, summonPorts } from '../../../src/app/egress-runtime';
import { loadConfig } from '../../../src/config/config';
import { silentLogger } from '../../../src/core/ports/logger';

describe('X2: the runs’ egress proxies in the composition root', () => {
  it('X2: one proxy set when the sandbox is on (the default), none with SUMMON_SANDBOX=off', () => {
    expect(createEgressProxies(loadConfig({}, '/srv'), silentLogger)).not.toBeNull();
    expect(createEgressProxies(loadConfig({ SUMMON_SANDBOX: 'off' }, '/srv'), silentLogger)).toBeNull();
  });

  it('X2: never proxies to Summon’s own ports: its server and gateway, its database, Redis', () => {
    const config = loadConfig(
      {
        PORT: '3100',
        SUMMON_GATEWAY_URL: 'http://127.0.0.1:3200',
        DATABASE_URL: 'postgres://summon@127.0.0.1/summon',
        REDIS_URL: 'redis://127.0.0.1:6380',
      },
      '/srv',
    );
    expect(summonPorts(config).sort()).toEqual([3100, 3200, 5432, 6380]);
  });
});
