/**
 * The Go text/template subset against what Go and Argo CD produce (expected outputs from Argo CD's
 * `applicationset/utils/utils_test.go` TestRenderTemplateParamsGoTemplate, TestSlugify, and Go's text/template).
 */
import { describe, expect, it } from 'vitest';
import { normalizeName, slugifyName } from './argocd-names.js';
import { parseGoTemplateOptions, renderGoTemplate } from './go-template.js';
import { goFloat } from './go-value.js';

const plain = parseGoTemplateOptions([]);
const strict = parseGoTemplateOptions(['missingkey=error']);
const render = (source: string, data: unknown, options = plain) => renderGoTemplate(source, data, options);

describe('renderGoTemplate', () => {
  it('reads fields, nested fields, index and variables', () => {
    const data = {
      path: { path: 'a/b/c', basename: 'c', segments: ['a', 'b', 'c'] },
      labels: { 'my-label': 'v' },
    };
    expect(render('{{.path.basename}}-{{ index .path.segments 1 }}', data)).toBe('c-b');
    expect(render('{{ index .labels "my-label" }}', data)).toBe('v');
    expect(render('{{ $p := .path }}{{ $p.path }}/{{ $.path.basename }}', data)).toBe('a/b/c/c');
  });

  it('prints <no value> for a missing key by default, and names the key with missingkey=error', () => {
    expect(render('--> {{.doesnotexist}} <--', { data: 'x' })).toBe('--> <no value> <--');
    expect(() => render('--> {{.doesnotexist}} <--', { data: 'x' }, strict)).toThrow(
      'map has no entry for key "doesnotexist"',
    );
  });

  it('fails on a field of a string and on an unknown function, as Go does', () => {
    expect(() => render('{{ .data.test }}', { data: 'x' })).toThrow(
      "can't evaluate field test in type string",
    );
    expect(() => render('{{ foo .data }}', { data: 'x' })).toThrow('function "foo" not defined');
    expect(() => render('{{ env "HOME" }}', {})).toThrow('function "env" not defined');
    expect(() => render('{{ .a', {})).toThrow('unclosed action');
    expect(() => parseGoTemplateOptions(['missingkey=maybe'])).toThrow(
      'unrecognized option "missingkey=maybe"',
    );
  });

  it('runs if/else if/else, range with index and else, with, and trims around {{- -}}', () => {
    const data = { n: 3, items: ['x', 'y'], none: [], m: { b: '2', a: '1' } };
    expect(render('{{- if eq .n 1.0 }}one{{ else if gt .n 2.0 }}big{{ else }}small{{ end -}}', data)).toBe(
      'big',
    );
    expect(render('{{ range $i, $v := .items }}[{{ $i }}:{{ $v }}]{{ end }}', data)).toBe('[0:x][1:y]');
    expect(render('{{ range .none }}x{{ else }}empty{{ end }}', data)).toBe('empty');
    expect(render('{{ range $k, $v := .m }}{{ $k }}={{ $v }};{{ end }}', data)).toBe('a=1;b=2;');
    expect(render('{{ with .m }}{{ .a }}{{ end }}|{{ with .missing }}x{{ else }}none{{ end }}', data)).toBe(
      '1|none',
    );
    expect(render('a  {{- "b" -}}  c {{/* comment */}}d', data)).toBe('abc d');
    expect(render('{{ range .items }}{{ if eq . "x" }}{{ continue }}{{ end }}{{ . }}{{ end }}', data)).toBe(
      'y',
    );
  });

  it('prints numbers as Go prints float64 from JSON, and template integers as ints', () => {
    expect(render('{{ .a }} {{ .b }} {{ .c }} {{ 63 }}', { a: 3, b: 1000000, c: 2.5 })).toBe(
      '3 1e+06 2.5 63',
    );
    expect(goFloat(123456)).toBe('123456');
    expect(goFloat(1234567)).toBe('1.234567e+06');
    expect(goFloat(0.00001)).toBe('1e-05');
    expect(render('{{ .m }} {{ .l }} {{ .z }}', { m: { b: 1, a: 'x' }, l: [1, 'two'], z: null })).toBe(
      'map[a:x b:1] [1 two] <nil>',
    );
  });

  it("has Argo CD's normalize, slugify, toJson, toYaml, fromYaml and fromYamlArray", () => {
    expect(normalizeName('production_01/west')).toBe('production-01-west');
    expect(normalizeName('file_name.yaml')).toBe('file-name.yaml');
    expect(render('{{ normalize .p }}', { p: 'app_3' })).toBe('app-3');
    const long =
      'feat/a_really+long_pull_request_name_to_test_argo_slugification_and_branch_name_shortening_feature';
    expect(slugifyName(50, false, long)).toBe('feat-a-really-long-pull-request-name-to-test-argo');
    const longer = 'feat/areallylongpullrequestnametotestargoslugificationandbranchnameshorteningfeature';
    expect(slugifyName(50, true, longer)).toBe('feat');
    expect(slugifyName(50, false, longer)).toBe('feat-areallylongpullrequestnametotestargoslugifica');
    expect(render('{{ .b | slugify 50 false }}', { b: long })).toBe(
      'feat-a-really-long-pull-request-name-to-test-argo',
    );
    const data = { m: { b: ['x', 'y'], a: { c: 'd<e>' } } };
    expect(render('{{ toJson .m }}', data)).toBe('{"a":{"c":"d\\u003ce\\u003e"},"b":["x","y"]}');
    expect(render('{{ toYaml .m }}', data)).toBe('a:\n  c: d<e>\nb:\n- x\n- y');
    expect(render('{{ (fromYaml .y).k }}', { y: 'k: v' })).toBe('v');
    expect(render('{{ index (fromYamlArray .y) 1 }}', { y: '[a, b]' })).toBe('b');
    expect(() => render('{{ fromYaml .y }}', { y: '[a]' })).toThrow('not a YAML mapping');
  });

  it('has the Sprig functions ApplicationSets use', () => {
    const data = { name: 'my-app', nameOverride: '', v: 'a+b', labels: { env: 'prod' }, list: ['b', 'a'] };
    expect(
      render('{{ default "x" .nameOverride }} {{ .name | upper | trunc 4 | trimSuffix "-" }}', data),
    ).toBe('x MY-A');
    expect(render('{{ printf "%s-%s" .name "x" | replace "-" "_" }}', data)).toBe('my_app_x');
    expect(render('{{ dig "env" "none" .labels }} {{ dig "zone" "none" .labels }}', data)).toBe('prod none');
    expect(render('{{ if and (hasPrefix "my" .name) (not (empty .labels)) }}ok{{ end }}', data)).toBe('ok');
    expect(render('{{ join "," (sortAlpha .list) }} {{ len .list }} {{ add 1 2 }}', data)).toBe('a,b 2 3');
    expect(render('{{ ternary "y" "n" (contains "app" .name) }} {{ quote .name }}', data)).toBe('y "my-app"');
    expect(render('{{ base "a/b/c" }} {{ dir "a/b/c" }} {{ b64enc "hi" }}', data)).toBe('c a/b aGk=');
    expect(render('{{ toYaml (dict "k" .name) | indent 2 }}', data)).toBe('  k: my-app');
    expect(render('{{ regexReplaceAll "a(.)" .v "X$1" }}', data)).toBe('X+b');
  });
});
