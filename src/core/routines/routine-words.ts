import type { GitHubTrigger, RoutineTrigger } from '../model/routines/routine';

/**
 * W1, W2: a trigger in words, for the routine's heading (`Routine <name> · <words>`), its
 * confirm card and `/summon routines`. Common schedules read as sentences; any other cron is
 * quoted as written, with its time zone.
 */
export function triggerInWords(trigger: RoutineTrigger): string {
  if (trigger.kind === 'webhook') return 'on a signed webhook';
  if (trigger.kind === 'at') return `once at ${trigger.at}`;
  if (trigger.kind === 'github') return githubTriggerInWords(trigger);
  return `${cronInWords(trigger.cron)} (${trigger.timezone})`;
}

/** `on GitHub release.published in acme/api when tag is v2` (any repository of the space when none). */
function githubTriggerInWords(trigger: GitHubTrigger): string {
  const where = trigger.repo === null ? "in any of the space's repos" : `in ${trigger.repo}`;
  const when = Object.entries(trigger.filters).map(([key, value]) => `${key} is ${value}`);
  return `on GitHub ${trigger.event} ${where}${when.length === 0 ? '' : ` when ${when.join(' and ')}`}`;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const NUMBER = /^\d{1,2}$/;
const pad = (n: string) => n.padStart(2, '0');

export function cronInWords(cron: string): string {
  const fields = cron.trim().split(/\s+/);
  const [minute, hour, dayOfMonth, month, dayOfWeek] = fields;
  if (fields.length !== 5 || minute === undefined || hour === undefined) return `on cron "${cron}"`;
  const days = daysInWords(dayOfMonth ?? '*', month ?? '*', dayOfWeek ?? '*');
  if (days === null) return `on cron "${cron}"`;
  if (NUMBER.test(minute) && NUMBER.test(hour)) return `${days} at ${pad(hour)}:${pad(minute)}`;
  if (NUMBER.test(minute) && hour === '*') return `${days}, every hour at minute ${Number(minute)}`;
  const step = /^\*\/(\d{1,2})$/.exec(minute);
  if (step !== null && hour === '*') return `${days}, every ${Number(step[1])} minutes`;
  if (minute === '*' && hour === '*') return `${days}, every minute`;
  return `on cron "${cron}"`;
}

function daysInWords(dayOfMonth: string, month: string, dayOfWeek: string): string | null {
  if (month !== '*') {
    if (!NUMBER.test(month) || !NUMBER.test(dayOfMonth) || dayOfWeek !== '*') return null;
    const name = MONTHS[Number(month) - 1];
    return name === undefined ? null : `every year on ${name} ${Number(dayOfMonth)}`;
  }
  if (dayOfMonth !== '*') {
    if (!NUMBER.test(dayOfMonth) || dayOfWeek !== '*') return null;
    return `every month on day ${Number(dayOfMonth)}`;
  }
  if (dayOfWeek === '*') return 'every day';
  if (dayOfWeek === '1-5') return 'on weekdays';
  if (dayOfWeek === '0,6' || dayOfWeek === '6,0') return 'on weekends';
  const names = dayOfWeek.split(',').map((d) => (NUMBER.test(d) ? WEEKDAYS[Number(d) % 7] : undefined));
  if (names.some((n) => n === undefined)) return null;
  return `every ${names.join(', ')}`;
}
