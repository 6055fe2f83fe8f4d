// Moved to src/core/ids/external-id.ts (issue 27: shared kits live in core/). This re-export keeps the old path
// working for branches written against it; the lead removes it once nothing imports it.
export * from '../../core/ids/external-id';
