export type NotFound = { readonly _tag: 'NotFound' };
export const notFound: NotFound = { _tag: 'NotFound' };
export type { UnknownBranch } from '../../domain/business.js';
export type DefaultBranchProtected = { readonly _tag: 'DefaultBranchProtected' };
export type AlreadyMember = { readonly _tag: 'AlreadyMember' };
export type LastOwner = { readonly _tag: 'LastOwner' };
export type CannotDeactivateSelf = { readonly _tag: 'CannotDeactivateSelf' };
