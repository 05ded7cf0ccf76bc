import { bashTools } from '../../../src/adapters/tools/bash-tool';
import { builtinTools } from '../../../src/adapters/tools/tool-registry';
import { SPACE_MODES } from '../../../src/core/model/space';
import { toolSpec } from '../../../src/core/tools/tool-definition';
import { toolSurface } from '../../../src/core/tools/tool-surface';

const tools = builtinTools({ bash: { env: {} } });
const names = (mode: (typeof SPACE_MODES)[number]) => toolSurface(mode, tools).map((t) => t.name);

describe('A9: the tool surface is built from the space mode', () => {
  it('A16 chat offers every tool (the coding tools among them) but plan-only submit_plan', () => {
    expect(names('chat')).toEqual([
      'bash',
      'read_file',
      'write_file',
      'edit_file',
      'list_files',
      'search',
      'glob',
      'read_skill',
    ]);
    expect(toolSurface('chat', tools).find((t) => t.name === 'bash')?.access).toBe('write');
  });

  it('A16 plan is read-only (no write_file or edit_file, read-only bash, search and glob) and adds submit_plan', () => {
    expect(names('plan')).toEqual([
      'bash',
      'read_file',
      'list_files',
      'search',
      'glob',
      'read_skill',
      'submit_plan',
    ]);
    expect(toolSurface('plan', tools).every((t) => t.access === 'read')).toBe(true);
    expect(toolSurface('plan', tools).find((t) => t.name === 'bash')?.description).toMatch(/READ-ONLY/);
  });

  it('A16 review is read-only (search and glob, no edit_file) and has no submit_plan', () => {
    expect(names('review')).toEqual(['bash', 'read_file', 'list_files', 'search', 'glob', 'read_skill']);
    expect(toolSurface('review', tools).every((t) => t.access === 'read')).toBe(true);
  });

  it('G1: open_pull_request is offered in chat only, and only when GitHub is configured', () => {
    const opener = {
      open: () => Promise.reject(new Error('the surface never calls the operation')),
    };
    const withGitHub = builtinTools({ bash: { env: {} }, pullRequests: opener });
    const surface = (mode: (typeof SPACE_MODES)[number]) => toolSurface(mode, withGitHub).map((t) => t.name);
    expect(surface('chat')).toEqual([...names('chat'), 'open_pull_request']);
    expect(surface('plan')).toEqual(names('plan'));
    expect(surface('review')).toEqual(names('review'));
    expect(builtinTools({ bash: { env: {} }, pullRequests: null }).map((t) => t.name)).not.toContain(
      'open_pull_request',
    );
    // G1: the operation applies the open_pull_request guardrail itself; the tool kit does not ask first.
    const tool = withGitHub.find((t) => t.name === 'open_pull_request');
    expect(tool?.classify({ repo: 'acme/widgets', head: 'f', base: 'main', title: 't' })).toEqual([]);
  });

  it('G1, A7: edit_file is a write like write_file: chat only, not a guarded action of its own', () => {
    const edit = tools.find((t) => t.name === 'edit_file');
    const write = tools.find((t) => t.name === 'write_file');
    expect(edit?.access).toBe('write');
    expect(edit?.modes).toEqual(write?.modes);
    expect(edit?.classify({ path: 'a', old_string: 'x', new_string: 'y' })).toEqual(
      write?.classify({ path: 'a', content: 'y' }),
    );
  });

  it('A16 the read_file, edit_file, search and glob inputs the model sees', () => {
    const spec = (name: string) => {
      const tool = tools.find((t) => t.name === name);
      if (tool === undefined) throw new Error(`no ${name}`);
      return toolSpec(tool).inputSchema;
    };
    expect(spec('read_file')).toMatchObject({
      required: ['path'],
      properties: { offset: { type: 'integer', minimum: 1 } },
    });
    expect(spec('edit_file')).toMatchObject({ required: ['path', 'old_string', 'new_string'] });
    expect(Object.keys((spec('edit_file') as { properties: object }).properties)).toContain('replace_all');
    expect(spec('search')).toMatchObject({ required: ['pattern'] });
    expect(Object.keys((spec('search') as { properties: object }).properties)).toEqual([
      'pattern',
      'path',
      'glob',
      'ignore_case',
    ]);
    expect(spec('glob')).toMatchObject({ required: ['pattern'] });
  });

  it('a write tool that names a read-only mode is still left out', () => {
    const [writeBash] = bashTools({ env: {} });
    if (writeBash === undefined) throw new Error('no bash');
    expect(toolSurface('plan', [{ ...writeBash, modes: ['plan'] }])).toEqual([]);
  });

  it('two tools of one name in one mode are a programming error', () => {
    const [writeBash] = bashTools({ env: {} });
    if (writeBash === undefined) throw new Error('no bash');
    expect(() => toolSurface('chat', [writeBash, writeBash])).toThrow(/Two tools named "bash"/);
  });

  it.each(SPACE_MODES)('every spec of %s mode is an object JSON Schema without $schema', (mode) => {
    for (const tool of toolSurface(mode, tools)) {
      const spec = toolSpec(tool);
      expect(spec.inputSchema.type).toBe('object');
      expect(spec.inputSchema).not.toHaveProperty('$schema');
      expect(spec.name).toMatch(/^[a-z_]+$/);
    }
  });
});
