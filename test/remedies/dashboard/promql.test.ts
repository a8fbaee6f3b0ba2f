import { describe, expect, it } from 'vitest';
import { removeImageFilter } from '../../../src/remedies/dashboard/promql.js';

const edit = (expr: string) => removeImageFilter(expr).expr;

describe("removing image!='' from PromQL label matchers (guide 7.11)", () => {
  it.each([
    ['middle, with its comma', '{namespace="x", image!="", pod=~"y"}', '{namespace="x", pod=~"y"}'],
    ['first', 'm{image!="", pod=~"y"}', 'm{pod=~"y"}'],
    ['last', 'm{pod=~"y", image!=""}', 'm{pod=~"y"}'],
    ['single quotes, no spaces', "m{a='1',image!='',b='2'}", "m{a='1',b='2'}"],
    ['spaces around the operator', 'm{a="1", image != "" }', 'm{a="1"}'],
    ['a trailing comma kept for the rest', 'm{a="1", image!="",}', 'm{a="1",}'],
    ['the only matcher of a named metric', 'rate(m{image!=""}[5m])', 'rate(m[5m])'],
    ['in every selector of the query', 'sum(a{image!="",x="1"}) / sum(b{y="2", image!=""})', 'sum(a{x="1"}) / sum(b{y="2"})'],
    ['a multi-line matcher list', 'm{\n  a="1",\n  image!="",\n  b="2"\n}', 'm{\n  a="1",\n  b="2"\n}'],
  ])('removes the filter when it is %s', (_what, before, after) => {
    expect(removeImageFilter(before)).toEqual({ expr: after, removed: (before.match(/image ?!= ?["']/g) ?? []).length });
  });

  it.each([
    ['other operators on image', 'm{image="", image!~"", image=~".+"}'],
    ['a non-empty value', 'm{image!="nginx"}'],
    ['a value of one space', 'm{image!=" "}'],
    ['another label ending in image', 'm{container_image!="", image_id!=""}'],
    ['the text inside a string', 'm{pod=~"image!=\\"\\", x"}'],
    ['the text inside a grouping clause', 'sum by (image) (m{a="1"})'],
    ['a comment', 'm{a="1"} # image!="" was removed here'],
    ['a Grafana variable', 'rate(m{a="1"}[${__rate_interval}])'],
    ['an unnamed selector whose only matcher it is', '{image!=""}'],
    ['an unclosed matcher list', 'm{a="1", image!=""'],
  ])('leaves %s alone', (_what, expr) => {
    expect(removeImageFilter(expr)).toEqual({ expr, removed: 0 });
  });

  it('keeps escaped quotes and braces inside strings intact around a removal', () => {
    expect(edit('m{a="}\\"{", image!="", b=`raw"}`}')).toBe('m{a="}\\"{", b=`raw"}`}');
  });

  it('stays linear on a long hostile query', () => {
    const hostile = `m{${'a="1", image!="", '.repeat(50_000)}b="2"}` + '{'.repeat(50_000) + '"'.repeat(50_001);
    const started = performance.now();
    const r = removeImageFilter(hostile);
    // A bound only against a blow-up (a quadratic reading of 150,000 characters takes minutes); it takes about 0.1 s.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(r.removed).toBe(50_000);
  });
});
