import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  renderWorkspaceJsonSchema,
  workspaceJsonSchema,
} from '../../../src/core/workspace/workspace-json-schema';

describe('schema/workspace.schema.json', () => {
  it('is the published form of the schema apply uses (regenerate with `npm run schema`)', () => {
    const published = readFileSync(path.join(__dirname, '../../../schema/workspace.schema.json'), 'utf8');
    expect(published).toBe(renderWorkspaceJsonSchema());
  });

  it('forbids unknown keys and names the fixed top-level keys', () => {
    const schema = workspaceJsonSchema() as {
      additionalProperties: boolean;
      properties: object;
      required: string[];
    };
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual([
      'workspace',
      'name',
      'slack',
      'discord',
      'members',
      'access',
      'agents',
      'skills',
      'spaces',
      'guardrails',
      'sandbox',
      'skillSources',
      'skillReview',
      'budgets',
      'relays',
      'mcpServers',
    ]);
    expect(schema.required).toEqual(['workspace']);
  });
});
