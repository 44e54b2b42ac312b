import type { Type } from '@nestjs/common';
import { ValidateIf } from 'class-validator';
import { MergePatch, mergePatch } from './merge-patch.js';

/** How a field's document says it is present where it is used: optional, with a default, or nullable. */
export interface Presence<T = unknown> {
  required?: boolean;
  default?: T;
  nullable?: boolean;
}

/** A field's document and validation (ApiProperty and its validators), given how present it is where it is used. */
export type Property<T> = (presence?: Presence<T>) => PropertyDecorator;

/**
 * How a client gives a field, and so how a create fills it in, how a Merge Patch (RFC 7396) changes
 * it, and how the document shows it in each of the three shapes (the answer, the create, the patch):
 * - `assigned`: the service's (an id; `livemode`, from the environment): answered only.
 * - `required`: needed on create; a patch replaces it and may not remove it (a null is refused).
 * - `fixed`: needed on create, and never changed (an order's pet).
 * - `defaulted`: optional on create (`default` when left out); a patch replaces it, never removes it.
 * - `clearable`: optional on create (null when left out); a patch replaces it or, with null, clears
 *   it; answered always, null when none (nullable in the answer and the patch, never in the create).
 * - `omittable`: optional on create; a patch replaces it, never removes it; answered only when set.
 * - `merged`: an object merged over `empty` on create and by a patch (`null` empties it; metadata).
 * - `derived`: the service works it out from the rest (an order's complete); a create may state it.
 */
export type Rule = 'assigned' | 'required' | 'fixed' | 'defaulted' | 'clearable' | 'omittable' | 'merged' | 'derived';

/** One field of a resource, as its declaration states it: what `T` it holds, by which rule, documented and validated by `property`. */
export interface Field<T, R extends Rule = Rule> {
  readonly rule: R;
  /** A method, so that a field of any `T` is a Field of Fields (its parameter is then bivariant). */
  property(presence?: Presence<T>): PropertyDecorator;
  /** `defaulted`: what a create fills in; `merged`: what no value is. */
  readonly value?: T;
  /** The create's own document and validation, where it differs from `property`'s (an order's placeable status). */
  create?(presence?: Presence<T>): PropertyDecorator;
  /** The patch's own, where it differs. */
  patch?(presence?: Presence<T>): PropertyDecorator;
  /** What is stored of a value sent, or of none, where it differs (an order's ship date: RFC 3339 text sent, a Date stored, or null). */
  stored?(sent: T | undefined): unknown;
  /** The answer's value of what is stored, where it differs (the Date answered as text, left out when none). */
  answered?(stored: never): T | undefined;
}

/** A field's declaration by rule: `field.required<string>(PetField.name)`. */
export const field = {
  assigned: <T>(property: Property<T>): Field<T, 'assigned'> => ({ rule: 'assigned', property }),
  required: <T>(property: Property<T>, own: Own<T> = {}): Field<T, 'required'> => ({ rule: 'required', property, ...own }),
  fixed: <T>(property: Property<T>): Field<T, 'fixed'> => ({ rule: 'fixed', property }),
  defaulted: <T>(value: T, property: Property<T>, own: Own<T> = {}): Field<T, 'defaulted'> => ({
    rule: 'defaulted',
    property,
    value,
    ...own,
  }),
  clearable: <T>(property: Property<T>, own: Own<T> = {}): Field<T, 'clearable'> => ({ rule: 'clearable', property, ...own }),
  omittable: <T, S = T>(
    property: Property<T>,
    own: Own<T> & { stored?: (sent: T | undefined) => S; answered?: (stored: S) => T | undefined } = {},
  ): Field<T, 'omittable'> => ({ rule: 'omittable', property, ...(own as Own<T>) }),
  merged: <T>(empty: T, property: Property<T>): Field<T, 'merged'> => ({ rule: 'merged', property, value: empty }),
  derived: <T>(property: Property<T>, own: Own<T> = {}): Field<T, 'derived'> => ({ rule: 'derived', property, ...own }),
};

/** A shape's own document and validation of a field, where it differs from the field's `property`. */
type Own<T> = { create?: Property<T>; patch?: Property<T> };

/** The fields of a resource, in the order its answers list them. */
export type Fields = Record<string, Field<unknown>>;

type ValueOf<F> = F extends Field<infer T, Rule> ? T : never;
type RuleOf<F> = F extends Field<unknown, infer R> ? R : never;
type Keys<S, R extends Rule> = { [K in keyof S]: RuleOf<S[K]> extends R ? K : never }[keyof S];
type Flat<T> = { [K in keyof T]: T[K] };
/** The names of a shape's fields that follow one of `rules`. */
type Name<S, R extends Rule> = Keys<S, R> & string;

/** A resource as the API answers it. */
export type Answer<S extends Fields> = Flat<
  { [K in Keys<S, Exclude<Rule, 'clearable' | 'omittable'>>]: ValueOf<S[K]> } & { [K in Keys<S, 'clearable'>]: ValueOf<S[K]> | null } & {
    [K in Keys<S, 'omittable'>]?: ValueOf<S[K]>;
  }
>;

/** What a create takes. */
export type Create<S extends Fields> = Flat<
  { [K in Keys<S, 'required' | 'fixed'>]: ValueOf<S[K]> } & {
    [K in Keys<S, 'defaulted' | 'clearable' | 'omittable' | 'merged' | 'derived'>]?: ValueOf<S[K]>;
  }
>;

/** What a Merge Patch takes: every field it may change, optional; null for those it may remove. */
export type Patch<S extends Fields> = Flat<
  { [K in Keys<S, 'required' | 'defaulted' | 'omittable'>]?: ValueOf<S[K]> } & {
    [K in Keys<S, 'clearable' | 'merged'>]?: ValueOf<S[K]> | null;
  }
>;

/** What only the service gives on create (an id, a derived field), and what it works out instead of the sent value. */
export type Given<S extends Fields> = Flat<{ [K in Keys<S, 'assigned' | 'derived'>]: ValueOf<S[K]> } & { [K in keyof S]?: ValueOf<S[K]> }>;

/** The same for a create as stored (createStored): what the service gives, and any field as stored where that differs. */
export type GivenStored<S extends Fields> = Flat<{ [K in Keys<S, 'assigned' | 'derived'>]: ValueOf<S[K]> } & { [K in keyof S]?: unknown }>;

/** A create's field left out is validated as absent (its default, or none); an explicit null is no value. */
const unlessAbsent = ValidateIf((_, value) => value !== undefined);

/** Decorators as they would stand over a property: applied from the last up, as TypeScript applies them. */
function stacked(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => {
    for (const decorate of decorators.toReversed()) decorate(target, key);
  };
}

/**
 * A resource's shape, declared once: its fields, in the order every answer lists them, each with
 * its rule (Rule). From it come the three DTO classes (the answer, the create, the Merge Patch:
 * their properties, validation, the document's `required` and `nullable`, and the fields a null may
 * not remove), the columns a repository reads and writes, the answer a create makes and a patch
 * leaves, and the field lists the document's prose names. A field is then one entry here, its
 * column and its migration.
 *
 * Every answer a create, a patch or a read makes lists its members in the declaration's order (a
 * compiled object literal, as Table's row reader), so that its JSON, and the entity tag hashed from
 * it, never depend on which code made it.
 */
export class ResourceShape<S extends Fields> {
  /** The members of an answer, in order: what a read selects. */
  readonly shown: readonly (keyof S & string)[];
  /** What a create writes: every field but the assigned ones. */
  readonly written: readonly Name<S, Exclude<Rule, 'assigned'>>[];
  /** What a change may write: the fields a patch or the service changes. */
  readonly changed: readonly Name<S, Exclude<Rule, 'assigned' | 'fixed'>>[];
  /** The fields a Merge Patch takes. */
  readonly patched: readonly Name<S, 'required' | 'defaulted' | 'clearable' | 'omittable' | 'merged'>[];
  /** The fields a Merge Patch replaces (a scalar each), and those a null may not remove. */
  readonly replaced: readonly Name<S, 'required' | 'defaulted' | 'clearable' | 'omittable'>[];
  readonly nullMayNotRemove: readonly Name<S, 'required' | 'defaulted' | 'omittable'>[];
  /** The fields a null removes: cleared to null, or emptied (merged). */
  readonly nullRemoves: readonly Name<S, 'clearable' | 'merged'>[];
  private readonly made: (sent: object, given: object) => Answer<S>;
  private readonly mergedWith: (before: object, patch: object) => Answer<S>;
  private readonly answeredFrom: ((stored: object) => Answer<S>) | undefined;

  constructor(readonly fields: S) {
    const names = Object.keys(fields) as (keyof S & string)[];
    const where = <R extends Rule>(...rules: R[]) =>
      names.filter((name): name is Name<S, R> => (rules as Rule[]).includes(fields[name].rule));
    this.shown = names;
    this.written = where('required', 'fixed', 'defaulted', 'clearable', 'omittable', 'merged', 'derived');
    this.changed = where('required', 'defaulted', 'clearable', 'omittable', 'merged', 'derived');
    this.patched = where('required', 'defaulted', 'clearable', 'omittable', 'merged');
    this.replaced = where('required', 'defaulted', 'clearable', 'omittable');
    this.nullMayNotRemove = where('required', 'defaulted', 'omittable');
    this.nullRemoves = where('clearable', 'merged');
    this.made = literal(names, fields, (name, { rule, value, stored }) => {
      const store = stored ? (sent: unknown) => stored(sent) : (sent: unknown) => sent;
      switch (rule) {
        case 'assigned':
        case 'derived':
          return (_sent, given) => given[name];
        case 'defaulted':
          return (sent, given) => (given[name] !== undefined ? given[name] : (store(sent[name]) ?? value));
        case 'clearable':
          return (sent, given) => (given[name] !== undefined ? given[name] : (store(sent[name]) ?? null));
        case 'merged':
          // A Merge Patch of none: a key sent null is no key.
          return (sent, given) => (given[name] !== undefined ? given[name] : mergePatch(value as object, sent[name] as object | undefined));
        default:
          return (sent, given) => (given[name] !== undefined ? given[name] : store(sent[name]));
      }
    });
    this.mergedWith = literal(names, fields, (name, { rule, value, stored }) => {
      const store = stored ? (sent: unknown) => stored(sent) : (sent: unknown) => sent;
      switch (rule) {
        case 'required':
        case 'defaulted':
        case 'omittable':
        case 'clearable':
          // A null the patch sends clears a clearable field: null, as a create without it.
          return (before, patch) => (patch[name] === undefined ? before[name] : patch[name] === null ? null : store(patch[name]));
        case 'merged':
          // RFC 7396: `null` removes it all, which is no value.
          return (before, patch) =>
            patch[name] === undefined ? before[name] : (mergePatch(before[name] as object, patch[name] as object | null) ?? value);
        default:
          return (before) => before[name];
      }
    });
    const conversions = names.some((name) => fields[name].answered);
    const answered = conversions
      ? literal<S, Answer<S>>(names, fields, (name, { answered }) => {
          const answer = answered as ((stored: unknown) => unknown) | undefined;
          return answer ? (stored) => answer(stored[name]) : (stored) => stored[name];
        })
      : undefined;
    this.answeredFrom = answered && ((stored) => answered(stored, stored));
  }

  /**
   * The answer a create makes of what was sent: each field as sent, its default, null or the merge
   * of none; `given` names what the service gives (the id; a derived field) or works out instead.
   */
  create(sent: Create<S>, given: Given<S>): Answer<S> {
    return this.made(sent, given);
  }

  /**
   * The same, as stored where a field stores otherwise than it answers (`stored`: an order's ship
   * date, a Date); the caller names that type (StoredOrder), and `given` holds such fields as stored.
   */
  createStored<R extends object>(sent: Create<S>, given: GivenStored<S>): R {
    return this.made(sent, given) as unknown as R;
  }

  /**
   * `before` with a Merge Patch applied, field by field: what the patch leaves out stays, a value
   * replaces, a null clears a clearable field (null) and empties a merged one. The result is whole:
   * no field a null removed is missing from it (what mergePatch of the whole would leave).
   */
  merge<B extends object>(before: B, patch: Patch<S>): B {
    return this.mergedWith(before, patch) as unknown as B;
  }

  /** The answer of a stored resource, each field through its `answered` (an order's ship date); the stored one itself when none converts. */
  answer(stored: object): Answer<S> {
    return this.answeredFrom ? this.answeredFrom(stored) : (stored as Answer<S>);
  }

  /** The answer's DTO class: every field, required but the omittable, nullable the clearable. */
  answerType(): Type<Answer<S>> {
    return this.dto((name, field) => {
      if (field.rule === 'clearable') return field.property({ nullable: true });
      if (field.rule === 'omittable') return field.property({ required: false });
      return field.property();
    });
  }

  /** The create's DTO class: the required fields, and the optional ones with their defaults; none nullable. */
  createType(): Type<Create<S>> {
    return this.dto((name, field) => {
      const { rule, value } = field;
      if (rule === 'assigned') return undefined;
      const property = (presence?: Presence) => (field.create ?? field.property).call(field, presence);
      switch (rule) {
        case 'required':
        case 'fixed':
          return property();
        case 'defaulted':
          return stacked(property({ required: false, default: value }), unlessAbsent);
        case 'merged':
          return property({ required: false });
        default:
          return stacked(property({ required: false }), unlessAbsent);
      }
    });
  }

  /**
   * The Merge Patch's DTO class: every field a patch changes, optional, with no default (what it
   * leaves out is unchanged); nullable those a null removes, and the rest refused null by name
   * (MergePatch). A null is never validated: the validation pipe takes it out first.
   */
  patchType(): Type<Patch<S>> {
    const type = this.dto<Patch<S>>((name, field) => {
      const { rule } = field;
      if (!(this.patched as readonly string[]).includes(name)) return undefined;
      const property = (presence?: Presence) => (field.patch ?? field.property).call(field, presence);
      if (rule === 'merged') return property({ required: false, nullable: true });
      return stacked(property({ required: false, ...(rule === 'clearable' ? { nullable: true } : {}) }), unlessAbsent);
    });
    MergePatch(this.nullMayNotRemove)(type);
    return type;
  }

  /** `a`, `` `a` and `b` ``, `` `a`, `b` and `c` ``: fields as the document's prose names them. */
  static named(names: readonly string[]): string {
    const quoted = names.map((name) => `\`${name}\``);
    return quoted.length < 2 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
  }

  /** `a`, `a and b`, `a, b and c`, unquoted. */
  static listed(names: readonly string[]): string {
    return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  }

  private dto<T>(decorate: (name: keyof S & string, field: Field<unknown>) => PropertyDecorator | undefined): Type<T> {
    const type = class {};
    for (const name of this.shown) decorate(name, this.fields[name])?.(type.prototype, name);
    return type as Type<T>;
  }
}

/**
 * A function of two objects that answers an object literal of `names`, in order, each member the
 * value `take` gives; an omittable member whose value is undefined is left out (its own literal:
 * no member is ever deleted, which would leave V8 a dictionary that JSON.stringify writes slowly).
 */
function literal<S extends Fields, R>(
  names: readonly (keyof S & string)[],
  fields: S,
  take: (name: keyof S & string, field: Field<unknown>) => (a: Record<string, unknown>, b: Record<string, unknown>) => unknown,
): (a: object, b: object) => R {
  const takers = names.map((name) => take(name, fields[name]));
  const omittable = names.flatMap((name, i) => (fields[name].rule === 'omittable' ? [i] : []));
  const members = (present: ReadonlySet<number>) =>
    `({ ${names.flatMap((name, i) => (omittable.includes(i) && !present.has(i) ? [] : [`${JSON.stringify(name)}: v${i}`])).join(', ')} })`;
  // Each omittable field doubles the literals: one with it, one without.
  const body = (rest: readonly number[], present: ReadonlySet<number>): string => {
    if (rest.length === 0) return members(present);
    const [i, ...more] = rest;
    return `(v${i} === undefined ? ${body(more, present)} : ${body(more, new Set([...present, i]))})`;
  };
  // The names are the declaration's own (identifiers in code), never a client's text.
  const values = names.map((_, i) => `const v${i} = take[${i}](a, b);`).join(' ');
  return new Function('take', `return (a, b) => { ${values} return ${body(omittable, new Set())}; };`)(takers) as (
    a: object,
    b: object,
  ) => R;
}
