import { defineConfig } from 'prisma/config';

// The CLI reads the connection from here (Prisma 7); the running service builds its own
// pg adapter from the validated DATABASE_URL. `prisma generate` needs no database.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? '' },
});
