/**
 * A parser for the part of Go's text/template that ApplicationSet templates use: text, `{{- trim -}}` markers,
 * comments, pipelines (`.a.b | f x`, parentheses, `$var :=`/`=`), `if`/`else if`/`else`, `range` (with
 * `$i, $v :=`, `else`, `break`, `continue`), `with`/`else with`, and literals (strings with Go escapes, raw
 * strings, integers, floats, true/false/nil). Not supported, refused by name at parse time: `define`, `template`,
 * `block` (an ApplicationSet field is one template, with nothing to define or include). Functions are checked at
 * parse time as Go does: `function "x" not defined`.
 */

export type Node =
  | { type: 'text'; text: string }
  | { type: 'action'; pipe: Pipeline }
  | { type: 'if' | 'with'; pipe: Pipeline; list: Node[]; elseList?: Node[] }
  | { type: 'range'; pipe: Pipeline; list: Node[]; elseList?: Node[] }
  | { type: 'break' | 'continue' };

type ControlNode = { type: 'if' | 'with' | 'range'; pipe: Pipeline; list: Node[]; elseList?: Node[] };

export interface Pipeline {
  decl: string[];
  /** `$x = …` assigns an existing variable; `:=` declares. */
  assign: boolean;
  cmds: Operand[][];
}

export type Operand =
  | { type: 'field'; names: string[] }
  | { type: 'variable'; name: string; names: string[] }
  | { type: 'dot' }
  | { type: 'ident'; name: string }
  | { type: 'literal'; value: unknown }
  | { type: 'pipe'; pipe: Pipeline; names: string[] };

export class TemplateParseError extends Error {}

type Token =
  | { kind: 'field'; names: string[] }
  | { kind: 'var'; name: string; names: string[] }
  | { kind: 'dot' }
  | { kind: 'ident'; name: string }
  | { kind: 'literal'; value: unknown }
  | { kind: 'punct'; text: '|' | '(' | ')' | ':=' | '=' | ',' }
  | { kind: 'fieldsAfter'; names: string[] };

interface RawAction {
  tokens: Token[];
  /** Position of the action in the template (for messages). */
  line: number;
}

type Piece = { text: string } | { action: RawAction };

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*/;

/** Split `source` into text and actions, applying the trim markers. */
function lex(source: string, name: string): Piece[] {
  const pieces: Piece[] = [];
  let pos = 0;
  let trimNext = false;
  while (pos <= source.length) {
    const open = source.indexOf('{{', pos);
    let text = source.slice(pos, open === -1 ? source.length : open);
    if (trimNext) text = text.replace(/^\s+/, '');
    trimNext = false;
    if (open === -1) {
      if (text) pieces.push({ text });
      break;
    }
    const trimBefore = /^\{\{-\s/.test(source.slice(open, open + 4));
    if (trimBefore) text = text.replace(/\s+$/, '');
    if (text) pieces.push({ text });
    const line = source.slice(0, open).split('\n').length;
    let i = open + (trimBefore ? 3 : 2);
    // A comment: {{/* … */}}
    const rest = source.slice(i).replace(/^\s*/, '');
    if (rest.startsWith('/*')) {
      const close = source.indexOf('*/', i);
      if (close === -1) throw new TemplateParseError(`template: ${name}:${line}: unclosed comment`);
      let after = close + 2;
      const tail = source.slice(after);
      const m = /^\s*(-?)\}\}/.exec(tail);
      if (!m)
        throw new TemplateParseError(`template: ${name}:${line}: comment ends before closing delimiter`);
      after += m[0].length;
      trimNext = m[1] === '-';
      pos = after;
      continue;
    }
    const tokens: Token[] = [];
    for (;;) {
      const trimClose = /^\s+-\}\}/.exec(source.slice(i, i + 64));
      if (trimClose) {
        i += trimClose[0].length;
        trimNext = true;
        break;
      }
      while (i < source.length && /\s/.test(source[i] ?? '')) i++;
      if (i >= source.length) throw new TemplateParseError(`template: ${name}:${line}: unclosed action`);
      if (source.startsWith('}}', i)) {
        i += 2;
        break;
      }
      const c = source[i] ?? '';
      const s = source.slice(i);
      if (c === '"') {
        let j = i + 1;
        while (j < source.length && source[j] !== '"') {
          if (source[j] === '\\') j++;
          if (source[j] === '\n')
            throw new TemplateParseError(`template: ${name}:${line}: unterminated quoted string`);
          j++;
        }
        if (j >= source.length)
          throw new TemplateParseError(`template: ${name}:${line}: unterminated quoted string`);
        tokens.push({ kind: 'literal', value: JSON.parse(source.slice(i, j + 1).replace(/\\'/g, "'")) });
        i = j + 1;
      } else if (c === '`') {
        const j = source.indexOf('`', i + 1);
        if (j === -1)
          throw new TemplateParseError(`template: ${name}:${line}: unterminated raw quoted string`);
        tokens.push({ kind: 'literal', value: source.slice(i + 1, j) });
        i = j + 1;
      } else if (c === "'") {
        const m = /^'(\\.|[^'\\])'/.exec(s);
        if (!m?.[1]) throw new TemplateParseError(`template: ${name}:${line}: bad character constant`);
        const ch = m[1].startsWith('\\') ? (JSON.parse(`"${m[1]}"`) as string) : m[1];
        tokens.push({ kind: 'literal', value: BigInt(ch.codePointAt(0) ?? 0) });
        i += m[0].length;
      } else if (s.startsWith(':=')) {
        tokens.push({ kind: 'punct', text: ':=' });
        i += 2;
      } else if (c === '|' || c === '(' || c === ')' || c === '=' || c === ',') {
        tokens.push({ kind: 'punct', text: c });
        i++;
      } else if (c === '$') {
        const m = /^\$[A-Za-z0-9_]*((\.[A-Za-z0-9_]+)*)/.exec(s) as RegExpExecArray;
        const [varName = '$'] = m[0].split('.');
        tokens.push({ kind: 'var', name: varName, names: m[1] ? m[1].slice(1).split('.') : [] });
        i += m[0].length;
      } else if (c === '.') {
        const m = /^(\.[A-Za-z0-9_]+)+/.exec(s);
        const prev = tokens[tokens.length - 1];
        if (m) {
          const names = m[0].slice(1).split('.');
          // `(pipeline).field`: fields right after a closing parenthesis.
          if (prev?.kind === 'punct' && prev.text === ')' && i > 0 && source[i - 1] === ')') {
            tokens.push({ kind: 'fieldsAfter', names });
          } else tokens.push({ kind: 'field', names });
          i += m[0].length;
        } else {
          tokens.push({ kind: 'dot' });
          i++;
        }
      } else if (/^[-+]?(0[xX][0-9a-fA-F_]+|\d[\d_]*(\.\d*)?([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?)/.test(s)) {
        const m = /^[-+]?(0[xX][0-9a-fA-F_]+|\d[\d_]*(\.\d*)?([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?)/.exec(
          s,
        ) as RegExpExecArray;
        const text = m[0].replace(/_/g, '');
        const isInt = /^[-+]?(0[xX][0-9a-fA-F]+|\d+)$/.test(text);
        tokens.push({
          kind: 'literal',
          value: isInt ? BigInt(text.replace(/^\+/, '')) : Number(text),
        });
        i += m[0].length;
      } else {
        const m = IDENT.exec(s);
        if (!m) throw new TemplateParseError(`template: ${name}:${line}: unexpected "${c}" in command`);
        const word = m[0];
        if (word === 'true' || word === 'false') tokens.push({ kind: 'literal', value: word === 'true' });
        else if (word === 'nil') tokens.push({ kind: 'literal', value: null });
        else tokens.push({ kind: 'ident', name: word });
        i += word.length;
      }
    }
    pieces.push({ action: { tokens, line } });
    pos = i;
  }
  return pieces;
}

/** Parse `source`; `hasFunction` says which identifiers are functions. */
export function parseGoTemplate(
  source: string,
  name: string,
  hasFunction: (name: string) => boolean,
): Node[] {
  const pieces = lex(source, name);
  let index = 0;
  const fail = (line: number, message: string): never => {
    throw new TemplateParseError(`template: ${name}:${line}: ${message}`);
  };

  /** Parse nodes until one of `stops` (an action starting with that keyword); returns the stop seen. */
  const parseList = (
    stops: string[],
    depth: { range: number },
  ): { nodes: Node[]; stop?: string; at?: RawAction } => {
    const nodes: Node[] = [];
    while (index < pieces.length) {
      const piece = pieces[index++] as Piece;
      if ('text' in piece) {
        nodes.push({ type: 'text', text: piece.text });
        continue;
      }
      const { tokens, line } = piece.action;
      const first = tokens[0];
      const keyword = first?.kind === 'ident' ? first.name : undefined;
      if (keyword !== undefined && stops.includes(keyword)) return { nodes, stop: keyword, at: piece.action };
      if (keyword === 'end' || keyword === 'else') fail(line, `unexpected {{${keyword}}}`);
      if (keyword === 'define' || keyword === 'template' || keyword === 'block') {
        fail(line, `{{${keyword}}} is not supported in ApplicationSet templates (one template per field)`);
      }
      if (keyword === 'break' || keyword === 'continue') {
        if (depth.range === 0) fail(line, `{{${keyword}}} outside {{range}}`);
        nodes.push({ type: keyword });
        continue;
      }
      if (keyword === 'if' || keyword === 'with' || keyword === 'range') {
        nodes.push(parseControl(keyword, tokens.slice(1), line, depth));
        continue;
      }
      if (tokens.length === 0) fail(line, 'missing value for command');
      nodes.push({ type: 'action', pipe: parsePipeline(tokens, line) });
    }
    if (stops.length > 0) fail(pieces.length, 'unexpected EOF');
    return { nodes };
  };

  const parseControl = (
    keyword: 'if' | 'with' | 'range',
    tokens: Token[],
    line: number,
    depth: { range: number },
  ): Node => {
    if (tokens.length === 0) fail(line, `missing value for ${keyword}`);
    const pipe = parsePipeline(tokens, line);
    const inner = { range: depth.range + (keyword === 'range' ? 1 : 0) };
    const body = parseList(['else', 'end'], inner);
    const node = { type: keyword, pipe, list: body.nodes } as ControlNode;
    if (body.stop === 'else') {
      const elseTokens = body.at?.tokens.slice(1) ?? [];
      const chained = elseTokens[0];
      if (
        chained?.kind === 'ident' &&
        (chained.name === 'if' || chained.name === 'with') &&
        keyword !== 'range'
      ) {
        // `{{else if …}}` is `{{else}}{{if …}}…{{end}}` sharing this node's {{end}}.
        node.elseList = [parseControl(chained.name, elseTokens.slice(1), body.at?.line ?? line, depth)];
        return node;
      }
      const elseBody = parseList(['end'], depth);
      node.elseList = elseBody.nodes;
    }
    return node;
  };

  const parsePipeline = (tokens: Token[], line: number): Pipeline => {
    let pos = 0;
    const pipe: Pipeline = { decl: [], assign: false, cmds: [] };
    // Declarations: $x := …, $i, $v := …, $x = …
    const declEnd = tokens.findIndex((t) => t.kind === 'punct' && (t.text === ':=' || t.text === '='));
    if (
      declEnd > 0 &&
      tokens.slice(0, declEnd).every((t) => t.kind === 'var' || (t.kind === 'punct' && t.text === ','))
    ) {
      pipe.decl = tokens.slice(0, declEnd).flatMap((t) => (t.kind === 'var' ? [t.name] : []));
      pipe.assign = (tokens[declEnd] as { text: string }).text === '=';
      pos = declEnd + 1;
    }
    const parseOperand = (): Operand => {
      const t = tokens[pos++];
      if (!t) return fail(line, 'missing value for command');
      let operand: Operand;
      switch (t.kind) {
        case 'field':
          operand = { type: 'field', names: t.names };
          break;
        case 'var':
          operand = { type: 'variable', name: t.name, names: t.names };
          break;
        case 'dot':
          operand = { type: 'dot' };
          break;
        case 'literal':
          operand = { type: 'literal', value: t.value };
          break;
        case 'ident':
          if (!hasFunction(t.name)) fail(line, `function "${t.name}" not defined`);
          operand = { type: 'ident', name: t.name };
          break;
        case 'punct': {
          if (t.text !== '(') return fail(line, `unexpected "${t.text}" in operand`);
          let level = 1;
          const start = pos;
          while (pos < tokens.length && level > 0) {
            const u = tokens[pos++] as Token;
            if (u.kind === 'punct' && u.text === '(') level++;
            if (u.kind === 'punct' && u.text === ')') level--;
          }
          if (level > 0) fail(line, 'unclosed left paren');
          const inner = parsePipeline(tokens.slice(start, pos - 1), line);
          const after = tokens[pos];
          const names = after?.kind === 'fieldsAfter' ? after.names : [];
          if (after?.kind === 'fieldsAfter') pos++;
          operand = { type: 'pipe', pipe: inner, names };
          break;
        }
        default:
          return fail(line, 'unexpected token');
      }
      return operand;
    };
    let cmd: Operand[] = [];
    while (pos < tokens.length) {
      const t = tokens[pos] as Token;
      if (t.kind === 'punct' && t.text === '|') {
        if (cmd.length === 0) fail(line, 'missing command');
        pipe.cmds.push(cmd);
        cmd = [];
        pos++;
        continue;
      }
      if (t.kind === 'punct' && (t.text === ')' || t.text === ',' || t.text === ':=' || t.text === '=')) {
        fail(line, `unexpected "${t.text}" in command`);
      }
      cmd.push(parseOperand());
    }
    if (cmd.length === 0) fail(line, 'missing command');
    pipe.cmds.push(cmd);
    return pipe;
  };

  return parseList([], { range: 0 }).nodes;
}
