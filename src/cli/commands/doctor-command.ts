import type { Command } from 'commander';
import { formatDoctorReport, runDoctor } from '../../app/doctor/run-doctor';
import { createLogger } from '../../app/logger';
import { loadConfig } from '../../config/config';
import type { CliContext } from '../cli-context';
import { CliExit } from '../cli-exit';

export function registerDoctorCommand(program: Command, context: CliContext): void {
  program
    .command('doctor')
    .description(
      'check the set-up: database and migrations, Redis, models, Slack, Discord, GitHub, the sandbox, the public URL, each declared MCP server (exit 1 on a failure)',
    )
    .action(async () => {
      const config = loadConfig(context.env, context.cwd);
      const logger = createLogger({ level: context.env.LOG_LEVEL ?? 'silent' });
      const report = await runDoctor(config, context.env, logger);
      context.output.out(formatDoctorReport(report));
      if (report.failed) throw new CliExit(1);
    });
}
