// Resolves the k6 modules an exported script imports to the stand-ins of this folder (which the
// next resolver, tsx's, then loads as TypeScript).
import { register } from 'node:module';

const standIns: Record<string, string> = {
  k6: './k6.ts',
  'k6/http': './http.ts',
  'k6/metrics': './metrics.ts',
  'k6/execution': './execution.ts',
};
const resolved = Object.fromEntries(Object.entries(standIns).map(([name, file]) => [name, new URL(file, import.meta.url).href]));
const hooks = `export async function resolve(specifier, context, next) {
  return next(${JSON.stringify(resolved)}[specifier] ?? specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
