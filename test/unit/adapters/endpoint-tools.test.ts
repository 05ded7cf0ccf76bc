import { endpointSpecs, notOfferedSentence } from '../../../src/adapters/mcp-endpoint/endpoint-tools';
import { NO_TOOLS, type TurnTools } from '../../../src/core/ports/turn-tools';
import { toolSpec } from '../../../src/core/tools/tool-definition';
import { trackerCreateIssue } from '../../support/mcp-tool-definition';
import { pathTool } from '../../support/recording-tools';

const withSpecs = (specs: TurnTools['specs']): TurnTools => ({ ...NO_TOOLS, specs });

describe('the tools Summon’s MCP endpoint offers a CLI agent (E1, E2)', () => {
  it('E1: a tool definition marked `mcp` keeps the mark in its spec; a built-in one has none', () => {
    expect(toolSpec(trackerCreateIssue()).source).toBe('mcp');
    expect('source' in pathTool('read_file')).toBe(false);
  });

  it('E2: only specs marked `mcp` and named `<server>__<tool>` are offered', () => {
    const mcp = toolSpec(trackerCreateIssue());
    const specs = [
      pathTool('read_file'),
      mcp,
      { ...pathTool('has__underscores') }, // a built-in name with `__` is still not an MCP tool
      { ...mcp, name: 'unqualified' }, // marked, but not a qualified name
    ];
    expect(endpointSpecs(withSpecs(specs)).map((spec) => spec.name)).toEqual(['tracker__create_issue']);
    expect(endpointSpecs(NO_TOOLS)).toEqual([]);
  });

  it('E2: the refusal names the tool and what the agent may use instead', () => {
    expect(notOfferedSentence('x__y', [])).toBe(
      'There is no tool named x__y for this agent in this space, so Summon did not call it. The tools it may use here: none.',
    );
  });
});
