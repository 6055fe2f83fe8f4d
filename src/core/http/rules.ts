import { Type } from 'class-transformer';
import { IsDefined, IsObject, ValidateNested } from 'class-validator';

/**
 * Several property decorators as one (a member rule used by more than one body class), applied as
 * if written one above the other in this order: TypeScript applies the lowest first, and
 * class-validator reports a member's failed rules in the order they were applied.
 */
export function Rules(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => {
    for (let i = decorators.length - 1; i >= 0; i--) decorators[i](target, key);
  };
}

/** A JSON:API item's `attributes`: required, an object, its members validated as `cls` says. */
export const Attributes = (cls: () => Function): PropertyDecorator => Rules(IsDefined(), IsObject(), ValidateNested(), Type(cls));
