import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HOOK_PATH, HOOK_TOKEN_ENV, HOOK_URL_ENV } from './pre-tool-use-protocol';

/** The hook script's file name; `installPreToolUseHook` recognises Summon's hook by it. */
export const HOOK_SCRIPT_NAME = 'summon-pre-tool-use-hook.cjs';

/**
 * A9, X1: Claude Code's PreToolUse hook as one self-contained Node script, so that it runs
 * inside the sandbox where none of Summon's own files are visible. It does what `summon hook
 * pre-tool-use` does (pre-tool-use-client.ts): asks the run's runner over the per-run channel
 * (reached through the sandbox's forward of its port) and prints Claude Code's decision; a
 * denial also exits 2 with the reason on stderr. Anything short of a clear answer is a denial
 * (G2a, fail closed).
 */
export const HOOK_SCRIPT_SOURCE = `'use strict';
// Summon's PreToolUse hook (generated; see src/adapters/runners/command/hook-script.ts).
const deny = (why) => ({ allowed: false, reason: 'Denied by Summon (fail closed): ' + why + '.' });
const print = (decision) => {
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse',
    permissionDecision: decision.allowed ? 'allow' : 'deny',
    permissionDecisionReason: decision.allowed ? 'Allowed by Summon\\u2019s action policy.' : decision.reason } }) + '\\n');
  if (!decision.allowed) { process.stderr.write(decision.reason + '\\n'); process.exitCode = 2; }
};
async function decide() {
  const url = process.env[${JSON.stringify(HOOK_URL_ENV)}], token = process.env[${JSON.stringify(HOOK_TOKEN_ENV)}];
  if (!url || !token) return deny('this command is not running inside a Summon run, so there is nobody to ask');
  if (!new URL(url).pathname.endsWith(${JSON.stringify(HOOK_PATH)})) return deny('the hook channel address is not Summon\\u2019s');
  let input = '';
  for await (const chunk of process.stdin) { input += chunk; if (input.length > 1000000) return deny('the hook input is too large'); }
  let parsed;
  try { parsed = JSON.parse(input); } catch { return deny('the hook input is not JSON'); }
  if (typeof parsed !== 'object' || parsed === null || typeof parsed.tool_name !== 'string' || parsed.tool_name === '')
    return deny('the hook input is not a PreToolUse event');
  let response;
  try {
    response = await fetch(url, { method: 'POST', body: JSON.stringify(parsed),
      headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token } });
  } catch { return deny('the Summon run that started this agent cannot be reached'); }
  if (!response.ok) return deny('the Summon run refused the question (HTTP ' + response.status + ')');
  try {
    const answer = await response.json();
    if (answer && answer.allowed === true) return { allowed: true };
    if (answer && answer.allowed === false && typeof answer.reason === 'string') return { allowed: false, reason: answer.reason };
  } catch {}
  return deny('the Summon run gave an unreadable answer');
}
decide().catch((error) => deny(String(error && error.message || error))).then(print);
`;

/** Writes the hook script into `dir` (read-only inside the sandbox) and answers its path. */
export async function writeHookScript(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, HOOK_SCRIPT_NAME);
  await writeFile(file, HOOK_SCRIPT_SOURCE, { mode: 0o644 });
  return file;
}
