import { describe, expect, it } from 'vitest';
import { staticPackageImports } from './preload-packages.ts';

describe('staticPackageImports', () => {
  it('lists the packages imported for values, once each, and nothing else', () => {
    const source = [
      "import { filter, map } from 'rxjs';",
      'import {',
      '  SMA,',
      '  EMA,',
      "} from 'trading-signals';",
      "import type { Observable } from 'some-types-only';",
      "import { type A } from 'rxjs';",
      "import './side-effect.ts';",
      "import { defineStrategy } from '../src/index.ts';",
      "import { readFileSync } from 'node:fs';",
      "export { x } from '@scope/pkg/sub';",
      "import 'polyfill';",
      "const later = await import('dynamic-one');",
    ].join('\n');
    expect(staticPackageImports(source)).toEqual([
      'rxjs',
      'trading-signals',
      '@scope/pkg/sub',
      'polyfill',
    ]);
  });
});
