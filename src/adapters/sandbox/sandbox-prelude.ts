import path from 'node:path';
import { SANDBOX_FORWARDS } from './sandbox-state';

/**
 * Runs inside the sandbox before the command (bash, `$0` = summon-sandbox):
 *   $1 file size limit (KiB), $2 data limit (KiB or "unlimited"), $3 process limit (or
 *   "unlimited"), $4 socat, then `port socket` pairs, then `--`, then the command.
 * X2: for each forward a socat listener on 127.0.0.1:<port> that feeds the forward's unix socket;
 * the command starts only once every listener listens (/proc/net/tcp of the sandbox's own
 * network). The listeners end with the sandbox: its pid namespace ends with the command.
 * X3: the rlimits, then `exec` of the command.
 */
export const PRELUDE = [
  'fsize=$1 data=$2 nproc=$3 socat=$4; shift 4',
  'ports=()',
  'while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do',
  '  "$socat" "TCP-LISTEN:$1,bind=127.0.0.1,fork,reuseaddr" "UNIX-CONNECT:$2" </dev/null >/dev/null 2>&1 &',
  '  ports+=("$1"); shift 2',
  'done',
  'shift',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash array expansion, not a template
  'for port in "${ports[@]}"; do',
  '  hex=$(printf \'%04X\' "$port"); tries=0',
  '  until [[ "$(</proc/net/tcp)" == *" 0100007F:$hex 00000000:0000 0A "* ]]; do',
  '    tries=$((tries + 1))',
  '    if [ "$tries" -gt 2500 ]; then echo "sandbox: the forward to port $port did not start" >&2; exit 125; fi',
  '    sleep 0.002',
  '  done',
  'done',
  '{ ulimit -f "$fsize" && { [ "$data" = unlimited ] || ulimit -d "$data"; } && { [ "$nproc" = unlimited ] || ulimit -u "$nproc"; }; } ||',
  '  { echo "sandbox: could not set the limits" >&2; exit 125; }',
  'exec "$@"',
].join('\n');

/** The argv run inside bubblewrap: the prelude, then the command. */
export function preludeArgv(
  limits: { fileSizeBytes: number; dataBytes: number | undefined; processes: number | undefined },
  socat: string,
  forwardPorts: readonly number[],
  argv: readonly string[],
): string[] {
  const kib = (bytes: number) => String(Math.max(1, Math.floor(bytes / 1024)));
  return [
    '/bin/bash',
    '-c',
    PRELUDE,
    'summon-sandbox',
    kib(limits.fileSizeBytes),
    limits.dataBytes === undefined ? 'unlimited' : kib(limits.dataBytes),
    limits.processes === undefined ? 'unlimited' : String(limits.processes),
    socat,
    ...forwardPorts.flatMap((port) => [String(port), forwardSocket(port)]),
    '--',
    ...argv,
  ];
}

/** Where the socket of the forward of `port` is seen inside the sandbox. */
export const forwardSocket = (port: number): string => path.join(SANDBOX_FORWARDS, `${port}.sock`);
