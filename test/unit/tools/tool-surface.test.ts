import { bashTools } from '../../../src/adapters/tools/bash-tool';
import { builtinTools } from '../../../src/adapters/tools/tool-registry';
import { SPACE_MODES } from '../../../src/core/model/space';
import { toolSpec } from '../../../src/core/tools/tool-definition';
import { toolSurface } from '../../../src/core/tools/tool-surface';

const tools = builtinTools({ bash: { env: {} } });
const names = (mode: (typeof SPACE_MODES)[number]) => toolSurface(mode, tools).map((t) => t.name);

describe('A9: the tool surface is built from the space mode', () => {
  it('chat offers every tool but plan-only submit_plan', () => {
    expect(names('chat')).toEqual(['bash', 'read_file', 'write_file', 'list_files', 'read_skill']);
    expect(toolSurface('chat', tools).find((t) => t.name === 'bash')?.access).toBe('write');
  });

  it('plan is read-only (no write_file, read-only bash) and adds submit_plan', () => {
    expect(names('plan')).toEqual(['bash', 'read_file', 'list_files', 'read_skill', 'submit_plan']);
    expect(toolSurface('plan', tools).every((t) => t.access === 'read')).toBe(true);
    expect(toolSurface('plan', tools).find((t) => t.name === 'bash')?.description).toMatch(/READ-ONLY/);
  });

  it('review is read-only and has no submit_plan', () => {
    expect(names('review')).toEqual(['bash', 'read_file', 'list_files', 'read_skill']);
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
