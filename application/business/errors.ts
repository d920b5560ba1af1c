export type NotFound = { readonly _tag: 'NotFound' };
export const notFound: NotFound = { _tag: 'NotFound' };
/** `field`: the request field naming it, when not `branch_id`. */
export type UnknownBranch = { readonly _tag: 'UnknownBranch'; readonly branchId: string; readonly field?: string };
export type DefaultBranchProtected = { readonly _tag: 'DefaultBranchProtected' };
export type AlreadyMember = { readonly _tag: 'AlreadyMember' };
export type LastOwner = { readonly _tag: 'LastOwner' };
export type CannotDeactivateSelf = { readonly _tag: 'CannotDeactivateSelf' };
