import { AnthropicRunner } from '../../src/adapters/runners/anthropic-runner';
import { createTurnTools } from '../../src/app/turn-tools';
import type { GuardrailRuleRepository } from '../../src/core/ports/store';
import type { AnthropicStandIn } from './stand-ins/anthropic-stand-in';

/**
 * The built-in runner against the Anthropic stand-in with the real tool kit, as an engine gets
 * them: what a platform harness takes as `runner` and `tools`.
 */
export function anthropicAgent(standIn: AnthropicStandIn, apiKey: string) {
  return {
    runner: new AnthropicRunner({
      apiKey,
      baseUrl: standIn.url,
      defaultModel: 'claude-sonnet-4-6',
      maxRetries: 0,
    }),
    tools: createTurnTools(process.env),
  };
}

/** A `bash` command the guardrails classify as `commit` (G1); its effect is `committed.txt`. */
export const COMMIT_COMMAND =
  'git init -q && git -c user.name=engineer -c user.email=engineer@example.com commit --allow-empty -q -m "fix the login bug" && git log --format=%s > committed.txt';

/** G1: commits need a person's approval in the whole workspace. */
export const COMMITS_ASK_FIRST = {
  scopeKind: 'workspace',
  scopeId: null,
  action: 'commit',
  decision: 'ask',
} as const satisfies Parameters<GuardrailRuleRepository['upsert']>[1];
