import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HOOK_SCRIPT_NAME } from './hook-script';

/** How long Claude Code waits for the hook: longer than an approval may stay open (G4: 30 min). */
export const HOOK_TIMEOUT_SECONDS = 45 * 60;
/** A9: Bash commands and MCP tool calls go to the action policy; Claude Code's file tools do not. */
const MATCHERS = ['Bash', 'mcp__.*'];
/** Summon's hook, as `summon hook pre-tool-use` or as the sandbox's self-contained script. */
const MARKERS = ['hook pre-tool-use', HOOK_SCRIPT_NAME];

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Writes Summon's PreToolUse hook into `<workingDir>/.claude/settings.local.json`, Claude Code's
 * local (uncommitted) project settings, keeping every other setting and hook that is there and
 * replacing an earlier Summon hook. The file is replaced atomically.
 */
export async function installPreToolUseHook(workingDir: string, hookCommand: string): Promise<string> {
  const dir = path.join(workingDir, '.claude');
  const file = path.join(dir, 'settings.local.json');
  await mkdir(dir, { recursive: true });
  const settings = await readSettings(file);
  const hooks = isObject(settings.hooks) ? settings.hooks : {};
  const existing = Array.isArray(hooks.PreToolUse) ? hooks.PreToolUse : [];
  const others = existing.filter((group) => !isSummonGroup(group));
  const ours = MATCHERS.map((matcher) => ({
    matcher,
    hooks: [{ type: 'command', command: hookCommand, timeout: HOOK_TIMEOUT_SECONDS }],
  }));
  const next = { ...settings, hooks: { ...hooks, PreToolUse: [...others, ...ours] } };
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o644 });
  await rename(temp, file);
  return file;
}

async function readSettings(file: string): Promise<Json> {
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    return isObject(parsed) ? parsed : {};
  } catch {
    return {}; // missing or unreadable: Summon's hook is the file's content from now on
  }
}

function isSummonGroup(group: unknown): boolean {
  if (!isObject(group) || !Array.isArray(group.hooks)) return false;
  return group.hooks.some(
    (hook) =>
      isObject(hook) &&
      typeof hook.command === 'string' &&
      MARKERS.some((marker) => (hook.command as string).endsWith(marker)),
  );
}
