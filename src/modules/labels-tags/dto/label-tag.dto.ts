import { Str, requireMembers } from '../../../core/http/v1-rules';

/** PatchedLabelRequest / PatchedTagRequest. */
export class PatchedNameRequest {
  @Str({ min: 1, max: 255 }) name?: string;
}

/** LabelRequest / TagRequest (POST and PUT): name required. */
export class NameRequest extends PatchedNameRequest {}
requireMembers(NameRequest, ['name']);
