import { describe, expect, it } from 'vitest';
import { findEntry } from '../../src/catalogue/index.js';
import { resolveParams } from '../../src/catalogue/params.js';

describe('parameters of a fix', () => {
  it('fill in the guide\'s defaults', () => {
    expect(resolveParams(findEntry('upload-too-large')!, {})).toEqual({ ok: true, params: { size: '100m' } });
    expect(resolveParams(findEntry('terminal-disconnects')!, { timeout: '3600' })).toEqual({ ok: true, params: { timeout: '3600', name: 'devtron-backendconfig' } });
  });

  it('say which value is wrong, what is expected and give an example', () => {
    expect(resolveParams(findEntry('upload-too-large')!, { size: '100MB' })).toEqual({
      ok: false,
      message: '`size=100MB` is not valid: the largest body to accept, an integer followed by m (MiB), e.g. `size=200m`.',
    });
  });

  it('name a required parameter that is missing, and a parameter the entry does not take', () => {
    expect(resolveParams(findEntry('database-drop-blocked')!, {})).toMatchObject({ ok: false, message: expect.stringContaining('`database` is required') });
    expect(resolveParams(findEntry('build-logs')!, { size: '1m' })).toEqual({ ok: false, message: '`build-logs` takes no parameters (got `size`).' });
  });

  it('refuses a database name that could smuggle SQL', () => {
    expect(resolveParams(findEntry('database-drop-blocked')!, { database: 'x";drop' })).toMatchObject({ ok: false });
  });
});
