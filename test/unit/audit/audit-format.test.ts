import { loadConfig } from '../../../src/config/config';
import { auditCsv, auditJson, auditRow, csvField } from '../../../src/core/audit/audit-format';
import { DEFAULT_AUDIT_RETENTION_DAYS } from '../../../src/core/audit/audit-log';
import { parseAuditSince } from '../../../src/core/audit/audit-since';
import { ValidationError } from '../../../src/core/errors';
import type { AuditEventRecord } from '../../../src/core/model/audit/audit-event';

const event: AuditEventRecord = {
  id: '6f1c0c1e-0000-4000-8000-000000000001',
  workspaceId: '6f1c0c1e-0000-4000-8000-000000000002',
  at: new Date('2026-11-02T10:00:00.000Z'),
  kind: 'approval_decided',
  actor: { kind: 'member', id: null, name: 'dana' },
  subject: 'approval of "main", now\nwith a line break',
  where: 'slack',
  detail: { status: 'approved' },
};

describe('O4 the audit export formats', () => {
  it('O4: CSV quotes a field only when it holds a comma, a quote or a line break, doubling its quotes (RFC 4180)', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\r')).toBe('"cr\r"');
    expect(auditCsv(event)).toBe(
      '2026-11-02T10:00:00.000Z,approval_decided,dana,member,slack,"approval of ""main"", now\nwith a line break",' +
        '"{""status"":""approved""}",6f1c0c1e-0000-4000-8000-000000000001',
    );
  });

  it('O4: a JSON line has at least at, kind, actor and subject, and stays one line', () => {
    const line = auditJson(event);
    expect(line).not.toContain('\n');
    expect(JSON.parse(line)).toMatchObject({
      at: '2026-11-02T10:00:00.000Z',
      kind: 'approval_decided',
      actor: 'dana',
      subject: event.subject,
    });
  });

  it('O4: a table row is one line, its columns at fixed widths', () => {
    const row = auditRow(event);
    expect(row).not.toContain('\n');
    expect(row.indexOf('approval_decided')).toBe(26);
    expect(row.endsWith('approval of "main", now with a line break')).toBe(true);
  });
});

describe('O4 summon audit --since', () => {
  const now = new Date('2026-12-05T12:00:00Z');

  it('O4: reads a date, a moment and a duration back from now; nothing means no bound', () => {
    expect(parseAuditSince(undefined, now)).toBeUndefined();
    expect(parseAuditSince('2026-11-01', now)).toEqual(new Date('2026-11-01T00:00:00Z'));
    expect(parseAuditSince('2026-11-01T09:30:00Z', now)).toEqual(new Date('2026-11-01T09:30:00Z'));
    expect(parseAuditSince('30m', now)).toEqual(new Date('2026-12-05T11:30:00Z'));
    expect(parseAuditSince('12h', now)).toEqual(new Date('2026-12-05T00:00:00Z'));
    expect(parseAuditSince('7d', now)).toEqual(new Date('2026-11-28T12:00:00Z'));
    expect(parseAuditSince('2w', now)).toEqual(new Date('2026-11-21T12:00:00Z'));
  });

  it('O4: refuses anything else with a sentence saying what it takes', () => {
    for (const bad of ['last week', '7 days', '2026-13-45', '-3d']) {
      expect(() => parseAuditSince(bad, now)).toThrow(ValidationError);
    }
    expect(() => parseAuditSince('soon', now)).toThrow(/a duration back from now \(30m, 12h, 7d, 2w\)/);
  });
});

describe('O4 SUMMON_AUDIT_RETENTION_DAYS', () => {
  it('O4: defaults to a year; takes a whole number of days; refuses anything else', () => {
    expect(loadConfig({}).auditRetentionDays).toBe(DEFAULT_AUDIT_RETENTION_DAYS);
    expect(DEFAULT_AUDIT_RETENTION_DAYS).toBe(365);
    expect(loadConfig({ SUMMON_AUDIT_RETENTION_DAYS: ' 90 ' }).auditRetentionDays).toBe(90);
    for (const bad of ['0', '-1', '1.5', 'a year']) {
      expect(() => loadConfig({ SUMMON_AUDIT_RETENTION_DAYS: bad })).toThrow(
        `SUMMON_AUDIT_RETENTION_DAYS must be a whole number of days, at least 1, got "${bad}"`,
      );
    }
  });
});
