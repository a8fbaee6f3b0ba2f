import { describe, expect, it } from 'vitest';
import { checkBackendConfigAnnotation, checkBodySize, checkJsonAnnotation, checkSize, checkTimeoutSec } from '../../src/values/formats.js';
import { problemAt } from './support.js';

describe('the formats of section 2.3', () => {
  it('body size: an integer followed by m (MiB)', () => {
    expect(checkBodySize('100m')).toEqual({ ok: true });
    expect(checkBodySize('100')).toMatchObject({ ok: false, corrected: '100m' });
    expect(checkBodySize('100Mi')).toMatchObject({ ok: false, corrected: '100m' });
    expect(checkBodySize('100 MB')).toMatchObject({ ok: false, corrected: '100m' });
    expect(checkBodySize('lots')).toMatchObject({ ok: false });
  });
  it('timeoutSec: an integer of seconds', () => {
    expect(checkTimeoutSec(1800)).toEqual({ ok: true });
    expect(checkTimeoutSec('1800')).toMatchObject({ ok: false, corrected: 1800 });
    expect(checkTimeoutSec(2.5)).toMatchObject({ ok: false });
  });
  it('claim sizes like 10Gi', () => {
    expect(checkSize('10Gi')).toEqual({ ok: true });
    expect(checkSize('20G')).toEqual({ ok: true });
    expect(checkSize('20GB')).toMatchObject({ ok: false, corrected: '20Gi' });
    expect(checkSize('20gi')).toMatchObject({ ok: false, corrected: '20Gi' });
    expect(checkSize('20')).toMatchObject({ ok: false, corrected: '20Gi' });
    expect(checkSize('big')).toMatchObject({ ok: false });
  });
  it('annotations that must be valid JSON', () => {
    expect(checkJsonAnnotation('{"apiVersion":"argoproj.io/v1alpha1"}')).toEqual({ ok: true });
    expect(checkJsonAnnotation('{"apiVersion": argoproj}')).toMatchObject({ ok: false });
    expect(checkBackendConfigAnnotation('{"default": "devtron-backendconfig"}')).toEqual({ ok: true });
    expect(checkBackendConfigAnnotation('{"ports": {"80": "x"}}')).toMatchObject({ ok: false });
  });

  it('applies them to such keys wherever they appear in pasted values, with the corrected line', () => {
    const yaml = `components:
  devtron:
    ingress:
      annotations:
        nginx.ingress.kubernetes.io/proxy-body-size: "100"
    service:
      annotations:
        cloud.google.com/backend-config: '{default: devtron-backendconfig}'
`;
    expect(problemAt(yaml, 'components.devtron.ingress.annotations.nginx\\.ingress\\.kubernetes\\.io/proxy-body-size')).toMatchObject({
      rule: '2.3 format',
      fix: 'line 5:         nginx.ingress.kubernetes.io/proxy-body-size: 100m',
    });
    expect(problemAt(yaml, 'components.devtron.service.annotations.cloud\\.google\\.com/backend-config')).toMatchObject({ rule: '2.3 format' });
    expect(problemAt("--set 'components.devtron.ingress.annotations.nginx\\.ingress\\.kubernetes\\.io/proxy-body-size=100Mi'", 'components.devtron.ingress.annotations.nginx\\.ingress\\.kubernetes\\.io/proxy-body-size')).toMatchObject({
      fix: "--set 'components.devtron.ingress.annotations.nginx\\.ingress\\.kubernetes\\.io/proxy-body-size=100m'",
    });
  });
});
