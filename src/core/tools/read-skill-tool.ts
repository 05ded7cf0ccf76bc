import { z } from 'zod';
import { ALL_MODES, defineTool } from './tool-definition';

/** A5: the body of a skill linked into the agent's folder (only the frontmatter is in the prompt). */
export const readSkillTool = defineTool({
  name: 'read_skill',
  description:
    'Read the full instructions of one of your skills (listed under "Skills" in your instructions) by name.',
  input: z.object({ name: z.string().min(1).describe('The skill name, as listed.') }),
  access: 'read',
  modes: ALL_MODES,
  classify: () => [],
  run: async (input, scope) => {
    const wanted = input.name.trim().toLowerCase();
    const skill = scope.skills.find((s) => s.name.toLowerCase() === wanted);
    if (skill === undefined) {
      const names = scope.skills.map((s) => s.name);
      return {
        ok: false,
        output: `You have no skill named "${input.name}". ${names.length > 0 ? `Your skills: ${names.join(', ')}.` : 'You have no skills.'}`,
      };
    }
    return { ok: true, output: skill.body };
  },
});
