import path from 'node:path';
import { SANDBOX_FORWARDS } from './sandbox-state';

/**
 * Runs on the host, as the launched process (bash -p: no BASH_ENV, no functions or options from
 * the call's environment): `$1` file size limit (KiB), `$2` data limit (KiB or "unlimited"),
 * `$3` process limit (or "unlimited"), `$4` how many cgroup files follow, those files, then
 * bubblewrap's argv.
 * X3: the rlimits (inherited by bubblewrap and everything in the sandbox), then it joins the
 * call's cgroups (so nothing of the call runs outside them), then becomes bubblewrap. One
 * shell on the host side, none inside unless the call has forwards (`FORWARDS_PRELUDE`).
 */
export const LAUNCH_SCRIPT = [
  '{ ulimit -f "$1" && { [ "$2" = unlimited ] || ulimit -d "$2"; } && { [ "$3" = unlimited ] || ulimit -u "$3"; }; } ||',
  '  { echo "sandbox: could not set the limits" >&2; exit 125; }',
  'n=$4; shift 4',
  'while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n-1)); done',
  'exec "$@"',
].join('\n');

/**
 * Runs inside the sandbox before a command that has forwards (bash -p, `$0` = summon-sandbox):
 * `$1` socat, then `port socket` pairs, then `--`, then the command.
 * X2: for each forward a socat listener on 127.0.0.1:<port> that feeds the forward's unix
 * socket. The command starts once every listener has bound: socat's notice log (`-d -d`) goes
 * to one pipe, read here until each has said "listening on" (no polling, no sleep); a socat
 * that fails says so ("E …") or closes the pipe, and the call ends with its line. What socat
 * logs afterwards (a few lines per connection) is drained by a background subshell, so a busy
 * forward never blocks on its log. The listeners end with the sandbox: its pid namespace ends
 * with the command.
 */
export const FORWARDS_PRELUDE = [
  'socat=$1; shift; wanted=0',
  'exec {log}< <(',
  '  while [ "$1" != "--" ]; do',
  '    "$socat" -d -d "TCP-LISTEN:$1,bind=127.0.0.1,fork,reuseaddr" "UNIX-CONNECT:$2" </dev/null 2>&1 >/dev/null &',
  '    shift 2',
  '  done',
  ')',
  'while [ "$1" != "--" ]; do wanted=$((wanted + 1)); shift 2; done',
  'shift',
  'while [ "$wanted" -gt 0 ]; do',
  '  if ! IFS= read -r line <&"$log"; then echo "sandbox: a forward did not start" >&2; exit 125; fi',
  '  case $line in',
  '    *" listening on "*) wanted=$((wanted - 1)) ;;',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash parameter expansion, not a template
  '    *" E "*) echo "sandbox: a forward did not start: ${line#* E }" >&2; exit 125 ;;',
  '  esac',
  'done',
  '{ while IFS= read -r line; do :; done; } <&"$log" >/dev/null 2>&1 &',
  'exec {log}<&-',
  'exec "$@"',
].join('\n');

export interface CallRlimits {
  fileSizeBytes: number;
  /** Absent where a cgroup counts the call's memory as a whole. */
  dataBytes: number | undefined;
  /** Absent where a cgroup counts the call's processes as a whole. */
  processes: number | undefined;
}

/** The argv Summon spawns: the launch script, then bubblewrap's argv. */
export function launchArgv(
  limits: CallRlimits,
  cgroupProcFiles: readonly string[],
  bwrapArgv: readonly string[],
): string[] {
  const kib = (bytes: number) => String(Math.max(1, Math.floor(bytes / 1024)));
  return [
    '/bin/bash',
    '-p',
    '-c',
    LAUNCH_SCRIPT,
    'summon-sandbox',
    kib(limits.fileSizeBytes),
    limits.dataBytes === undefined ? 'unlimited' : kib(limits.dataBytes),
    limits.processes === undefined ? 'unlimited' : String(limits.processes),
    String(cgroupProcFiles.length),
    ...cgroupProcFiles,
    ...bwrapArgv,
  ];
}

/** The argv run inside bubblewrap: the command itself, after the forwards' prelude when it has any. */
export function innerArgv(socat: string, forwardPorts: readonly number[], argv: readonly string[]): string[] {
  if (forwardPorts.length === 0) return [...argv];
  return [
    '/bin/bash',
    '-p',
    '-c',
    FORWARDS_PRELUDE,
    'summon-sandbox',
    socat,
    ...forwardPorts.flatMap((port) => [String(port), forwardSocket(port)]),
    '--',
    ...argv,
  ];
}

/** Where the socket of the forward of `port` is seen inside the sandbox. */
export const forwardSocket = (port: number): string => path.join(SANDBOX_FORWARDS, `${port}.sock`);
