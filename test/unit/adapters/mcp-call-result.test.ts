import { resultOutcome } from '../../../src/adapters/mcp/call-result-text';

const options = { maxChars: 1000, redact: (text: string) => text.replaceAll('s3cret', '[redacted]') };

describe('E3 an MCP answer as the model reads it', () => {
  it('E3 resources: text shown with their address, binary ones and audio as a sentence', () => {
    const outcome = resultOutcome(
      {
        content: [
          { type: 'resource', resource: { uri: 'file:///notes.md', text: '# Notes' } },
          { type: 'resource', resource: { uri: 'file:///a.bin', mimeType: 'application/zip', blob: 'AAAA' } },
          { type: 'audio', mimeType: 'audio/wav', data: 'AAAAAAAA' },
          { type: 'resource_link', name: 'spec', uri: 'https://example.com/spec' },
        ],
      },
      'docs__read',
      options,
    );
    expect(outcome).toEqual({
      ok: true,
      output: [
        '[file:///notes.md]\n# Notes',
        '[a binary resource file:///a.bin (application/zip, 3 bytes), not shown]',
        '[audio (audio/wav, 6 bytes), not shown]',
        '[a resource: spec at https://example.com/spec]',
      ].join('\n'),
    });
  });

  it('E3 structured content alone is shown as JSON; E2 a credential the server repeats is redacted', () => {
    expect(
      resultOutcome({ content: [], structuredContent: { token: 's3cret', n: 1 } }, 'x__y', options),
    ).toEqual({
      ok: true,
      output: '{\n  "token": "[redacted]",\n  "n": 1\n}',
    });
  });

  it('E3 an empty answer and an empty error are sentences', () => {
    expect(resultOutcome({ content: [] }, 'x__y', options)).toEqual({
      ok: true,
      output: 'x__y answered nothing.',
    });
    expect(resultOutcome({ content: [], isError: true }, 'x__y', options)).toEqual({
      ok: false,
      output: 'x__y failed without saying why.',
    });
  });
});
