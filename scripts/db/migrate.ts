// Usage:
//   npm run db:migrate                      apply pending migrations to DATABASE_URL
//   npm run db:migrate:create -- <name>     write a migration for the changes in schema.prisma
//   npm run db:migrate:status               exit 1 when schema.prisma has changes with no migration
import { applyMigrations, createMigration, pendingMigrationSql } from "../../lib/db/migrate/migrations";

const [command = "deploy", name] = process.argv.slice(2);

async function main(): Promise<number> {
  if (command === "create") {
    if (!name) throw new Error("Give the migration a name: npm run db:migrate:create -- add_slos");
    const created = await createMigration(name);
    console.log(
      created
        ? `Created prisma/migrations/${created.folder}/migration.sql`
        : "No changes in schema.prisma: nothing to migrate.",
    );
    return 0;
  }
  if (command === "status") {
    const sql = await pendingMigrationSql();
    if (!sql) {
      console.log("Migrations are up to date with schema.prisma.");
      return 0;
    }
    console.error("schema.prisma has changes without a migration. Run npm run db:migrate:create -- <name>:\n" + sql);
    return 1;
  }
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("Set DATABASE_URL to the PostgreSQL database to migrate.");
  const applied = await applyMigrations(url);
  console.log(applied.length ? `Applied ${applied.join(", ")}` : "No pending migrations.");
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
