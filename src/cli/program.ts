import { Command } from 'commander';
import type { CliContext } from './cli-context';
import { registerAgentsCommand } from './commands/agents-command';
import { registerApplyCommand } from './commands/apply-command';
import { registerAuditCommand } from './commands/audit-command';
import { registerChatCommand } from './commands/chat-command';
import { registerConsoleCommand } from './commands/console-command';
import { registerDbCommand } from './commands/db-command';
import { registerDoctorCommand } from './commands/doctor-command';
import { registerExportCommand } from './commands/export-command';
import { registerGatewayCommand } from './commands/gateway-command';
import { registerGuardrailsCommand } from './commands/guardrails-command';
import { registerHookCommand } from './commands/hook-command';
import { registerMcpCommand } from './commands/mcp-command';
import { registerMembersCommand } from './commands/members-command';
import { registerRelaysCommand } from './commands/relays-command';
import { registerRoutinesCommand } from './commands/routines-command';
import { registerSchemaCommand } from './commands/schema-command';
import { registerSkillsCommand } from './commands/skills-command';
import { registerStartCommand } from './commands/start-command';
import { registerUsageCommand } from './commands/usage-command';
import { registerWorkspaceCommand } from './commands/workspace-command';

/** The `summon` command line; built per call so tests can run it in-process. */
export function buildProgram(context: CliContext): Command {
  const program = new Command('summon')
    .description('Summon: your team’s AI agents in Slack and Discord')
    .showHelpAfterError()
    // Set before the subcommands are added so that they inherit it: the CLI returns exit
    // codes to its caller (tests run it in-process) instead of calling process.exit.
    .exitOverride()
    .configureOutput({
      writeOut: (text) => context.output.out(text),
      writeErr: (text) => context.output.err(text),
    });
  registerStartCommand(program, context);
  registerChatCommand(program, context);
  registerDbCommand(program, context);
  registerDoctorCommand(program, context);
  registerWorkspaceCommand(program, context);
  registerApplyCommand(program, context);
  registerExportCommand(program, context);
  registerAgentsCommand(program, context);
  registerGuardrailsCommand(program, context);
  registerSkillsCommand(program, context);
  registerUsageCommand(program, context);
  registerGatewayCommand(program, context);
  registerMembersCommand(program, context);
  registerRelaysCommand(program, context);
  registerRoutinesCommand(program, context);
  registerSchemaCommand(program, context);
  registerHookCommand(program, context);
  registerMcpCommand(program, context);
  registerConsoleCommand(program, context);
  registerAuditCommand(program, context);
  return program;
}
