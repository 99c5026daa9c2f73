#!/usr/bin/env node
// Writes schema/v1.json from the built package. Run `pnpm --filter @repa/protocol schema` after a
// wire change (it also rewrites src/v1/wire-types.generated.ts); a test fails while either
// committed file differs from what the zod schemas generate.
import { writeFileSync } from 'node:fs';
import { v1JsonSchemas } from '../dist/schemas.js';

const target = new URL('../schema/v1.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(v1JsonSchemas(), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
