import { httpPairingChannel } from '../../../src/adapters/relay-http/http-pairing-channel';
import { FileSkillLibrary } from '../../../src/adapters/skill-sources/file-skill-library';
import { FileWorkspaceDirectory } from '../../../src/adapters/workspace-directory/file-workspace-directory';
import { recordMcpCall } from '../../../src/core/engine/tool-kit/record-mcp-call';
import { PushGate } from '../../../src/core/git/push-gate';
import { issueInvite, redeemInvite } from '../../../src/core/members/member-invites';
import type { AuditKind } from '../../../src/core/model/audit/audit-event';
import { silentLogger } from '../../../src/core/ports/logger';
import type { RunApprovals } from '../../../src/core/ports/run-approvals';
import { decodeOffer } from '../../../src/core/relays/relay-offer';
import { completeOffer, createOffer } from '../../../src/core/relays/relay-pairing';
import { verifyInstalledSkills } from '../../../src/core/skills/verify-installed';
import { applyWorkspaceFile } from '../../../src/core/workspace/apply-workspace-file';
import { parseWorkspaceFile } from '../../../src/core/workspace/parse-workspace-file';
import type { SqlStore } from '../../../src/storage/store/sql-store';
import { makeTempDir } from '../../support/temp-dir';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { type SeededWorkspace, seedWorkspace } from '../storage/workspace-fixture';

const clock = { now: () => new Date() };

/** A gate whose rules decide alone here: asking for an approval would be a defect of the test. */
const noApprovals: RunApprovals = {
  requestApproval: () => Promise.reject(new Error('no approval expected')),
  awaitApproval: () => Promise.reject(new Error('no approval expected')),
  approvalState: () => Promise.reject(new Error('no approval expected')),
} as unknown as RunApprovals;

describe.each(DATABASE_KINDS)(
  'O4 each recorded change writes its event, in its transaction, on %s',
  (kind) => {
    let db: TestDatabase;
    let store: SqlStore;
    let ws: SeededWorkspace;

    const events = (of: AuditKind) =>
      store.inWorkspace(
        ws.workspaceId,
        async (tx) => (await tx.audit.page(ws.workspaceId, { kind: of }, null, 100)).events,
      );

    beforeEach(async () => {
      db = await openTestDatabase(kind);
      store = db.database.store;
      ws = await seedWorkspace(store, 'acme');
    });
    afterEach(() => db.dispose());

    it('P8, O4: an invite records the member added and invited; a link rolled back records nothing, one committed records who linked where', async () => {
      const invite = await issueInvite(store, {
        workspaceSlug: 'acme',
        nickname: 'erin',
        role: 'approver',
        now: clock.now(),
      });
      expect((await events('member_added')).map((e) => e.subject)).toContain('member erin');
      expect((await events('member_invited')).map((e) => [e.subject, e.actor.kind, e.where])).toEqual([
        ['member erin', 'operator', 'cli'],
      ]);
      const link = {
        code: invite.code,
        platform: 'slack' as const,
        externalTeamId: 'T-acme',
        userId: 'U0ERIN',
        now: clock.now(),
      };
      const failed = store.transaction(async (tx) => {
        expect(await redeemInvite(tx, link)).toMatchObject({ ok: true });
        throw new Error('the reply could not be sent');
      });
      await expect(failed).rejects.toThrow('the reply could not be sent');
      expect(await events('member_linked')).toEqual([]);
      expect(await store.transaction((tx) => redeemInvite(tx, link))).toMatchObject({ ok: true });
      expect((await events('member_linked')).map((e) => [e.actor.name, e.where, e.detail.account])).toEqual([
        ['erin', 'slack', 'U0ERIN'],
      ]);
      // The code itself never reaches the log.
      expect(JSON.stringify(await events('member_invited'))).not.toContain(invite.code);
    });

    it('A3, P8, O4: an apply records what it changed and each role change; one that fails records nothing', async () => {
      const dir = await makeTempDir();
      try {
        const directory = new FileWorkspaceDirectory(dir.path);
        const file = parseWorkspaceFile(
          [
            'workspace: acme',
            'members:',
            '  - nickname: acme-dana',
            '    role: viewer',
            '  - nickname: finn',
            '    role: admin',
            '',
          ].join('\n'),
        );
        const failed = store.transaction(async (tx) => {
          await applyWorkspaceFile(tx, directory, file, new Date());
          throw new Error('a later step failed');
        });
        await expect(failed).rejects.toThrow('a later step failed');
        expect(await events('workspace_applied')).toEqual([]);
        expect(await events('member_role_changed')).toEqual([]);
        await store.transaction((tx) => applyWorkspaceFile(tx, directory, file, new Date()));
        const [applied] = await events('workspace_applied');
        expect(applied).toMatchObject({
          actor: { kind: 'operator' },
          where: 'cli',
          subject: 'workspace acme',
          detail: { created: ['member finn'], updated: ['member acme-dana'] },
        });
        expect(
          (await events('member_role_changed')).map((e) => [e.subject, e.detail.from, e.detail.role]),
        ).toEqual([['member acme-dana', 'owner', 'viewer']]);
        expect((await events('member_added')).map((e) => e.subject)).toContain('member finn');
      } finally {
        await dir.remove();
      }
    });

    it('E4, O4: an MCP call is recorded with its run, and in the audit log by the run’s agent', async () => {
      await recordMcpCall(
        { store, clock, logger: silentLogger },
        {
          runId: ws.runId,
          workspaceId: ws.workspaceId,
          call: { server: 'linear', tool: 'list_issues' },
          verdict: { decision: 'allow', approvedByMemberId: null },
          durationMs: 12,
          outcome: 'ok',
        },
      );
      expect(
        (await events('mcp_called')).map((e) => [e.actor.name, e.subject, e.detail.outcome, e.detail.runId]),
      ).toEqual([['acme_alice', 'MCP tool linear__list_issues', 'ok', ws.runId]]);
    });

    it('G2, G5, O4: a push the rules refuse, and one they allow and that lands, are each recorded', async () => {
      const run = await store.transaction(async (tx) => tx.runs.findById(ws.runId));
      if (run === null) throw new Error('no seeded run');
      const gate = new PushGate({ store, approvals: noApprovals, clock, logger: silentLogger });
      const updates = [{ ref: 'refs/heads/main', oldId: '1'.repeat(40), newId: '2'.repeat(40) }];
      const holder = { inspect: async () => new Map(), held: () => {}, signal: new AbortController().signal };
      await store.inWorkspace(ws.workspaceId, (tx) =>
        tx.guardrails.upsert(ws.workspaceId, {
          scopeKind: 'workspace',
          scopeId: null,
          action: 'push_to_remote',
          decision: 'deny',
        }),
      );
      expect(await gate.decide({ run, repo: 'acme/api', updates }, holder)).toMatchObject({ kind: 'refuse' });
      await store.inWorkspace(ws.workspaceId, (tx) =>
        tx.guardrails.upsert(ws.workspaceId, {
          scopeKind: 'workspace',
          scopeId: null,
          action: 'push_to_remote',
          decision: 'allow',
        }),
      );
      const allowed = await gate.decide({ run, repo: 'acme/api', updates }, holder);
      if (allowed.kind !== 'forward') throw new Error(`not forwarded: ${allowed.kind}`);
      await gate.finish(allowed.push.id, 'forwarded');
      expect(
        (await events('push_decided')).map((e) => [e.actor.name, e.where, e.detail.decision, e.detail.refs]),
      ).toEqual([
        ['acme_alice', 'git', 'deny', ['refs/heads/main 111111111111..222222222222']],
        ['acme_alice', 'git', 'allow', ['refs/heads/main 111111111111..222222222222']],
      ]);
      expect((await events('push_finished')).map((e) => [e.subject, e.detail.status])).toEqual([
        [`push ${allowed.push.id} to acme/api`, 'forwarded'],
      ]);
    });

    it('A6, O4: an installed skill whose folder is gone is refused at start, and the log says why', async () => {
      const dir = await makeTempDir();
      try {
        const library = new FileSkillLibrary(dir.path);
        const entry = {
          source: 'acme/skills',
          path: 'skills/deploy',
          commit: 'a'.repeat(40),
          contentHash: `sha256:${'0'.repeat(64)}`,
          verdict: 'pass' as const,
          checkedAt: '2026-11-01T00:00:00.000Z',
        };
        await library.writeLock('acme', { version: 1, skills: { deploy: entry } });
        const refused = await verifyInstalledSkills({ store, library, logger: silentLogger });
        expect(refused.map((r) => r.name)).toEqual(['deploy']);
        expect(
          (await events('skill_refused')).map((e) => [e.subject, e.actor.kind, e.where, e.detail.reasons]),
        ).toEqual([['skill deploy', 'system', 'system', ['its folder is gone']]]);
      } finally {
        await dir.remove();
      }
    });

    it('R1, O4: a pairing completed by the other relay is recorded, with the level it was given', async () => {
      const deps = { store, clock, channel: httpPairingChannel };
      const offer = await createOffer(
        deps,
        ws.workspaceId,
        { relay: 'here', url: 'https://here.example.com' },
        'prompt',
      );
      const decoded = decodeOffer(offer.text);
      if (typeof decoded === 'string') throw new Error(decoded);
      await completeOffer(
        { store, clock, relayName: 'here' },
        {
          offer: decoded.offer,
          secret: decoded.secret,
          relay: 'build-box',
          url: null,
          publicKey: 'peer-public-key',
          pairingId: '00000000-0000-4000-8000-000000000001',
          grants: 'read',
        },
      );
      expect(
        (await events('relay_paired')).map((e) => [e.actor, e.where, e.subject, e.detail.level]),
      ).toEqual([[{ kind: 'relay', id: null, name: 'build-box' }, 'relay', 'relay build-box', 'prompt']]);
    });
  },
);
