/**
 * Objects as one multi-document YAML text (`---` between documents), as `kubectl get -o yaml` of several would
 * print them one after another. A module of its own so that a command can import it lazily: the CLI bundle turns a
 * lazy `import('yaml')` (a CommonJS package) into a chunk with a default export only.
 */
import { stringify } from 'yaml';

export function yamlDocuments(objects: readonly unknown[]): string {
  return objects.map((object) => stringify(object)).join('---\n');
}
