import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder holding this package's package.json, found upward from this file, so files beside it
 * (migrations/, package.json) are found the same from src/ (tsx) and from the build in dist/src/.
 */
export function findPackageRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${from}: the installation is incomplete`);
    dir = parent;
  }
  return dir;
}

/** This package's root folder. */
export const PACKAGE_ROOT = findPackageRoot();
