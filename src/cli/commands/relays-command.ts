import type { Command } from 'commander';
import { httpPairingChannel } from '../../adapters/relay-http/http-pairing-channel';
import { RelayHttpClient } from '../../adapters/relay-http/relay-http-client';
import { relayChanged } from '../../core/audit/audit-entries';
import { AppError } from '../../core/errors';
import type { RelayLevel } from '../../core/model/relays/relay-level';
import { systemClock } from '../../core/ports/clock';
import type { Store } from '../../core/ports/store';
import { isRelayLevel, LEVEL_WORDS } from '../../core/relays/relay-level';
import { decodeOffer } from '../../core/relays/relay-offer';
import { acceptOffer, createOffer } from '../../core/relays/relay-pairing';
import { type CliContext, withRuntime } from '../cli-context';
import { formatTable } from '../format-table';

const LEVEL_HELP = 'read (list agents and sessions), prompt (also send notes), full (also answer questions)';

/** R1: `summon relays pair|list|revoke`: pairings of a workspace with other Summon deployments. */
export function registerRelaysCommand(program: Command, context: CliContext): void {
  const relays = program
    .command('relays')
    .description('paired relays: other Summon deployments whose agents talk to ours');
  registerPair(relays, context);
  registerList(relays, context);
  registerRevoke(relays, context);
}

/** R1: `summon relays pair`: makes a one-time offer, or accepts the other relay's. */
function registerPair(relays: Command, context: CliContext): void {
  relays
    .command('pair')
    .description(
      'print a one-time pairing offer (valid 15 min) for another relay to accept; with --accept, accept the other relay’s offer (its server must be reachable)',
    )
    .option('-w, --workspace <slug>', 'workspace', 'default')
    .option('-a, --accept <offer>', 'the offer the other relay printed')
    .option('-l, --level <level>', `what the other relay’s agents may do here: ${LEVEL_HELP}`, 'prompt')
    .action((options: { workspace: string; accept?: string; level: string }) =>
      withRuntime(context, async ({ store, config }) => {
        const level = levelOf(options.level);
        const relayName = config.relayName;
        if (relayName === undefined)
          throw new AppError(
            'Set SUMMON_RELAY_NAME (this deployment’s name, e.g. build-box) before pairing.',
            'invalid',
          );
        const workspaceId = await workspaceIdOf(store, options.workspace);
        const deps = { store, clock: systemClock, channel: httpPairingChannel };
        if (options.accept === undefined) {
          if (config.publicUrl === undefined)
            throw new AppError(
              'Set SUMMON_PUBLIC_URL (where the other relay reaches this server) before making an offer.',
              'invalid',
            );
          const offer = await createOffer(
            deps,
            workspaceId,
            { relay: relayName, url: config.publicUrl },
            level,
          );
          context.output.out(
            [
              `Pairing offer of relay ${relayName} (workspace ${options.workspace}), valid until ${offer.expiresAt.toISOString()}, once.`,
              `The other relay's agents may here: ${LEVEL_WORDS[level]} (${level}).`,
              'On the other relay, run:',
              `summon relays pair --accept ${offer.text}`,
            ].join('\n'),
          );
          return;
        }
        const offer = decodeOffer(options.accept);
        if (typeof offer === 'string')
          throw new AppError(`That offer cannot be accepted: ${offer}`, 'invalid');
        let pairing: Awaited<ReturnType<typeof acceptOffer>>;
        try {
          pairing = await acceptOffer(
            deps,
            workspaceId,
            offer,
            { relay: relayName, url: config.publicUrl ?? null },
            level,
          );
        } catch (error) {
          throw new AppError(
            `Pairing failed: ${error instanceof Error ? error.message : String(error)}`,
            'invalid',
          );
        }
        context.output.out(
          [
            `Paired with relay ${pairing.remoteName} (${offer.url}).`,
            `Its agents may here: ${LEVEL_WORDS[level]} (${level}). Ours may there: ${pairing.remoteGrants ?? 'unknown'}.`,
          ].join('\n'),
        );
      }),
    );
}

/** R1: `summon relays list`: a workspace's pairings and what each side grants. */
function registerList(relays: Command, context: CliContext): void {
  relays
    .command('list')
    .description('the pairings of a workspace, with the level each side grants')
    .option('-w, --workspace <slug>', 'workspace', 'default')
    .action((options: { workspace: string }) =>
      withRuntime(context, async ({ store }) => {
        const workspaceId = await workspaceIdOf(store, options.workspace);
        const { pairings, settings } = await store.inWorkspace(workspaceId, async (tx) => ({
          pairings: await tx.relays.listPairings(workspaceId),
          settings: await tx.relays.settings(workspaceId),
        }));
        if (pairings.length === 0) {
          context.output.out('No paired relays (summon relays pair makes an offer).');
          return;
        }
        const accepted = (name: string) =>
          settings.accepted.find((a) => a.relay.toLowerCase() === name.toLowerCase())?.level ??
          'not accepted';
        context.output.out(
          formatTable(
            ['relay', 'url', 'theirs here', 'ours there', 'state'],
            pairings.map((p) => [
              p.remoteName,
              p.remoteUrl ?? '-',
              accepted(p.remoteName),
              p.remoteGrants ?? '-',
              p.revokedAt === null ? 'active' : `revoked ${p.revokedAt.toISOString()}`,
            ]),
          ),
        );
        if (!settings.acceptRemoteAgentPrompts)
          context.output.out('acceptRemoteAgentPrompts is off: prompts from these relays are refused.');
      }),
    );
}

/** R1: `summon relays revoke`: ends a pairing on both sides (ours ends even when theirs cannot be told). */
function registerRevoke(relays: Command, context: CliContext): void {
  relays
    .command('revoke <relay>')
    .description(
      'revoke the pairing with a relay, telling it (signed) so it revokes its side too: every request of that pairing is refused from now on',
    )
    .option('-w, --workspace <slug>', 'workspace', 'default')
    .action((relay: string, options: { workspace: string }) =>
      withRuntime(context, async ({ store, config, logger }) => {
        const workspaceId = await workspaceIdOf(store, options.workspace);
        const active = await store.inWorkspace(workspaceId, (tx) =>
          tx.relays.findActiveByName(workspaceId, relay),
        );
        if (active === null)
          throw new AppError(
            `This workspace has no active pairing with a relay named ${relay}.`,
            'not_found',
          );
        // R1: the other side is told first (signed), so it ends its side too; unreachable, ours ends anyway.
        const told = await new RelayHttpClient({
          store,
          clock: systemClock,
          logger: logger.child({ component: 'relays' }),
          relayName: config.relayName ?? 'this relay',
          publicUrl: config.publicUrl,
        }).revoke(workspaceId, active.remoteName);
        await store.inWorkspace(workspaceId, async (tx) => {
          await tx.relays.revoke(active.id, systemClock.now());
          await tx.audit.append(workspaceId, relayChanged('relay_revoked', active, { where: 'cli' })); // O4
        });
        context.output.out(
          [
            `Revoked the pairing with relay ${active.remoteName}.`,
            told.ok
              ? `Relay ${active.remoteName} was told and revoked its side too.`
              : `Relay ${active.remoteName} was not told (${told.reason.replace(/\.$/, '')}); every request from it is refused here, and its operator should run \`summon relays revoke\` there too.`,
          ].join('\n'),
        );
      }),
    );
}

function levelOf(value: string): RelayLevel {
  if (!isRelayLevel(value))
    throw new AppError(`--level must be one of: ${LEVEL_HELP}; got "${value}".`, 'invalid');
  return value;
}

async function workspaceIdOf(store: Store, slug: string): Promise<string> {
  const workspace = await store.transaction((tx) => tx.workspaces.findBySlug(slug));
  if (workspace === null) throw new AppError(`There is no workspace "${slug}".`, 'not_found');
  return workspace.id;
}
