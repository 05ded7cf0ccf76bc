import type { ToolAuthorization } from '../../../core/ports/turn-tools';
import {
  channelAnswerSchema,
  HOOK_TOKEN_ENV,
  HOOK_URL_ENV,
  type PreToolUseInput,
  preToolUseInputSchema,
} from './pre-tool-use-protocol';

/**
 * The hook's side (`summon hook pre-tool-use`): asks the runner of this run for the decision.
 * G2a: anything short of a clear answer from the runner (no channel in the environment, the
 * runner gone, a bad answer, unreadable input) is a denial with the reason.
 */
export async function askRunnerForDecision(
  env: NodeJS.ProcessEnv,
  stdin: string,
): Promise<ToolAuthorization> {
  const url = env[HOOK_URL_ENV];
  const token = env[HOOK_TOKEN_ENV];
  if (url === undefined || token === undefined || url === '' || token === '')
    return deny('this command is not running inside a Summon run, so there is nobody to ask');
  let input: PreToolUseInput;
  try {
    const parsed = preToolUseInputSchema.safeParse(JSON.parse(stdin));
    if (!parsed.success) return deny('the hook input is not a PreToolUse event');
    input = parsed.data;
  } catch {
    return deny('the hook input is not JSON');
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(input),
    });
  } catch {
    return deny('the Summon run that started this agent cannot be reached');
  }
  if (!response.ok) return deny(`the Summon run refused the question (HTTP ${response.status})`);
  try {
    const answer = channelAnswerSchema.safeParse(await response.json());
    return answer.success ? answer.data : deny('the Summon run gave an unreadable answer');
  } catch {
    return deny('the Summon run gave an unreadable answer');
  }
}

const deny = (why: string): ToolAuthorization => ({
  allowed: false,
  reason: `Denied by Summon (fail closed): ${why}.`,
});
