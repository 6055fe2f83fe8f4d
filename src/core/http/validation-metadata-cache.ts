import { getMetadataStorage } from 'class-validator';
// the storage @Type/@Transform/@Expose/@Exclude write to (as core/http/request-schemas.ts reads it)
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');

/**
 * class-validator resolves a class's rules again on every validate call, and again for every
 * nested object: `getTargetValidationMetadatas` filters the class's metadata and walks every
 * registered class looking for parents (`instanceof`), and `groupByPropertyName` regroups the
 * result. For a 100-item batch that is 200 resolutions of the same two classes per request (about
 * a tenth of the API's CPU on batch writes). The answer depends only on the arguments and on the
 * registered metadata, so it is memoized here per (class, schema, always, strictGroups, groups), and
 * the whole memo is dropped whenever metadata is added (decorators run at load time; requireMembers
 * and mapped types add some later). Same metadata, same order, so the same errors and messages.
 *
 * The cached arrays and groupings are shared between calls: class-validator only reads them (it
 * filters into new arrays), and so do the other callers in this code base.
 */
const INSTALLED = Symbol.for('course-platform.class-validator-metadata-cache');

let generation = 0;

/**
 * Bumped whenever class-validator or class-transformer metadata is added (decorators at load time,
 * mapped types later): what is derived from the metadata and kept (core/http/fast-validate.ts)
 * is rebuilt when it changes.
 */
export function metadataGeneration(): number {
  return generation;
}

export function installValidationMetadataCache(): void {
  const storage = getMetadataStorage() as any;
  if (storage[INSTALLED]) return;
  storage[INSTALLED] = true;

  const resolve = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const addMetadata = storage.addValidationMetadata.bind(storage);
  const addConstraint = storage.addConstraintMetadata.bind(storage);

  /** class (or schema name) -> argument key -> metadatas */
  let byTarget = new Map<unknown, Map<string, unknown[]>>();
  /** groupings of the arrays handed out above (only those: any other array may be the caller's to change) */
  let grouped = new WeakMap<object, Record<string, unknown[]>>();
  const reset = () => {
    byTarget = new Map();
    grouped = new WeakMap();
    generation++;
  };

  storage.getTargetValidationMetadatas = (targetConstructor: unknown, targetSchema: unknown, always: unknown, strictGroups: unknown, groups?: unknown) => {
    // schemas are strings; anything else unusual goes the uncached way
    if (typeof targetConstructor !== 'function' || (targetSchema !== undefined && targetSchema !== null && typeof targetSchema !== 'string')) {
      return resolve(targetConstructor, targetSchema, always, strictGroups, groups);
    }
    if (groups !== undefined && !(Array.isArray(groups) && groups.every((g) => typeof g === 'string'))) {
      return resolve(targetConstructor, targetSchema, always, strictGroups, groups);
    }
    const key = `${targetSchema === undefined ? 'u' : targetSchema === null ? 'n' : `s${targetSchema}`}\u0000${always ? 1 : 0}${strictGroups ? 1 : 0}\u0000${
      groups === undefined ? 'u' : JSON.stringify(groups)
    }`;
    let perTarget = byTarget.get(targetConstructor);
    if (!perTarget) byTarget.set(targetConstructor, (perTarget = new Map()));
    let metadatas = perTarget.get(key);
    if (!metadatas) {
      metadatas = resolve(targetConstructor, targetSchema, always, strictGroups, groups) as unknown[];
      perTarget.set(key, metadatas);
      grouped.set(metadatas, group(metadatas) as Record<string, unknown[]>);
    }
    return metadatas;
  };

  storage.groupByPropertyName = (metadatas: unknown[]) => {
    return grouped.get(metadatas) ?? group(metadatas);
  };

  storage.addValidationMetadata = (metadata: unknown) => {
    reset();
    return addMetadata(metadata);
  };
  storage.addConstraintMetadata = (metadata: unknown) => {
    reset();
    return addConstraint(metadata);
  };

  const transformer = defaultMetadataStorage as any;
  for (const method of ['addTypeMetadata', 'addTransformMetadata', 'addExposeMetadata', 'addExcludeMetadata']) {
    const add = transformer[method].bind(transformer);
    transformer[method] = (metadata: unknown) => {
      generation++;
      return add(metadata);
    };
  }
}

installValidationMetadataCache();
