/**
 * Module faces (architecture §3): code outside server/modules/<name>/ may import only that module's
 * index.ts, and a module's tables.ts belongs to the module itself. Both rules are checked on the
 * resolved path of every import, so `../wallet/postings`, `../../modules/wallet/postings` and an
 * alias all count alike.
 *
 * Allowed on purpose:
 * - anything inside one module, its tests included (a module's tests may look at its internals);
 * - a tables.ts importing another module's tables.ts (foreign keys need the referenced table);
 * - server/db/schema.ts gathering every tables.ts for drizzle and the typed client;
 * - server/db/schema.ts itself (every table) only in server/db/, tests, the test harness, bench/
 *   and scripts: set-up and checks may use raw SQL, application code asks the owning service;
 * - the `exceptions` option: named importer → internal pairs, each with the reason it is still there.
 */
import path from 'node:path';

const MODULES_DIR = 'server/modules/';
const SCHEMA_INDEX = 'server/db/schema';
const SOURCE_EXTENSION = /\.(ts|tsx|js|mjs|cjs)$/;
const ALIASES = [
  ['#common/', 'common/'],
  ['~/', 'app/'],
];

/** Where a test, the harness or a tool may read the whole schema. */
const SCHEMA_READERS = [/^server\/db\//, /\.test\.(ts|tsx|js)$/, /^test\//, /^bench\//, /^scripts\//, /^e2e\//, /^[^/]+\.ts$/];

function toPosix(file) {
  return file.split(path.sep).join('/');
}

/** The import's target relative to the project root, without extension; undefined for a package. */
function resolveTarget(specifier, importerAbsolute, root) {
  let absolute;
  if (specifier.startsWith('.')) absolute = path.resolve(path.dirname(importerAbsolute), specifier);
  else {
    const alias = ALIASES.find(([prefix]) => specifier.startsWith(prefix));
    if (!alias) return undefined;
    absolute = path.resolve(root, alias[1], specifier.slice(alias[0].length));
  }
  return toPosix(path.relative(root, absolute)).replace(SOURCE_EXTENSION, '');
}

/** { name, rest } for a path under server/modules/, rest being the path inside the module. */
function moduleOf(relativePath) {
  if (!relativePath.startsWith(MODULES_DIR)) return undefined;
  const [name, ...rest] = relativePath.slice(MODULES_DIR.length).split('/');
  return { name, rest: rest.join('/') };
}

const isIndex = (rest) => rest === '' || rest === 'index';
const isTables = (rest) => rest === 'tables' || rest.endsWith('/tables');

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Other code imports a server module only through its index.ts; only the module touches its tables.' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          exceptions: {
            type: 'array',
            items: {
              type: 'object',
              properties: { importer: { type: 'string' }, target: { type: 'string' }, reason: { type: 'string' } },
              required: ['importer', 'target', 'reason'],
              additionalProperties: false,
            },
          },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      internal: "'{{target}}' is inside module '{{module}}': import its index.ts instead.",
      tables: "'{{target}}' belongs to module '{{module}}': ask its service instead of reading its tables.",
      schema: 'The whole schema is for server/db/, tests and tools: ask the owning module through its index.ts instead.',
    },
  },

  create(context) {
    const options = context.options[0] ?? {};
    const root = options.root ?? context.cwd;
    const importerAbsolute = context.filename;
    const importer = toPosix(path.relative(root, importerAbsolute));
    const importerModule = moduleOf(importer.replace(SOURCE_EXTENSION, ''));
    const exceptions = (options.exceptions ?? []).filter((exception) => exception.importer === importer);

    function check(node, source) {
      if (!source || typeof source.value !== 'string') return;
      const target = resolveTarget(source.value, importerAbsolute, root);
      if (target === undefined) return;
      if (target === SCHEMA_INDEX) {
        if (!SCHEMA_READERS.some((pattern) => pattern.test(importer))) context.report({ node: source, messageId: 'schema' });
        return;
      }
      const targetModule = moduleOf(target);
      if (!targetModule || targetModule.name === importerModule?.name) return;
      if (exceptions.some((exception) => exception.target === target)) return;
      const data = { target: source.value, module: targetModule.name };
      if (isTables(targetModule.rest)) {
        const importerIsTables = importerModule !== undefined && isTables(importerModule.rest);
        if (!importerIsTables && importer.replace(SOURCE_EXTENSION, '') !== SCHEMA_INDEX) {
          context.report({ node: source, messageId: 'tables', data });
        }
        return;
      }
      if (!isIndex(targetModule.rest)) context.report({ node: source, messageId: 'internal', data });
    }

    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source.type === 'Literal' ? node.source : undefined),
    };
  },
};
