import type { RoutineTrigger } from '../../../src/core/model/routines/routine';
import { MISSED_AFTER_MS, planFiring } from '../../../src/core/routines/plan-firing';

const hourly: RoutineTrigger = { kind: 'schedule', cron: '0 * * * *', timezone: 'UTC' };
const at = (iso: string) => new Date(iso);

describe('W2, W3 what a due routine does when swept', () => {
  it('W2 on time: fires for its due time; next from the schedule, not from the run', () => {
    const plan = planFiring(
      { trigger: hourly, onMissed: 'runOnce' },
      at('2026-01-01T10:00:00Z'),
      at('2026-01-01T10:00:02Z'),
    );
    expect(plan).toEqual({
      scheduledFor: at('2026-01-01T10:00:00Z'),
      missed: [],
      fire: true,
      nextDueAt: at('2026-01-01T11:00:00Z'),
    });
  });

  it('W3 runOnce after downtime: one firing for the last passed time, the missed times listed', () => {
    const plan = planFiring(
      { trigger: hourly, onMissed: 'runOnce' },
      at('2026-01-01T10:00:00Z'),
      at('2026-01-01T12:30:00Z'),
    );
    expect(plan).toEqual({
      scheduledFor: at('2026-01-01T12:00:00Z'),
      missed: [at('2026-01-01T10:00:00Z'), at('2026-01-01T11:00:00Z'), at('2026-01-01T12:00:00Z')],
      fire: true,
      nextDueAt: at('2026-01-01T13:00:00Z'),
    });
  });

  it('W3 skip after downtime: nothing fires; the missed times are still listed', () => {
    const plan = planFiring(
      { trigger: hourly, onMissed: 'skip' },
      at('2026-01-01T10:00:00Z'),
      at('2026-01-01T12:30:00Z'),
    );
    expect(plan.fire).toBe(false);
    expect(plan.missed).toHaveLength(3);
    expect(plan.nextDueAt).toEqual(at('2026-01-01T13:00:00Z'));
  });

  it('W3 one time passed by more than the grace counts as missed; within it, on time', () => {
    const trigger: RoutineTrigger = { kind: 'at', at: '2026-01-01T10:00:00Z' };
    const due = at('2026-01-01T10:00:00Z');
    const late = planFiring(
      { trigger, onMissed: 'skip' },
      due,
      new Date(due.getTime() + MISSED_AFTER_MS + 1),
    );
    expect(late).toEqual({ scheduledFor: due, missed: [due], fire: false, nextDueAt: null });
    const onTime = planFiring({ trigger, onMissed: 'skip' }, due, new Date(due.getTime() + MISSED_AFTER_MS));
    expect(onTime).toEqual({ scheduledFor: due, missed: [], fire: true, nextDueAt: null });
  });
});
