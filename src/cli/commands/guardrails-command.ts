import type { Command } from 'commander';
import { explainGuardrail } from '../../core/guardrails/explain-for-workspace';
import { type CliContext, withRuntime } from '../cli-context';

export function registerGuardrailsCommand(program: Command, context: CliContext): void {
  const guardrails = program.command('guardrails').description('inspect action guardrails');
  guardrails
    .command('explain')
    .description('show the decision for an action and which rule decided it, and why')
    .option('-w, --workspace <slug>', 'workspace', 'default')
    .requiredOption('-a, --agent <name>', 'the agent that would act')
    .option('-s, --space <name>', 'the space it would act in')
    .requiredOption(
      '--action <action>',
      'commit | push_to_remote | open_pull_request | tracker_write | network | mcp',
    )
    .option(
      '--tool <server__tool>',
      'with --action mcp: the MCP tool, as the model sees it (linear__create_issue)',
    )
    .action((options: { workspace: string; agent: string; space?: string; action: string; tool?: string }) =>
      withRuntime(context, async ({ store }) => {
        const resolution = await explainGuardrail(store, {
          workspace: options.workspace,
          agent: options.agent,
          space: options.space ?? null,
          action: options.action,
          tool: options.tool ?? null,
        });
        const what = options.tool === undefined ? options.action : `${options.action} ${options.tool}`;
        context.output.out(
          `${what}: ${resolution.decision}\n${resolution.steps.map((s) => `  ${s}`).join('\n')}`,
        );
      }),
    );
}
