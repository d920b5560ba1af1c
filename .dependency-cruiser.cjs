/**
 * The hexagon's dependency rule (ARCHITECTURE.md), checked by `npm test`:
 * domain imports nothing outward and no framework; application only domain;
 * only bootstrap wires adapters.
 */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'domain/ imports only domain/ and the pure value libraries fp-ts, io-ts, libphonenumber-js',
      from: { path: '^domain/' },
      to: { pathNot: ['^domain/', '^node_modules/(fp-ts|io-ts|libphonenumber-js)/'] },
    },
    {
      name: 'application-reaches-out-through-ports',
      severity: 'error',
      comment: 'application/ imports only domain/, application/ and fp-ts/io-ts',
      from: { path: '^application/' },
      to: { pathNot: ['^domain/', '^application/', '^node_modules/(fp-ts|io-ts)/'] },
    },
    {
      name: 'adapters-do-not-wire',
      severity: 'error',
      comment: 'adapters/ never import bootstrap/ (compose.ts is the only place that wires)',
      from: { path: '^adapters/' },
      to: { path: '^bootstrap/' },
    },
    {
      name: 'only-http-imports-http',
      severity: 'error',
      comment: 'adapters/http/ is the HTTP edge: other adapters never import it; what they share with it (CSV cells, coalescing) lives below both, e.g. adapters/csv/ (docs/adr/0050)',
      from: { path: '^adapters/', pathNot: '^adapters/http/' },
      to: { path: '^adapters/http/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    parser: 'swc', // TypeScript 7 (native) has no JS API for dependency-cruiser to parse with
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.js', '.d.ts'] },
  },
};
