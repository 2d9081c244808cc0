import type { z } from 'zod';
import { normalizeIban } from '../iban/iban.js';
import { foldTurkish } from '../text/turkish-fold.js';

/**
 * Which fields of an event are a customer's personal data (docs/decisions/0067-personal-data.md).
 * Each event type declares it once, beside its schema, and the catalogue carries it: personal
 * fields are encrypted with the customer's own data key when the event is appended and erased by
 * destroying that key; every other field that looks personal is named in `notPersonal` with the
 * reason it stays readable. A spec beside this file fails when a field looks personal (its name
 * says name, iban, ip, phone, email, user, payer...) and is declared neither way.
 *
 * Paths are dotted (`customer.fullName`); `[]` stands for every element of an array and `*` for
 * every value of a record. Only string leaves are personal here (every such field is text).
 */
export interface PersonalDataDeclaration {
  /** The customer's fields: encrypted at append time, `[erased]` once the customer's key is destroyed. */
  readonly personal: readonly string[];
  /** Fields that look personal but stay readable, each with why (a staff member, the gateway's own account...). */
  readonly notPersonal: Readonly<Record<string, string>>;
  /** Where the data subject's identity is read from; required when `personal` is not empty. */
  readonly subject?: SubjectPaths;
}

/**
 * How an event names its customer, as the risk controls do: the merchant's user id when given,
 * else the normalised name and the IBANs.
 */
export interface SubjectPaths {
  /** The merchant whose user id it is (a user id means nothing without its merchant). */
  readonly merchantId?: string;
  readonly userId?: string;
  readonly name?: string;
  readonly ibans: readonly string[];
}

/** An event type without personal fields. */
export const NO_PERSONAL_DATA: PersonalDataDeclaration = Object.freeze({ personal: [], notPersonal: {} });

export function declarePersonalData(declaration: PersonalDataDeclaration): PersonalDataDeclaration {
  if (declaration.personal.length > 0 && !declaration.subject) {
    throw new Error('a declaration with personal fields names where its subject is read from');
  }
  for (const path of declaration.personal) {
    if (path in declaration.notPersonal) throw new Error(`${path} is declared both personal and not personal`);
  }
  return Object.freeze(declaration);
}

/** The text shown in place of an erased field: `[erased]`, `[silindi]` in Turkish screens. */
export const ERASED_TEXT = '[erased]';
export const ERASED_TEXT_TR = '[silindi]';

/** Longest subject identity text (TIGER_STYLE bound: a name and a few IBANs fit well within it). */
export const MAX_SUBJECT_IDENTITY_CHARS = 1_024;

/** A person's name as compared across events: Turkish letters folded, case and spacing ignored. */
export const normalisePersonName = foldTurkish;

/** The values at a dotted path (`[]` and `*` fan out), skipping absent ones. */
export function valuesAt(data: unknown, path: string): unknown[] {
  let current: unknown[] = [data];
  for (const segment of path.split('.')) {
    const next: unknown[] = [];
    const isArray = segment.endsWith('[]');
    const key = isArray ? segment.slice(0, -2) : segment;
    for (const value of current) {
      if (value === null || typeof value !== 'object') continue;
      const child = key === '*' ? Object.values(value) : [(value as Record<string, unknown>)[key]];
      for (const c of child) {
        if (c === undefined || c === null) continue;
        if (isArray) {
          if (Array.isArray(c)) next.push(...c);
        } else next.push(c);
      }
    }
    current = next;
  }
  return current;
}

/**
 * The canonical text naming an event's customer, or null when the event names none (no user id,
 * no name, no IBAN): `user\n<merchant>\n<user id>` or `person\n<normalised name>\n<IBANs, sorted>`.
 * The store keys the customer's data key by an HMAC of it, never by the text itself.
 */
export function subjectIdentity(declaration: PersonalDataDeclaration, data: unknown): string | null {
  const paths = declaration.subject;
  if (!paths) return null;
  const text = (path: string | undefined) => {
    if (!path) return undefined;
    const value = valuesAt(data, path)[0];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  const userId = text(paths.userId);
  const merchantId = text(paths.merchantId);
  let identity: string | null;
  if (userId !== undefined && merchantId !== undefined) identity = `user\n${merchantId}\n${userId}`;
  else {
    const name = text(paths.name);
    const ibans = [
      ...new Set(
        paths.ibans
          .flatMap((path) => valuesAt(data, path))
          .filter((v): v is string => typeof v === 'string' && v.trim() !== '')
          .map(normalizeIban),
      ),
    ].sort();
    identity =
      name === undefined && ibans.length === 0
        ? null
        : `person\n${name === undefined ? '' : normalisePersonName(name)}\n${ibans.join(',')}`;
  }
  if (identity !== null && identity.length > MAX_SUBJECT_IDENTITY_CHARS) {
    identity = identity.slice(0, MAX_SUBJECT_IDENTITY_CHARS);
  }
  return identity;
}

/** A customer as an erasure request or an access request names them. */
export interface CustomerReference {
  merchantId?: string;
  userId?: string;
  name?: string;
  ibans?: readonly string[];
}

/**
 * Every identity text events may have named this customer by: the merchant's user id; the name
 * alone (a deposit without user id); the name with each IBAN and with all of them (a withdrawal, a
 * statement line). An erasure destroys the keys of all of them; the name without an IBAN is only
 * taken when no user id is given, so that a user id never erases a namesake.
 */
export function customerIdentities(customer: CustomerReference): string[] {
  const identities = new Set<string>();
  const userId = customer.userId?.trim();
  const merchantId = customer.merchantId?.trim();
  if (userId && merchantId) identities.add(`user\n${merchantId}\n${userId}`);
  const name = customer.name?.trim() ? normalisePersonName(customer.name) : '';
  const ibans = [...new Set((customer.ibans ?? []).filter((i) => i.trim() !== '').map(normalizeIban))].sort();
  if (name !== '' && !userId) identities.add(`person\n${name}\n`);
  for (const iban of ibans) identities.add(`person\n${name}\n${iban}`);
  if (ibans.length > 1) identities.add(`person\n${name}\n${ibans.join(',')}`);
  return [...identities];
}

/**
 * Every leaf path of a zod object schema, in the declaration's path syntax. Used to check the
 * declarations against the schemas (a declared path that no longer exists is an error too).
 */
export function schemaLeafPaths(schema: z.ZodType, prefix = ''): string[] {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
    case 'nonoptional':
      return schemaLeafPaths(def.innerType as z.ZodType, prefix);
    case 'pipe':
      return schemaLeafPaths(def.in as z.ZodType, prefix);
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>;
      return Object.entries(shape).flatMap(([key, child]) =>
        schemaLeafPaths(child, prefix === '' ? key : `${prefix}.${key}`),
      );
    }
    case 'array':
      return schemaLeafPaths(def.element as z.ZodType, `${prefix}[]`);
    case 'record':
      return schemaLeafPaths(def.valueType as z.ZodType, `${prefix}.*`);
    default:
      return [prefix];
  }
}

/** Words that make a field look like personal data (a camelCase name is split into its words). */
export const PERSONAL_LOOKING_WORDS: readonly string[] = [
  'name',
  'fullname',
  'username',
  'user',
  'iban',
  'ibans',
  'tckn',
  'identity',
  'national',
  'passport',
  'ip',
  'ips',
  'phone',
  'gsm',
  'email',
  'mail',
  'payer',
  'sender',
  'holder',
  'counterparty',
  'address',
  'birth',
  'assignee',
  'description',
];

/** True when a path's last field name has a word of PERSONAL_LOOKING_WORDS. */
export function looksPersonal(path: string): boolean {
  const last = path.split('.').pop()!.replace(/\[\]$/, '');
  const words = last
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.some((word) => PERSONAL_LOOKING_WORDS.includes(word)) || PERSONAL_LOOKING_WORDS.includes(last);
}

/** The paths of a schema that look personal and are declared neither way (the spec's check). */
export function undeclaredPersonalLooking(schema: z.ZodType, declaration: PersonalDataDeclaration): string[] {
  return schemaLeafPaths(schema).filter(
    (path) => looksPersonal(path) && !declaration.personal.includes(path) && !(path in declaration.notPersonal),
  );
}

/** Declared paths that are no field of the schema (a rename left behind). */
export function unknownDeclaredPaths(schema: z.ZodType, declaration: PersonalDataDeclaration): string[] {
  const paths = new Set(schemaLeafPaths(schema));
  const s = declaration.subject;
  const subjectPaths = s ? [s.merchantId, s.userId, s.name, ...s.ibans].filter((p): p is string => !!p) : [];
  return [...declaration.personal, ...Object.keys(declaration.notPersonal), ...subjectPaths].filter(
    (path) => !paths.has(path),
  );
}
