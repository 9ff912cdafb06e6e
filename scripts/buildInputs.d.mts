/** The repository root. */
export const REPO_ROOT: string;
/** dist/'s stamp: the inputs hash of the sources it was built from. */
export const BUILD_STAMP: string;
/** A hash of what a build of dist/ reads: sources, compiler settings, package.json, the compiler. */
export function inputsHash(): string;
/** Whether dist/ was built from the sources as they are now. */
export function buildIsCurrent(): boolean;
