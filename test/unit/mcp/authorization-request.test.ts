import { authorizationRequest } from '../../../src/core/mcp/authorization-request';
import { tokenOwner } from '../../../src/core/mcp/token-owner';
import type { McpServerSpec } from '../../../src/core/model/mcp/mcp-server';
import type { MemberRole } from '../../../src/core/model/member';
import type { MemberRecord } from '../../../src/core/model/records';

const server = (tokens: 'member' | 'workspace'): McpServerSpec => ({
  name: 'linear',
  transport: 'http',
  url: 'https://mcp.linear.example/mcp',
  headers: {},
  auth: { kind: 'oauth', tokens },
});
const plain: McpServerSpec = {
  name: 'plain',
  transport: 'http',
  url: 'https://plain.example/mcp',
  headers: {},
};

const member = (nickname: string, role: MemberRole): MemberRecord => ({
  id: `id-${nickname}`,
  workspaceId: 'ws',
  nickname,
  role,
  slackUserId: null,
  discordUserId: null,
  createdAt: new Date(0),
});
const members = [
  member('vic', 'viewer'),
  member('ann', 'admin'),
  member('oz', 'owner'),
  member('sam', 'member'),
];

describe('who authorizes a server that needs OAuth', () => {
  it('E5 member tokens: the asking member gets the link privately; the model is told who', () => {
    const request = authorizationRequest({
      server: server('member'),
      context: { workspaceId: 'ws', memberId: 'id-sam' },
      members,
    });
    expect(request).toMatchObject({
      kind: 'send',
      owner: { server: 'linear', memberId: 'id-sam' },
      recipient: { nickname: 'sam' },
      toModel: 'linear needs authorization; @sam was sent a link.',
    });
    if (request.kind !== 'send') throw new Error('expected a link to send');
    expect(request.message('https://auth.example/authorize?x')).toBe(
      'linear needs your authorization before agents can use it for you. Open this link to authorize it (valid 15 minutes): https://auth.example/authorize?x',
    );
  });

  it('E5 member tokens for a call made for no member: nobody is asked, the model is told why', () => {
    expect(
      authorizationRequest({
        server: server('member'),
        context: { workspaceId: 'ws', memberId: null },
        members,
      }),
    ).toEqual({
      kind: 'nobody',
      toModel:
        'linear needs the authorization of the member a call is made for, and this call was made for no member.',
    });
  });

  it('E5 workspace tokens: the asking member when an owner or admin, else the first owner or admin', () => {
    const byOwner = authorizationRequest({
      server: server('workspace'),
      context: { workspaceId: 'ws', memberId: 'id-oz' },
      members,
    });
    expect(byOwner).toMatchObject({ kind: 'send', owner: { memberId: null }, recipient: { nickname: 'oz' } });
    const bySam = authorizationRequest({
      server: server('workspace'),
      context: { workspaceId: 'ws', memberId: 'id-sam' },
      members,
    });
    expect(bySam).toMatchObject({
      kind: 'send',
      recipient: { nickname: 'ann' },
      toModel: 'linear needs authorization; @ann was sent a link.',
    });
    if (bySam.kind !== 'send') throw new Error('expected a link to send');
    expect(bySam.message('L')).toBe(
      "linear needs authorization for the whole workspace (every member's calls will use it). As an admin, open this link to authorize it (valid 15 minutes): L",
    );
    expect(
      authorizationRequest({
        server: server('workspace'),
        context: { workspaceId: 'ws', memberId: 'id-sam' },
        members: [member('sam', 'member')],
      }),
    ).toEqual({
      kind: 'nobody',
      toModel:
        'linear needs authorization by an owner or admin of the workspace, and it has none: an operator can run `summon mcp login linear`.',
    });
  });

  it('E5 whose tokens a call uses: the workspace, or the call’s member (required for tokens: member)', () => {
    expect(tokenOwner({ workspaceId: 'ws', memberId: 'id-sam' }, server('workspace'))).toEqual({
      server: 'linear',
      memberId: null,
    });
    expect(tokenOwner({ workspaceId: 'ws', memberId: 'id-sam' }, server('member'))).toEqual({
      server: 'linear',
      memberId: 'id-sam',
    });
    expect(() => tokenOwner({ workspaceId: 'ws' }, server('member'))).toThrow(
      "linear uses each member's own authorization (`tokens: member`), and this call was made for no member.",
    );
    expect(() => tokenOwner({ workspaceId: 'ws' }, plain)).toThrow(
      'plain does not use OAuth (its entry has no `auth: oauth`).',
    );
    expect(authorizationRequest({ server: plain, context: { workspaceId: 'ws' }, members })).toEqual({
      kind: 'nobody',
      toModel: 'plain does not use OAuth.',
    });
  });
});
