import { githubDoctorCheck } from '../../adapters/github/github-doctor';
import { modelDoctorCheck } from '../../adapters/runners/model-doctor';
import { createRunnerResolver } from '../../adapters/runners/runner-resolver';
import { createProcessLauncher } from '../../adapters/sandbox/create-process-launcher';
import { discordDoctorCheck } from '../../bots/discord/discord-doctor';
import { slackDoctorCheck } from '../../bots/slack/slack-doctor';
import type { Config } from '../../config/config';
import type { AgentRecord } from '../../core/model/records';
import {
  type CheckResult,
  type DoctorCheck,
  ok,
  reasonOf,
  warn,
  withoutSecrets,
} from '../../core/ports/doctor-check';
import type { Logger } from '../../core/ports/logger';
import { checkDatabase, checkPublicUrl, checkRedis, checkSandbox } from './core-checks';
import { mcpDoctorChecks } from './mcp-checks';

/** What `summon doctor` found: one line per check, and whether any failed. */
export interface DoctorReport {
  results: CheckResult[];
  failed: boolean;
}

/**
 * `summon doctor`: the database and its migrations, Redis, each model the agents use, Slack's
 * and Discord's credentials, GitHub's against every bound repository, the sandbox, the public
 * URL and each declared MCP server (O1). Each platform's and adapter's check lives beside its
 * code; this composes them.
 * Nothing is changed (migrations are checked, not run).
 */
export async function runDoctor(
  config: Config,
  env: NodeJS.ProcessEnv,
  logger: Logger,
): Promise<DoctorReport> {
  const { result: databaseResult, database } = await checkDatabase(config, logger);
  const results: CheckResult[] = [databaseResult];
  try {
    let agents: AgentRecord[] | null = null;
    let repos: string[] = [];
    let discordRoles = false;
    if (database !== null && databaseResult.status === 'ok') {
      const found = await database.store.transaction(async (tx) => {
        const agents: AgentRecord[] = [];
        const repos = new Set<string>();
        for (const workspace of await tx.workspaces.list()) {
          agents.push(...(await tx.agents.list(workspace.id)));
          for (const space of await tx.spaces.list(workspace.id))
            for (const repo of space.repos) repos.add(repo);
        }
        // P24: whether the Discord members intent is needed.
        const discordRoles = await tx.accessGroups.anyOnPlatform('discord');
        return { agents, repos: [...repos].sort(), discordRoles };
      });
      agents = found.agents;
      repos = found.repos;
      discordRoles = found.discordRoles;
    }
    const launcher = createProcessLauncher(config.sandbox);
    const checks: DoctorCheck[] = [
      async () => [await checkRedis(config)],
      agents === null
        ? async () => [warn('models', 'not checked: the database is not ready', 'fix the database first')]
        : modelDoctorCheck(config.models, createRunnerResolver(config.models, launcher), agents, env),
      config.slack === undefined
        ? async () => [ok('slack', 'not configured (SLACK_BOT_TOKEN)')]
        : slackDoctorCheck(config.slack),
      config.discord.token === undefined
        ? async () => [ok('discord', 'not configured (DISCORD_TOKEN)')]
        : discordDoctorCheck({
            token: config.discord.token,
            apiUrl: config.discord.apiUrl,
            members: discordRoles,
          }),
      githubDoctorCheck(config.github, repos),
      () => checkSandbox(launcher),
      async () => [await checkPublicUrl(config)],
      // O1, E1: each declared MCP server, bounded (a server that hangs cannot hang doctor).
      agents === null || database === null
        ? async () => [warn('mcp', 'not checked: the database is not ready', 'fix the database first')]
        : () => mcpDoctorChecks(config, env, database.store, logger),
    ];
    for (const check of checks) {
      results.push(
        ...(await check().catch((error: unknown) => [
          {
            name: 'doctor',
            status: 'fail' as const,
            detail: `a check failed: ${reasonOf(error)}`,
            fix: 'report this',
          },
        ])),
      );
    }
  } finally {
    await database?.close();
  }
  // Secrets never printed: whatever a check quoted is masked.
  const secrets = secretsOf(config);
  const clean = results.map((r) => ({
    ...r,
    detail: withoutSecrets(r.detail, secrets),
    ...(r.fix === undefined ? {} : { fix: withoutSecrets(r.fix, secrets) }),
  }));
  return { results: clean, failed: clean.some((r) => r.status === 'fail') };
}

function secretsOf(config: Config): (string | undefined)[] {
  return [
    config.models.anthropicApiKey,
    config.models.openaiApiKey,
    config.slack?.botToken,
    config.slack?.appToken,
    config.slack?.signingSecret,
    config.discord.token,
    config.github.token,
    config.github.appPrivateKey,
    ...[config.databaseUrl, config.redisUrl].map(passwordOf),
  ];
}

/** The password in a connection URL, if any. */
function passwordOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return decodeURIComponent(new URL(url).password) || undefined;
  } catch {
    return undefined;
  }
}

const MARK = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' } as const;

/** One line per check: `ok   database: …`, and for a warning or failure what to do. */
export function formatDoctorReport(report: DoctorReport): string {
  const lines = report.results.map(
    (r) =>
      `${MARK[r.status]}  ${r.name}: ${r.detail}${r.status !== 'ok' && r.fix !== undefined ? ` → ${r.fix}` : ''}`,
  );
  const count = (status: CheckResult['status']) => report.results.filter((r) => r.status === status).length;
  lines.push('', `${count('ok')} ok, ${count('warn')} warnings, ${count('fail')} failures`);
  return lines.join('\n');
}
