import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DataSource, getMetadataArgsStorage } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options.js';
import { PET } from '../../src/pets/dto/pet-fields.js';
import { Pet } from '../../src/pets/pet.entity.js';
import { ORDER } from '../../src/store/dto/order-fields.js';
import { Order } from '../../src/store/order.entity.js';
import type { Fields, ResourceShape, Rule } from '../../src/validation/resource-shape.js';

/**
 * Every member of a pet and an order, as their declaration states it (PET, ORDER), is everywhere a
 * member must be: a column of the entity, a column the migrations make, the committed document's
 * three schemas (with its `required` and `nullable` as its rule says), the TypeScript SDK's types,
 * and the Python SDK's models and keyword arguments. A field added to one place only fails here,
 * with the file to change (issue 57 parts 1 and 3).
 */
interface Resource {
  readonly name: 'Pet' | 'Order';
  readonly shape: ResourceShape<Fields>;
  readonly entity: new () => object;
  readonly table: string;
  readonly declaration: string;
  readonly entityFile: string;
  readonly python: string;
  readonly pythonClass: string;
}

const RESOURCES: readonly Resource[] = [
  {
    name: 'Pet',
    shape: PET as unknown as ResourceShape<Fields>,
    entity: Pet,
    table: 'pets',
    declaration: 'src/pets/dto/pet-fields.ts (PET)',
    entityFile: 'src/pets/pet.entity.ts',
    python: 'clients/python/petstore/resources/pets.py',
    pythonClass: 'Pets',
  },
  {
    name: 'Order',
    shape: ORDER as unknown as ResourceShape<Fields>,
    entity: Order,
    table: 'orders',
    declaration: 'src/store/dto/order-fields.ts (ORDER)',
    entityFile: 'src/store/order.entity.ts',
    python: 'clients/python/petstore/resources/store.py',
    pythonClass: 'Orders',
  },
];

const OPENAPI = 'openapi.json';
const TYPESCRIPT = 'clients/typescript/src/openapi.ts';
const PYTHON_MODELS = 'clients/python/petstore/_models.py';
const REGENERATE = 'run npm run openapi (a grown document needs the next API_VERSION, src/config/api-version.ts)';

type Schema = { properties?: Record<string, { nullable?: boolean; default?: unknown; $ref?: string }>; required?: string[] };
const document = JSON.parse(readFileSync(OPENAPI, 'utf8')) as { components: { schemas: Record<string, Schema> } };

const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Which of the three shapes have a field of each rule, whether each requires it, and whether each takes null. */
const IN: Record<'answer' | 'create' | 'patch', Record<Rule, { required: boolean; nullable: boolean } | undefined>> = {
  answer: {
    assigned: { required: true, nullable: false },
    required: { required: true, nullable: false },
    fixed: { required: true, nullable: false },
    defaulted: { required: true, nullable: false },
    clearable: { required: true, nullable: true },
    omittable: { required: false, nullable: false },
    merged: { required: true, nullable: false },
    derived: { required: true, nullable: false },
  },
  create: {
    assigned: undefined,
    required: { required: true, nullable: false },
    fixed: { required: true, nullable: false },
    defaulted: { required: false, nullable: false },
    clearable: { required: false, nullable: false },
    omittable: { required: false, nullable: false },
    merged: { required: false, nullable: false },
    derived: { required: false, nullable: false },
  },
  patch: {
    assigned: undefined,
    required: { required: false, nullable: false },
    fixed: undefined,
    defaulted: { required: false, nullable: false },
    clearable: { required: false, nullable: true },
    omittable: { required: false, nullable: false },
    merged: { required: false, nullable: true },
    derived: undefined,
  },
};
const SCHEMA = { answer: (name: string) => name, create: (name: string) => `New${name}`, patch: (name: string) => `${name}Patch` };

/** The members of `schema` in the TypeScript SDK's types (openapi-typescript's `components.schemas`). */
function typescriptMembers(schema: string): string[] {
  const text = readFileSync(TYPESCRIPT, 'utf8');
  const start = text.indexOf(`\n        ${schema}: {\n`);
  if (start < 0) return [];
  const end = text.indexOf('\n        };', start);
  return [...text.slice(start, end).matchAll(/^ {12}(\w+)\??:/gm)].map(([, member]) => member);
}

/** The Python SDK's model fields by class, and each resource class's create/update keyword arguments (read with Python's ast). */
function pythonNames(file: string, classes: readonly string[]): Record<string, string[]> {
  const program = `
import ast, json, sys
tree = ast.parse(open(sys.argv[1]).read())
found = {}
for node in tree.body:
    if isinstance(node, ast.ClassDef) and node.name in sys.argv[2:]:
        found[node.name] = [n.target.id for n in node.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)]
        for f in node.body:
            if isinstance(f, ast.FunctionDef) and f.name in ('create', 'update'):
                found[node.name + '.' + f.name] = [a.arg for a in f.args.args + f.args.kwonlyargs]
print(json.dumps(found))
`;
  return JSON.parse(execFileSync('python3', ['-c', program, file, ...classes], { encoding: 'utf8' })) as Record<string, string[]>;
}

let dataSource: DataSource;
beforeAll(async () => {
  dataSource = new DataSource(buildDataSourceOptions({ kind: 'sqlite', file: ':memory:' }));
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'all' });
});
afterAll(() => dataSource?.destroy());

describe.each(RESOURCES)('$name: every member of its declaration', (resource) => {
  const { name, shape } = resource;
  const members = Object.entries(shape.fields);

  /** The entity's column arguments of a property, its base class's (the id) included. */
  const columnArgsOf = (member: string) => {
    const classes: unknown[] = [];
    for (let type: unknown = resource.entity; typeof type === 'function' && type !== Function.prototype; type = Object.getPrototypeOf(type))
      classes.push(type);
    return getMetadataArgsStorage()
      .filterColumns(classes as (new () => object)[])
      .find((candidate) => candidate.propertyName === member);
  };
  /** The column each property is stored in. */
  const columnOf = (member: string) => {
    const column = columnArgsOf(member);
    return column && (column.options.name ?? member);
  };
  /** A member read from a query of the row (TypeORM's VirtualColumn: livemode), which no column stores. */
  const isComputed = (member: string) => columnArgsOf(member)?.mode === 'virtual-property';

  it('has a column of its entity', () => {
    const missing = members.filter(([member]) => !columnOf(member));
    expect(
      missing.map(([member]) => `${name}.${member} has no column: add it to ${resource.entityFile}, then a migration that makes it`),
    ).toEqual([]);
  });

  it('is computed only when the service gives it: a member read from a query of the row is never written', () => {
    const written = members.filter(([member, { rule }]) => isComputed(member) && rule !== 'assigned');
    expect(
      written.map(([member, { rule }]) => `${name}.${member} is read from a query (no column stores it), but a ${rule} field is written`),
    ).toEqual([]);
  });

  it('has a column the migrations make', async () => {
    const made = new Set((await dataSource.query(`PRAGMA table_info(${resource.table})`)).map((column: { name: string }) => column.name));
    const missing = members
      .filter(([member]) => !isComputed(member))
      .map(([member]) => columnOf(member) ?? snake(member))
      .filter((column) => !made.has(column));
    expect(
      missing.map(
        (column) =>
          `no migration makes ${resource.table}.${column}: write one in src/database/migrations/ (DEVELOPING.md, Migrations) and list it in MIGRATIONS (src/database/data-source-options.ts)`,
      ),
    ).toEqual([]);
  });

  it.each(['answer', 'create', 'patch'] as const)(`is in the document's %s schema as its rule says (${OPENAPI})`, (mode) => {
    const schemaName = SCHEMA[mode](name);
    const schema = document.components.schemas[schemaName];
    const problems: string[] = [];
    for (const [member, { rule }] of members) {
      const expected = IN[mode][rule];
      const property = schema.properties?.[member];
      const own = property?.$ref ? document.components.schemas[property.$ref.replace('#/components/schemas/', '')] : property;
      if (!expected) {
        if (property) problems.push(`${schemaName}.${member} is there, but a ${rule} field is not in a ${mode}: ${REGENERATE}`);
        continue;
      }
      if (!property) {
        problems.push(`${schemaName} has no ${member}: ${REGENERATE}`);
        continue;
      }
      if ((schema.required ?? []).includes(member) !== expected.required)
        problems.push(
          `${schemaName}.${member} is ${expected.required ? 'not ' : ''}required, but a ${rule} field is${expected.required ? '' : ' not'}: ${REGENERATE}`,
        );
      if (((own as { nullable?: boolean }).nullable ?? false) !== expected.nullable)
        problems.push(
          `${schemaName}.${member} is ${expected.nullable ? 'not ' : ''}nullable, but a ${rule} field is${expected.nullable ? '' : ' not'} there: ` +
            (expected.nullable
              ? `its property in ${resource.declaration} must spread the presence it is given last into its ApiProperty (\`...presence\`)`
              : `drop \`nullable\` from its property in ${resource.declaration}: whether it may be null comes from its rule ` +
                '(field.clearable: on a patch only), spread last into its ApiProperty') +
            `; then ${REGENERATE}`,
        );
    }
    expect(problems).toEqual([]);
  });

  it(`is in the TypeScript SDK's types (${TYPESCRIPT})`, () => {
    const problems = (['answer', 'create', 'patch'] as const).flatMap((mode) => {
      const schemaName = SCHEMA[mode](name);
      const typed = new Set(typescriptMembers(schemaName));
      return members
        .filter(([member, { rule }]) => IN[mode][rule] && !typed.has(member))
        .map(([member]) => `components.schemas.${schemaName} has no ${member}: ${REGENERATE}`);
    });
    expect(problems).toEqual([]);
  });

  it(`is in the Python SDK's models (${PYTHON_MODELS}) and keyword arguments (${resource.python})`, () => {
    const problems: string[] = [];
    const models = pythonNames(PYTHON_MODELS, [name, `New${name}`, `${name}Patch`]);
    const methods = pythonNames(resource.python, [resource.pythonClass]);
    for (const mode of ['answer', 'create', 'patch'] as const) {
      const model = SCHEMA[mode](name);
      const method = mode === 'answer' ? undefined : `${resource.pythonClass}.${mode === 'create' ? 'create' : 'update'}`;
      for (const [member, { rule }] of members) {
        if (!IN[mode][rule]) continue;
        if (!models[model]?.includes(snake(member))) problems.push(`${PYTHON_MODELS}: ${model} has no ${snake(member)}: ${REGENERATE}`);
        if (method && !methods[method]?.includes(snake(member)))
          problems.push(
            `${resource.python}: ${method}() takes no ${snake(member)}: add the keyword argument, passed on to New${name}/${name}Patch`,
          );
      }
    }
    expect(problems).toEqual([]);
  });
});
