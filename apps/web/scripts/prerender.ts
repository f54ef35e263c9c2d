// After `vite build`: renders every public page to static HTML in dist/site/.
import path from 'node:path';
import { writeSite } from '../src/landing/build/site-output';

const dist = path.resolve(import.meta.dirname, '..', process.env.WEB_OUT_DIR ?? 'dist');
const paths = writeSite(dist);
console.log(`Prerendered ${paths.length} public pages into ${path.relative(process.cwd(), dist)}/site`);
