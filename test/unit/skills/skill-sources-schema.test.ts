import { ValidationError } from '../../../src/core/errors';
import { parseReview } from '../../../src/core/skills/model-skill-reviewer';
import { parseSkillSpec } from '../../../src/core/skills/skill-installer';
import { parseWorkspaceFile } from '../../../src/core/workspace/parse-workspace-file';

const COMMIT = 'a'.repeat(40);

describe('A6 skill sources in the workspace file', () => {
  it('takes sources, a review agent and installed skills given by their pin', () => {
    const file = parseWorkspaceFile(
      [
        'workspace: acme',
        'skillSources:',
        '  - repo: acme/agent-skills',
        '  - { repo: acme/tools, path: ., ref: v2 }',
        'skillReview: { agent: reviewer }',
        'skills:',
        `  - { name: deploy, source: acme/agent-skills/deploy@${COMMIT} }`,
      ].join('\n'),
    );
    expect(file.skillSources).toEqual([
      { repo: 'acme/agent-skills' },
      { repo: 'acme/tools', path: '.', ref: 'v2' },
    ]);
    expect(file.skills?.[0]?.source).toBe(`acme/agent-skills/deploy@${COMMIT}`);
  });

  it('refuses a bad source, a path out of the repository, and text on an installed skill', () => {
    const refused = (yaml: string) => {
      try {
        parseWorkspaceFile(`workspace: acme\n${yaml}`);
      } catch (error) {
        return (error as ValidationError).issues.map((i) => i.path);
      }
      throw new Error('accepted');
    };
    expect(refused('skillSources: [{ repo: not-a-repo }]')).toEqual(['skillSources[0].repo']);
    expect(refused('skillSources: [{ repo: a/b, path: ../x }]')).toEqual(['skillSources[0].path']);
    expect(refused(`skills: [{ name: d, source: a/b/d@${COMMIT}, body: hi }]`)).toEqual(['skills[0].body']);
    expect(refused('skills: [{ name: d, source: a/b/d }]')).toEqual(['skills[0].source']);
  });

  it('reads <owner>/<repo>/<skill>[@<ref>] and refuses anything else', () => {
    expect(parseSkillSpec('acme/agent-skills/deploy@v2')).toEqual({
      repo: 'acme/agent-skills',
      name: 'deploy',
      ref: 'v2',
    });
    expect(parseSkillSpec('acme/agent-skills/deploy')).toEqual({ repo: 'acme/agent-skills', name: 'deploy' });
    expect(() => parseSkillSpec('deploy')).toThrow(ValidationError);
    expect(() => parseSkillSpec('acme/x/Bad_Name')).toThrow(ValidationError);
  });

  it('reads a model review: PASS, FAIL with located reasons, anything else is no verdict', () => {
    expect(parseReview('PASS', 'reviewer')).toEqual({ verdict: 'pass' });
    expect(parseReview('FAIL:\nSKILL.md:4 asks for the deploy key\nvague', 'reviewer')).toEqual({
      verdict: 'fail',
      reasons: [
        { rule: 'model-review', file: 'SKILL.md', line: 4, message: 'asks for the deploy key' },
        { rule: 'model-review', file: '.', message: 'vague' },
      ],
    });
    expect(() => parseReview('Looks fine to me', 'reviewer')).toThrow('gave no verdict');
  });
});
