/**
 * Go text/template execution for `goTemplate: true` ApplicationSets (Argo CD `applicationset/utils/utils.go`
 * Replace): the template is parsed with the function set of template-functions.ts and executed against the
 * parameters; `goTemplateOptions` are Go's `template.Option` strings, of which `missingkey=default|zero|invalid`
 * (print `<no value>`) and `missingkey=error` (fail with `map has no entry for key "x"`) exist.
 * No npm package implements text/template with custom functions and options (checked: @ctrl/golang-template
 * has no pipelines or functions; @evertdespiegeleer/go-template is a 5 MB Go WASM build without custom functions
 * or options), so the subset ApplicationSets use is implemented here (parse-go-template.ts says which).
 */

import { goString, goTypeName, isMap, isTrue, NO_VALUE, toNumber } from './go-value.js';
import {
  type Node,
  type Operand,
  type Pipeline,
  parseGoTemplate,
  TemplateParseError,
} from './parse-go-template.js';
import { GoTemplateError, type GoTemplateFunction, TEMPLATE_FUNCTIONS } from './template-functions.js';

export { GoTemplateError, TemplateParseError };

export interface GoTemplateOptions {
  /** `missingkey=error`: a missing map key fails the template. */
  missingKeyError: boolean;
}

/** Parse Argo CD's `goTemplateOptions`. @throws Error naming an unknown option. */
export function parseGoTemplateOptions(options: readonly string[]): GoTemplateOptions {
  let missingKeyError = false;
  for (const option of options) {
    const m = /^missingkey=(default|invalid|zero|error)$/.exec(option);
    if (!m) {
      throw new GoTemplateError(
        `unrecognized option "${option}" (Go's template.Option knows missingkey=default|invalid|zero|error)`,
      );
    }
    missingKeyError = m[1] === 'error';
  }
  return { missingKeyError };
}

class Break {}
class Continue {}

interface Scope {
  vars: Map<string, unknown>[];
}

const cache = new Map<string, Node[]>();

/** Render `source` with `data`. @throws TemplateParseError / GoTemplateError with Go's wording. */
export function renderGoTemplate(source: string, data: unknown, options: GoTemplateOptions): string {
  let nodes = cache.get(source);
  if (!nodes) {
    nodes = parseGoTemplate(source, '', (name) => name in TEMPLATE_FUNCTIONS);
    if (cache.size > 5000) cache.clear();
    cache.set(source, nodes);
  }
  const out: string[] = [];
  const scope: Scope = { vars: [new Map([['$', data]])] };
  runList(nodes, data, scope, out, options);
  return out.join('');
}

function runList(nodes: Node[], dot: unknown, scope: Scope, out: string[], options: GoTemplateOptions): void {
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
        out.push(node.text);
        break;
      case 'action': {
        const value = evalPipeline(node.pipe, dot, scope, options);
        if (node.pipe.decl.length === 0) out.push(goString(value));
        break;
      }
      case 'if':
      case 'with': {
        scope.vars.push(new Map());
        try {
          const value = evalPipeline(node.pipe, dot, scope, options);
          if (isTrue(value)) runList(node.list, node.type === 'with' ? value : dot, scope, out, options);
          else if (node.elseList) runList(node.elseList, dot, scope, out, options);
        } finally {
          scope.vars.pop();
        }
        break;
      }
      case 'range':
        runRange(node, dot, scope, out, options);
        break;
      case 'break':
        throw new Break();
      case 'continue':
        throw new Continue();
    }
  }
}

function runRange(
  node: Extract<Node, { type: 'range' }>,
  dot: unknown,
  scope: Scope,
  out: string[],
  options: GoTemplateOptions,
): void {
  const decl = node.pipe.decl;
  const value = evalPipeline({ ...node.pipe, decl: [] }, dot, scope, options);
  let items: [unknown, unknown][];
  if (Array.isArray(value)) items = value.map((v, i) => [BigInt(i), v]);
  else if (isMap(value))
    items = Object.keys(value)
      .sort()
      .map((k) => [k, value[k]]);
  else if (typeof value === 'bigint' || typeof value === 'number') {
    items = Array.from({ length: toNumber(value) }, (_, i) => [BigInt(i), BigInt(i)]);
  } else if (value === null || value === undefined || value === NO_VALUE) items = [];
  else throw new GoTemplateError(`range can't iterate over ${goString(value)}`);
  if (items.length === 0) {
    if (node.elseList) runList(node.elseList, dot, scope, out, options);
    return;
  }
  for (const [key, item] of items) {
    const vars = new Map<string, unknown>();
    if (decl.length === 1) vars.set(decl[0] as string, item);
    if (decl.length === 2) {
      vars.set(decl[0] as string, key);
      vars.set(decl[1] as string, item);
    }
    scope.vars.push(vars);
    try {
      runList(node.list, item, scope, out, options);
    } catch (signal) {
      if (signal instanceof Break) break;
      if (!(signal instanceof Continue)) throw signal;
    } finally {
      scope.vars.pop();
    }
  }
}

function lookupVar(scope: Scope, name: string): unknown {
  for (let i = scope.vars.length - 1; i >= 0; i--) {
    const frame = scope.vars[i] as Map<string, unknown>;
    if (frame.has(name)) return frame.get(name);
  }
  throw new GoTemplateError(`undefined variable: ${name}`);
}

function evalPipeline(pipe: Pipeline, dot: unknown, scope: Scope, options: GoTemplateOptions): unknown {
  let value: unknown;
  let piped = false;
  for (const cmd of pipe.cmds) {
    value = evalCommand(cmd, dot, scope, options, piped ? { value } : undefined);
    piped = true;
  }
  for (const name of pipe.decl) {
    if (pipe.assign) {
      const frame = [...scope.vars].reverse().find((f) => f.has(name));
      if (!frame) throw new GoTemplateError(`undefined variable: ${name}`);
      frame.set(name, value);
    } else scope.vars[scope.vars.length - 1]?.set(name, value);
  }
  return value;
}

function evalCommand(
  cmd: Operand[],
  dot: unknown,
  scope: Scope,
  options: GoTemplateOptions,
  piped: { value: unknown } | undefined,
): unknown {
  const [first, ...rest] = cmd;
  if (first?.type === 'ident') {
    const fn = TEMPLATE_FUNCTIONS[first.name] as GoTemplateFunction;
    if (first.name === 'and' || first.name === 'or')
      return shortCircuit(first.name, rest, dot, scope, options, piped);
    // A missing key reaches a function as nil, as Go passes the zero value of interface{}.
    const args = rest.map((o) => asArgument(evalOperand(o, dot, scope, options)));
    if (piped) args.push(asArgument(piped.value));
    return fn(...args);
  }
  if (rest.length > 0 || piped) {
    throw new GoTemplateError(`can't give argument to non-function ${describeOperand(first)}`);
  }
  return evalOperand(first as Operand, dot, scope, options);
}

function asArgument(value: unknown): unknown {
  return value === NO_VALUE ? null : value;
}

function shortCircuit(
  name: 'and' | 'or',
  operands: Operand[],
  dot: unknown,
  scope: Scope,
  options: GoTemplateOptions,
  piped: { value: unknown } | undefined,
): unknown {
  const thunks: (() => unknown)[] = operands.map((o) => () => evalOperand(o, dot, scope, options));
  if (piped) thunks.push(() => piped.value);
  if (thunks.length === 0)
    throw new GoTemplateError(`wrong number of args for ${name}: want at least 1 got 0`);
  let value: unknown;
  for (const thunk of thunks) {
    value = thunk();
    if (name === 'and' ? !isTrue(value) : isTrue(value)) return value;
  }
  return value;
}

function describeOperand(operand: Operand | undefined): string {
  if (!operand) return '';
  if (operand.type === 'field') return `.${operand.names.join('.')}`;
  if (operand.type === 'variable') return [operand.name, ...operand.names].join('.');
  if (operand.type === 'literal') return goString(operand.value);
  return '.';
}

function evalOperand(operand: Operand, dot: unknown, scope: Scope, options: GoTemplateOptions): unknown {
  switch (operand.type) {
    case 'dot':
      return dot;
    case 'literal':
      return operand.value;
    case 'field':
      return fieldChain(dot, operand.names, options, `.${operand.names.join('.')}`);
    case 'variable':
      return fieldChain(
        lookupVar(scope, operand.name),
        operand.names,
        options,
        [operand.name, ...operand.names].join('.'),
      );
    case 'pipe':
      return fieldChain(evalPipeline(operand.pipe, dot, scope, options), operand.names, options, '(…)');
    case 'ident':
      return (TEMPLATE_FUNCTIONS[operand.name] as GoTemplateFunction)();
  }
}

function fieldChain(value: unknown, names: string[], options: GoTemplateOptions, shown: string): unknown {
  let current = value;
  for (const name of names) {
    if (isMap(current)) {
      if (Object.hasOwn(current, name)) current = current[name];
      else if (options.missingKeyError) {
        throw new GoTemplateError(`executing at <${shown}>: map has no entry for key "${name}"`);
      } else current = NO_VALUE;
    } else if (current === null || current === undefined || current === NO_VALUE) {
      throw new GoTemplateError(`executing at <${shown}>: nil pointer evaluating interface {}.${name}`);
    } else {
      throw new GoTemplateError(
        `executing at <${shown}>: can't evaluate field ${name} in type ${goTypeName(current)}`,
      );
    }
  }
  return current;
}
