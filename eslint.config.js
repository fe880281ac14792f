// Lint for what the type checker cannot see: promises left floating or handed to something
// that does not await them (a service built on promises must not leak one). Type-aware, so it
// reads tsconfig.check.json (src and test).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'src/generated/**', 'node_modules/**', 'bench/**', 'scripts/**', '*.js', '*.mjs', 'prisma.config.ts'] },
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { project: './tsconfig.check.json', tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
);
