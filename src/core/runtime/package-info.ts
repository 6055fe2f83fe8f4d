import { readFileSync } from 'node:fs';
import path from 'node:path';

/** package.json's name and version (read once; the file sits two levels above src/ and dist/src/). */
function read(): { name: string; version: string } {
  for (const up of ['../../..', '../../../..']) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(__dirname, up, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name) return { name: pkg.name, version: pkg.version ?? '0.0.0' };
    } catch {
      /* try the next */
    }
  }
  return { name: 'course-platform-api', version: '0.0.0' };
}

const info = read();
export const PACKAGE_NAME = info.name;
export const PACKAGE_VERSION = info.version;
