/**
 * Argo CD's default template engine (`goTemplate: false`, valyala/fasttemplate; `applicationset/utils/utils.go`
 * Replace): a string is rendered only when one of its lines holds `{{…}}`; each tag is the text between `{{` and
 * `}}`, trimmed, looked up as a literal key of the flat parameter map. Only string values are substituted: an
 * unknown key, an empty tag or a non-string value leaves `{{tag}}` as written. Not recursive. A `{{` with no `}}`
 * after it is an error.
 */
import { TemplateError } from './template-error.js';

const HAS_TAG = /^.*\{\{.*\}\}.*$/m;

export function renderFastTemplate(source: string, params: Readonly<Record<string, unknown>>): string {
  if (!HAS_TAG.test(source)) return source;
  let out = '';
  let pos = 0;
  for (;;) {
    const open = source.indexOf('{{', pos);
    if (open === -1) return out + source.slice(pos);
    const close = source.indexOf('}}', open + 2);
    if (close === -1) {
      throw new TemplateError(
        `cannot find end tag="}}" in the template starting from "${source.slice(open, open + 40)}"`,
      );
    }
    out += source.slice(pos, open);
    const tag = source.slice(open + 2, close);
    const value = params[tag.trim()];
    out += typeof value === 'string' ? value : `{{${tag}}}`;
    pos = close + 2;
  }
}
