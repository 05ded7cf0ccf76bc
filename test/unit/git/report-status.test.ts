import { band, FLUSH, pkt } from '../../../src/adapters/git-gateway/pkt-line';
import { acceptedRefs } from '../../../src/adapters/git-gateway/report-status';

const report = (...lines: string[]) => Buffer.concat([...lines.map((l) => pkt(`${l}\n`)), FLUSH]);

describe('P21: the refs upstream says a push updated (report-status)', () => {
  it('reads `ok` refs and leaves out `ng` ones', () => {
    const result = report('unpack ok', 'ok refs/heads/feature', 'ng refs/heads/main non-fast-forward');
    expect(acceptedRefs(result, false)).toEqual(new Set(['refs/heads/feature']));
  });

  it('reads the report from the data band of a side-band answer, past progress lines', () => {
    const inner = report('unpack ok', 'ok refs/heads/feature', 'ok refs/heads/docs');
    const result = Buffer.concat([
      ...band(2, 'remote: Create a pull request for feature on GitHub\n'),
      // The report may be split across data packets.
      ...band(1, inner.subarray(0, 11)),
      ...band(1, inner.subarray(11)),
      FLUSH,
    ]);
    expect(acceptedRefs(result, true)).toEqual(new Set(['refs/heads/feature', 'refs/heads/docs']));
  });

  it('an unpack error updates nothing; an answer without a report is unknown (null)', () => {
    expect(
      acceptedRefs(report('unpack index-pack abnormal exit', 'ng refs/heads/a unpacker error'), false),
    ).toEqual(new Set());
    expect(acceptedRefs(Buffer.alloc(0), false)).toBeNull();
    expect(acceptedRefs(Buffer.concat([...band(2, 'remote: hello\n'), FLUSH]), true)).toBeNull();
  });
});
