import type { Command } from 'commander';
import { listAgentViews, showAgentView } from '../../core/agents/agent-roster';
import type { AgentView } from '../../core/model/agent-view';
import { type CliContext, withRuntime } from '../cli-context';
import { formatTable } from '../format-table';

interface WorkspaceOption {
  workspace: string;
  json?: boolean;
}

export function registerAgentsCommand(program: Command, context: CliContext): void {
  const agents = program.command('agents').description('list and inspect the agents of a workspace');
  agents
    .command('list')
    .description('name, title, reports-to, runner and live status of every agent')
    .option('-w, --workspace <slug>', 'workspace', 'default')
    .option('--json', 'print JSON')
    .action((options: WorkspaceOption) =>
      withRuntime(context, async ({ store }) => {
        const views = await listAgentViews(store, options.workspace);
        if (options.json) {
          context.output.out(JSON.stringify(views.map(summary), null, 2));
          return;
        }
        context.output.out(
          formatTable(
            ['NAME', 'TITLE', 'REPORTS TO', 'RUNNER', 'STATUS'],
            views.map((v) => [v.agent.name, v.agent.title, v.reportsTo ?? '-', runner(v), v.status]),
          ),
        );
      }),
    );
  agents
    .command('show <name>')
    .description('every attribute of one agent, its live status and its folder')
    .option('-w, --workspace <slug>', 'workspace', 'default')
    .option('--json', 'print JSON')
    .action((name: string, options: WorkspaceOption) =>
      withRuntime(context, async ({ store, workspaces }) => {
        const view = await showAgentView(store, options.workspace, name);
        const details = { ...summary(view), folder: workspaces.agentDir(options.workspace, view.agent.name) };
        if (options.json) {
          context.output.out(JSON.stringify(details, null, 2));
          return;
        }
        const rows = Object.entries(details).map(([key, value]) => [key, display(value)]);
        context.output.out(formatTable(['ATTRIBUTE', 'VALUE'], rows));
      }),
    );
}

/** A10: no adapter means the built-in loop on the default model. */
function runner({ agent }: AgentView): string {
  const adapter = agent.adapterId ?? 'builtin';
  return `${adapter}/${agent.modelId ?? 'default model'}`;
}

function summary(view: AgentView) {
  const { agent } = view;
  return {
    name: agent.name,
    title: agent.title,
    reportsTo: view.reportsTo,
    adapter: agent.adapterId ?? 'builtin',
    model: agent.modelId,
    effort: agent.effort,
    contextSize: agent.contextSize,
    silenceTimeoutMinutes: agent.silenceTimeoutMinutes,
    skills: agent.skills,
    avatarUrl: agent.avatarUrl,
    command: agent.command,
    persona: agent.persona,
    systemPrompt: agent.systemPrompt,
    status: view.status,
    lastRunAt: view.lastRunAt?.toISOString() ?? null,
  };
}

function display(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (Array.isArray(value)) return value.length === 0 ? '-' : value.join(', ');
  return String(value);
}
