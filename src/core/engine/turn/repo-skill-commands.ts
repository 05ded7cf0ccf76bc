import type { MessageRecord } from '../../model/conversation-records';
import type { PreparedWorkspace } from '../../ports/run-workspace';
import type { PromptInput } from '../../prompt';
import { skillCommands } from '../../prompt/skill-commands';

/**
 * A5, A7: `/skill:<repo>:<name>` in a person's message loads that skill of the space's
 * repository (found in the run's prepared worktree, checked like an installed skill). The
 * turn context has already loaded "not installed" sentences for these; each one found
 * replaces its sentence with the skill's body.
 */
export async function withRepoSkills(
  input: PromptInput,
  trigger: MessageRecord | null,
  workspace: PreparedWorkspace | null,
): Promise<PromptInput> {
  if (workspace === null || trigger === null || trigger.authorKind !== 'person') return input;
  const wanted = skillCommands(trigger.text).filter((c) => c.repo !== undefined);
  if (wanted.length === 0 || input.loadedSkills === undefined) return input;
  const found = new Map<string, string>();
  for (const command of wanted) {
    const skill = await workspace.repoSkill(command.repo as string, command.name);
    if (skill === null) continue;
    // A6, A7: a refused skill's text never reaches the prompt; the agent is told why, to tell the person.
    found.set(
      `${command.repo}:${command.name}`,
      'refused' in skill
        ? `The skill "${command.repo}:${command.name}" was refused by the supply-chain check and was not loaded (${skill.refused}). Tell the person; do not guess its instructions.`
        : skill.body,
    );
  }
  return {
    ...input,
    loadedSkills: input.loadedSkills.map((loaded) => {
      const body = found.get(loaded.name);
      return body === undefined ? loaded : { name: loaded.name, body };
    }),
  };
}
