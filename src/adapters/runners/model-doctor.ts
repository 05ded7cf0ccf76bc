import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ModelConfig } from '../../config/config';
import type { AgentRecord } from '../../core/model/records';
import {
  type CheckResult,
  type DoctorCheck,
  fail,
  ok,
  warn,
  withoutSecrets,
} from '../../core/ports/doctor-check';
import type { RunnerResolver } from '../../core/ports/runner';
import { NO_TOOLS } from '../../core/ports/turn-tools';
import { NO_ANTHROPIC_KEY_REASON } from './anthropic-runner';

const PROBE_TIMEOUT_MS = 30_000;

/**
 * `summon doctor` for models (A10): each model the agents use gets one tiny request through
 * its runner (the built-in loop's Anthropic API, an OpenAI-compatible server); agents that
 * share a model share the request. An agent with no model configured is a warning (its turns
 * fail with a sentence, nothing crashes); a CLI agent's program must be on PATH.
 */
export function modelDoctorCheck(
  models: ModelConfig,
  runners: RunnerResolver,
  agents: readonly AgentRecord[],
  env: NodeJS.ProcessEnv,
): DoctorCheck {
  return async () => {
    if (agents.length === 0) return [ok('models', 'no agents yet')];
    const results: CheckResult[] = [];
    const byModel = new Map<string, AgentRecord[]>();
    for (const agent of agents) {
      if (agent.adapterId === 'command') {
        results.push(await commandCheck(agent, env));
        continue;
      }
      const key = `${agent.adapterId ?? 'anthropic'}:${agent.modelId ?? models.defaultModel}`;
      byModel.set(key, [...(byModel.get(key) ?? []), agent]);
    }
    for (const [key, sharing] of byModel) {
      const first = sharing[0] as AgentRecord;
      const names = sharing.map((a) => a.name).join(', ');
      const name = `model ${key}`;
      if (first.adapterId !== 'openai' && models.anthropicApiKey === undefined) {
        results.push(warn(name, `${names}: no model is configured`, NO_ANTHROPIC_KEY_REASON));
        continue;
      }
      if (first.adapterId === 'openai' && models.openaiBaseUrl === undefined) {
        results.push(
          warn(
            name,
            `${names}: \`adapter: openai\` but OPENAI_BASE_URL is not set`,
            'set OPENAI_BASE_URL to your OpenAI-compatible server (e.g. http://127.0.0.1:11434/v1 for Ollama)',
          ),
        );
        continue;
      }
      results.push(await probe(name, names, first, runners, [models.anthropicApiKey, models.openaiApiKey]));
    }
    return results;
  };
}

async function probe(
  name: string,
  names: string,
  agent: AgentRecord,
  runners: RunnerResolver,
  secrets: (string | undefined)[],
): Promise<CheckResult> {
  const signal = AbortSignal.timeout(PROBE_TIMEOUT_MS);
  try {
    for await (const event of runners(agent).run({
      runId: 'summon-doctor',
      agent: { ...agent, effort: null },
      system: 'You are being checked by `summon doctor`.',
      prompt: 'Reply with the single word: ok',
      workingDir: os.tmpdir(),
      tools: NO_TOOLS,
      signal,
    })) {
      if (event.type === 'final') return ok(name, `${names}: the model answered`);
      if (event.type === 'error')
        return fail(name, `${names}: ${withoutSecrets(event.message, secrets)}`, FIX_MODEL);
    }
    return fail(
      name,
      signal.aborted ? `${names}: no answer within ${PROBE_TIMEOUT_MS / 1000} s` : `${names}: no answer`,
      FIX_MODEL,
    );
  } catch (error) {
    return fail(name, `${names}: ${withoutSecrets(String(error), secrets)}`, FIX_MODEL);
  }
}

const FIX_MODEL =
  'check the key and base URL (ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL, OPENAI_BASE_URL / OPENAI_API_KEY) and the agent’s `model` in the workspace file';

/** A9: a CLI agent runs its command per turn; doctor only checks that its program can be found. */
async function commandCheck(agent: AgentRecord, env: NodeJS.ProcessEnv): Promise<CheckResult> {
  const name = `agent ${agent.name}`;
  const program = agent.command?.trim().split(/\s+/)[0];
  if (program === undefined || program === '')
    return warn(
      name,
      '`adapter: command` but no `command`',
      'set the agent’s `command` in the workspace file, then `summon apply`',
    );
  const candidates = program.includes('/')
    ? [path.resolve(program)]
    : (env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, program));
  for (const candidate of candidates) {
    if (
      await access(candidate, constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return ok(name, `CLI agent: ${program} found at ${candidate}`);
  }
  return fail(
    name,
    `CLI agent: ${program} is not on PATH`,
    `install ${program}, or correct the agent’s \`command\``,
  );
}
